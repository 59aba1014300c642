// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The mutex side of the mutex <-> condition variable contract (nptl.h).
 *
 * A condvar wait releases the mutex without counting it out of __nusers
 * and takes it back without counting it in (glibc does the same), so
 * pthread_mutex_destroy still sees the waiting user.  A waiter the
 * condvar requeued onto the lock word of a simple mutex must take the lock
 * leaving the word "with waiters" (2), because other requeued waiters may
 * sleep there whom the unlocker must wake; robust and PI words have their
 * own waiter bits and are never requeue targets.  Either relock cools the
 * thread (nptl_mutex_cool): it waited between its locks.
 */
#include "nptl.h"

bool __nptl_mutex_requeue_word(pthread_mutex_t *m, int **word, bool *private)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	if (kind & (NPTL_MUTEX_ROBUST | NPTL_MUTEX_PI | NPTL_MUTEX_PP))
		return false;
	*word = &m->__data.__lock;
	*private = !(kind & NPTL_MUTEX_PSHARED);
	return true;
}

int __nptl_mutex_lock_requeued(pthread_mutex_t *m)
{
	nptl_mutex_cool();
	return __nptl_mutex_lock_common(m, CLOCK_REALTIME, NULL,
					NPTL_MUTEX_NO_INCR | NPTL_MUTEX_REQUEUED);
}

int __nptl_mutex_unlock_for_wait(pthread_mutex_t *m)
{
	return __nptl_mutex_unlock_usercnt(m, false);
}

int __nptl_mutex_relock_after_wait(pthread_mutex_t *m)
{
	nptl_mutex_cool();
	return __nptl_mutex_lock_common(m, CLOCK_REALTIME, NULL,
					NPTL_MUTEX_NO_INCR);
}
