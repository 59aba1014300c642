// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How long a waiter spins for a hand-off (a condvar signal, a sem_post)
 * before it sleeps.  Shared by condition variables and semaphores; each
 * object keeps its own budget (`hint`, in bytes glibc leaves alone) and the
 * time its waker last had to wake a sleeper (`woke_at`).
 *
 * Sleeping costs a wake-up in the kernel for both sides, tens of
 * microseconds on virtual machines, and on a hand-off that latency is the
 * whole round trip.  A waiter that sees the hand-off while spinning pulls
 * the budget towards four times what it took.  A waiter that had to sleep
 * compares when it began to sleep with when its waker noted, just before
 * the FUTEX_WAKE, that it had to wake somebody (__nptl_handoff_note):
 *  - a wake within a wake-up latency means spinning that long would have
 *    bridged it: the budget grows towards it.  This is what lets two
 *    threads that fell asleep on each other climb back into spinning;
 *  - a wake only a context switch after we slept means the waker was
 *    waiting for our own CPU (threads outnumber CPUs): spinning only
 *    delayed it, the budget halves;
 *  - a late wake means a slow partner: the budget halves too.
 * The budget never drops below a small floor, so a probe always continues.
 * A waiter whose waker last ran on the waiter's own CPU does not spin at
 * all (nptl_handoff_colocated() in nptl.h): when threads outnumber CPUs
 * the scheduler tends to keep a sleeping pair on one CPU, where even the
 * floor is pure loss (8 condvar ping-pong pairs on 2 CPUs fell to a third
 * of glibc's rate in such runs).  Budgets
 * and stamps are hints: racing updates only lose one another, and garbage
 * (an object a glibc process initialized) is clamped.
 */
#include <time.h>
#include "nptl.h"

/* Iterations of a spin loop (one PAUSE: 10 to 40 ns on x86-64 CPUs); at
 * most some 50 us, about one wake-up latency.  */
#define BUDGET_MIN 100
#define BUDGET_MAX 2000
#define BUDGET_START 256
#define ITER_NS 25
#define SWITCH_NS 8000

int __nptl_handoff_budget(const int *hint)
{
	int b = __atomic_load_n(hint, __ATOMIC_RELAXED);
	if (b == 0)
		return BUDGET_START;
	return b < BUDGET_MIN ? BUDGET_MIN : b > BUDGET_MAX ? BUDGET_MAX : b;
}

static void store(int *hint, int next)
{
	__atomic_store_n(hint, next < BUDGET_MIN ? BUDGET_MIN : next,
			 __ATOMIC_RELAXED);
}

void __nptl_handoff_caught(int *hint, int budget, int spun)
{
	int want = 4 * spun;
	if (want > BUDGET_MAX)
		want = budget / 2;
	store(hint, budget + (want - budget) / 4);
}

unsigned int __nptl_handoff_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned int)(ts.tv_sec * 1000000000ULL + ts.tv_nsec);
}

void __nptl_handoff_note(unsigned int *woke_at)
{
	__atomic_store_n(woke_at, __nptl_handoff_now(), __ATOMIC_RELAXED);
}

void __nptl_handoff_slept(int *hint, int budget, unsigned int t0,
			  const unsigned int *woke_at)
{
	int late = (int)(__atomic_load_n(woke_at, __ATOMIC_RELAXED) - t0);
	if (late < 0 || late > BUDGET_MAX * ITER_NS || late < SWITCH_NS)
		store(hint, budget / 2);
	else
		store(hint, budget + (late / ITER_NS * 5 / 4 - budget) / 2);
}
