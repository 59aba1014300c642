// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Destroy waits, as glibc 2.36 does, until every waiter has left the wait
 * call: a program may destroy a condvar as soon as it knows all waiters
 * were woken, while the last of them are still on their way out.  It
 * raises "destroying" so that the last waiter out wakes it, and never
 * returns EBUSY.  Like glibc's, it waits forever for a waiter that was
 * never woken (undefined behaviour) or whose process died while waiting.
 * This is glibc's own destroy step for step, so it also serves the
 * process-shared condvars that follow glibc's protocol (src/glibc/cond.c).
 *
 * Waiters a broadcast requeued onto the mutex (only ever a private one,
 * nptl_cond_requeue_word) may be unable to leave
 * because the caller holds that mutex: while waiters remain, destroy
 * wakes everybody on the mutex's lock word (as glibc did when it
 * requeued), and they leave the condvar before they try the mutex again.
 * For mutex waiters that are not ours this is a spurious wake-up, which
 * the mutex protocol absorbs.  The mutex is alive: the waiters still have
 * to relock it.
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_cond_destroy(pthread_cond_t *cond)
{
	struct nptl_cond *c = (struct nptl_cond *)cond;
	unsigned int w = __atomic_fetch_or(nptl_cond_wrefs(c), NPTL_COND_DESTROYING,
					   __ATOMIC_ACQUIRE);
	bool private = !(w & NPTL_COND_SHARED);
	w |= NPTL_COND_DESTROYING;
	while (w >= NPTL_COND_WAITER) {
		int *word = nptl_cond_requeue_word(c, private, true);
		if (word)
			nptl_futex_wake(word, INT32_MAX, true);
		nptl_futex_wait(nptl_cond_wrefs(c), (int)w, private);
		w = __atomic_load_n(nptl_cond_wrefs(c), __ATOMIC_ACQUIRE);
	}
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cond_destroy, pthread_cond_destroy,
		    GLIBC_2.3.2);
