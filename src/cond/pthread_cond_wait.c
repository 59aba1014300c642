// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Condition variables: the waiting side, and the protocol.
 *
 * This is the protocol of process-private condvars.  A process-shared
 * condvar (bit 0 of __wrefs) follows glibc's own protocol instead, so that
 * glibc processes can share it: every entry point hands it to
 * src/glibc/cond.c before touching anything else.
 *
 * The protocol is a sequence futex.  `seq` is the futex word; every
 * signal or broadcast that finds a waiter bumps it, and a waiter sleeps on
 * the value it read before it released the mutex:
 *
 *	waiter (holds m)                     signaller / broadcaster
 *	  snap = seq                           if no waiter registered: return
 *	  wrefs += WAITER   (register)         seq += 1
 *	  unlock m                             if sleepers: FUTEX_WAKE 1 (signal)
 *	  spin while seq == snap (bounded)       or FUTEX_WAKE all (broadcast)
 *	  sleepers += 1
 *	  FUTEX_WAIT(seq, snap)
 *	  sleepers -= 1; wrefs -= WAITER; relock m
 *
 * Why no wake-up is lost.  A waiter reads seq before it releases the
 * mutex, so any signal that runs after the release (which is every signal
 * that must wake it: a signaller holds or has held the mutex) bumps seq
 * after the snapshot; the kernel compares seq with the snapshot atomically
 * with queueing the waiter, so the waiter either never sleeps or is queued
 * before the bump.  The signaller skips FUTEX_WAKE only when it reads
 * sleepers == 0 after its bump; the waiter increments sleepers before
 * FUTEX_WAIT reads seq; both are sequentially consistent, so at least one
 * sees the other (Dekker): either the wake is issued, or FUTEX_WAIT returns
 * at once.  So each signal releases every registered waiter that is not
 * yet asleep, and wakes one that is asleep if there is one: with the mutex
 * held across the signal, no new waiter can arrive between the bump and the
 * wake, so whoever FUTEX_WAKE picks was waiting when the signal was sent.
 * There are no groups or per-signal tokens that a later waiter could take
 * from an earlier one (glibc bug 25847): a waiter that starts after a
 * signal has read the bumped seq and is not released by it.  Extra
 * wake-ups (several spinning waiters released by one signal, EINTR) are
 * the spurious wake-ups POSIX allows.  tests/model/condvar.pml checks this
 * with Spin.  The only hole is ABA on seq: 2^32 signals between a
 * waiter's snapshot and its FUTEX_WAIT.
 *
 * A waiter that was woken (seq moved) but then times out or is cancelled
 * must not swallow a signal: on timeout it reports success if seq moved;
 * when cancelled it passes a wake-up on to another sleeper.
 *
 * Cancellation.  A request pending at entry acts there, with the mutex
 * still held as POSIX wants it for the cleanup handlers, whatever the wait
 * would have done (glibc acts only in the futex wait, so not for a
 * deadline before 1970, which returns ETIMEDOUT without one).  One
 * requested after that is seen by the futex wait's asynchronous switch,
 * which tests the word before it sleeps; a waiter released by a signal
 * while it spins returns normally (the signal took effect), and the
 * request acts at the next cancellation point.
 *
 * Broadcast wakes one sleeper and requeues the others onto the mutex's
 * lock word where it can (pthread_cond_broadcast.c): so a waiter that
 * slept while such a broadcast happened relocks the mutex as a requeued
 * one would, leaving the lock word "with waiters", and every waiter
 * records the mutex in the condvar for the broadcaster and for
 * pthread_cond_destroy.
 *
 * Several mutexes.  The requeue chain needs every requeued sleeper to
 * relock the word it was moved onto, so a broadcast may requeue only
 * while all registered waiters have one mutex.  A program may wait with
 * another mutex once the earlier waits are over, and LTP's
 * pthread_cond_timedwait/2-5 does so while the waiters a broadcast
 * released are still relocking the first mutex (POSIX leaves that
 * undefined; glibc copes, and so must we: moved onto the second mutex's
 * word, they slept there for good).  bind_mutex keeps the rule: a waiter
 * that finds another mutex recorded replaces it if it was alone when it
 * registered, else marks the condvar MIXED (no requeue until a waiter
 * finds itself alone again), and in both cases bumps seq before taking
 * its snapshot again.  The bump fails the FUTEX_CMP_REQUEUE of a
 * broadcast that read the old mutex before the change (its seq no longer
 * matches) and sends it to FUTEX_WAKE; a broadcast that reads after the
 * change sees the new state.  A waiter alone at registration checks the
 * count again after its change, since one that registered meanwhile may
 * have judged by the value it replaced (Dekker again: one of the two sees
 * the other).  The bump releases spinning waiters spuriously, which POSIX
 * allows; sleepers stay asleep.  tests/model/condvar.pml (MIXED) checks
 * this with two mutexes, and catches each step left out.
 *
 * Destruction (glibc's rule): pthread_cond_destroy waits until every waiter
 * has left the call (wrefs counts them; the last one wakes the destroyer),
 * so a woken waiter may still touch the condvar while the program, having
 * seen the predicate, destroys it.  A waiter's last access is that
 * decrement (and a FUTEX_WAKE on a word that may be gone, as in glibc).
 *
 * Spinning.  Sleeping costs a wake-up in the kernel for both sides, so
 * a waiter first spins on seq, if there is another CPU, for a budget that
 * adapts per condvar (src/spin/handoff.c; the signaller stamps c->woke_at
 * before a FUTEX_WAKE).  A waiter released while spinning also waits
 * briefly for the mutex to be released before it relocks it, since the
 * signaller usually still holds it.
 */
#include "nptl.h"

static inline struct nptl_cond *cv(pthread_cond_t *c)
{
	return (struct nptl_cond *)c;
}

/* The waiter has left: the last one out wakes a waiting destroyer.  */
static void leave(struct nptl_cond *c, bool private)
{
	unsigned int w = __atomic_fetch_sub(nptl_cond_wrefs(c), NPTL_COND_WAITER,
					    __ATOMIC_RELEASE);
	if (w / NPTL_COND_WAITER == 1 && (w & NPTL_COND_DESTROYING))
		nptl_futex_wake(nptl_cond_wrefs(c), INT32_MAX, private);
}

/* What a cancellation in FUTEX_WAIT must undo: leave the condvar, pass on
 * a wake-up we may have taken, and relock the mutex before the caller's
 * cleanup handlers run.  */
struct wait_guard {
	struct nptl_cond *c;
	pthread_mutex_t *m;
	unsigned int snap;
	bool private;
	bool armed;
};

/* Whether a broadcast may have requeued this sleeper (seq snapshot snap)
 * onto the mutex's lock word (pthread_cond_broadcast.c); read before
 * leaving the condvar (after that it may be gone).  */
static bool maybe_requeued(struct nptl_cond *c, unsigned int snap)
{
	return (int)(__atomic_load_n(&c->requeued_below, __ATOMIC_SEQ_CST) -
		     snap) > 0;
}

/* Relock after a sleep on seq.  A requeued waiter must leave the word
 * "with waiters" for the others the broadcast requeued (see
 * pthread_cond_broadcast.c).  */
static int relock_after_sleep(pthread_mutex_t *m, bool requeued)
{
	int *word;
	bool private;
	if (requeued && __nptl_mutex_requeue_word(m, &word, &private))
		return __nptl_mutex_lock_requeued(m);
	return __nptl_mutex_relock_after_wait(m);
}

/* Record m as the mutex of c's waiters (see "Several mutexes" above);
 * `others` waiters were registered before us.  False if c->mutex changed,
 * and then seq has moved: the caller takes its snapshot again.  */
static bool bind_mutex(struct nptl_cond *c, pthread_mutex_t *m,
		       unsigned int others)
{
	uintptr_t cur = __atomic_load_n(&c->mutex, __ATOMIC_SEQ_CST), want;
	if (cur == (uintptr_t)m)
		return true;
	do {
		want = others ? cur | NPTL_COND_MIXED : (uintptr_t)m;
		if (want == cur)
			return true;    /* already marked mixed */
	} while (!__atomic_compare_exchange_n(&c->mutex, &cur, want, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	/* Alone when we registered, but another may have registered since
	 * and judged by the value we replaced.  */
	if (!others &&
	    __atomic_load_n(nptl_cond_wrefs(c), __ATOMIC_SEQ_CST) /
	    NPTL_COND_WAITER > 1)
		__atomic_fetch_or(&c->mutex, NPTL_COND_MIXED, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&c->seq, 1, __ATOMIC_SEQ_CST);
	return false;
}

static void wait_unwind(struct wait_guard *g)
{
	if (!g->armed)
		return;
	struct nptl_cond *c = g->c;
	__atomic_fetch_sub(&c->sleepers, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->seq, __ATOMIC_RELAXED) != g->snap)
		nptl_futex_wake(&c->seq, 1, g->private);
	bool requeued = maybe_requeued(c, g->snap);
	leave(c, g->private);
	relock_after_sleep(g->m, requeued);
}

/* Spin while seq == snap; true if it moved.  */
static bool spin_for_signal(struct nptl_cond *c, unsigned int snap, int budget)
{
	for (int i = 0; i < budget; i++) {
		if (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) != snap) {
			__nptl_handoff_caught(&c->spin, budget, i);
			return true;
		}
		nptl_arch_pause();
	}
	return false;
}

/* The signaller usually still holds the mutex: wait briefly for it to
 * let go, so that relocking does not go to sleep on it.  */
static void spin_for_mutex(pthread_mutex_t *m)
{
	int *word;
	bool private;
	if (!__nptl_mutex_requeue_word(m, &word, &private))
		return;
	for (int i = 0; i < NPTL_SPIN_RELOCK; i++) {
		int v = __atomic_load_n(word, __ATOMIC_RELAXED);
		if (v == 0 || v == 2)
			return;
		nptl_arch_pause();
	}
}

int __nptl_cond_wait(pthread_cond_t *cond, pthread_mutex_t *m, clockid_t clock,
		     const struct timespec *abs)
{
	nptl_testcancel();
	struct nptl_cond *c = cv(cond);
	/* Process-shared: glibc's protocol, which glibc processes sharing the
	 * condvar follow (src/glibc/cond.c).  The bit is set at init.  */
	if (__atomic_load_n(nptl_cond_wrefs(c), __ATOMIC_RELAXED) &
	    NPTL_COND_SHARED)
		return __nptl_glibc_cond_wait(cond, m, clock, abs);
	unsigned int snap = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
	unsigned int flags = __atomic_fetch_add(nptl_cond_wrefs(c), NPTL_COND_WAITER,
						__ATOMIC_SEQ_CST);
	bool private = !(flags & NPTL_COND_SHARED);

	/* For a broadcast's requeue and for destroy (only the waiters' own
	 * process can use the pointer: private condvars only).  */
	if (private && !bind_mutex(c, m, flags / NPTL_COND_WAITER))
		snap = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
	int err = __nptl_mutex_unlock_for_wait(m);
	if (err) {
		leave(c, private);
		return err;
	}

	int result = 0;
	bool requeued = false;
	bool spin = nptl_spin_pays() &&
		    !nptl_handoff_colocated(&c->waker_cpu);
	int budget = spin ? __nptl_handoff_budget(&c->spin) : 0;
	if (spin && !nptl_self_cancel_pending() && spin_for_signal(c, snap, budget)) {
		leave(c, private);
		spin_for_mutex(m);
		err = __nptl_mutex_relock_after_wait(m);
		return err ? err : 0;
	}

	if (abs && abs->tv_sec < 0) {
		result = ETIMEDOUT;
	} else {
		unsigned int t0 = spin ? __nptl_handoff_now() : 0;
		__atomic_fetch_add(&c->sleepers, 1, __ATOMIC_SEQ_CST);
		struct wait_guard guard __attribute__((cleanup(wait_unwind))) = {
			c, m, snap, private, true
		};
		for (;;) {
			int oldtype = __nptl_enable_asynccancel();
			int r = nptl_futex_wait_abs(&c->seq, (int)snap, clock, abs,
						    private);
			__nptl_disable_asynccancel(oldtype);
			if (r == ETIMEDOUT) {
				if (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) == snap)
					result = ETIMEDOUT;
				break;
			}
			/* EINTR with nothing sent: not worth a spurious wake-up.  */
			if (r != EINTR ||
			    __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) != snap)
				break;
		}
		guard.armed = false;
		requeued = maybe_requeued(c, snap);
		__atomic_fetch_sub(&c->sleepers, 1, __ATOMIC_SEQ_CST);
		/* Woken: could spinning have bridged the wait?  */
		if (spin && !result)
			__nptl_handoff_slept(&c->spin, budget, t0, &c->woke_at);
	}
	leave(c, private);

	err = relock_after_sleep(m, requeued);
	return err ? err : result;
}

NPTL_API int __nptl_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	return __nptl_cond_wait(c, m, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cond_wait, pthread_cond_wait, GLIBC_2.3.2);

NPTL_API int __nptl_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
					   const struct timespec *abs)
{
	if (!nptl_valid_timespec(abs))
		return EINVAL;
	unsigned int flags = __atomic_load_n(nptl_cond_wrefs(cv(c)), __ATOMIC_RELAXED);
	return __nptl_cond_wait(c, m, (flags & NPTL_COND_MONOTONIC) ?
				CLOCK_MONOTONIC : CLOCK_REALTIME, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cond_timedwait, pthread_cond_timedwait,
		    GLIBC_2.3.2);

NPTL_API int __nptl_pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m,
					   clockid_t clock,
					   const struct timespec *abs)
{
	if (!nptl_valid_timespec(abs))
		return EINVAL;
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return EINVAL;
	return __nptl_cond_wait(c, m, clock, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cond_clockwait, pthread_cond_clockwait,
		    GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_cond_clockwait, pthread_cond_clockwait,
		   GLIBC_2.30);
