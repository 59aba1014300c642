// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The obsolete interface: the address is the stack's top, taken and
 * returned as is, with no size check (glibc's behaviour).
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_attr_setstackaddr(pthread_attr_t *a, void *addr)
{
	struct glibc_attr *ia = (struct glibc_attr *)a;
	ia->stackaddr = addr;
	ia->flags |= ATTR_FLAG_STACKADDR;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setstackaddr, pthread_attr_setstackaddr, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_setstackaddr, pthread_attr_setstackaddr, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_attr_getstackaddr(const pthread_attr_t *a, void **addr)
{
	*addr = ((const struct glibc_attr *)a)->stackaddr;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getstackaddr, pthread_attr_getstackaddr, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_getstackaddr, pthread_attr_getstackaddr, GLIBC_2.2.5);
