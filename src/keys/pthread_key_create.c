// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Keys live in libc's own __pthread_keys[], with glibc's protocol, so that
 * glibc-made threads and ours share one key space and glibc's thread exit
 * runs destructors of keys made here.  A slot's seq is odd while the key
 * exists; create and delete each advance it by one, so a stale value (one
 * stored under an older seq) is recognisable forever after.
 */
#include "nptl.h"

int __nptl_pthread_key_create(pthread_key_t *k, void (*d)(void *))
{
	for (size_t i = 0; i < GLIBC_KEYS_MAX; i++) {
		uintptr_t seq = __atomic_load_n(&__pthread_keys[i].seq,
						__ATOMIC_RELAXED);
		/* Skip a slot whose counter would wrap on the next delete:
		 * a wrapped seq could make ancient values look current.  */
		if ((seq & 1) || seq + 2 < seq)
			continue;
		if (!__atomic_compare_exchange_n(&__pthread_keys[i].seq, &seq,
						 seq + 1, false,
						 __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED))
			continue;
		__pthread_keys[i].destr = d;
		*k = (pthread_key_t)i;
		return 0;
	}
	return EAGAIN;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_key_create, pthread_key_create, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_key_create, pthread_key_create, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_key_create) __nptl___pthread_key_create
	__attribute__((alias("__nptl_pthread_key_create"))) NPTL_API;
NPTL_SYMVER_DEFAULT_NOHDR(__nptl___pthread_key_create,
			  __pthread_key_create, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl___pthread_key_create, __pthread_key_create, GLIBC_2.2.5);
