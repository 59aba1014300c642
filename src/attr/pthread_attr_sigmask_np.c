// SPDX-License-Identifier: LGPL-2.1-or-later
#include <stdlib.h>
#include "nptl.h"

/* The reserved signals are filtered out so a new thread can always be
 * cancelled and take part in setuid broadcasts.  */
NPTL_API int __nptl_pthread_attr_setsigmask_np(pthread_attr_t *a, const sigset_t *mask)
{
	struct glibc_attr *ia = (struct glibc_attr *)a;
	if (!mask) {
		if (ia->extension)
			ia->extension->sigmask_set = false;
		return 0;
	}
	if (!ia->extension) {
		ia->extension = calloc(1, sizeof(*ia->extension));
		if (!ia->extension)
			return ENOMEM;
	}
	ia->extension->sigmask = *mask;
	nptl_sigset_drop_reserved(&ia->extension->sigmask);
	ia->extension->sigmask_set = true;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setsigmask_np, pthread_attr_setsigmask_np, GLIBC_2.32);

NPTL_API int __nptl_pthread_attr_getsigmask_np(const pthread_attr_t *a, sigset_t *mask)
{
	const struct glibc_attr_ext *e = ((const struct glibc_attr *)a)->extension;
	if (!e || !e->sigmask_set) {
		sigemptyset(mask);
		return PTHREAD_ATTR_NO_SIGMASK_NP;
	}
	*mask = e->sigmask;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getsigmask_np, pthread_attr_getsigmask_np, GLIBC_2.32);
