// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Destroying a barrier (protocol in pthread_barrier_wait.c).  Once the last
 * round has completed, its threads may still be on their way out, touching
 * the barrier; destroy must not return before they have all counted
 * themselves out.  Like glibc, it fakes the reset condition: it adds to
 * `out` what the remaining tickets up to the reset point would add, so the
 * last thread out of the real round performs the "reset" and wakes us on
 * `in`.  If everyone is already out, our own addition reaches the reset
 * point and nobody needs waiting for.
 *
 * Where glibc would wait forever (threads blocked in an unfinished round:
 * current_round behind in), we answer EBUSY and leave the barrier as it
 * was, as POSIX allows.
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_barrier_destroy(pthread_barrier_t *barrier)
{
	struct nptl_barrier *b = (struct nptl_barrier *)barrier;
	unsigned int count = b->count;
	unsigned int last = NPTL_BARRIER_THRESHOLD - NPTL_BARRIER_THRESHOLD % count;
	unsigned int in = __atomic_load_n(&b->in, __ATOMIC_RELAXED);
	if (__atomic_load_n(&b->current_round, __ATOMIC_RELAXED) != in)
		return EBUSY;
	if (__atomic_fetch_add(&b->out, last - in, __ATOMIC_RELAXED) < in) {
		while (in != 0) {
			nptl_sys4(SYS_futex, &b->in,
				  FUTEX_WAIT | nptl_barrier_futex_flag(b->shared),
				  in, 0);
			in = __atomic_load_n(&b->in, __ATOMIC_RELAXED);
		}
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_barrier_destroy, pthread_barrier_destroy, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_barrier_destroy, pthread_barrier_destroy, GLIBC_2.2.5);
