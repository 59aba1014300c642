// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_trylock: the lock paths of mutex_lock_common.c without
 * the sleeping.  As in glibc, an ERRORCHECK mutex already held by the
 * caller gives EBUSY (not EDEADLK) unless it is robust or PI, where the
 * owner is read from the lock word and EDEADLK is reported.  A robust
 * mutex whose owner died is taken (EOWNERDEAD) rather than refused; for
 * a PI one the kernel (FUTEX_TRYLOCK_PI) arbitrates the take-over.  A
 * PRIO_PROTECT one raises the caller to its ceiling for the attempt and
 * lowers it again when the mutex is busy.
 */
#include "nptl.h"

static inline bool cas(int *p, int *old, int new)
{
	return __atomic_compare_exchange_n(p, old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static int robust_trylock(pthread_mutex_t *m, int kind, pid_t id)
{
	struct pthread *self = nptl_self();
	int *w = &m->__data.__lock;
	int r;

	nptl_robust_pending(self, &m->__data.__list.__next);
	int old = __atomic_load_n(w, __ATOMIC_RELAXED);
	for (;;) {
		if (old & FUTEX_OWNER_DIED) {
			if (!cas(w, &old, id | (old & FUTEX_WAITERS)))
				continue;
			return __nptl_mutex_owner_died(m, false);
		}
		if ((old & FUTEX_TID_MASK) == id &&
		    (r = __nptl_mutex_relock_own(m, kind)) >= 0)
			return r;
		int seen = 0;
		if (cas(w, &seen, id))
			break;
		if (!(seen & FUTEX_OWNER_DIED)) {
			nptl_robust_pending(self, NULL);
			return EBUSY;
		}
		old = seen;
	}
	if (m->__data.__owner == NPTL_MUTEX_NOTRECOVERABLE)
		return __nptl_mutex_unrecoverable(m, false);
	__nptl_mutex_robust_taken(m, false);
	m->__data.__owner = id;
	m->__data.__nusers++;
	m->__data.__count = 1;
	return 0;
}

static int pi_trylock(pthread_mutex_t *m, int type, pid_t id)
{
	struct pthread *self = nptl_self();
	int *w = &m->__data.__lock;
	int kind = type & NPTL_MUTEX_KIND_MASK;
	bool robust = type & NPTL_MUTEX_ROBUST;
	int priv = (!robust && !(type & NPTL_MUTEX_PSHARED)) ? FUTEX_PRIVATE_FLAG : 0;
	int r;

	if (robust)
		nptl_robust_pending(self, (void *)((uintptr_t)&m->__data.__list.__next | 1));
	int old = __atomic_load_n(w, __ATOMIC_RELAXED);
	if ((old & FUTEX_TID_MASK) == id &&
	    (r = __nptl_mutex_relock_own(m, kind)) >= 0)
		return r;
	old = 0;
	if (!cas(w, &old, id)) {
		if (!(old & FUTEX_OWNER_DIED)) {
			nptl_robust_pending(self, NULL);
			return EBUSY;
		}
		/* The owner died: let the kernel decide who inherits.  */
		long e = nptl_sys2(SYS_futex, w, FUTEX_TRYLOCK_PI | priv);
		if (e == -EWOULDBLOCK || e == -EAGAIN || e == -EDEADLK) {
			nptl_robust_pending(self, NULL);
			return EBUSY;
		}
		old = __atomic_load_n(w, __ATOMIC_RELAXED);
	}
	if (old & FUTEX_OWNER_DIED)
		return __nptl_mutex_owner_died(m, true);
	if (robust && m->__data.__owner == NPTL_MUTEX_NOTRECOVERABLE)
		return __nptl_mutex_unrecoverable(m, true);
	if (robust)
		__nptl_mutex_robust_taken(m, true);
	m->__data.__owner = id;
	m->__data.__nusers++;
	m->__data.__count = 1;
	return 0;
}

/* PRIO_PROTECT: as the lock (mutex_lock_common.c), but a busy word is
 * EBUSY and the ceiling counted in for the attempt is counted out.  */
static int pp_trylock(pthread_mutex_t *m, int type, pid_t id)
{
	int *w = &m->__data.__lock;
	int kind = type & NPTL_MUTEX_KIND_MASK;

	if (m->__data.__owner == id) {
		if (kind == PTHREAD_MUTEX_ERRORCHECK_NP)
			return EDEADLK;
		if (kind == PTHREAD_MUTEX_RECURSIVE_NP)
			return nptl_mutex_recount(m);
	}
	int held = -1, r;
	int v = __atomic_load_n(w, __ATOMIC_RELAXED);
	for (;;) {
		int c = nptl_mutex_ceiling(v);
		if (!__nptl_valid_ceiling(c) || __nptl_current_priority() > c) {
			r = EINVAL;
			break;
		}
		if (c != held) {
			r = __nptl_tpp_change(held, c);
			if (r)
				break;
			held = c;
		}
		int cv = c << NPTL_MUTEX_CEILING_SHIFT;
		v = cv;
		if (cas(w, &v, cv | 1)) {
			m->__data.__owner = id;
			m->__data.__nusers++;
			m->__data.__count = 1;
			return 0;
		}
		if ((v & (int)NPTL_MUTEX_CEILING_MASK) == cv) {
			r = EBUSY;
			break;
		}
	}
	if (held != -1)
		__nptl_tpp_change(held, -1);
	return r;
}

int __nptl_pthread_mutex_trylock(pthread_mutex_t *m)
{
	int type = NPTL_MUTEX_TYPE(__atomic_load_n(&m->__data.__kind,
						   __ATOMIC_RELAXED));
	pid_t id = nptl_self()->tid;
	int *w = &m->__data.__lock;
	int zero = 0;

	if (type & NPTL_MUTEX_PP) {
		/* Robust or PI PP: no such mutex; also a destroyed one (-1).  */
		if (type & (NPTL_MUTEX_ROBUST | NPTL_MUTEX_PI))
			return EINVAL;
		return pp_trylock(m, type, id);
	}
	if (type & NPTL_MUTEX_PI)
		return pi_trylock(m, type, id);
	if (type & NPTL_MUTEX_ROBUST)
		return robust_trylock(m, type & NPTL_MUTEX_KIND_MASK, id);

	switch (type & ~NPTL_MUTEX_PSHARED) {
	case PTHREAD_MUTEX_RECURSIVE_NP:
		if (m->__data.__owner == id)
			return nptl_mutex_recount(m);
		if (__atomic_load_n(w, __ATOMIC_RELAXED) != 0 || !cas(w, &zero, 1))
			return EBUSY;
		m->__data.__count = 1;
		break;
	case PTHREAD_MUTEX_TIMED_NP:
	case PTHREAD_MUTEX_ADAPTIVE_NP:
	case PTHREAD_MUTEX_ERRORCHECK_NP:
		/* A read first: a busy word is not written (no cache-line
		 * steal from the owner).  */
		if (__atomic_load_n(w, __ATOMIC_RELAXED) != 0 || !cas(w, &zero, 1))
			return EBUSY;
		break;
	default:
		return EINVAL;
	}
	m->__data.__owner = id;
	m->__data.__nusers++;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_trylock, pthread_mutex_trylock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutex_trylock, pthread_mutex_trylock, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutex_trylock) __nptl___pthread_mutex_trylock
	__attribute__((alias("__nptl_pthread_mutex_trylock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_mutex_trylock, __pthread_mutex_trylock, GLIBC_2.2.5);
