// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_timedlock (CLOCK_REALTIME) and pthread_mutex_clocklock.
 * The deadline is examined only when the call would block: a free mutex
 * is taken even with an invalid timespec, as POSIX and glibc say.  The
 * clock, though, is checked first (glibc: EINVAL for anything but
 * CLOCK_REALTIME and CLOCK_MONOTONIC).
 */
#include "nptl.h"

int __nptl_pthread_mutex_timedlock(pthread_mutex_t *m,
				   const struct timespec *abs)
{
	return __nptl_mutex_lock_common(m, CLOCK_REALTIME, abs, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_timedlock, pthread_mutex_timedlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutex_timedlock, pthread_mutex_timedlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clock,
					    const struct timespec *abs)
{
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return EINVAL;
	return __nptl_mutex_lock_common(m, clock, abs, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_clocklock, pthread_mutex_clocklock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutex_clocklock, pthread_mutex_clocklock, GLIBC_2.30);
