// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Barriers keep glibc 2.36's layout and protocol, so that a process-shared
 * barrier works between libnptl and glibc processes.
 *
 * `in` hands out tickets: the n-th arrival since the last reset gets n.
 * Ticket i belongs to the round that ends at the next multiple of count;
 * `current_round` is the ticket that ended the latest completed round, so a
 * waiter is released exactly when current_round >= i.  Whoever sees from
 * its own ticket that a round is full advances current_round by CAS (the
 * CAS only moves it forward, to a multiple of count, so two completers
 * cannot undo each other) and wakes the sleepers.  Because tickets grow
 * monotonically, a thread from round n+1 gets a ticket above round n's end
 * and cannot be released by round n's completion, nor complete round n:
 * no overtaking.  The holder of the ticket that is a multiple of count is
 * the round's one PTHREAD_BARRIER_SERIAL_THREAD.
 *
 * Tickets are 32-bit: before they could wrap, at the last round boundary
 * below NPTL_BARRIER_THRESHOLD, the barrier resets.  Threads that draw a
 * ticket above that boundary wait on `in` until the reset and then draw
 * again; every earlier thread counts itself out in `out`, and the last one
 * out zeroes the barrier, storing `in` last so that no new round starts on
 * a half-reset barrier.  pthread_barrier_destroy uses the same mechanism to
 * wait for the stragglers of the last round (see there).
 *
 * What libnptl adds is speed for the hand-off: before sleeping, a waiter
 * spins briefly on current_round when every participant can be on a CPU at
 * once (count <= CPUs online), since then the last arrival is usually
 * microseconds away; how long it spins adapts as for condvars and
 * semaphores (src/spin/handoff.c: the completer stamps `woke_at` before it
 * wakes sleepers).  When they outnumber the CPUs it sleeps at once, as
 * glibc does: spinning would hold up the thread it waits for, and yielding
 * instead (tried: a few sched_yield calls) hands the CPU to any other
 * runnable process for a whole time slice -- on a loaded machine 3 or 4
 * threads on 2 CPUs then did 450-850 rounds/s against glibc's 20,000+.
 * glibc leaves the bytes after `out` alone, so a glibc process sharing the
 * barrier never sees them.  In a private barrier (only libnptl can touch it),
 * sleepers announce themselves in `sleepers` before their futex wait, and
 * the completer, having advanced current_round, wakes only if that count is
 * non-zero.  Both sides use sequentially consistent atomics (a store then a
 * load each: the Dekker pattern), so either the completer sees the sleeper
 * or the sleeper's futex wait sees the new round and does not sleep.  A
 * process-shared barrier may have glibc sleepers, which do not announce
 * themselves, so there the completer always wakes, as glibc does.
 */
#include <limits.h>
#include "nptl.h"

/* Spin until the round ends or the budget (src/spin/handoff.c) runs out.  */
static unsigned int spin_wait(struct nptl_barrier *b, int budget,
			      unsigned int i, unsigned int cr)
{
	int n = 0;
	for (; n < budget && i > cr; n++) {
		nptl_arch_pause();
		cr = __atomic_load_n(&b->current_round, __ATOMIC_RELAXED);
	}
	if (i <= cr)
		__nptl_handoff_caught(&b->spin, budget, n);
	return cr;
}

static void wake_round(struct nptl_barrier *b)
{
	int shared = b->shared;
	if (!shared && __atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST) == 0)
		return;
	__nptl_handoff_note(&b->woke_at);
	nptl_sys3(SYS_futex, &b->current_round,
		  FUTEX_WAKE | nptl_barrier_futex_flag(shared), INT_MAX);
}

static void sleep_on(unsigned int *word, unsigned int val, int shared)
{
	nptl_sys4(SYS_futex, word, FUTEX_WAIT | nptl_barrier_futex_flag(shared),
		  val, 0);
}

NPTL_API int __nptl_pthread_barrier_wait(pthread_barrier_t *barrier)
{
	struct nptl_barrier *b = (struct nptl_barrier *)barrier;
	unsigned int i, count, last;

	for (;;) {
		/* acq_rel: our earlier writes go out to the round, and we
		 * see everything before a reset we follow.  */
		i = __atomic_add_fetch(&b->in, 1, __ATOMIC_ACQ_REL);
		count = b->count;
		last = NPTL_BARRIER_THRESHOLD - NPTL_BARRIER_THRESHOLD % count;
		if (i <= last)
			break;
		/* Past the reset point: wait for the reset, then retry.  */
		while (i > last) {
			sleep_on(&b->in, i, b->shared);
			i = __atomic_load_n(&b->in, __ATOMIC_RELAXED);
		}
	}

	unsigned int cr = __atomic_load_n(&b->current_round, __ATOMIC_RELAXED);
	bool done = false;
	while (cr + count <= i) {
		/* Our ticket shows that the rounds up to i - i % count are
		 * full: complete them.  */
		unsigned int end = i - i % count;
		if (__atomic_compare_exchange_n(&b->current_round, &cr, end,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED)) {
			cr = end;
			wake_round(b);
			done = i <= cr;
			break;
		}
	}

	if (!done) {
		int budget = 0;
		nptl_mutex_cool();       /* a hand-off, not a surplus */
		if (i > cr && count <= (unsigned)__nptl_sync_ncpu()) {
			budget = __nptl_handoff_budget(&b->spin);
			cr = spin_wait(b, budget, i, cr);
		}
		unsigned int t0 = budget && i > cr ? __nptl_handoff_now() : 0;
		bool slept = i > cr;
		while (i > cr) {
			int shared = b->shared;
			if (!shared)
				__atomic_add_fetch(&b->sleepers, 1,
						   __ATOMIC_SEQ_CST);
			sleep_on(&b->current_round, cr, shared);
			if (!shared)
				__atomic_sub_fetch(&b->sleepers, 1,
						   __ATOMIC_RELAXED);
			cr = __atomic_load_n(&b->current_round,
					     __ATOMIC_RELAXED);
		}
		/* Could spinning have bridged the sleep?  */
		if (budget && slept)
			__nptl_handoff_slept(&b->spin, budget, t0, &b->woke_at);
		/* Pairs with the completer's CAS: its round's writes are
		 * ours now.  */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	}

	/* Leave; after this we must not touch the barrier unless we are the
	 * last one out before a reset.  */
	unsigned int o = __atomic_add_fetch(&b->out, 1, __ATOMIC_RELEASE);
	if (o == last) {
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		__atomic_store_n(&b->current_round, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->out, 0, __ATOMIC_RELAXED);
		int shared = b->shared;
		__atomic_store_n(&b->in, 0, __ATOMIC_RELEASE);
		nptl_sys3(SYS_futex, &b->in,
			  FUTEX_WAKE | nptl_barrier_futex_flag(shared), INT_MAX);
	}
	return i % count == 0 ? PTHREAD_BARRIER_SERIAL_THREAD : 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_barrier_wait, pthread_barrier_wait, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_barrier_wait, pthread_barrier_wait, GLIBC_2.2.5);
