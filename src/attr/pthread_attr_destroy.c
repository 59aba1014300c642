// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

int __nptl_pthread_attr_destroy(pthread_attr_t *a)
{
	__nptl_attr_free((struct glibc_attr *)a);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_destroy, pthread_attr_destroy, GLIBC_2.2.5);
