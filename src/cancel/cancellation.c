// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Cancellation points inside libnptl, in glibc's protocol on the
 * descriptor's cancelhandling word, so that a cancellation requested by
 * glibc's pthread_cancel (while that family is still glibc's) or by
 * libnptl's acts the same way.
 *
 * A blocking call that is a cancellation point switches the thread to
 * asynchronous cancellation around its system call: a cancellation already
 * requested acts at once (enable), one requested meanwhile arrives as
 * SIGCANCEL whose handler unwinds from inside the system call, and on the way
 * out (disable) the thread waits if a cancellation signal is on its way
 * (CANCELING without CANCELED yet), so that it never returns into code that
 * assumed it would not be cancelled.  Acting on a cancellation is a forced
 * unwind with PTHREAD_CANCELED as the result (pthread_exit.c).
 */
#include "nptl.h"

static bool enabled_canceled_async(int v)
{
	return (v & (CANCELSTATE_BITMASK | CANCELTYPE_BITMASK | CANCELED_BITMASK |
		     EXITING_BITMASK | TERMINATED_BITMASK)) ==
	       (CANCELTYPE_BITMASK | CANCELED_BITMASK);
}

void __nptl_do_cancel(void)
{
	struct pthread *self = nptl_self();
	__atomic_fetch_or(&self->cancelhandling, EXITING_BITMASK, __ATOMIC_RELAXED);
	__nptl_unwind(self->cleanup_jmp_buf);
}

int __nptl_enable_asynccancel(void)
{
	struct pthread *self = nptl_self();
	int old = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	for (;;) {
		int new = old | CANCELTYPE_BITMASK;
		if (new == old)
			break;
		if (__atomic_compare_exchange_n(&self->cancelhandling, &old, new,
						true, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			if (enabled_canceled_async(new)) {
				self->result = PTHREAD_CANCELED;
				__nptl_do_cancel();
			}
			break;
		}
	}
	return old;
}

void __nptl_disable_asynccancel(int oldtype)
{
	if (oldtype & CANCELTYPE_BITMASK)
		return;
	struct pthread *self = nptl_self();
	int old = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	int new;
	do
		new = old & ~CANCELTYPE_BITMASK;
	while (!__atomic_compare_exchange_n(&self->cancelhandling, &old, new, true,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	while ((new & (CANCELING_BITMASK | CANCELED_BITMASK)) == CANCELING_BITMASK) {
		nptl_futex_wait(&self->cancelhandling, new, true);
		new = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	}
}
