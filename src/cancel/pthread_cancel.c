// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_cancel: glibc's marking protocol, plus a signal in deferred mode.
 *
 * One compare-and-swap on the target's cancelhandling both marks it and
 * reads its state, so there is no window between "is it enabled?" and
 * "it is cancelled".  A target that is enabled and asynchronous is marked
 * CANCELING only and sent SIGCANCEL, whose handler sets CANCELED and
 * unwinds it (glibc's rule, which glibc's __pthread_disable_asynccancel
 * relies on: it waits for that signal).  Any other target is marked
 * CANCELING|CANCELED at once; if its cancellation is enabled it is also
 * sent SIGCANCEL, which glibc does not do: a libnptl cancellation point
 * blocks in deferred mode (cancellation.c), and the signal is what ends
 * the wait.  A target that has disabled cancellation gets no signal: it
 * finds CANCELED when it re-enables (pthread_setcancelstate acts at once
 * if asynchronous) or at its next cancellation point, which tests the word
 * before it blocks.
 *
 * The signal goes through pd->exit_lock, as pthread_kill's does, so it
 * never reaches a recycled tid.  A thread that has already exited but is
 * not joined is cancelled successfully with no effect (glibc 2.34+).
 */
#include "nptl.h"

static int send_sigcancel(struct pthread *pd)
{
	uint64_t all = ~(uint64_t)0, old;
	nptl_sys4(SYS_rt_sigprocmask, SIG_BLOCK, &all, &old, 8);
	nptl_lll_lock(&pd->exit_lock);
	long r = 0;
	if (!pd->exiting)
		r = nptl_sys3(SYS_tgkill, nptl_sys0(SYS_getpid), pd->tid,
			      GLIBC_SIGCANCEL);
	nptl_lll_unlock(&pd->exit_lock);
	nptl_sys4(SYS_rt_sigprocmask, SIG_SETMASK, &old, 0, 8);
	/* The thread is gone between our look at it and the signal: its
	 * outcome is already decided, as for an exited thread.  */
	return r == -ESRCH ? 0 : (int)-r;
}

NPTL_API int __nptl_pthread_cancel(pthread_t t)
{
	struct pthread *pd = (struct pthread *)t;
	struct pthread *self = nptl_self();

	pid_t tid = __atomic_load_n(&pd->tid, __ATOMIC_ACQUIRE);
	if (tid == 0)
		return 0;
	if (tid < 0)
		return ESRCH;   /* a joined thread's stale handle */
	/* The target unwinds with libgcc_s, perhaps in a signal handler,
	 * where it cannot be loaded: load it here (unwind_link.c).  */
	__nptl_unwind_link_or_die(true);
	__nptl_cancel_install();

	int old = __atomic_load_n(&pd->cancelhandling, __ATOMIC_RELAXED);
	for (;;) {
		int new = old | CANCELING_BITMASK | CANCELED_BITMASK;
		if (new == old)
			return 0;
		if (nptl_cancel_async_pending(new)) {
			if (!__atomic_compare_exchange_n(&pd->cancelhandling, &old,
							 old | CANCELING_BITMASK,
							 true, __ATOMIC_ACQ_REL,
							 __ATOMIC_RELAXED))
				continue;
			/* The handler may not even be needed yet for
			 * ourselves (no thread was ever created).  */
			if (pd == self)
				__nptl_cancel_now();
			return send_sigcancel(pd);
		}
		if (__atomic_compare_exchange_n(&pd->cancelhandling, &old, new,
						true, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			/* glibc's cancellation points do nothing in a process
			 * it believes single-threaded; a self-cancel there
			 * must still act (glibc does the same).  */
			if (pd == self)
				__nptl_glibc_cancel_points_on();
			if (pd != self &&
			    !(old & (CANCELSTATE_BITMASK | EXITING_BITMASK |
				     TERMINATED_BITMASK)))
				return send_sigcancel(pd);
			return 0;
		}
	}
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cancel, pthread_cancel, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_cancel, pthread_cancel, GLIBC_2.2.5);
