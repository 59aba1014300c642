// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Detach races with the thread's own exit: the thread checks joinid after
 * setting EXITING, we check EXITING after setting joinid, so at least one of
 * us frees the descriptor and __nptl_free_tcb's TERMINATED bit makes it
 * exactly one.
 */
#include "nptl.h"

int __nptl_pthread_detach(pthread_t t)
{
	struct pthread *pd = (struct pthread *)t;
	if (__atomic_load_n(&pd->tid, __ATOMIC_ACQUIRE) < 0)
		return ESRCH;
	struct pthread *none = NULL;
	if (!__atomic_compare_exchange_n(&pd->joinid, &none, pd, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		/* Already detached: EINVAL.  Being joined: POSIX leaves it
		 * open; glibc says 0 and leaves the joiner to it.  */
		return none == pd ? EINVAL : 0;
	if (__atomic_load_n(&pd->cancelhandling, __ATOMIC_SEQ_CST) & EXITING_BITMASK)
		__nptl_free_tcb(pd);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_detach, pthread_detach, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_detach, pthread_detach, GLIBC_2.2.5);
