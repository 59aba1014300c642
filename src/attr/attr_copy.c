// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Deep copies of attribute objects, for pthread_create's copy of the
 * default attribute and for pthread_{get,set}attr_default_np.  The
 * extension and its cpuset are malloc'd, as glibc's are, so either
 * library may free what the other allocated.
 */
#include <stdlib.h>
#include <string.h>
#include "nptl.h"

int __nptl_attr_copy(struct glibc_attr *dst, const struct glibc_attr *src)
{
	struct glibc_attr t = *src;
	const struct glibc_attr_ext *e = src->extension;
	t.extension = NULL;
	/* An extension holding nothing is not worth copying (glibc agrees).  */
	if (e && (e->cpusetsize || e->sigmask_set)) {
		struct glibc_attr_ext *n = calloc(1, sizeof(*n));
		if (!n)
			return ENOMEM;
		if (e->cpusetsize) {
			n->cpuset = malloc(e->cpusetsize);
			if (!n->cpuset) {
				free(n);
				return ENOMEM;
			}
			memcpy(n->cpuset, e->cpuset, e->cpusetsize);
			n->cpusetsize = e->cpusetsize;
		}
		if (e->sigmask_set) {
			n->sigmask = e->sigmask;
			n->sigmask_set = true;
		}
		t.extension = n;
	}
	/* dst is written only on success: it may be the caller's live
	 * object.  */
	*dst = t;
	return 0;
}

void __nptl_attr_free(struct glibc_attr *a)
{
	if (a->extension) {
		free(a->extension->cpuset);
		free(a->extension);
	}
}
