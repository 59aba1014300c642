// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glibc keeps the top of a user stack in the attribute (stacks grow
 * down), so setstack and setstackaddr store different ends of it.
 */
#include "nptl.h"


NPTL_API int __nptl_pthread_attr_setstack(pthread_attr_t *a, void *addr, size_t size)
{
	struct glibc_attr *ia = (struct glibc_attr *)a;
	if (size < GLIBC_PTHREAD_STACK_MIN)
		return EINVAL;
	ia->stacksize = size;
	ia->stackaddr = (char *)addr + size;
	ia->flags |= ATTR_FLAG_STACKADDR;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setstack, pthread_attr_setstack, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_setstack, pthread_attr_setstack, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_attr_getstack(const pthread_attr_t *a, void **addr, size_t *size)
{
	const struct glibc_attr *ia = (const struct glibc_attr *)a;
	*addr = (char *)ia->stackaddr - ia->stacksize;
	*size = ia->stacksize;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getstack, pthread_attr_getstack, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_getstack, pthread_attr_getstack, GLIBC_2.2.5);
