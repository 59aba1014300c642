// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sleeping cancellation points: clock_nanosleep, nanosleep, sleep, usleep,
 * pause.  A cancellation interrupts the sleep (EINTR: nothing to lose) and
 * acts; one pending before the call acts before it sleeps.  Behaviour
 * otherwise is glibc 2.36's (clock_nanosleep returns the error number,
 * refuses the calling thread's CPU clock, and sleeps on the process CPU
 * clock through its kernel clock id; sleep reports whole seconds left).
 */
#include <unistd.h>
#include "nptl.h"

/* The kernel's clock id of this process's CPU time (CPUCLOCK_SCHED of
 * pid 0).  */
#define PROCESS_CPUCLOCK_SCHED ((clockid_t)((~0u << 3) | 2))

static int do_clock_nanosleep(clockid_t clock, int flags,
			      const struct timespec *req, struct timespec *rem)
{
	if (clock == CLOCK_THREAD_CPUTIME_ID)
		return EINVAL;
	if (clock == CLOCK_PROCESS_CPUTIME_ID)
		clock = PROCESS_CPUCLOCK_SCHED;
	return (int)-nptl_cp(SYS_clock_nanosleep, clock, flags, req, rem, 0, 0);
}

NPTL_API int __nptl_clock_nanosleep(clockid_t clock, int flags,
				    const struct timespec *req,
				    struct timespec *rem)
{
	return do_clock_nanosleep(clock, flags, req, rem);
}
NPTL_SYMVER_DEFAULT(__nptl_clock_nanosleep, clock_nanosleep, GLIBC_2.17);
NPTL_SYMVER_COMPAT(__nptl_clock_nanosleep, clock_nanosleep, GLIBC_2.2.5);

NPTL_API int __nptl_nanosleep(const struct timespec *req, struct timespec *rem)
{
	int r = do_clock_nanosleep(CLOCK_REALTIME, 0, req, rem);
	if (r) {
		errno = r;
		return -1;
	}
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_nanosleep, nanosleep, GLIBC_2.2.5);

NPTL_API unsigned int __nptl_sleep(unsigned int seconds)
{
	int saved = errno;
	struct timespec ts = { .tv_sec = seconds, .tv_nsec = 0 };
	if (__nptl_nanosleep(&ts, &ts) < 0)
		return (unsigned int)ts.tv_sec;   /* whole seconds not slept */
	errno = saved;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_sleep, sleep, GLIBC_2.2.5);

NPTL_API int __nptl_usleep(useconds_t us)
{
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = (long)(us % 1000000) * 1000 };
	return __nptl_nanosleep(&ts, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_usleep, usleep, GLIBC_2.2.5);

NPTL_API int __nptl_pause(void)
{
	return (int)nptl_cp_errno(SYS_pause, 0, 0, 0, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_pause, pause, GLIBC_2.2.5);
