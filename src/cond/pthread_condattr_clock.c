// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Only the clocks the futex can time out on: CLOCK_REALTIME and
 * CLOCK_MONOTONIC (EINVAL for the rest, CPU-time clocks included, as
 * glibc).  One bit of the attribute holds it (pthread_condattr_init.c).
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_condattr_getclock(const pthread_condattr_t *a,
					      clockid_t *clock)
{
	*clock = (*(const int *)a >> 1) & 1;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_condattr_getclock, pthread_condattr_getclock,
		    GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_condattr_getclock, pthread_condattr_getclock,
		   GLIBC_2.3.3);

NPTL_API int __nptl_pthread_condattr_setclock(pthread_condattr_t *a,
					      clockid_t clock)
{
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return EINVAL;
	int *v = (int *)a;
	*v = (*v & ~2) | (clock << 1);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_condattr_setclock, pthread_condattr_setclock,
		    GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_condattr_setclock, pthread_condattr_setclock,
		   GLIBC_2.3.3);
