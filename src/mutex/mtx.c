// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * C11 mutexes over the POSIX ones, as glibc maps them: mtx_plain and
 * mtx_timed are NORMAL (the standard makes no difference), with
 * mtx_recursive RECURSIVE (and, as glibc, any unknown type NORMAL); results map to thrd_* as glibc's
 * thrd_err_map does.
 */
#include "nptl.h"

NPTL_API int __nptl_mtx_init(mtx_t *m, int type)
{
	pthread_mutexattr_t a;

	__nptl_pthread_mutexattr_init(&a);
	switch (type) {
	case mtx_plain | mtx_recursive:
	case mtx_timed | mtx_recursive:
		__nptl_pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
		break;
	default:
		/* glibc: any other value is a plain mutex.  */
		__nptl_pthread_mutexattr_settype(&a, PTHREAD_MUTEX_NORMAL);
		break;
	}
	return nptl_thrd_result(__nptl_pthread_mutex_init((pthread_mutex_t *)m, &a));
}
NPTL_SYMVER_DEFAULT(__nptl_mtx_init, mtx_init, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mtx_init, mtx_init, GLIBC_2.28);

NPTL_API int __nptl_mtx_lock(mtx_t *m)
{
	return nptl_thrd_result(__nptl_pthread_mutex_lock((pthread_mutex_t *)m));
}
NPTL_SYMVER_DEFAULT(__nptl_mtx_lock, mtx_lock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mtx_lock, mtx_lock, GLIBC_2.28);

NPTL_API int __nptl_mtx_timedlock(mtx_t *restrict m,
				  const struct timespec *restrict abs)
{
	return nptl_thrd_result(__nptl_pthread_mutex_timedlock((pthread_mutex_t *)m, abs));
}
NPTL_SYMVER_DEFAULT(__nptl_mtx_timedlock, mtx_timedlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mtx_timedlock, mtx_timedlock, GLIBC_2.28);

NPTL_API int __nptl_mtx_trylock(mtx_t *m)
{
	return nptl_thrd_result(__nptl_pthread_mutex_trylock((pthread_mutex_t *)m));
}
NPTL_SYMVER_DEFAULT(__nptl_mtx_trylock, mtx_trylock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mtx_trylock, mtx_trylock, GLIBC_2.28);

NPTL_API int __nptl_mtx_unlock(mtx_t *m)
{
	return nptl_thrd_result(__nptl_pthread_mutex_unlock((pthread_mutex_t *)m));
}
NPTL_SYMVER_DEFAULT(__nptl_mtx_unlock, mtx_unlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mtx_unlock, mtx_unlock, GLIBC_2.28);

NPTL_API void __nptl_mtx_destroy(mtx_t *m)
{
	__nptl_pthread_mutex_destroy((pthread_mutex_t *)m);
}
NPTL_SYMVER_DEFAULT(__nptl_mtx_destroy, mtx_destroy, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mtx_destroy, mtx_destroy, GLIBC_2.28);
