// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Broadcast: bump seq, which releases every registered waiter not yet
 * asleep, then wake the sleepers (the protocol: pthread_cond_wait.c).
 * A process-shared condvar follows glibc's protocol (src/glibc/cond.c).
 *
 * Without a herd where it can: for a private condvar whose waiters' mutex
 * has a plain lock word (not robust, PI or PP), it wakes one sleeper and
 * requeues the rest onto the mutex's lock word (FUTEX_CMP_REQUEUE, still
 * comparing seq with the value we made, so that a later signal or
 * broadcast is never overtaken), as glibc did before 2.25.  The requeued
 * sleepers then leave one by one, as mutex unlocks wake them.  Why none
 * is stranded there: a requeued sleeper did not itself mark the lock word
 * "with waiters" (2), so every waiter that slept on seq while a requeue
 * happened relocks with "assume waiters" (__nptl_mutex_lock_requeued):
 * the one we woke leaves the word at 2, so the unlock after it wakes one
 * requeued waiter, which leaves it at 2 in turn, and so on until the
 * queue is empty.  A sleeper knows whether a requeue may have involved it
 * from `requeued_below`, which we raise to our seq + 1 before the requeue.
 * The requeue moves only sleepers queued before it, and a sleeper queues
 * only while seq equals its snapshot; seq only grows, so every sleeper we
 * move has a snapshot <= our seq, below the mark, however late it came:
 * one that arrived after our bump (a broadcast need not hold the mutex)
 * has exactly our seq.  The mark is written before the system call, never
 * after it (the condvar may be gone once a waiter is out), and only ever
 * raised, so that a racing broadcast with an older seq cannot lower it.
 * Other sleepers relock normally, so that a plain wait does not leave an
 * unlock a needless FUTEX_WAKE.
 *
 * pthread_cond_destroy, which waits for woken waiters to leave, may be
 * called right after the broadcast by a thread that holds the mutex, so
 * that the requeued waiters cannot get past the mutex: destroy wakes them
 * off the lock word (pthread_cond_destroy.c).  A requeued waiter that
 * times out or is cancelled on the lock word leaves as it would from
 * seq.  tests/model/condvar.pml checks the requeue with the mutex
 * protocol and destroy-after-broadcast.
 */
#include "nptl.h"

/* requeued_below = max(requeued_below, below), modulo 2^32: a racing
 * broadcast with an older seq must not lower it.  */
static void note_requeue(struct nptl_cond *c, unsigned int below)
{
	unsigned int cur = __atomic_load_n(&c->requeued_below, __ATOMIC_RELAXED);
	while ((int)(below - cur) > 0 &&
	       !__atomic_compare_exchange_n(&c->requeued_below, &cur, below,
					    true, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED))
		;
}

NPTL_API int __nptl_pthread_cond_broadcast(pthread_cond_t *cond)
{
	struct nptl_cond *c = (struct nptl_cond *)cond;
	unsigned int w = __atomic_load_n(nptl_cond_wrefs(c), __ATOMIC_SEQ_CST);
	if (w < NPTL_COND_WAITER)
		return 0;
	if (w & NPTL_COND_SHARED)
		return __nptl_glibc_cond_broadcast(cond);
	nptl_handoff_mark(&c->waker_cpu);
	unsigned int seq = __atomic_add_fetch(&c->seq, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&c->sleepers, __ATOMIC_SEQ_CST))
		return 0;
	__nptl_handoff_note(&c->woke_at);
	bool private = !(w & NPTL_COND_SHARED);
	int *word = nptl_cond_requeue_word(c, private, false);
	if (word) {
		note_requeue(c, seq + 1);
		if (nptl_syscall(SYS_futex, &c->seq,
				 FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG, 1,
				 INT32_MAX, word, seq) >= 0)
			return 0;
	}
	nptl_futex_wake(&c->seq, INT32_MAX, private);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cond_broadcast, pthread_cond_broadcast,
		    GLIBC_2.3.2);
