// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_unlock, for every kind, with glibc 2.36's lock-word
 * protocols (see mutex_lock_common.c).  Ownership checks are glibc's:
 * a NORMAL or ADAPTIVE mutex is released whoever calls (POSIX leaves it
 * undefined); ERRORCHECK, RECURSIVE, robust and PI ones refuse a
 * non-owner with EPERM.  The release of the lock word is the last access
 * to the mutex, so the next owner may destroy and free it at once.
 *
 * Robust: __owner and the robust-list entry are undone first, under
 * list_op_pending, then the word is swapped to 0; a waiter is woken if
 * FUTEX_WAITERS was set.  A robust mutex still INCONSISTENT (its
 * EOWNERDEAD was never followed by pthread_mutex_consistent) becomes
 * NOTRECOVERABLE for good.
 * PI: the owner CASes tid->0 when nobody waits; otherwise the kernel
 * (FUTEX_UNLOCK_PI) hands the lock to the top waiter.
 * PRIO_PROTECT: the state bits go to 0 keeping the ceiling (a CAS: a
 * waiter may be setting "sleepers" meanwhile), one sleeper is woken if
 * there were any, and only then is the ceiling counted out of the
 * caller's priority protection: it never runs below a ceiling it holds.
 */
#include "nptl.h"


static int simple_unlock(pthread_mutex_t *m, int type, bool decr)
{
	m->__data.__owner = 0;
	if (decr)
		m->__data.__nusers--;
	if (__atomic_exchange_n(&m->__data.__lock, 0, __ATOMIC_RELEASE) > 1)
		nptl_mutex_woke(nptl_futex_wake(&m->__data.__lock, 1,
						!(type & NPTL_MUTEX_PSHARED)));
	return 0;
}

static int pp_unlock(pthread_mutex_t *m, int type, bool decr)
{
	int *w = &m->__data.__lock;

	m->__data.__owner = 0;
	if (decr)
		m->__data.__nusers--;
	int old = __atomic_load_n(w, __ATOMIC_RELAXED), new;
	do
		new = old & (int)NPTL_MUTEX_CEILING_MASK;
	while (!__atomic_compare_exchange_n(w, &old, new, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
	if ((old & ~(int)NPTL_MUTEX_CEILING_MASK) > 1)
		nptl_futex_wake(w, 1, !(type & NPTL_MUTEX_PSHARED));
	int c = nptl_mutex_ceiling(new);
	return __nptl_valid_ceiling(c) ? __nptl_tpp_change(c, -1) : 0;
}

static int robust_unlock(pthread_mutex_t *m, int newowner, bool decr)
{
	struct pthread *self = nptl_self();
	int *w = &m->__data.__lock;

	nptl_robust_pending(self, &m->__data.__list.__next);
	__nptl_robust_dequeue(m);
	m->__data.__owner = newowner;
	if (decr)
		m->__data.__nusers--;
	if ((unsigned)__atomic_exchange_n(w, 0, __ATOMIC_RELEASE) & FUTEX_WAITERS)
		nptl_futex_wake(w, 1, false);
	nptl_robust_pending(self, NULL);
	return 0;
}

static int pi_unlock(pthread_mutex_t *m, int type, int newowner, bool decr)
{
	struct pthread *self = nptl_self();
	int *w = &m->__data.__lock;
	bool robust = type & NPTL_MUTEX_ROBUST;
	int priv = (!robust && !(type & NPTL_MUTEX_PSHARED)) ? FUTEX_PRIVATE_FLAG : 0;

	if (robust) {
		nptl_robust_pending(self, (void *)((uintptr_t)&m->__data.__list.__next | 1));
		__nptl_robust_dequeue(m);
	}
	m->__data.__owner = newowner;
	if (decr)
		m->__data.__nusers--;
	int l = __atomic_load_n(w, __ATOMIC_RELAXED);
	do {
		if ((l & FUTEX_WAITERS) || l != self->tid) {
			nptl_sys2(SYS_futex, w, FUTEX_UNLOCK_PI | priv);
			break;
		}
	} while (!__atomic_compare_exchange_n(w, &l, 0, true, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	nptl_robust_pending(self, NULL);
	return 0;
}

int __nptl_mutex_unlock_usercnt(pthread_mutex_t *m, bool decr)
{
	int type = NPTL_MUTEX_TYPE(__atomic_load_n(&m->__data.__kind,
						   __ATOMIC_RELAXED));
	int kind = type & NPTL_MUTEX_KIND_MASK;
	pid_t id;

	if (!(type & (NPTL_MUTEX_ROBUST | NPTL_MUTEX_PI | NPTL_MUTEX_PP))) {
		switch (kind) {
		case PTHREAD_MUTEX_RECURSIVE_NP:
			if (m->__data.__owner != nptl_self()->tid)
				return EPERM;
			if (--m->__data.__count != 0)
				return 0;
			break;
		case PTHREAD_MUTEX_ERRORCHECK_NP:
			if (m->__data.__owner != nptl_self()->tid ||
			    __atomic_load_n(&m->__data.__lock, __ATOMIC_RELAXED) == 0)
				return EPERM;
			break;
		default:
			break;
		}
		return simple_unlock(m, type, decr);
	}
	if (type & NPTL_MUTEX_PP) {
		/* Robust or PI PP: no such mutex; also a destroyed one (-1).  */
		if (type & (NPTL_MUTEX_ROBUST | NPTL_MUTEX_PI))
			return EINVAL;
		switch (kind) {
		case PTHREAD_MUTEX_RECURSIVE_NP:
			if (m->__data.__owner != nptl_self()->tid)
				return EPERM;
			if (--m->__data.__count != 0)
				return 0;
			break;
		case PTHREAD_MUTEX_ERRORCHECK_NP:
			if (m->__data.__owner != nptl_self()->tid ||
			    (__atomic_load_n(&m->__data.__lock, __ATOMIC_RELAXED) &
			     ~(int)NPTL_MUTEX_CEILING_MASK) == 0)
				return EPERM;
			break;
		default:
			break;
		}
		return pp_unlock(m, type, decr);
	}

	id = nptl_self()->tid;
	int lockword = __atomic_load_n(&m->__data.__lock, __ATOMIC_RELAXED);
	bool robust = type & NPTL_MUTEX_ROBUST;
	int newowner = 0;

	if (kind == PTHREAD_MUTEX_RECURSIVE_NP) {
		if (robust && (lockword & FUTEX_TID_MASK) == id &&
		    m->__data.__owner == NPTL_MUTEX_INCONSISTENT) {
			/* Still inconsistent: the last unlock of the nest
			 * makes it unrecoverable.  */
			if (--m->__data.__count != 0)
				return ENOTRECOVERABLE;
			newowner = NPTL_MUTEX_NOTRECOVERABLE;
		} else {
			if (m->__data.__owner != id)
				return EPERM;
			if (--m->__data.__count != 0)
				return 0;
		}
	} else {
		if ((lockword & FUTEX_TID_MASK) != id || lockword == 0)
			return EPERM;
		if (robust && m->__data.__owner == NPTL_MUTEX_INCONSISTENT)
			newowner = NPTL_MUTEX_NOTRECOVERABLE;
	}
	if (type & NPTL_MUTEX_PI)
		return pi_unlock(m, type, newowner, decr);
	return robust_unlock(m, newowner, decr);
}

/* Out of line, so that the fast path below needs no stack frame.  */
static __attribute__((noinline)) int wake_one(pthread_mutex_t *m, int kind)
{
	nptl_mutex_woke(nptl_futex_wake(&m->__data.__lock, 1,
					!(kind & NPTL_MUTEX_PSHARED)));
	return 0;
}

int __nptl_pthread_mutex_unlock(pthread_mutex_t *m)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	/* The mirror of pthread_mutex_lock's fast path: a NORMAL mutex,
	 * private or shared, released in as few instructions as the lock
	 * word allows.  Every one of them runs while the mutex is still
	 * held, so under contention they are the critical section's too.  */
	if ((kind & 127) == PTHREAD_MUTEX_TIMED_NP) {
		m->__data.__owner = 0;
		m->__data.__nusers--;
		if (__builtin_expect(__atomic_exchange_n(&m->__data.__lock, 0,
							 __ATOMIC_RELEASE) > 1, 0))
			return wake_one(m, kind);
		return 0;
	}
	return __nptl_mutex_unlock_usercnt(m, true);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_unlock, pthread_mutex_unlock, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutex_unlock) __nptl___pthread_mutex_unlock
	__attribute__((alias("__nptl_pthread_mutex_unlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_mutex_unlock, __pthread_mutex_unlock, GLIBC_2.2.5);
