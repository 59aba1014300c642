// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_setcancelstate / pthread_setcanceltype: one compare-and-swap on
 * the caller's cancelhandling (the bits glibc's code reads too).  Turning
 * on the combination "enabled, asynchronous, cancelled" acts at once: the
 * SIGCANCEL that told us may have come and gone while it could not act.
 * Either call may be used by a handler (async-signal-safe), since it
 * touches nothing but the one word.
 */
#include "nptl.h"

static int set_bit(int bit, bool on)
{
	struct pthread *self = nptl_self();
	int old = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	int new;
	do {
		new = on ? old | bit : old & ~bit;
		if (new == old)
			return old;
	} while (!__atomic_compare_exchange_n(&self->cancelhandling, &old, new,
					      true, __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	if (nptl_cancel_async_pending(new))
		__nptl_cancel_now();
	return old;
}

NPTL_API int __nptl_pthread_setcancelstate(int state, int *oldstate)
{
	if (state != PTHREAD_CANCEL_ENABLE && state != PTHREAD_CANCEL_DISABLE)
		return EINVAL;
	int old = set_bit(CANCELSTATE_BITMASK, state == PTHREAD_CANCEL_DISABLE);
	if (oldstate)
		*oldstate = (old & CANCELSTATE_BITMASK) ? PTHREAD_CANCEL_DISABLE
							: PTHREAD_CANCEL_ENABLE;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_setcancelstate, pthread_setcancelstate,
		    GLIBC_2.2.5);

NPTL_API int __nptl_pthread_setcanceltype(int type, int *oldtype)
{
	if (type != PTHREAD_CANCEL_DEFERRED && type != PTHREAD_CANCEL_ASYNCHRONOUS)
		return EINVAL;
	int old = set_bit(CANCELTYPE_BITMASK, type == PTHREAD_CANCEL_ASYNCHRONOUS);
	if (oldtype)
		*oldtype = (old & CANCELTYPE_BITMASK) ? PTHREAD_CANCEL_ASYNCHRONOUS
						      : PTHREAD_CANCEL_DEFERRED;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_setcanceltype, pthread_setcanceltype,
		    GLIBC_2.2.5);
