// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

/* Only the POSIX policies, as in glibc: SCHED_BATCH and SCHED_IDLE are
 * refused even though the kernel has them.  The POLICY_SET flag tells
 * pthread_create which half of an explicit schedule was given.  */
NPTL_API int __nptl_pthread_attr_setschedpolicy(pthread_attr_t *a, int policy)
{
	struct glibc_attr *ia = (struct glibc_attr *)a;
	if (policy != SCHED_OTHER && policy != SCHED_FIFO && policy != SCHED_RR)
		return EINVAL;
	ia->schedpolicy = policy;
	ia->flags |= ATTR_FLAG_POLICY_SET;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setschedpolicy, pthread_attr_setschedpolicy, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_attr_getschedpolicy(const pthread_attr_t *a, int *policy)
{
	*policy = ((const struct glibc_attr *)a)->schedpolicy;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getschedpolicy, pthread_attr_getschedpolicy, GLIBC_2.2.5);
