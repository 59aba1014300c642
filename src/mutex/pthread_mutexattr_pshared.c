// SPDX-License-Identifier: LGPL-2.1-or-later
/* pthread_mutexattr_setpshared / getpshared.  */
#include "nptl.h"

NPTL_API int __nptl_pthread_mutexattr_setpshared(pthread_mutexattr_t *a, int pshared)
{
	int *k = (int *)a;

	if (pshared == PTHREAD_PROCESS_PRIVATE)
		*k &= ~NPTL_MUTEXATTR_PSHARED;
	else if (pshared == PTHREAD_PROCESS_SHARED)
		*k |= NPTL_MUTEXATTR_PSHARED;
	else
		return EINVAL;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_setpshared, pthread_mutexattr_setpshared, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_setpshared, pthread_mutexattr_setpshared, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_mutexattr_getpshared(const pthread_mutexattr_t *a, int *pshared)
{
	*pshared = (*(const int *)a & NPTL_MUTEXATTR_PSHARED)
		   ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_getpshared, pthread_mutexattr_getpshared, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_getpshared, pthread_mutexattr_getpshared, GLIBC_2.2.5);
