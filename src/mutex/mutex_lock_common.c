// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The blocking half of pthread_mutex_lock/timedlock/clocklock for every
 * kind.  The lock-word protocols are glibc 2.36's, bit for bit, because a
 * process-shared mutex may be used at the same time by glibc processes.
 *
 * NORMAL/RECURSIVE/ERRORCHECK/ADAPTIVE ("simple", glibc's lll_lock):
 *   __lock is 0 free, 1 locked, 2 locked and maybe waiters.  Lock: CAS
 *   0->1; otherwise swap in 2 and sleep on FUTEX_WAIT(2) until the swap
 *   returns 0.  Unlock: swap in 0, and FUTEX_WAKE one if the old value was
 *   2.  No wake-up is lost: a thread sleeps only while the word is 2 (the
 *   kernel compares atomically), and whoever changes 2 to 0 wakes one;
 *   a woken thread re-swaps 2, so waiters behind it are not forgotten.  A
 *   locker that got the lock by swapping 2 leaves 2 behind (conservative:
 *   at worst one needless wake).  Spinning (below) only ever CASes 0->1,
 *   which the protocol allows at any time.  __owner, __count and __nusers
 *   are plain fields written by the owner only.
 *
 * ROBUST (non-PI): __lock is the owner tid | FUTEX_WAITERS | FUTEX_OWNER_DIED
 *   as the kernel's robust-list code expects.  A waiter sets FUTEX_WAITERS
 *   (by CAS, so it never erases an OWNER_DIED or a new owner) and sleeps
 *   on the exact value it saw; unlock swaps in 0 and wakes one if WAITERS
 *   was set.  A thread woken from the futex remembers that others may sleep
 *   too and takes the lock with WAITERS set (assume_waiters).  Dead owner:
 *   the kernel sets OWNER_DIED and wakes one; the next locker CASes in its
 *   own tid (keeping WAITERS) and reports EOWNERDEAD with __owner
 *   INCONSISTENT.  Robust futexes always use shared futex operations: the
 *   kernel wakes them without FUTEX_PRIVATE_FLAG.
 *
 * PI (robust or not): __lock is tid | FUTEX_WAITERS | FUTEX_OWNER_DIED and
 *   the kernel owns the slow paths (FUTEX_LOCK_PI/LOCK_PI2/UNLOCK_PI), which
 *   boosts the owner.  The fast path is the CAS 0->tid.
 *
 * PRIO_PROTECT (PP; not robust, not PI: glibc makes neither): __lock is
 *   ceiling << NPTL_MUTEX_CEILING_SHIFT | state, the state being the simple
 *   protocol's 0/1/2 in the low bits.  Every CAS and every FUTEX_WAIT
 *   compares the whole word, ceiling included, so an operation that read
 *   one ceiling cannot succeed once the ceiling has changed: the locker
 *   counts the ceiling it read into its priority protection (raising
 *   itself, src/sched/tpp.c) *before* its CAS, and if the CAS then fails
 *   because the ceiling moved, it counts the new one in and the old one out
 *   and tries again.  So no thread that locked a PP mutex holds it below
 *   the ceiling the word carries (pthread_mutex_setprioceiling takes it
 *   for an instant without raising itself, as glibc's does).  The ceiling
 *   changes only in
 *   pthread_mutex_setprioceiling, by a thread that holds the lock (taken
 *   by this same protocol), which then wakes every sleeper: they slept on
 *   the old word's exact value and re-read the ceiling.  Otherwise the
 *   sleeping and waking argument is the simple protocol's: sleep only on
 *   ceiling|2, whoever changes ceiling|2 to ceiling|0 wakes one, and a woken
 *   thread takes the lock as ceiling|2.  A caller whose own priority is
 *   above the ceiling gets EINVAL; one whose priority cannot be raised
 *   (SCHED_OTHER, or not permitted) gets sched_setscheduler's error, as in
 *   glibc; either way nothing stays counted.
 *
 * Saturation (concurrency restriction, as for rwlock readers in
 * src/rwlock/pthread_rwlock.c, after Dice and Kogan, Euro-Par 2019).  Two
 * threads that take one simple mutex back to back on two CPUs did 12 M
 * acquisitions/s, as glibc does, where one thread alone does 50 M: the
 * loser sleeps, and every few hundred nanoseconds the winner's unlock
 * finds "sleepers" and pays a FUTEX_WAKE for a thread that will only
 * lose again.  So a thread whose conflicts (its lock attempt found the
 * word taken) come close together -- the rule the rwlock's readers use,
 * nptl_heat_conflict in src/nptl.h -- naps before it queues: 50 us,
 * doubling while it stays hot, up to 800 us.  Meanwhile the word stays 1
 * and the winner runs alone at its own rate.  After the nap the thread
 * queues as usual, so one call naps at most once.
 *
 * What must not nap is a thread that hands the lock back and forth with
 * another and waits for it by other means in between (a condvar
 * ping-pong, a queue fed through a semaphore, a request loop blocked in
 * read(), a turn passed through a flag): each round conflicts once, close
 * to the last, and a nap per round would make every hand-off wait a nap.
 * Three guards:
 * - the condvar, semaphore and barrier waits cool the thread (they are
 *   ours: nptl_mutex_cool);
 * - before a nap the thread asks the kernel (getrusage RUSAGE_THREAD) how
 *   many times it gave up its CPU since its last such check; more than its
 *   own lock waits and naps counted since means it blocked somewhere else
 *   between its locks, and the run ends instead.  One system call per nap,
 *   or per NPTL_HOT_RUN conflicts of a ping-pong;
 * - after a nap it watches the word for IDLE_TICKS: if nobody took the
 *   lock meanwhile, the other side was waiting for this thread, not
 *   competing (a turn passed by spinning), and the thread takes no naps
 *   for its next COLD_MIN conflicts, doubling each time this repeats.
 *
 * The winner gives way.  A thread that has taken more than
 * NPTL_YIELD_STREAK locks since it last blocked, and whose unlock woke a
 * sleeper, yields its CPU (nptl_mutex_woke).  The kernel often queues the
 * woken thread on the waker's CPU, and a winner that never blocks would
 * keep it waiting there for the rest of a time slice: an occasional
 * locker beside threads that hammer the lock then waited 0.3-1.4 ms at
 * the 99th percentile, glibc 0.1 ms (bench/sync mutex-p99).  The yield
 * follows the word's release and touches nothing of the mutex.
 *
 * Neither the nap nor the yield touches shared state or holds anything:
 * they are delays around the protocol above, which lets any thread pause
 * anywhere, so its argument is unchanged.  No naps for timed calls, a
 * condvar's relock (that is the hand-off itself), other kinds (robust, PI
 * and PP have owners to boost or to recover), threads under a realtime
 * policy (whom the kernel queues by priority: __nptl_heat_nap), nor with
 * one usable CPU.
 */
#include <sys/resource.h>
#include "nptl.h"

static inline int load(int *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline bool cas(int *p, int *old, int new)
{
	return __atomic_compare_exchange_n(p, old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

#define IDLE_TICKS 5000         /* a lock untouched this long after a nap */
#define COLD_MIN 64             /* means no naps for so many conflicts, */
#define COLD_DOUBLINGS 8        /* doubling each time, so often */

__thread struct nptl_mutex_heat __nptl_mutex_heat
	__attribute__((tls_model("initial-exec")));

/* Did this thread block anywhere but in its own lock waits and naps since
 * the last call (the first call: since the thread began)?  A kernel that
 * refuses the call gets the answer that takes no nap.  */
static bool blocked_elsewhere(struct nptl_mutex_heat *me)
{
	struct rusage ru;
	if (nptl_sys2(SYS_getrusage, RUSAGE_THREAD, &ru))
		return true;
	long switches = ru.ru_nvcsw - me->nvcsw;
	unsigned int own = me->own_sleeps - me->own_seen;
	me->nvcsw = ru.ru_nvcsw;
	me->own_seen = me->own_sleeps;
	return switches > (long)own;
}

/* Does nobody take the lock for IDLE_TICKS?  */
static bool stays_free(int *w)
{
	unsigned long t0 = nptl_arch_ticks();
	do {
		if (load(w))
			return false;
		nptl_arch_pause();
	} while (nptl_arch_ticks() - t0 < IDLE_TICKS);
	return true;
}

/* A conflict on a simple mutex's word w: nap if this thread is hot.
 * Returns whether it napped.  */
static __attribute__((noinline)) bool conflict(int *w)
{
	struct nptl_mutex_heat *me = &__nptl_mutex_heat;
	if (!nptl_heat_conflict(&me->h))
		return false;
	if (me->cold) {
		me->cold--;
		me->h.hot = 0;
		return false;
	}
	if (blocked_elsewhere(me)) {
		me->h.hot = 0;
		return false;
	}
	if (!__nptl_heat_nap(&me->h))
		return false;
	me->own_sleeps++;
	me->acq_rest = me->h.acq;
	if (stays_free(w)) {
		/* Nobody used the lock while we were away: it was not a
		 * crowd but a hand-off (the other side now waits for us by
		 * some other means), and the nap only delayed it.  */
		me->cold = COLD_MIN << me->penalty;
		if (me->penalty < COLD_DOUBLINGS)
			me->penalty++;
		me->h.hot = 0;
	} else {
		me->penalty = 0;
	}
	return true;
}

/* Spin briefly for a simple lock word.  Only while the word says "locked,
 * nobody asleep" (1): once somebody sleeps (2) the owner is contended
 * enough that spinning would only steal CPU from it.  */
static bool simple_spin(int *w, int budget)
{
	for (int i = 0; i < budget; i++) {
		int v = load(w);
		if (v == 0) {
			if (cas(w, &v, 1))
				return true;
		} else if (v != 1) {
			return false;
		}
		nptl_arch_pause();
	}
	return false;
}

/* The sleeping half of lll_lock: returns 0, EINVAL or ETIMEDOUT.  A word
 * that already says "sleepers" (2) is slept on without first writing it:
 * under heavy contention each read-modify-write of the lock's cache line
 * is taken from the owner, who needs it to unlock.  */
static int simple_wait(int *w, bool private, clockid_t clock,
		       const struct timespec *abs)
{
	if (load(w) == 2)
		goto sleep;
	while (__atomic_exchange_n(w, 2, __ATOMIC_ACQUIRE) != 0) {
	sleep:
		if (abs) {
			/* Checked only now that the call would block.  */
			if (!nptl_valid_timespec(abs))
				return EINVAL;
			if (abs->tv_sec < 0)
				return ETIMEDOUT;
		}
		if (!abs) {
			if (nptl_futex_wait(w, 2, private) == 0)
				__nptl_mutex_heat.own_sleeps++;
			__nptl_mutex_heat.acq_rest = __nptl_mutex_heat.h.acq;
		} else if (nptl_futex_wait_abs(w, 2, clock, abs, private) ==
			   ETIMEDOUT) {
			return ETIMEDOUT;
		}
	}
	return 0;
}

static int simple_lock(pthread_mutex_t *m, int type, bool private,
		       clockid_t clock, const struct timespec *abs, int flags)
{
	int *w = &m->__data.__lock;
	int zero = 0;

	if (flags & NPTL_MUTEX_REQUEUED)
		return simple_wait(w, private, clock, abs);
	/* The fast path's CAS has just failed: look before writing again.  */
	if (load(w) == 0 && cas(w, &zero, 1))
		return 0;
	if (!abs && !(flags & NPTL_MUTEX_NO_INCR) && conflict(w)) {
		zero = 0;
		if (load(w) == 0 && cas(w, &zero, 1))
			return 0;
	}
	if (type == PTHREAD_MUTEX_ADAPTIVE_NP) {
		/* glibc's adaptive mutex: a per-mutex moving average of how
		 * long spinning took, bounded by the global budget.  */
		int spins = m->__data.__spins;
		int max = spins * 2 + 10;
		if (max > NPTL_SPIN_MUTEX)
			max = NPTL_SPIN_MUTEX;
		int cnt = 0;
		bool got = false;
		if (nptl_spin_pays()) {
			while (cnt < max) {
				cnt++;
				nptl_arch_pause();
				int v = load(w);
				if (v == 0 && cas(w, &v, 1)) {
					got = true;
					break;
				}
			}
		}
		m->__data.__spins = (short)(spins + (cnt - spins) / 8);
		if (got)
			return 0;
	} else if (type != PTHREAD_MUTEX_TIMED_NP && nptl_spin_pays() &&
		   simple_spin(w, NPTL_SPIN_MUTEX)) {
		/* Not for NORMAL mutexes, as in glibc: a contended lock with a
		 * tiny critical section goes faster when the loser sleeps (or
		 * naps) and the winner keeps the cache line (bench/sync
		 * mutex-N).  */
		return 0;
	}
	return simple_wait(w, private, clock, abs);
}


int __nptl_mutex_relock_own(pthread_mutex_t *m, int kind)
{
	struct pthread *self = nptl_self();
	if (kind == PTHREAD_MUTEX_ERRORCHECK_NP) {
		nptl_robust_pending(self, NULL);
		return EDEADLK;
	}
	if (kind == PTHREAD_MUTEX_RECURSIVE_NP) {
		nptl_robust_pending(self, NULL);
		return nptl_mutex_recount(m);
	}
	return -1;
}

int __nptl_mutex_owner_died(pthread_mutex_t *m, bool pi)
{
	if (pi)
		__atomic_fetch_and(&m->__data.__lock, ~FUTEX_OWNER_DIED,
				   __ATOMIC_RELAXED);
	m->__data.__count = 1;
	m->__data.__owner = NPTL_MUTEX_INCONSISTENT;
	__asm__ __volatile__("" ::: "memory");
	__nptl_robust_enqueue(m, pi);
	nptl_robust_pending(nptl_self(), NULL);
	return EOWNERDEAD;
}

int __nptl_mutex_unrecoverable(pthread_mutex_t *m, bool pi)
{
	int *w = &m->__data.__lock;
	m->__data.__count = 0;
	if (pi)
		nptl_sys2(SYS_futex, w, FUTEX_UNLOCK_PI);
	else if ((unsigned)__atomic_exchange_n(w, 0, __ATOMIC_RELEASE) & FUTEX_WAITERS)
		nptl_futex_wake(w, 1, false);   /* pass the news on */
	nptl_robust_pending(nptl_self(), NULL);
	return ENOTRECOVERABLE;
}

void __nptl_mutex_robust_taken(pthread_mutex_t *m, bool pi)
{
	__asm__ __volatile__("" ::: "memory");
	__nptl_robust_enqueue(m, pi);
	nptl_robust_pending(nptl_self(), NULL);
}

static int robust_lock(pthread_mutex_t *m, int type, pid_t id,
		       clockid_t clock, const struct timespec *abs, int flags)
{
	struct pthread *self = nptl_self();
	int *w = &m->__data.__lock;
	int kind = type & NPTL_MUTEX_KIND_MASK;
	unsigned assume = (flags & NPTL_MUTEX_REQUEUED) ? FUTEX_WAITERS : 0;

	nptl_robust_pending(self, &m->__data.__list.__next);
	int old = load(w);
	for (;;) {
		if (old == 0) {
			if (cas(w, &old, (int)(id | assume)))
				break;
			continue;
		}
		if (old & FUTEX_OWNER_DIED) {
			int new = id | (old & FUTEX_WAITERS) | assume;
			if (!cas(w, &old, new))
				continue;
			/* The dead owner's use is not ours to count.  */
			if (flags & NPTL_MUTEX_NO_INCR)
				m->__data.__nusers--;
			return __nptl_mutex_owner_died(m, false);
		}
		/* NORMAL/ADAPTIVE relock deadlocks, as in glibc.  */
		int r;
		if ((old & FUTEX_TID_MASK) == id &&
		    (r = __nptl_mutex_relock_own(m, kind)) >= 0)
			return r;
		if (abs) {
			if (!nptl_valid_timespec(abs) || abs->tv_sec < 0) {
				nptl_robust_pending(self, NULL);
				return abs->tv_sec < 0 && nptl_valid_timespec(abs)
					? ETIMEDOUT : EINVAL;
			}
		}
		if (!(old & FUTEX_WAITERS)) {
			if (!cas(w, &old, old | (int)FUTEX_WAITERS))
				continue;
			old |= (int)FUTEX_WAITERS;
		}
		assume |= FUTEX_WAITERS;
		if (nptl_futex_wait_abs(w, old, clock, abs, false) == ETIMEDOUT) {
			nptl_robust_pending(self, NULL);
			return ETIMEDOUT;
		}
		old = load(w);
	}

	if (m->__data.__owner == NPTL_MUTEX_NOTRECOVERABLE)
		return __nptl_mutex_unrecoverable(m, false);
	m->__data.__count = 1;
	__nptl_mutex_robust_taken(m, false);
	return 0;
}

static int pi_lock(pthread_mutex_t *m, int type, pid_t id,
		   clockid_t clock, const struct timespec *abs, int flags)
{
	struct pthread *self = nptl_self();
	int *w = &m->__data.__lock;
	int kind = type & NPTL_MUTEX_KIND_MASK;
	bool robust = type & NPTL_MUTEX_ROBUST;
	int priv = (!robust && !(type & NPTL_MUTEX_PSHARED)) ? FUTEX_PRIVATE_FLAG : 0;

	if (robust)
		nptl_robust_pending(self, (void *)((uintptr_t)&m->__data.__list.__next | 1));
	int old = load(w);
	int own;
	if ((old & FUTEX_TID_MASK) == id &&
	    (own = __nptl_mutex_relock_own(m, kind)) >= 0)
		return own;
	old = 0;
	if (!cas(w, &old, id)) {
		if (abs && (!nptl_valid_timespec(abs) || abs->tv_sec < 0)) {
			nptl_robust_pending(self, NULL);
			return nptl_valid_timespec(abs) ? ETIMEDOUT : EINVAL;
		}
		/* FUTEX_LOCK_PI measures on CLOCK_REALTIME; LOCK_PI2 (Linux
		 * 5.14) takes CLOCK_MONOTONIC, as glibc 2.36 does.  */
		int op = (abs && clock != CLOCK_REALTIME) ? FUTEX_LOCK_PI2
							   : FUTEX_LOCK_PI;
		long r;
		do
			r = nptl_sys4(SYS_futex, w, op | priv, 0, abs);
		while (r == -EINTR || r == -EAGAIN);
		if (r == -ESRCH || r == -EDEADLK) {
			/* Relocking a NORMAL PI mutex, or a non-robust owner
			 * that died: POSIX says this deadlocks; so it does
			 * (until the deadline, if any).  */
			int zero = 0;
			while (nptl_futex_wait_abs(&zero, 0, clock, abs, true)
			       != ETIMEDOUT)
				;
			nptl_robust_pending(self, NULL);
			return ETIMEDOUT;
		}
		if (r < 0) {
			nptl_robust_pending(self, NULL);
			return r == -ENOSYS ? EINVAL : (int)-r;
		}
		old = load(w);
	}

	if (old & FUTEX_OWNER_DIED) {
		if (flags & NPTL_MUTEX_NO_INCR)
			m->__data.__nusers--;
		return __nptl_mutex_owner_died(m, true);
	}
	if (robust && m->__data.__owner == NPTL_MUTEX_NOTRECOVERABLE)
		return __nptl_mutex_unrecoverable(m, true);
	m->__data.__count = 1;
	if (robust)
		__nptl_mutex_robust_taken(m, true);
	return 0;
}

int __nptl_mutex_pp_take(int *w, int cv, int state, bool private,
			 clockid_t clock, const struct timespec *abs, int *seen)
{
	int v = cv;
	if (cas(w, &v, cv | state))
		return 0;
	for (;;) {
		if ((v & (int)NPTL_MUTEX_CEILING_MASK) != cv) {
			*seen = v;
			return -1;
		}
		if (v == cv) {
			/* Free again, but others may sleep: leave "sleepers".  */
			if (cas(w, &v, cv | 2))
				return 0;
			continue;
		}
		if (v == (cv | 1)) {
			if (!cas(w, &v, cv | 2))
				continue;
			v = cv | 2;
		}
		if (abs) {
			/* Checked only now that the call would block.  */
			if (!nptl_valid_timespec(abs))
				return EINVAL;
			if (abs->tv_sec < 0)
				return ETIMEDOUT;
		}
		if (nptl_futex_wait_abs(w, v, clock, abs, private) == ETIMEDOUT)
			return ETIMEDOUT;
		v = load(w);
	}
}

static int pp_lock(pthread_mutex_t *m, int type, pid_t id, clockid_t clock,
		   const struct timespec *abs, int flags)
{
	int *w = &m->__data.__lock;
	int kind = type & NPTL_MUTEX_KIND_MASK;

	if (m->__data.__owner == id) {
		if (kind == PTHREAD_MUTEX_ERRORCHECK_NP)
			return EDEADLK;
		if (kind == PTHREAD_MUTEX_RECURSIVE_NP)
			return nptl_mutex_recount(m);
	}
	/* A condvar's relock leaves "sleepers", as glibc does.  */
	int state = (flags & (NPTL_MUTEX_NO_INCR | NPTL_MUTEX_REQUEUED)) ? 2 : 1;
	int held = -1;          /* the ceiling counted in */
	int v = load(w), r;
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
		r = __nptl_mutex_pp_take(w, c << NPTL_MUTEX_CEILING_SHIFT, state,
					 !(type & NPTL_MUTEX_PSHARED), clock,
					 abs, &v);
		if (r != -1)
			break;
	}
	if (r) {
		/* Unlike glibc, which keeps the ceiling counted after a
		 * timeout: the thread does not hold the mutex.  */
		if (held != -1)
			__nptl_tpp_change(held, -1);
		return r;
	}
	m->__data.__count = 1;
	return 0;
}

int __nptl_mutex_lock_common(pthread_mutex_t *m, clockid_t clock,
			     const struct timespec *abs, int flags)
{
	int type = NPTL_MUTEX_TYPE(__atomic_load_n(&m->__data.__kind,
						   __ATOMIC_RELAXED));
	pid_t id = nptl_self()->tid;
	int r;

	if (type & NPTL_MUTEX_PP) {
		/* Robust or PI PP: no such mutex; also a destroyed one (-1).  */
		if (type & (NPTL_MUTEX_ROBUST | NPTL_MUTEX_PI))
			return EINVAL;
		r = pp_lock(m, type, id, clock, abs, flags);
		if (r || m->__data.__owner == id)
			return r;
	} else if (type & NPTL_MUTEX_PI) {
		r = pi_lock(m, type, id, clock, abs, flags);
		if (r || m->__data.__owner == id)
			return r;
	} else if (type & NPTL_MUTEX_ROBUST) {
		r = robust_lock(m, type, id, clock, abs, flags);
		/* A recursive relock returns 0 with __owner already ours.  */
		if (r || m->__data.__owner == id)
			return r;
	} else {
		bool private = !(type & NPTL_MUTEX_PSHARED);
		switch (type & ~NPTL_MUTEX_PSHARED) {
		case PTHREAD_MUTEX_RECURSIVE_NP:
			if (m->__data.__owner == id)
				return nptl_mutex_recount(m);
			break;
		case PTHREAD_MUTEX_ERRORCHECK_NP:
			if (m->__data.__owner == id)
				return EDEADLK;
			break;
		case PTHREAD_MUTEX_TIMED_NP:
		case PTHREAD_MUTEX_ADAPTIVE_NP:
			break;
		default:
			return EINVAL;
		}
		r = simple_lock(m, type & NPTL_MUTEX_KIND_MASK, private,
				clock, abs, flags);
		if (r)
			return r;
		if ((type & NPTL_MUTEX_KIND_MASK) == PTHREAD_MUTEX_RECURSIVE_NP)
			m->__data.__count = 1;
	}
	m->__data.__owner = id;
	if (!(flags & NPTL_MUTEX_NO_INCR))
		m->__data.__nusers++;
	__nptl_mutex_heat.h.acq++;
	return 0;
}
