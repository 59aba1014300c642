// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Signal: bump seq so that every registered waiter not yet asleep sees a
 * new value, then wake one sleeper if there may be one (the protocol and
 * why it loses no wake-up: pthread_cond_wait.c).  With no waiter
 * registered it is one load; with waiters that are all spinning it is one
 * atomic add and no system call.  A process-shared condvar follows
 * glibc's protocol (src/glibc/cond.c).
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_cond_signal(pthread_cond_t *cond)
{
	struct nptl_cond *c = (struct nptl_cond *)cond;
	unsigned int w = __atomic_load_n(nptl_cond_wrefs(c), __ATOMIC_SEQ_CST);
	if (w < NPTL_COND_WAITER)
		return 0;
	if (w & NPTL_COND_SHARED)
		return __nptl_glibc_cond_signal(cond);
	nptl_handoff_mark(&c->waker_cpu);
	__atomic_fetch_add(&c->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->sleepers, __ATOMIC_SEQ_CST)) {
		__nptl_handoff_note(&c->woke_at);
		nptl_futex_wake(&c->seq, 1, !(w & NPTL_COND_SHARED));
	}
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cond_signal, pthread_cond_signal,
		    GLIBC_2.3.2);
