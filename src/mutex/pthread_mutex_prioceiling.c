// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_getprioceiling / pthread_mutex_setprioceiling.  Only a
 * PRIO_PROTECT mutex has a ceiling (EINVAL otherwise, as glibc; also for
 * a destroyed mutex, whose __kind of -1 glibc takes for a PP one).  The
 * ceiling lives in the upper bits of the lock word (mutex_lock_common.c).
 *
 * Setting it, as glibc does: a caller that holds a RECURSIVE PP mutex
 * changes the ceiling in place and its own priority protection with it;
 * an ERRORCHECK one it holds gives EDEADLK; otherwise the caller takes the
 * lock word by the PP protocol but without raising its priority (the
 * mutex is held only for the store), then stores the new ceiling with the
 * state "free".  Either way every sleeper is woken: each slept on the old
 * word's exact value and must re-read the ceiling (it retries with the new
 * one, raising itself to it).  A NORMAL PP mutex the caller holds
 * deadlocks, as in glibc.
 */
#include <limits.h>
#include "nptl.h"

NPTL_API int __nptl_pthread_mutex_getprioceiling(const pthread_mutex_t *m,
						 int *ceiling)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	if (!(kind & NPTL_MUTEX_PP) || kind == -1)      /* -1: destroyed */
		return EINVAL;
	*ceiling = nptl_mutex_ceiling(__atomic_load_n(&m->__data.__lock,
						      __ATOMIC_RELAXED));
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_getprioceiling, pthread_mutex_getprioceiling, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutex_getprioceiling, pthread_mutex_getprioceiling, GLIBC_2.4);

NPTL_API int __nptl_pthread_mutex_setprioceiling(pthread_mutex_t *m, int ceiling,
						 int *old)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);
	int *w = &m->__data.__lock;

	if (!(kind & NPTL_MUTEX_PP) || kind == -1)      /* -1: destroyed */
		return EINVAL;
	if (!__nptl_valid_ceiling(ceiling))
		return EINVAL;

	bool held = false;
	if (m->__data.__owner == nptl_self()->tid) {
		if ((kind & NPTL_MUTEX_KIND_MASK) == PTHREAD_MUTEX_ERRORCHECK_NP)
			return EDEADLK;
		held = (kind & NPTL_MUTEX_KIND_MASK) == PTHREAD_MUTEX_RECURSIVE_NP;
	}

	int v = __atomic_load_n(w, __ATOMIC_RELAXED);
	if (!held) {
		while (__nptl_mutex_pp_take(w, v & (int)NPTL_MUTEX_CEILING_MASK, 1,
					    !(kind & NPTL_MUTEX_PSHARED),
					    CLOCK_REALTIME, NULL, &v) != 0)
			;
	}
	int prev = nptl_mutex_ceiling(v);
	if (held) {
		int r = __nptl_tpp_change(__nptl_valid_ceiling(prev) ? prev : -1,
					  ceiling);
		if (r)
			return r;
	}
	if (old)
		*old = prev;

	int cv = ceiling << NPTL_MUTEX_CEILING_SHIFT;
	if (held) {
		/* Still ours: keep the state bits, which a waiter may be
		 * changing (1 -> 2) meanwhile.  */
		int cur = __atomic_load_n(w, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(
			       w, &cur, (cur & ~(int)NPTL_MUTEX_CEILING_MASK) | cv,
			       true, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			;
	} else {
		__atomic_store_n(w, cv, __ATOMIC_RELEASE);
	}
	nptl_futex_wake(w, INT_MAX, !(kind & NPTL_MUTEX_PSHARED));
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_setprioceiling, pthread_mutex_setprioceiling, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutex_setprioceiling, pthread_mutex_setprioceiling, GLIBC_2.4);
