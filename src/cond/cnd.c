// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * C11 condition variables: a cnd_t is a pthread_cond_t with default
 * attributes (CLOCK_REALTIME for cnd_timedwait).  Results map as glibc's
 * (nptl_thrd_result).
 */
#include "nptl.h"

NPTL_API int __nptl_cnd_init(cnd_t *c)
{
	return nptl_thrd_result(__nptl_pthread_cond_init((pthread_cond_t *)c, NULL));
}
NPTL_SYMVER_DEFAULT(__nptl_cnd_init, cnd_init, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_cnd_init, cnd_init, GLIBC_2.28);

NPTL_API void __nptl_cnd_destroy(cnd_t *c)
{
	__nptl_pthread_cond_destroy((pthread_cond_t *)c);
}
NPTL_SYMVER_DEFAULT(__nptl_cnd_destroy, cnd_destroy, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_cnd_destroy, cnd_destroy, GLIBC_2.28);

NPTL_API int __nptl_cnd_signal(cnd_t *c)
{
	return nptl_thrd_result(__nptl_pthread_cond_signal((pthread_cond_t *)c));
}
NPTL_SYMVER_DEFAULT(__nptl_cnd_signal, cnd_signal, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_cnd_signal, cnd_signal, GLIBC_2.28);

NPTL_API int __nptl_cnd_broadcast(cnd_t *c)
{
	return nptl_thrd_result(__nptl_pthread_cond_broadcast((pthread_cond_t *)c));
}
NPTL_SYMVER_DEFAULT(__nptl_cnd_broadcast, cnd_broadcast, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_cnd_broadcast, cnd_broadcast, GLIBC_2.28);

NPTL_API int __nptl_cnd_wait(cnd_t *c, mtx_t *m)
{
	return nptl_thrd_result(__nptl_pthread_cond_wait((pthread_cond_t *)c,
						    (pthread_mutex_t *)m));
}
NPTL_SYMVER_DEFAULT(__nptl_cnd_wait, cnd_wait, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_cnd_wait, cnd_wait, GLIBC_2.28);

NPTL_API int __nptl_cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m,
				  const struct timespec *restrict abs)
{
	return nptl_thrd_result(__nptl_pthread_cond_timedwait((pthread_cond_t *)c,
							 (pthread_mutex_t *)m,
							 abs));
}
NPTL_SYMVER_DEFAULT(__nptl_cnd_timedwait, cnd_timedwait, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_cnd_timedwait, cnd_timedwait, GLIBC_2.28);
