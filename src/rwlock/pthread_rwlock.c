// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Read-write locks: lock, trylock, timed and clock variants, unlock.
 *
 * The lock is one word, `state`: the number of readers holding it, the
 * NPTL_RW_WRLOCKED bit while a writer holds it, and NPTL_RW_WAITERS while
 * some thread may be queued.  Without waiters every operation is a single
 * atomic operation on `state`: a fetch_add for a reader (rdlock_fast()),
 * a CAS for the rest.
 *
 * Queuing happens under `lk`, a small internal lock that only the slow
 * path takes.  Under lk a thread that cannot acquire counts itself in
 * rwait/wwait, reads the futex sequence word of its kind (rseq/wseq), drops
 * lk and futex-waits on it.  Waking means: under lk, bump the sequence and
 * futex-wake.  Why no wake-up is lost:
 *  - a waiter sets WAITERS by a CAS from the very state value it judged
 *    "cannot acquire"; if the state changed meanwhile (a release) the CAS
 *    fails and it judges again.  So every release that happens after the
 *    judgement sees WAITERS;
 *  - a release that sees WAITERS does its final step under lk, and lk was
 *    held by the waiter from its judgement until it read the sequence
 *    word; the release's bump therefore comes after that read, and the
 *    waiter's futex wait returns at once if it has not slept yet;
 *  - WAITERS is cleared only under lk and only when rwait and wwait are
 *    both 0; woken threads stay counted until they retake lk, so the bit
 *    cannot vanish while anyone still depends on a later release.
 * A releaser that makes the lock free wakes per the kind (kick() below);
 * a waiter that gives up (timeout) kicks too, so that readers a timed-out
 * writer held back need not wait for the next release.  The counts only
 * decide whom to wake, never whether to wait: a process killed while
 * queued leaves a count too high, which costs spurious wake-ups and
 * nothing else (except that, with writer preference, a dead queued writer
 * keeps holding readers back, as in glibc).  tests/model/rwlock.pml is a
 * spin model of exactly this protocol (tests/model/rwlock.sh checks it).
 *
 * Kinds, read from glibc's `__flags` so static initializers work:
 * PTHREAD_RWLOCK_PREFER_READER_NP and PTHREAD_RWLOCK_PREFER_WRITER_NP
 * (which glibc treats alike) let a reader in whenever no writer holds the
 * lock, and a freed lock wakes all queued readers and one writer, who race
 * for it.
 * PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP blocks new readers as soon
 * as a writer is queued (WAITERS sends them to the slow path, which looks
 * at wwait), and a freed lock wakes a writer first: a writer waits at most
 * for the readers that were already inside.  As in glibc, a reader that
 * read-locks again while a writer is queued deadlocks with this kind.
 *
 * As in glibc: the writer's tid in `cur_writer` gives EDEADLK for locking
 * again and tells unlock which lock the caller holds; bad timeouts are
 * EINVAL even when the lock is free.  Unlike glibc, unlocking a lock the
 * caller cannot hold (no reader, not our write lock) is EPERM rather than
 * corruption.
 */
#include <limits.h>
#include "nptl.h"

#define SPIN 100

static inline struct nptl_rwlock *rwl(pthread_rwlock_t *rw)
{
	return (struct nptl_rwlock *)rw;
}

static inline bool is_private(const struct nptl_rwlock *rw)
{
	return rw->shared == 0;
}

static inline bool writer_first(const struct nptl_rwlock *rw)
{
	return rw->flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP;
}

static inline bool cas(unsigned int *p, unsigned int *old, unsigned int new)
{
	return __atomic_compare_exchange_n(p, old, new, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_RELAXED);
}

static inline unsigned int load(unsigned int *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* The internal lock: glibc's 0/1/2 lock, on a private or shared futex.  */
static void lk_lock(struct nptl_rwlock *rw)
{
	int c = 0;
	if (__atomic_compare_exchange_n(&rw->lk, &c, 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	while (__atomic_exchange_n(&rw->lk, 2, __ATOMIC_ACQUIRE) != 0)
		nptl_futex_wait(&rw->lk, 2, is_private(rw));
}

static void lk_unlock(struct nptl_rwlock *rw)
{
	bool private = is_private(rw);
	if (__atomic_exchange_n(&rw->lk, 0, __ATOMIC_RELEASE) == 2)
		nptl_futex_wake(&rw->lk, 1, private);
}

/* The WAITERS bit a slow-path acquirer leaves behind (under lk).  */
static inline unsigned int waiters_bit(const struct nptl_rwlock *rw)
{
	return rw->rwait || rw->wwait ? NPTL_RW_WAITERS : 0;
}

static void wake_readers(struct nptl_rwlock *rw)
{
	__atomic_add_fetch(&rw->rseq, 1, __ATOMIC_RELEASE);
	nptl_futex_wake(&rw->rseq, INT_MAX, is_private(rw));
}

static void wake_writer(struct nptl_rwlock *rw)
{
	__atomic_add_fetch(&rw->wseq, 1, __ATOMIC_RELEASE);
	nptl_futex_wake(&rw->wseq, 1, is_private(rw));
}

/* Under lk: wake whoever can make progress in the current state.  */
static void kick(struct nptl_rwlock *rw)
{
	unsigned int s = load(&rw->state);
	if (!rw->rwait && !rw->wwait) {
		while ((s & NPTL_RW_WAITERS) &&
		       !cas(&rw->state, &s, s & ~NPTL_RW_WAITERS))
			;
		return;
	}
	if (s & NPTL_RW_WRLOCKED)
		return;         /* its unlock kicks */
	bool free = (s & NPTL_RW_READERS) == 0;
	if (writer_first(rw)) {
		if (rw->wwait) {
			if (free)
				wake_writer(rw);
		} else {
			wake_readers(rw);
		}
	} else {
		/* Readers first; but when the lock is free a writer is woken
		 * too, to race them: the counts include processes killed
		 * while queued, so "readers queued" might never come true
		 * and must not be all that wakes a writer.  */
		if (rw->rwait)
			wake_readers(rw);
		if (free && rw->wwait)
			wake_writer(rw);
	}
}

static int check_abs(clockid_t clock, const struct timespec *abs)
{
	if (abs && ((clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) ||
		    !nptl_valid_timespec(abs)))
		return EINVAL;
	return 0;
}

/* Sleep on *seq (value v) with lk dropped; lk is held again on return.
 * Returns 0 or ETIMEDOUT.  */
static int queue_wait(struct nptl_rwlock *rw, unsigned int *seq,
		      unsigned int v, clockid_t clock,
		      const struct timespec *abs)
{
	lk_unlock(rw);
	int r = nptl_futex_wait_abs(seq, (int)v, clock, abs, is_private(rw));
	lk_lock(rw);
	return r == ETIMEDOUT ? ETIMEDOUT : 0;
}

static bool reader_may_enter(const struct nptl_rwlock *rw, unsigned int s,
			     bool locked)
{
	if (s & NPTL_RW_WRLOCKED)
		return false;
	if (writer_first(rw))
		return locked ? rw->wwait == 0 : !(s & NPTL_RW_WAITERS);
	return true;
}

/* The release of a read count that may be the last one while waiters are
 * queued: its last step is under lk (see top).  */
static __attribute__((noinline)) void read_release_queued(struct nptl_rwlock *rw)
{
	lk_lock(rw);
	unsigned int s = __atomic_sub_fetch(&rw->state, 1, __ATOMIC_RELEASE);
	if ((s & NPTL_RW_READERS) == 0)
		kick(rw);
	lk_unlock(rw);
}

/* Give back one read count (state s was just loaded); EPERM if there is
 * none to give back.  */
static inline int read_release(struct nptl_rwlock *rw, unsigned int s)
{
	for (;;) {
		if ((s & NPTL_RW_READERS) == 0)
			return EPERM;
		if ((s & NPTL_RW_WAITERS) && (s & NPTL_RW_READERS) == 1) {
			read_release_queued(rw);
			return 0;
		}
		if (cas(&rw->state, &s, s - 1))
			return 0;
	}
}

/* The reader's fast path is one fetch_add: contending readers never
 * retry, unlike with a CAS.  A reader that finds it may not enter has
 * briefly counted itself as a holder; it gives the count back exactly as
 * a read-unlock does (which wakes whom the count held back), then takes
 * the slow path.  A writer never enters while such a count is present,
 * and a reader adds at most one before it queues, so these counts cannot
 * starve a writer of the writer-preferring kind.  */
static inline bool rdlock_fast(struct nptl_rwlock *rw)
{
	unsigned int s = __atomic_fetch_add(&rw->state, 1, __ATOMIC_ACQUIRE);
	if (reader_may_enter(rw, s, false) &&
	    (s & NPTL_RW_READERS) < NPTL_RW_MAX_READERS)
		return true;
	read_release(rw, s + 1);
	return false;
}

/* After the fast path: spin briefly while a writer is inside, then queue.  */
static __attribute__((noinline)) int rdlock(pthread_rwlock_t *lock, bool try,
					    clockid_t clock,
					    const struct timespec *abs)
{
	struct nptl_rwlock *rw = rwl(lock);
	unsigned int s = load(&rw->state);

	/* Then a brief spin while a writer is inside.  */
	int spin = try || __nptl_sync_ncpu() < 2 ? 0 : SPIN;
	for (;;) {
		if (reader_may_enter(rw, s, false)) {
			if ((s & NPTL_RW_READERS) >= NPTL_RW_MAX_READERS)
				return EAGAIN;
			if (cas(&rw->state, &s, s + 1))
				return 0;
			continue;
		}
		if (spin-- <= 0)
			break;
		__builtin_ia32_pause();
		s = load(&rw->state);
	}

	int err = 0;
	lk_lock(rw);
	for (;;) {
		s = load(&rw->state);
		if (reader_may_enter(rw, s, true)) {
			if ((s & NPTL_RW_READERS) >= NPTL_RW_MAX_READERS) {
				err = EAGAIN;
				break;
			}
			unsigned int n = ((s + 1) & ~NPTL_RW_WAITERS) | waiters_bit(rw);
			if (cas(&rw->state, &s, n))
				break;
			continue;
		}
		if (try) {
			err = EBUSY;
			break;
		}
		if (abs && abs->tv_sec < 0) {
			err = ETIMEDOUT;
			break;
		}
		if (!(s & NPTL_RW_WAITERS) &&
		    !cas(&rw->state, &s, s | NPTL_RW_WAITERS))
			continue;
		rw->rwait++;
		unsigned int v = load(&rw->rseq);
		int r = queue_wait(rw, &rw->rseq, v, clock, abs);
		rw->rwait--;
		if (r == ETIMEDOUT) {
			kick(rw);
			err = ETIMEDOUT;
			break;
		}
	}
	lk_unlock(rw);
	return err;
}

static int wrlock(pthread_rwlock_t *lock, bool try, clockid_t clock,
		  const struct timespec *abs)
{
	struct nptl_rwlock *rw = rwl(lock);
	int tid = nptl_self()->tid;
	unsigned int s = load(&rw->state);

	/* A writer may barge in whenever nobody holds the lock, waiters or
	 * not: the waiters are someone's to wake when it is released.  */
	int spin = try || __nptl_sync_ncpu() < 2 ? 0 : SPIN;
	for (;;) {
		if ((s & ~NPTL_RW_WAITERS) == 0) {
			if (cas(&rw->state, &s, s | NPTL_RW_WRLOCKED))
				goto got;
			continue;
		}
		if (spin-- <= 0)
			break;
		__builtin_ia32_pause();
		s = load(&rw->state);
	}
	if (try)
		return EBUSY;

	int err = 0;
	lk_lock(rw);
	for (;;) {
		s = load(&rw->state);
		if ((s & ~NPTL_RW_WAITERS) == 0) {
			if (cas(&rw->state, &s, NPTL_RW_WRLOCKED | waiters_bit(rw)))
				break;
			continue;
		}
		if (abs && abs->tv_sec < 0) {
			err = ETIMEDOUT;
			break;
		}
		if (!(s & NPTL_RW_WAITERS) &&
		    !cas(&rw->state, &s, s | NPTL_RW_WAITERS))
			continue;
		rw->wwait++;
		unsigned int v = load(&rw->wseq);
		int r = queue_wait(rw, &rw->wseq, v, clock, abs);
		rw->wwait--;
		if (r == ETIMEDOUT) {
			kick(rw);
			err = ETIMEDOUT;
			break;
		}
	}
	lk_unlock(rw);
	if (err)
		return err;
got:
	__atomic_store_n(&rw->cur_writer, tid, __ATOMIC_RELAXED);
	return 0;
}

static int self_is_writer(pthread_rwlock_t *lock)
{
	return __atomic_load_n(&rwl(lock)->cur_writer, __ATOMIC_RELAXED) ==
	       nptl_self()->tid;
}

static int rdlock_checked(pthread_rwlock_t *lock, clockid_t clock,
			  const struct timespec *abs)
{
	int err = check_abs(clock, abs);
	if (err)
		return err;
	/* A reader let in by the fast path found no writer inside, so it
	 * is not the writer: EDEADLK needs checking only after it failed.  */
	if (rdlock_fast(rwl(lock)))
		return 0;
	if (self_is_writer(lock))
		return EDEADLK;
	return rdlock(lock, false, clock, abs);
}

static int wrlock_checked(pthread_rwlock_t *lock, clockid_t clock,
			  const struct timespec *abs)
{
	int err = check_abs(clock, abs);
	if (err)
		return err;
	if (self_is_writer(lock))
		return EDEADLK;
	return wrlock(lock, false, clock, abs);
}

NPTL_API int __nptl_pthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
	return rdlock_checked(rw, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_rdlock, pthread_rwlock_rdlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_rdlock, pthread_rwlock_rdlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_rdlock) __nptl___pthread_rwlock_rdlock
	__attribute__((alias("__nptl_pthread_rwlock_rdlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_rdlock, __pthread_rwlock_rdlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_tryrdlock(pthread_rwlock_t *rw)
{
	return rdlock(rw, true, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_tryrdlock, pthread_rwlock_tryrdlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_tryrdlock, pthread_rwlock_tryrdlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_tryrdlock) __nptl___pthread_rwlock_tryrdlock
	__attribute__((alias("__nptl_pthread_rwlock_tryrdlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_tryrdlock, __pthread_rwlock_tryrdlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_timedrdlock(pthread_rwlock_t *rw,
					       const struct timespec *abs)
{
	return rdlock_checked(rw, CLOCK_REALTIME, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_timedrdlock, pthread_rwlock_timedrdlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_timedrdlock, pthread_rwlock_timedrdlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_clockrdlock(pthread_rwlock_t *rw,
					       clockid_t clock,
					       const struct timespec *abs)
{
	return rdlock_checked(rw, clock, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_clockrdlock, pthread_rwlock_clockrdlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_clockrdlock, pthread_rwlock_clockrdlock, GLIBC_2.30);

NPTL_API int __nptl_pthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
	return wrlock_checked(rw, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_wrlock, pthread_rwlock_wrlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_wrlock, pthread_rwlock_wrlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_wrlock) __nptl___pthread_rwlock_wrlock
	__attribute__((alias("__nptl_pthread_rwlock_wrlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_wrlock, __pthread_rwlock_wrlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_trywrlock(pthread_rwlock_t *rw)
{
	return wrlock(rw, true, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_trywrlock, pthread_rwlock_trywrlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_trywrlock, pthread_rwlock_trywrlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_trywrlock) __nptl___pthread_rwlock_trywrlock
	__attribute__((alias("__nptl_pthread_rwlock_trywrlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_trywrlock, __pthread_rwlock_trywrlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_timedwrlock(pthread_rwlock_t *rw,
					       const struct timespec *abs)
{
	return wrlock_checked(rw, CLOCK_REALTIME, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_timedwrlock, pthread_rwlock_timedwrlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_timedwrlock, pthread_rwlock_timedwrlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_clockwrlock(pthread_rwlock_t *rw,
					       clockid_t clock,
					       const struct timespec *abs)
{
	return wrlock_checked(rw, clock, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_clockwrlock, pthread_rwlock_clockwrlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_clockwrlock, pthread_rwlock_clockwrlock, GLIBC_2.30);

static __attribute__((noinline)) void write_release_queued(struct nptl_rwlock *rw)
{
	lk_lock(rw);
	__atomic_and_fetch(&rw->state, ~NPTL_RW_WRLOCKED, __ATOMIC_RELEASE);
	kick(rw);
	lk_unlock(rw);
}

/* A release that sees WAITERS takes its last step under lk (see top);
 * one that does not is a single CAS.  */
NPTL_API int __nptl_pthread_rwlock_unlock(pthread_rwlock_t *lock)
{
	struct nptl_rwlock *rw = rwl(lock);
	unsigned int s = load(&rw->state);

	if ((s & NPTL_RW_WRLOCKED) && self_is_writer(lock)) {
		__atomic_store_n(&rw->cur_writer, 0, __ATOMIC_RELAXED);
		while (!(s & NPTL_RW_WAITERS)) {
			if (cas(&rw->state, &s, s & ~NPTL_RW_WRLOCKED))
				return 0;
		}
		write_release_queued(rw);
		return 0;
	}

	return read_release(rw, s);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_unlock, pthread_rwlock_unlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_unlock, pthread_rwlock_unlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_unlock) __nptl___pthread_rwlock_unlock
	__attribute__((alias("__nptl_pthread_rwlock_unlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_unlock, __pthread_rwlock_unlock, GLIBC_2.2.5);
