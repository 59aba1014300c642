// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sem_post adds a token and, in the same atomic step, learns whether anyone
 * is registered as a (possibly sleeping) waiter: both live in the one 64-bit
 * word.  That single step is what makes it safe to destroy or unmap the
 * semaphore as soon as the waiter that takes the token returns: after the
 * CAS the only access left is the futex wake, which the kernel tolerates on
 * a dead address.  A waiter that spins (sem_wait.c) is not registered and
 * needs no wake; a registered one is either still before its futex wait
 * (which then fails, seeing the new value) or asleep and woken here.  The
 * wake uses the semaphore's own private/shared flag, as glibc does, so that
 * it reaches waiters of a glibc process on a shared semaphore.
 *
 * Async-signal-safe: one CAS loop and one system call, no locks (the
 * stamp for the waiters' spin budget is a vDSO clock_gettime).
 */
#include <limits.h>
#include <semaphore.h>
#include "nptl.h"

NPTL_API int __nptl_sem_post(sem_t *sem)
{
	struct nptl_sem *s = (struct nptl_sem *)sem;
	bool private = nptl_sem_private(s);
	uint64_t d = __atomic_load_n(&s->data, __ATOMIC_RELAXED);
	/* A sleeper will have to be woken: stamp it for its spin budget
	 * (sem_wait.c).  Before the CAS, which may be our last access.  */
	if (d >> NPTL_SEM_NWAITERS_SHIFT)
		__nptl_handoff_note(&s->woke_at);
	nptl_handoff_mark(&s->waker_cpu);
	do {
		if ((d & NPTL_SEM_VALUE_MASK) == SEM_VALUE_MAX) {
			errno = EOVERFLOW;
			return -1;
		}
	} while (!__atomic_compare_exchange_n(&s->data, &d, d + 1, true,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	if (d >> NPTL_SEM_NWAITERS_SHIFT)
		nptl_futex_wake(nptl_sem_word(s), 1, private);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_sem_post, sem_post, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_post, sem_post, GLIBC_2.2.5);
