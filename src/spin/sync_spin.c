// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How many CPUs this process may use, for the brief spins of every primitive
 * before they sleep: a spinner only helps when the thread it waits for can
 * run at the same time, and it only harms when it takes that thread's CPU.
 * Cached once; a stale value only makes spinning a little less apt.  And
 * the nap of a thread that concurrency restriction steps aside (src/nptl.h,
 * nptl_heat_conflict).
 */
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include "nptl.h"

int __nptl_sync_ncpu(void)
{
	static int ncpu;
	int n = __atomic_load_n(&ncpu, __ATOMIC_RELAXED);
	if (!n) {
		/* The CPUs we may run on, if the affinity mask says; else
		 * those online.  */
		cpu_set_t set;
		long c = sched_getaffinity(0, sizeof set, &set) == 0
				 ? CPU_COUNT(&set) : 0;
		if (c <= 0)
			c = sysconf(_SC_NPROCESSORS_ONLN);
		n = c > 0 ? (c > 1 << 20 ? 1 << 20 : (int)c) : 1;
		__atomic_store_n(&ncpu, n, __ATOMIC_RELAXED);
	}
	return n;
}

#define CR_NAP 50000            /* ns a surplus thread steps aside, */
#define CR_DOUBLINGS 4          /* doubling while it stays hot, so often */

/* A thread under a realtime policy never naps.  POSIX has the scheduling
 * policy decide who gets a lock that is released to waiters, and the
 * kernel queues futex waiters of SCHED_FIFO and SCHED_RR by priority; a
 * realtime thread away in a nap is not among them, so a lower-priority
 * thread could take the lock first, and the thread's latency, the point
 * of its policy, would grow by the nap.  The policy is asked at each nap
 * (one system call beside a sleep of 50 us or more): any thread, or
 * another process (chrt -p), may change it at any time.  */
static bool realtime(void)
{
	long p = nptl_sys1(SYS_sched_getscheduler, 0);
	if (p < 0)
		return false;
	p &= ~(long)SCHED_RESET_ON_FORK;
	return p == SCHED_FIFO || p == SCHED_RR || p == SCHED_DEADLINE;
}

bool __nptl_heat_nap(struct nptl_heat *h)
{
	if (realtime()) {
		h->hot = 0;
		return false;
	}
	unsigned int k = h->hot - NPTL_HOT_RUN;
	if (k > CR_DOUBLINGS)
		k = CR_DOUBLINGS;
	struct timespec ts = { 0, (long)CR_NAP << k };
	nptl_sys2(SYS_nanosleep, &ts, NULL);
	h->t_conflict = nptl_arch_ticks();
	return true;
}
