// SPDX-License-Identifier: LGPL-2.1-or-later
#include <sched.h>
#include "nptl.h"

/* The priority is checked against the policy the attribute holds now, so
 * the policy must be set first (glibc's order too).  */
NPTL_API int __nptl_pthread_attr_setschedparam(pthread_attr_t *a,
					       const struct sched_param *p)
{
	struct glibc_attr *ia = (struct glibc_attr *)a;
	int min = sched_get_priority_min(ia->schedpolicy);
	int max = sched_get_priority_max(ia->schedpolicy);
	if (min < 0 || max < 0 || p->sched_priority < min || p->sched_priority > max)
		return EINVAL;
	ia->schedparam = *p;
	ia->flags |= ATTR_FLAG_SCHED_SET;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setschedparam, pthread_attr_setschedparam, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_attr_getschedparam(const pthread_attr_t *a,
					       struct sched_param *p)
{
	*p = ((const struct glibc_attr *)a)->schedparam;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getschedparam, pthread_attr_getschedparam, GLIBC_2.2.5);
