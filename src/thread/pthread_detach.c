// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Detach races with the thread's own exit, and whoever comes second must
 * free the descriptor -- without ever reading it after the other side may
 * have freed it (a detached thread frees itself, and its memory is reused or
 * unmapped once the kernel has cleared its tid).
 *
 * For a libnptl thread both sides act on the one word pd->joinid.  The
 * exiting thread sets JOINID_EXITED with one fetch_or and frees itself only
 * if the value it replaced was "detached".  Detach installs "detached" with
 * a compare-and-swap that keeps the EXITED bit: if the bit was clear, the
 * thread has not reached its exit step and will see "detached" and free
 * itself, so we must not touch pd again; if it was set, the thread is gone
 * without freeing, and the descriptor is ours to free.  One word, so exactly
 * one of the two frees, and the detacher reads nothing after handing over.
 *
 * A thread glibc made (the main thread, glibc's helpers) exits through
 * glibc's code, which knows no EXITED bit: glibc's protocol there (set
 * joinid, then look at EXITING).
 */
#include "nptl.h"

int __nptl_pthread_detach(pthread_t t)
{
	struct pthread *pd = (struct pthread *)t;
	if (__atomic_load_n(&pd->tid, __ATOMIC_ACQUIRE) < 0)
		return ESRCH;
	/* Read before the handover: after it pd may be gone.  */
	bool ours = nptl_is_ours(pd);
	uintptr_t *w = nptl_joinid_word(pd);
	uintptr_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
	for (;;) {
		if ((old & ~JOINID_EXITED) == (uintptr_t)pd)
			return EINVAL;
		/* Being joined: POSIX leaves it open; glibc says 0 and leaves
		 * the thread to its joiner.  */
		if (old & ~JOINID_EXITED)
			return 0;
		if (__atomic_compare_exchange_n(w, &old, (uintptr_t)pd | old,
						false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			break;
	}
	if (!ours) {
		if (__atomic_load_n(&pd->cancelhandling, __ATOMIC_SEQ_CST) &
		    EXITING_BITMASK)
			__nptl_free_tcb(pd);
	} else if (old & JOINID_EXITED) {
		__nptl_free_tcb(pd);
	}
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_detach, pthread_detach, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_detach, pthread_detach, GLIBC_2.2.5);
