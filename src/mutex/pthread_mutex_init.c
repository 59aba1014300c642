// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_init: translate the attribute word into glibc's __kind
 * encoding, so that glibc's static initializers, glibc processes sharing
 * the mutex and we all read the same thing.  Robust mutexes are always
 * marked process-shared in __kind: the kernel wakes robust futexes with
 * shared wake-ups, so every futex call on them must be shared.
 *
 * PTHREAD_PRIO_PROTECT: the ceiling goes into the upper bits of __lock,
 * where every lock operation reads it (glibc's layout); an attribute whose
 * ceiling was never set gives SCHED_FIFO's minimum.  Robust PP mutexes are
 * refused with ENOTSUP, as glibc refuses them (its lock paths have no
 * robust PP protocol either).
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

	if (protocol == PTHREAD_PRIO_INHERIT) {
		if (!pi_supported())
			return ENOTSUP;
	} else if (protocol != PTHREAD_PRIO_NONE && (attr & NPTL_MUTEXATTR_ROBUST)) {
		return ENOTSUP;
	}

	int kind = attr & ~NPTL_MUTEXATTR_FLAG_BITS;
	if (attr & NPTL_MUTEXATTR_ROBUST)
		kind |= NPTL_MUTEX_ROBUST;
	int lock = 0;
	if (protocol == PTHREAD_PRIO_INHERIT) {
		kind |= NPTL_MUTEX_PI;
	} else if (protocol == PTHREAD_PRIO_PROTECT) {
		kind |= NPTL_MUTEX_PP;
		int ceiling = (attr & NPTL_MUTEXATTR_CEILING_MASK)
			      >> NPTL_MUTEXATTR_CEILING_SHIFT;
		if (ceiling < __nptl_fifo_min())
			ceiling = __nptl_fifo_min();
		lock = ceiling << NPTL_MUTEX_CEILING_SHIFT;
	}
	if (attr & (NPTL_MUTEXATTR_PSHARED | NPTL_MUTEXATTR_ROBUST))
		kind |= NPTL_MUTEX_PSHARED;

	memset(m, 0, sizeof *m);
	m->__data.__lock = lock;
	__atomic_store_n(&m->__data.__kind, kind, __ATOMIC_RELAXED);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_init, pthread_mutex_init, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutex_init) __nptl___pthread_mutex_init
	__attribute__((alias("__nptl_pthread_mutex_init"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_mutex_init, __pthread_mutex_init, GLIBC_2.2.5);
