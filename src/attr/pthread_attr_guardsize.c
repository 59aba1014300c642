// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

/* Stored unrounded: POSIX wants getguardsize to return what was set;
 * pthread_create rounds.  */
NPTL_API int __nptl_pthread_attr_setguardsize(pthread_attr_t *a, size_t size)
{
	((struct glibc_attr *)a)->guardsize = size;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setguardsize, pthread_attr_setguardsize, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_setguardsize, pthread_attr_setguardsize, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_attr_getguardsize(const pthread_attr_t *a, size_t *size)
{
	*size = ((const struct glibc_attr *)a)->guardsize;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getguardsize, pthread_attr_getguardsize, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_getguardsize, pthread_attr_getguardsize, GLIBC_2.2.5);
