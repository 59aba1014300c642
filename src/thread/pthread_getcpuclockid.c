// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

/* The kernel's per-thread CPU clock: ~tid << 3 | CPUCLOCK_PERTHREAD (4) |
 * CPUCLOCK_SCHED (2).  */
NPTL_API int __nptl_pthread_getcpuclockid(pthread_t t, clockid_t *clock)
{
	struct pthread *pd = (struct pthread *)t;
	pid_t tid = __atomic_load_n(&pd->tid, __ATOMIC_ACQUIRE);
	if (tid <= 0)
		return ESRCH;
	*clock = (clockid_t)((~(unsigned)tid << 3) | 6);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_getcpuclockid, pthread_getcpuclockid, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_getcpuclockid, pthread_getcpuclockid, GLIBC_2.2.5);
