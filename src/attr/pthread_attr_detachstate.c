// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

NPTL_API int __nptl_pthread_attr_setdetachstate(pthread_attr_t *a, int state)
{
	struct glibc_attr *ia = (struct glibc_attr *)a;
	if (state == PTHREAD_CREATE_DETACHED)
		ia->flags |= ATTR_FLAG_DETACHSTATE;
	else if (state == PTHREAD_CREATE_JOINABLE)
		ia->flags &= ~ATTR_FLAG_DETACHSTATE;
	else
		return EINVAL;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setdetachstate, pthread_attr_setdetachstate, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_attr_getdetachstate(const pthread_attr_t *a, int *state)
{
	const struct glibc_attr *ia = (const struct glibc_attr *)a;
	*state = ia->flags & ATTR_FLAG_DETACHSTATE ? PTHREAD_CREATE_DETACHED
						   : PTHREAD_CREATE_JOINABLE;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getdetachstate, pthread_attr_getdetachstate, GLIBC_2.2.5);
