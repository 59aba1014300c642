// SPDX-License-Identifier: LGPL-2.1-or-later
#include <string.h>
#include <unistd.h>
#include "nptl.h"

int __nptl_pthread_attr_init(pthread_attr_t *a)
{
	/* Zero everything, padding included: glibc's code copies whole
	 * objects.  stacksize 0 means "the default at creation time".  */
	memset(a, 0, sizeof(*a));
	/* getpagesize, not __nptl_page_size: this may run in a constructor
	 * that precedes ours.  */
	((struct glibc_attr *)a)->guardsize = (size_t)getpagesize();
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_init, pthread_attr_init, GLIBC_2.2.5);
