// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_init: translate the attribute word into glibc's __kind
 * encoding, so that glibc's static initializers, glibc processes sharing
 * the mutex and we all read the same thing.  Robust mutexes are always
 * marked process-shared in __kind: the kernel wakes robust futexes with
 * shared wake-ups, so every futex call on them must be shared.
 *
 * PTHREAD_PRIO_PROTECT is not supported (the attribute setter refuses it
 * too): ENOTSUP, honestly, rather than a mutex without its ceiling.
 */
#include <string.h>
#include "nptl.h"

static bool pi_supported(void)
{
	static int state;       /* 0 unknown, 1 yes, -1 no */
	int s = __atomic_load_n(&state, __ATOMIC_RELAXED);
	if (!s) {
		unsigned int word = 0;
		long r = nptl_sys2(SYS_futex, &word, FUTEX_UNLOCK_PI);
		s = r == -ENOSYS ? -1 : 1;
		__atomic_store_n(&state, s, __ATOMIC_RELAXED);
	}
	return s > 0;
}

int __nptl_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
	int attr = a ? *(const int *)a : PTHREAD_MUTEX_NORMAL;
	int protocol = (attr & NPTL_MUTEXATTR_PROTOCOL_MASK)
		       >> NPTL_MUTEXATTR_PROTOCOL_SHIFT;

	if (protocol == PTHREAD_PRIO_PROTECT)
		return ENOTSUP;
	if (protocol == PTHREAD_PRIO_INHERIT && !pi_supported())
		return ENOTSUP;

	int kind = attr & ~NPTL_MUTEXATTR_FLAG_BITS;
	if (attr & NPTL_MUTEXATTR_ROBUST)
		kind |= NPTL_MUTEX_ROBUST;
	if (protocol == PTHREAD_PRIO_INHERIT)
		kind |= NPTL_MUTEX_PI;
	if (attr & (NPTL_MUTEXATTR_PSHARED | NPTL_MUTEXATTR_ROBUST))
		kind |= NPTL_MUTEX_PSHARED;

	memset(m, 0, sizeof *m);
	__atomic_store_n(&m->__data.__kind, kind, __ATOMIC_RELAXED);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_init, pthread_mutex_init, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutex_init) __nptl___pthread_mutex_init
	__attribute__((alias("__nptl_pthread_mutex_init"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_mutex_init, __pthread_mutex_init, GLIBC_2.2.5);
