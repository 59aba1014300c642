// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

NPTL_API int __nptl_pthread_condattr_getpshared(const pthread_condattr_t *a,
						int *pshared)
{
	*pshared = (*(const int *)a & 1) ? PTHREAD_PROCESS_SHARED :
					   PTHREAD_PROCESS_PRIVATE;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_condattr_getpshared,
		    pthread_condattr_getpshared, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_condattr_getpshared,
		   pthread_condattr_getpshared, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_condattr_setpshared(pthread_condattr_t *a,
						int pshared)
{
	if (pshared != PTHREAD_PROCESS_PRIVATE &&
	    pshared != PTHREAD_PROCESS_SHARED)
		return EINVAL;
	int *v = (int *)a;
	*v = (*v & ~1) | (pshared == PTHREAD_PROCESS_SHARED);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_condattr_setpshared,
		    pthread_condattr_setpshared, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_condattr_setpshared,
		   pthread_condattr_setpshared, GLIBC_2.2.5);
