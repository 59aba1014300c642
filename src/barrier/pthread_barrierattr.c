// SPDX-License-Identifier: LGPL-2.1-or-later
/* Barrier attributes: glibc's pthread_barrierattr_t holds one int, pshared.  */
#include "nptl.h"

NPTL_API int __nptl_pthread_barrierattr_init(pthread_barrierattr_t *a)
{
	((struct nptl_barrierattr *)a)->pshared = PTHREAD_PROCESS_PRIVATE;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_barrierattr_init, pthread_barrierattr_init, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_barrierattr_init, pthread_barrierattr_init, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_barrierattr_destroy(pthread_barrierattr_t *a)
{
	(void)a;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_barrierattr_destroy, pthread_barrierattr_destroy, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_barrierattr_destroy, pthread_barrierattr_destroy, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_barrierattr_getpshared(const pthread_barrierattr_t *a,
						   int *pshared)
{
	*pshared = ((const struct nptl_barrierattr *)a)->pshared;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_barrierattr_getpshared, pthread_barrierattr_getpshared, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_barrierattr_getpshared, pthread_barrierattr_getpshared, GLIBC_2.3.3);

NPTL_API int __nptl_pthread_barrierattr_setpshared(pthread_barrierattr_t *a,
						   int pshared)
{
	if (pshared != PTHREAD_PROCESS_PRIVATE &&
	    pshared != PTHREAD_PROCESS_SHARED)
		return EINVAL;
	((struct nptl_barrierattr *)a)->pshared = pshared;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_barrierattr_setpshared, pthread_barrierattr_setpshared, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_barrierattr_setpshared, pthread_barrierattr_setpshared, GLIBC_2.2.5);
