// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutexattr_setrobust / getrobust, and the _np names of
 * GLIBC_2.4 (same behaviour).
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_mutexattr_setrobust(pthread_mutexattr_t *a, int robust)
{
	int *k = (int *)a;

	if (robust == PTHREAD_MUTEX_STALLED)
		*k &= ~NPTL_MUTEXATTR_ROBUST;
	else if (robust == PTHREAD_MUTEX_ROBUST)
		*k |= NPTL_MUTEXATTR_ROBUST;
	else
		return EINVAL;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_setrobust, pthread_mutexattr_setrobust, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_setrobust, pthread_mutexattr_setrobust, GLIBC_2.12);

extern __typeof(__nptl_pthread_mutexattr_setrobust) __nptl_pthread_mutexattr_setrobust_np
	__attribute__((alias("__nptl_pthread_mutexattr_setrobust"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_setrobust_np, pthread_mutexattr_setrobust_np, GLIBC_2.4);

NPTL_API int __nptl_pthread_mutexattr_getrobust(const pthread_mutexattr_t *a, int *robust)
{
	*robust = (*(const int *)a & NPTL_MUTEXATTR_ROBUST)
		  ? PTHREAD_MUTEX_ROBUST : PTHREAD_MUTEX_STALLED;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_getrobust, pthread_mutexattr_getrobust, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_getrobust, pthread_mutexattr_getrobust, GLIBC_2.12);

extern __typeof(__nptl_pthread_mutexattr_getrobust) __nptl_pthread_mutexattr_getrobust_np
	__attribute__((alias("__nptl_pthread_mutexattr_getrobust"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_getrobust_np, pthread_mutexattr_getrobust_np, GLIBC_2.4);
