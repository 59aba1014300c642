// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Spinlocks: glibc's pthread_spinlock_t is a plain int, and on x86_64
 * glibc 2.36 encodes it as 1 free, <= 0 held (its lock is `lock decl`,
 * unlock stores 1, and init is unlock; a zeroed int is a *held* lock).  We
 * keep exactly that encoding, so that a spinlock in shared memory works
 * between a libnptl process and a glibc one (pshared needs nothing else:
 * there is no futex and no owner, only the word).
 *
 * lock is test-and-test-and-set: one atomic decrement, which takes the
 * lock exactly when it brings the word from 1 to 0.  While the lock is
 * held, waiters spin on plain loads with `pause`, so that they share the
 * cache line instead of bouncing it with failed atomics, and try again
 * only when the word reads positive (free).  A waiter whose attempt loses
 * backs off for a growing, bounded number of pauses, so that on release
 * the waiters do not all stampede the line at once; the bound keeps the
 * hand-off latency low.  Unlock is a release store of 1, which orders the
 * critical section before the next owner's acquiring decrement; the
 * losers' decrements are harmless because unlock overwrites them.
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_spin_init(pthread_spinlock_t *l, int pshared)
{
	/* glibc accepts any pshared value: the lock works either way.  */
	(void)pshared;
	__atomic_store_n(l, 1, __ATOMIC_RELAXED);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_spin_init, pthread_spin_init, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_spin_init, pthread_spin_init, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_spin_destroy(pthread_spinlock_t *l)
{
	(void)l;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_spin_destroy, pthread_spin_destroy, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_spin_destroy, pthread_spin_destroy, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_spin_lock(pthread_spinlock_t *l)
{
	if (__atomic_sub_fetch(l, 1, __ATOMIC_ACQUIRE) == 0)
		return 0;
	unsigned backoff = 1;
	for (;;) {
		while (__atomic_load_n(l, __ATOMIC_RELAXED) <= 0)
			nptl_arch_pause();
		if (__atomic_sub_fetch(l, 1, __ATOMIC_ACQUIRE) == 0)
			return 0;
		for (unsigned i = 0; i < backoff; i++)
			nptl_arch_pause();
		if (backoff < 64)
			backoff <<= 1;
	}
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_spin_lock, pthread_spin_lock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_spin_lock, pthread_spin_lock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_spin_trylock(pthread_spinlock_t *l)
{
	/* A CAS from 1, as glibc: trylock never disturbs a held lock's
	 * value.  */
	int one = 1;
	if (__atomic_compare_exchange_n(l, &one, 0, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return 0;
	return EBUSY;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_spin_trylock, pthread_spin_trylock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_spin_trylock, pthread_spin_trylock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_spin_unlock(pthread_spinlock_t *l)
{
	__atomic_store_n(l, 1, __ATOMIC_RELEASE);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_spin_unlock, pthread_spin_unlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_spin_unlock, pthread_spin_unlock, GLIBC_2.2.5);
