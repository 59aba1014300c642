// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

/* Every thread is a kernel task: process scope cannot be had.  */
NPTL_API int __nptl_pthread_attr_setscope(pthread_attr_t *a, int scope)
{
	if (scope == PTHREAD_SCOPE_PROCESS)
		return ENOTSUP;
	if (scope != PTHREAD_SCOPE_SYSTEM)
		return EINVAL;
	((struct glibc_attr *)a)->flags &= ~ATTR_FLAG_SCOPEPROCESS;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setscope, pthread_attr_setscope, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_attr_getscope(const pthread_attr_t *a, int *scope)
{
	*scope = ((const struct glibc_attr *)a)->flags & ATTR_FLAG_SCOPEPROCESS
			 ? PTHREAD_SCOPE_PROCESS : PTHREAD_SCOPE_SYSTEM;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getscope, pthread_attr_getscope, GLIBC_2.2.5);
