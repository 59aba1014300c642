// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replace the attribute pthread_create uses for NULL.  glibc checks the
 * fields by hand rather than trusting the setters, since the object may
 * have been built by pthread_getattr_np or copied around.
 */
#include <sched.h>
#include "nptl.h"


NPTL_API int __nptl_pthread_setattr_default_np(const pthread_attr_t *in)
{
	const struct glibc_attr *a = (const struct glibc_attr *)in;
	int pol = a->schedpolicy;
	if (pol != SCHED_OTHER && pol != SCHED_FIFO && pol != SCHED_RR)
		return EINVAL;
	/* Priority 0 passes for every policy: glibc checks only a positive
	 * one.  */
	int prio = a->schedparam.sched_priority;
	if (prio > 0) {
		int min = sched_get_priority_min(pol);
		int max = sched_get_priority_max(pol);
		if (min < 0 || max < 0 || prio < min || prio > max)
			return EINVAL;
	}
	/* stacksize 0 keeps the current default.  */
	if (a->stacksize && a->stacksize < GLIBC_PTHREAD_STACK_MIN)
		return EINVAL;
	/* One stack cannot serve every thread.  */
	if (a->flags & ATTR_FLAG_STACKADDR)
		return EINVAL;

	struct glibc_attr n;
	int err = __nptl_attr_copy(&n, a);
	if (err)
		return err;
	nptl_lll_lock(&__nptl_default_attr_lock);
	if (!n.stacksize)
		n.stacksize = __nptl_default_attr.stacksize;
	struct glibc_attr old = __nptl_default_attr;
	__nptl_default_attr = n;
	nptl_lll_unlock(&__nptl_default_attr_lock);
	__nptl_attr_free(&old);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_setattr_default_np, pthread_setattr_default_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_setattr_default_np, pthread_setattr_default_np, GLIBC_2.18);
