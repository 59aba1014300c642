// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

/* Deleting only advances the slot's seq: every thread's value becomes stale
 * at once, with no destructor run and no walk over threads (POSIX leaves
 * cleaning up to the application).  */
int __nptl_pthread_key_delete(pthread_key_t k)
{
	if (k >= GLIBC_KEYS_MAX)
		return EINVAL;
	uintptr_t seq = __atomic_load_n(&__pthread_keys[k].seq, __ATOMIC_RELAXED);
	if (!(seq & 1) ||
	    !__atomic_compare_exchange_n(&__pthread_keys[k].seq, &seq, seq + 1,
					 false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return EINVAL;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_key_delete, pthread_key_delete, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_key_delete, pthread_key_delete, GLIBC_2.2.5);
