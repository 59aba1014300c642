// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_lock.  The common case -- a NORMAL mutex, private or
 * shared, free -- is one CAS of the lock word 0->1 (glibc's protocol, see
 * mutex_lock_common.c); everything else goes to the common slow path.
 * Mutex locks are not cancellation points.
 */
#include "nptl.h"

int __nptl_pthread_mutex_lock(pthread_mutex_t *m)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	if ((kind & 127 & ~NPTL_MUTEX_PSHARED) == PTHREAD_MUTEX_TIMED_NP) {
		int zero = 0;
		if (__builtin_expect(__atomic_compare_exchange_n(
				&m->__data.__lock, &zero, 1, false,
				__ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 1)) {
			m->__data.__owner = nptl_self()->tid;
			m->__data.__nusers++;
			__nptl_mutex_heat.h.acq++;
			return 0;
		}
	}
	return __nptl_mutex_lock_common(m, CLOCK_REALTIME, NULL, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_lock, pthread_mutex_lock, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutex_lock) __nptl___pthread_mutex_lock
	__attribute__((alias("__nptl_pthread_mutex_lock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_mutex_lock, __pthread_mutex_lock, GLIBC_2.2.5);
