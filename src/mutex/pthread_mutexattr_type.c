// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutexattr_settype / gettype, and their LinuxThreads names
 * pthread_mutexattr_setkind_np / getkind_np (same behaviour in glibc).
 * Setting NORMAL also stores glibc's "no elision" bit: glibc cannot tell
 * an explicit NORMAL from the default otherwise, and a mutex shared with
 * a glibc process must carry the same __kind.
 */
#include "nptl.h"

int __nptl_pthread_mutexattr_settype(pthread_mutexattr_t *a, int type)
{
	if (type < PTHREAD_MUTEX_NORMAL || type > PTHREAD_MUTEX_ADAPTIVE_NP)
		return EINVAL;
	if (type == PTHREAD_MUTEX_NORMAL)
		type |= NPTL_MUTEX_NO_ELISION;
	int *k = (int *)a;
	*k = (*k & NPTL_MUTEXATTR_FLAG_BITS) | type;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_settype, pthread_mutexattr_settype, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_settype, pthread_mutexattr_settype, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutexattr_settype) __nptl___pthread_mutexattr_settype
	__attribute__((alias("__nptl_pthread_mutexattr_settype"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_mutexattr_settype, __pthread_mutexattr_settype, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutexattr_settype) __nptl_pthread_mutexattr_setkind_np
	__attribute__((alias("__nptl_pthread_mutexattr_settype"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_setkind_np, pthread_mutexattr_setkind_np, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_mutexattr_gettype(const pthread_mutexattr_t *a, int *type)
{
	*type = *(const int *)a & ~NPTL_MUTEXATTR_FLAG_BITS & ~NPTL_MUTEX_NO_ELISION;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_gettype, pthread_mutexattr_gettype, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_gettype, pthread_mutexattr_gettype, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutexattr_gettype) __nptl_pthread_mutexattr_getkind_np
	__attribute__((alias("__nptl_pthread_mutexattr_gettype"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_getkind_np, pthread_mutexattr_getkind_np, GLIBC_2.2.5);
