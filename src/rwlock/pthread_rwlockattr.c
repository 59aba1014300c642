// SPDX-License-Identifier: LGPL-2.1-or-later
/* rwlock attributes: glibc's layout, { int lockkind; int pshared; }.  */
#include "nptl.h"

NPTL_API int __nptl_pthread_rwlockattr_init(pthread_rwlockattr_t *attr)
{
	struct nptl_rwlockattr *a = (struct nptl_rwlockattr *)attr;
	a->kind = PTHREAD_RWLOCK_DEFAULT_NP;
	a->pshared = PTHREAD_PROCESS_PRIVATE;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlockattr_init, pthread_rwlockattr_init, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlockattr_init, pthread_rwlockattr_init, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlockattr_destroy(pthread_rwlockattr_t *attr)
{
	(void)attr;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlockattr_destroy, pthread_rwlockattr_destroy, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlockattr_destroy, pthread_rwlockattr_destroy, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlockattr_getpshared(const pthread_rwlockattr_t *attr,
						  int *pshared)
{
	*pshared = ((const struct nptl_rwlockattr *)attr)->pshared;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlockattr_getpshared, pthread_rwlockattr_getpshared, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlockattr_getpshared, pthread_rwlockattr_getpshared, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlockattr_setpshared(pthread_rwlockattr_t *attr,
						  int pshared)
{
	if (pshared != PTHREAD_PROCESS_PRIVATE &&
	    pshared != PTHREAD_PROCESS_SHARED)
		return EINVAL;
	((struct nptl_rwlockattr *)attr)->pshared = pshared;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlockattr_setpshared, pthread_rwlockattr_setpshared, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlockattr_setpshared, pthread_rwlockattr_setpshared, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlockattr_getkind_np(const pthread_rwlockattr_t *attr,
						  int *kind)
{
	*kind = ((const struct nptl_rwlockattr *)attr)->kind;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlockattr_getkind_np, pthread_rwlockattr_getkind_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlockattr_getkind_np, pthread_rwlockattr_getkind_np, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlockattr_setkind_np(pthread_rwlockattr_t *attr,
						  int kind)
{
	if (kind != PTHREAD_RWLOCK_PREFER_READER_NP &&
	    kind != PTHREAD_RWLOCK_PREFER_WRITER_NP &&
	    kind != PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)
		return EINVAL;
	((struct nptl_rwlockattr *)attr)->kind = kind;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlockattr_setkind_np, pthread_rwlockattr_setkind_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlockattr_setkind_np, pthread_rwlockattr_setkind_np, GLIBC_2.2.5);
