// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

NPTL_API int __nptl_pthread_attr_setinheritsched(pthread_attr_t *a, int inherit)
{
	struct glibc_attr *ia = (struct glibc_attr *)a;
	if (inherit == PTHREAD_EXPLICIT_SCHED)
		ia->flags |= ATTR_FLAG_NOTINHERITSCHED;
	else if (inherit == PTHREAD_INHERIT_SCHED)
		ia->flags &= ~ATTR_FLAG_NOTINHERITSCHED;
	else
		return EINVAL;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setinheritsched, pthread_attr_setinheritsched, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_attr_getinheritsched(const pthread_attr_t *a, int *inherit)
{
	*inherit = ((const struct glibc_attr *)a)->flags & ATTR_FLAG_NOTINHERITSCHED
			   ? PTHREAD_EXPLICIT_SCHED : PTHREAD_INHERIT_SCHED;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getinheritsched, pthread_attr_getinheritsched, GLIBC_2.2.5);
