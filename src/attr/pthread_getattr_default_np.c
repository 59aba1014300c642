// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

NPTL_API int __nptl_pthread_getattr_default_np(pthread_attr_t *out)
{
	struct glibc_attr *o = (struct glibc_attr *)out;
	nptl_lll_lock(&__nptl_default_attr_lock);
	int err = __nptl_attr_copy(o, &__nptl_default_attr);
	nptl_lll_unlock(&__nptl_default_attr_lock);
	/* glibc's default holds the real size; ours keeps 0 for "from
	 * RLIMIT_STACK", which callers must not see.  */
	if (!err && !o->stacksize)
		o->stacksize = __nptl_default_stacksize();
	return err;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_getattr_default_np, pthread_getattr_default_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_getattr_default_np, pthread_getattr_default_np, GLIBC_2.18);
