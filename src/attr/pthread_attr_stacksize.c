// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

/* glibc validates against its compile-time PTHREAD_STACK_MIN, not the
 * sysconf value _GNU_SOURCE turns the macro into.  */

NPTL_API int __nptl_pthread_attr_setstacksize(pthread_attr_t *a, size_t size)
{
	if (size < GLIBC_PTHREAD_STACK_MIN)
		return EINVAL;
	((struct glibc_attr *)a)->stacksize = size;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setstacksize, pthread_attr_setstacksize, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_setstacksize, pthread_attr_setstacksize, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_attr_getstacksize(const pthread_attr_t *a, size_t *size)
{
	size_t s = ((const struct glibc_attr *)a)->stacksize;
	/* Unset: report what pthread_create would use now.  */
	if (!s) {
		nptl_lll_lock(&__nptl_default_attr_lock);
		s = __nptl_default_attr.stacksize;
		nptl_lll_unlock(&__nptl_default_attr_lock);
		if (!s)
			s = __nptl_default_stacksize();
	}
	*size = s;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getstacksize, pthread_attr_getstacksize, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_getstacksize, pthread_attr_getstacksize, GLIBC_2.2.5);
