// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Broadcast: bump seq, which releases every registered waiter not yet
 * asleep, then wake all sleepers (the protocol: pthread_cond_wait.c).
 *
 * Why not requeue the sleepers onto the mutex's lock word
 * (FUTEX_CMP_REQUEUE), as glibc did before 2.25?  A requeued waiter stays
 * inside FUTEX_WAIT until the mutex is unlocked, and it must still leave
 * the condvar afterwards (drop its reference in wrefs); but glibc's
 * pthread_cond_destroy waits for every woken waiter to leave, and programs
 * rely on destroying the condvar right after the broadcast while they
 * hold the mutex -- the requeued waiters could never leave, and destroy
 * would deadlock.  The broadcaster cannot leave on their behalf either: a
 * requeued waiter that then times out or is cancelled cannot tell that it
 * was requeued.  So the herd is woken, and the mutex's own spinning and
 * hand-off order it; waiters that were spinning (the common case when the
 * critical sections are short) never reach the kernel at all.
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_cond_broadcast(pthread_cond_t *cond)
{
	struct nptl_cond *c = (struct nptl_cond *)cond;
	unsigned int w = __atomic_load_n(&c->wrefs, __ATOMIC_SEQ_CST);
	if (w < NPTL_COND_WAITER)
		return 0;
	__atomic_fetch_add(&c->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->sleepers, __ATOMIC_SEQ_CST)) {
		__nptl_cond_note_wake(c);
		nptl_futex_wake(&c->seq, INT32_MAX, !(w & NPTL_COND_SHARED));
	}
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cond_broadcast, pthread_cond_broadcast,
		    GLIBC_2.3.2);
