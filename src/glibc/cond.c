// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glibc's condition variable protocol, which libnptl follows for every
 * process-shared condvar (bit 0 of __wrefs, as pthread_cond_init of either
 * library writes it), so that libnptl and glibc processes can wait on,
 * signal and broadcast one condvar in shared memory.  Process-private
 * condvars keep libnptl's own protocol (src/cond/pthread_cond_wait.c).
 * The protocol is glibc's private business, and glibc 2.41 changed it
 * together with the layout (its fix of bug 25847, which upstream also
 * put on the 2.38-2.40 branches, not on 2.36's): the running libc's row
 * (builds.c, cond_group_refs) picks the layout and the protocol at run
 * time, and probe.c checks at start-up, by running libc's own
 * pthread_cond_signal on a scratch condvar, that the running libc really
 * follows the protocol its row names.  Nothing here depends on the
 * <pthread.h> libnptl was compiled against.
 *
 * The state, in glibc's pthread_cond_t (struct glibc_cond_refs for 2.36,
 * struct glibc_cond_norefs for 2.41; 48 bytes both):
 *   __wseq      64-bit count of waits begun, times two; bit 0 names the
 *               slot (0 or 1) that new waiters join ("G2").
 *   __g1_start  where in that sequence the group being signalled ("G1",
 *               the other slot) begins; 2.36 keeps it doubled, with
 *               bit 0 = 1 - (G1's slot).
 *   __g1_orig_size  G1's size when it became G1, above two bits that are
 *               an internal three-state lock (0 free, 1 held, 2 held with
 *               sleepers) which every signaller and broadcaster takes.
 *   __g_size[s] waiters of slot s not yet given a signal (G2's is 0 or,
 *               after cancellations, "negative").
 *   __g_signals[s]  the futex word of slot s.  2.36: signals available,
 *               doubled, bit 0 set while the slot is being closed.  2.41:
 *               the low 32 bits of __g1_start plus the signals available.
 *   __g_refs[s] (2.36 only) waiters that may be asleep on __g_signals[s],
 *               doubled, bit 0 "wake me" for a signaller draining it.
 *   __wrefs     flags (bit 0 process-shared, bit 1 CLOCK_MONOTONIC, bit 2
 *               "destroy waits") and, from bit 3, the waiters inside a
 *               wait call; libnptl's private condvars use it alike.
 *
 * A waiter takes the next position in __wseq (which also tells it its
 * slot), registers in __wrefs, and only then releases the mutex.  A
 * signaller, under the internal lock, gives a signal to G1 if G1 still has
 * unsignalled waiters; otherwise it turns G2 into the new G1: G1's range
 * of positions is closed by advancing __g1_start past it, the slot bit of
 * __wseq is flipped (so that later waiters go to the freed slot), and the
 * new G1's size is the number of positions taken meanwhile, less the
 * waiters of that group that gave up already.  A waiter leaves when it
 * can take a signal from its slot's counter by CAS, or when __g1_start
 * has passed its position (its whole group was signalled or closed);
 * otherwise it sleeps on __g_signals[slot] with the value it read.
 *
 * Why no wake-up is lost.  A waiter's position is taken before it lets go
 * of the mutex, so a signaller that holds (or held) the mutex afterwards
 * reads a __wseq that counts it: the waiter is in G1 or in the G2 that
 * the signal turns into G1, and the signal goes to its group.  Every
 * signal changes __g_signals of that group before its FUTEX_WAKE, and a
 * sleeper's FUTEX_WAIT compares the value it decided on, so it either
 * sees the change or is asleep when the wake comes.  A group is given at
 * most as many signals as it has waiters, and a waiter takes signals only
 * from its own slot, so what a signal was meant for stays in its group.
 * The one leak is the reuse of a slot by a later group.  2.36 keeps the
 * counter itself (0 = nothing to take) and so must stop a slot from being
 * reused while an old waiter may still sleep on it or take from it: the
 * signaller that closes a group sets the closing bit, then waits until
 * __g_refs of the slot drains; a waiter delayed between reading its slot
 * and its CAS may still take a signal of the next group, and then gives
 * one back to that group -- the repair in which glibc's bug 25847 can
 * leave a sleeper of the current group without its wake-up.  2.41 keeps
 * the counter relative to __g1_start, so a waiter whose group was closed
 * sees that from __g1_start and takes nothing, and nothing needs
 * draining.  We follow each release as it is, 2.36's flaw included: a
 * 2.36 process that shares the condvar runs that protocol anyway.
 *
 * Why a mix of libnptl and glibc processes is as race-free as glibc
 * alone.  libnptl's code here makes, at each step, the access glibc's
 * makes at that step -- the same word, the same atomic operation, a
 * memory order at least as strong -- and uses shared futexes throughout
 * (glibc's choice for a condvar whose bit 0 is set; a private futex
 * would not wake a waiter in another process).  A libnptl waiter,
 * signaller or broadcaster is therefore a step-for-step glibc one to
 * every other party, and the argument above, glibc's, covers any mix.
 * The only thing libnptl does differently is outside the protocol:
 * unlocking and relocking the mutex, whose lock word is glibc's encoding
 * too (tests/mutex-interop).  A condvar's protocol is fixed at init (the
 * bit never changes), so private condvars never meet this code.
 *
 * Timeouts and cancellation.  A waiter that stops waiting without a
 * signal must not leave one unconsumed in a group nobody else may take
 * it from, nor let its group wait for it: under the lock, if its group is
 * still G2 it shrinks it; if it is G1 and has unsignalled waiters it
 * shrinks that count (taking the place of a signal it never takes); if
 * its group was closed or fully signalled it has in effect taken a signal
 * and sends a new one.  A cancelled waiter does that, wakes one more
 * sleeper of its slot in case the kernel had already picked it for a
 * wake-up, leaves __wrefs and relocks the mutex before its cleanup
 * handlers run -- glibc's order, so that a glibc process sees libnptl's
 * waiters behave as its own.
 *
 * A process that dies inside a wait stays counted: in __wrefs (so
 * pthread_cond_destroy waits for it forever) and, on 2.36, in __g_refs
 * if it died asleep, so that the next signal or broadcast that must close
 * its group waits forever too.  That is glibc's protocol; a shared
 * condvar cannot be both glibc's and more robust than it.
 *
 * Destruction (src/cond/pthread_cond_destroy.c) is the same for both
 * protocols: __wrefs.  The relock after the wait is libnptl's mutex code
 * (the mutex, process-shared, is in glibc's encoding too).
 */
#include <limits.h>
#include "nptl.h"

#define WREFS_WAITER 8u
#define WREFS_DESTROYING 4u
/* glibc's bound on one group's size; cancellations that would push G2's
 * "negative" size past it broadcast instead.  */
#define MAX_GROUP ((unsigned int)1 << 29)
#define CLOSING 1u              /* 2.36 __g_signals: the group is closing */

/* The fields of one condvar, in the running libc's layout, and the
 * protocol's constants.  */
struct cv {
	uint64_t *wseq, *g1_start;
	unsigned int *g_refs;   /* NULL: no group references (2.41) */
	unsigned int *g_size, *g1_orig_size, *wrefs, *g_signals;
	unsigned int sig;       /* one signal in __g_signals: 2 (2.36), 1 */
};

static struct cv view_of(pthread_cond_t *c, bool refs)
{
	if (refs) {
		struct glibc_cond_refs *g = (struct glibc_cond_refs *)(void *)c;
		return (struct cv){ &g->wseq, &g->g1_start, g->g_refs, g->g_size,
				    &g->g1_orig_size, &g->wrefs, g->g_signals, 2 };
	}
	struct glibc_cond_norefs *g = (struct glibc_cond_norefs *)(void *)c;
	return (struct cv){ &g->wseq, &g->g1_start, NULL, g->g_size,
			    &g->g1_orig_size, &g->wrefs, g->g_signals, 1 };
}

static inline struct cv view(pthread_cond_t *c)
{
	return view_of(c, __nptl_glibc->cond_group_refs);
}

/* The position in __wseq at which G1 begins (2.36 keeps it doubled).  */
static inline uint64_t g1_start(const struct cv *v)
{
	uint64_t s = __atomic_load_n(v->g1_start, __ATOMIC_RELAXED);
	return v->g_refs ? s >> 1 : s;
}

/* Only signallers holding the internal lock change __g1_start.  */
static inline void g1_start_add(const struct cv *v, unsigned int n)
{
	__atomic_store_n(v->g1_start,
			 __atomic_load_n(v->g1_start, __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
}

/* ---- the internal lock, in the low bits of __g1_orig_size ----------- */

static void cv_lock(const struct cv *v)
{
	unsigned int *w = v->g1_orig_size;
	unsigned int s = __atomic_load_n(w, __ATOMIC_RELAXED);
	while ((s & 3) == 0)
		if (__atomic_compare_exchange_n(w, &s, s | 1, true,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
	/* Held: mark it contended (only from a held state may we go to 2
	 * without owning it) and sleep until it is free.  */
	for (;;) {
		while ((s & 3) != 2) {
			if (__atomic_compare_exchange_n(w, &s, (s & ~3u) | 2, true,
							__ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED)) {
				if ((s & 3) == 0)
					return;
				break;
			}
		}
		nptl_futex_wait(w, (int)((s & ~3u) | 2), false);
		s = __atomic_load_n(w, __ATOMIC_RELAXED);
	}
}

static void cv_unlock(const struct cv *v)
{
	unsigned int *w = v->g1_orig_size;
	if ((__atomic_fetch_and(w, ~3u, __ATOMIC_RELEASE) & 3) == 2)
		nptl_futex_wake(w, 1, false);
}

/* G1's size at its start (lock held).  */
static inline unsigned int orig_size(const struct cv *v)
{
	return __atomic_load_n(v->g1_orig_size, __ATOMIC_RELAXED) >> 2;
}

/* Lock held; a waiter of the lock may turn its state from 1 to 2 under
 * us, which the exchange notices and keeps.  */
static void set_orig_size(const struct cv *v, unsigned int size)
{
	unsigned int *w = v->g1_orig_size;
	unsigned int s = (__atomic_load_n(w, __ATOMIC_RELAXED) & 3) | (size << 2);
	if ((__atomic_exchange_n(w, s, __ATOMIC_RELAXED) & 3) != (s & 3))
		__atomic_store_n(w, (size << 2) | 2, __ATOMIC_RELAXED);
}

/* ---- group switch ----------------------------------------------------- */

/* All of G1 (slot *g1) has been signalled: make G2 the new G1, ending at
 * the position `ws` the caller read.  False if G2 is empty (no switch) or
 * holds only waiters that already gave up.  Lock held.  */
static bool switch_g1(const struct cv *v, uint64_t ws, unsigned int *g1)
{
	unsigned int old = *g1;
	unsigned int old_orig = orig_size(v);
	uint64_t new_start = g1_start(v) + old_orig;
	if ((unsigned int)(ws - new_start) + v->g_size[old ^ 1] == 0)
		return false;

	if (v->g_refs) {
		/* Close the old G1 and wait until none of its waiters can
		 * still go to sleep on its futex word, so that the slot can
		 * be reused.  */
		__atomic_fetch_or(&v->g_signals[old], CLOSING, __ATOMIC_RELAXED);
		unsigned int *refs = &v->g_refs[old];
		unsigned int r = __atomic_fetch_or(refs, 0, __ATOMIC_RELEASE);
		while (r >> 1) {
			r = __atomic_fetch_or(refs, 1, __ATOMIC_RELAXED) | 1;
			if (r >> 1)
				nptl_futex_wait(refs, (int)r, false);
			r = __atomic_load_n(refs, __ATOMIC_RELAXED);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		/* Advance the start and flip its bit 0 (which names G1's
		 * slot); the first switch of a fresh condvar (old_orig 0) is
		 * from slot 1.  Unsigned arithmetic: never below zero.  */
		g1_start_add(v, (old_orig << 1) + (old == 1 ? 1u : -1u));
		__atomic_store_n(&v->g_signals[old], 0, __ATOMIC_RELEASE);
		ws = __atomic_fetch_xor(v->wseq, 1, __ATOMIC_RELEASE) >> 1;
		*g1 ^= 1;
	} else {
		g1_start_add(v, old_orig);
		ws = __atomic_fetch_xor(v->wseq, 1, __ATOMIC_RELEASE) >> 1;
		*g1 ^= 1;
		/* The new G1 starts with no signals: its counter at the new
		 * start.  */
		__atomic_store_n(&v->g_signals[*g1], (unsigned int)new_start,
				 __ATOMIC_RELEASE);
	}
	unsigned int size = (unsigned int)(ws - new_start);
	set_orig_size(v, size);
	/* G2's size so far counts its cancellations (as a negative value).  */
	v->g_size[*g1] += size;
	return v->g_size[*g1] != 0;
}

/* ---- signal and broadcast --------------------------------------------- */

static int cond_signal(const struct cv *v)
{
	if (__atomic_load_n(v->wrefs, __ATOMIC_RELAXED) < WREFS_WAITER)
		return 0;
	cv_lock(v);
	uint64_t ws = __atomic_load_n(v->wseq, __ATOMIC_RELAXED);
	unsigned int g1 = (unsigned int)(ws & 1) ^ 1;
	bool wake = false;
	if (v->g_size[g1] != 0 || switch_g1(v, ws >> 1, &g1)) {
		__atomic_fetch_add(&v->g_signals[g1], v->sig, __ATOMIC_RELAXED);
		v->g_size[g1]--;
		wake = true;
	}
	cv_unlock(v);
	if (wake)
		nptl_futex_wake(&v->g_signals[g1], 1, false);
	return 0;
}

static int cond_broadcast(const struct cv *v)
{
	if (__atomic_load_n(v->wrefs, __ATOMIC_RELAXED) < WREFS_WAITER)
		return 0;
	cv_lock(v);
	uint64_t ws = __atomic_load_n(v->wseq, __ATOMIC_RELAXED);
	unsigned int g1 = (unsigned int)(ws & 1) ^ 1;
	bool wake = false;
	/* Signal the rest of G1 and wake it now: a 2.36 switch below waits
	 * for G1's sleepers to leave.  */
	if (v->g_size[g1] != 0) {
		__atomic_fetch_add(&v->g_signals[g1], v->g_size[g1] * v->sig,
				   __ATOMIC_RELAXED);
		v->g_size[g1] = 0;
		nptl_futex_wake(&v->g_signals[g1], INT_MAX, false);
	}
	if (switch_g1(v, ws >> 1, &g1)) {
		__atomic_fetch_add(&v->g_signals[g1], v->g_size[g1] * v->sig,
				   __ATOMIC_RELAXED);
		v->g_size[g1] = 0;
		wake = true;
	}
	cv_unlock(v);
	if (wake)
		nptl_futex_wake(&v->g_signals[g1], INT_MAX, false);
	return 0;
}

int __nptl_glibc_cond_signal(pthread_cond_t *c)
{
	struct cv v = view(c);
	return cond_signal(&v);
}

int __nptl_glibc_cond_broadcast(pthread_cond_t *c)
{
	struct cv v = view(c);
	return cond_broadcast(&v);
}

/* ---- waiting ----------------------------------------------------------- */

/* Leave __wrefs; the last waiter out wakes a destroyer.  */
static void confirm_wakeup(const struct cv *v)
{
	unsigned int w = __atomic_fetch_sub(v->wrefs, WREFS_WAITER,
					    __ATOMIC_RELEASE);
	if (w >> 2 == ((WREFS_WAITER | WREFS_DESTROYING) >> 2))
		nptl_futex_wake(v->wrefs, INT_MAX, false);
}

/* Stop waiting without a signal of our own (timeout, cancellation, a
 * failed unlock): see the block comment.  Called without a reference in
 * __g_refs (a 2.36 signaller holding the lock may be draining them).  */
static void cancel_waiting(const struct cv *v, uint64_t seq, unsigned int g)
{
	bool consumed = false;
	cv_lock(v);
	uint64_t start = g1_start(v);
	if (start > seq) {
		consumed = true;                /* our group was closed */
	} else if (start + orig_size(v) <= seq) {
		/* Still in G2.  */
		if (v->g_size[g] + MAX_GROUP > 0) {
			v->g_size[g]--;
		} else {
			cv_unlock(v);
			cond_broadcast(v);
			return;
		}
	} else if (v->g_size[g] == 0) {
		consumed = true;                /* G1, fully signalled */
	} else {
		v->g_size[g]--;
	}
	cv_unlock(v);
	if (consumed)
		cond_signal(v);
}

/* 2.36: drop a group reference; wake a signaller draining them.  */
static void put_ref(const struct cv *v, unsigned int g)
{
	unsigned int *refs = &v->g_refs[g];
	if (__atomic_fetch_sub(refs, 2, __ATOMIC_RELEASE) == 3) {
		__atomic_fetch_and(refs, ~1u, __ATOMIC_RELAXED);
		nptl_futex_wake(refs, INT_MAX, false);
	}
}

/* What a cancellation in the futex wait must undo.  */
struct cancel_guard {
	const struct cv *v;
	pthread_mutex_t *m;
	uint64_t seq;
	unsigned int g;
	bool armed;
};

static void cancel_unwind(struct cancel_guard *k)
{
	if (!k->armed)
		return;
	const struct cv *v = k->v;
	if (v->g_refs)
		put_ref(v, k->g);
	cancel_waiting(v, k->seq, k->g);
	/* The kernel may have chosen us for a wake-up we will not act on.  */
	nptl_futex_wake(&v->g_signals[k->g], 1, false);
	confirm_wakeup(v);
	__nptl_mutex_relock_after_wait(k->m);
}

/* One futex sleep on our slot's word, as a cancellation point: 0 (woken,
 * the word changed, interrupted) or ETIMEDOUT.  glibc's wait takes a
 * deadline before the epoch as passed.  */
static int sleep_cancellable(struct cancel_guard *k, unsigned int val,
			     clockid_t clock, const struct timespec *abs)
{
	if (abs && abs->tv_sec < 0)
		return ETIMEDOUT;
	int old = __nptl_enable_asynccancel();
	int r = nptl_futex_wait_abs(&k->v->g_signals[k->g], (int)val, clock,
				    abs, false);
	__nptl_disable_asynccancel(old);
	return r == ETIMEDOUT ? ETIMEDOUT : 0;
}

/* 2.36: wait until a signal can be taken from slot g (true) or the group
 * was closed (false), or time out.  */
static bool wait_refs(struct cancel_guard *k, clockid_t clock,
		      const struct timespec *abs, int *result)
{
	const struct cv *v = k->v;
	unsigned int g = k->g;
	unsigned int s = __atomic_load_n(&v->g_signals[g], __ATOMIC_ACQUIRE);
	do {
		for (;;) {
			if (s & CLOSING)
				return false;   /* our group is being closed */
			if (s != 0)
				break;          /* a signal to take */
			/* Sleep holding a reference, which keeps the slot from
			 * being reused under us; recheck after taking it.  */
			__atomic_fetch_add(&v->g_refs[g], 2, __ATOMIC_ACQUIRE);
			if ((__atomic_load_n(&v->g_signals[g], __ATOMIC_ACQUIRE) &
			     CLOSING) || k->seq < g1_start(v)) {
				put_ref(v, g);
				return false;
			}
			k->armed = true;
			int r = sleep_cancellable(k, 0, clock, abs);
			k->armed = false;
			put_ref(v, g);
			if (r == ETIMEDOUT) {
				/* Without a reference: a signaller draining
				 * them may hold the lock we take here.  */
				cancel_waiting(v, k->seq, g);
				*result = ETIMEDOUT;
				return false;
			}
			s = __atomic_load_n(&v->g_signals[g], __ATOMIC_ACQUIRE);
		}
	} while (!__atomic_compare_exchange_n(&v->g_signals[g], &s, s - v->sig,
					      true, __ATOMIC_ACQUIRE,
					      __ATOMIC_ACQUIRE));

	/* The signal we took may have belonged to a later group of our slot
	 * (we were delayed past a closing of ours).  If the current G1 is
	 * that group, give a signal back to it while it stays current, and
	 * wake one of its sleepers.  */
	uint64_t start = __atomic_load_n(v->g1_start, __ATOMIC_RELAXED);
	if (k->seq < (start >> 1) && ((unsigned int)(start & 1) ^ 1) == g) {
		unsigned int x = __atomic_load_n(&v->g_signals[g], __ATOMIC_RELAXED);
		while (__atomic_load_n(v->g1_start, __ATOMIC_RELAXED) == start) {
			if ((x & CLOSING) ||
			    __atomic_compare_exchange_n(&v->g_signals[g], &x,
							x + v->sig, true,
							__ATOMIC_RELAXED,
							__ATOMIC_RELAXED)) {
				nptl_futex_wake(&v->g_signals[g], 1, false);
				break;
			}
		}
	}
	return true;
}

/* 2.41: wait until a signal above G1's start can be taken from slot g,
 * or our group was closed, or time out.  */
static void wait_norefs(struct cancel_guard *k, clockid_t clock,
			const struct timespec *abs, int *result)
{
	const struct cv *v = k->v;
	unsigned int g = k->g;
	for (;;) {
		unsigned int s = __atomic_load_n(&v->g_signals[g], __ATOMIC_ACQUIRE);
		uint64_t start = g1_start(v);
		if (k->seq < start)
			return;         /* our group was closed: signalled */
		if ((int)(s - (unsigned int)start) > 0) {
			if (__atomic_compare_exchange_n(&v->g_signals[g], &s, s - 1,
							true, __ATOMIC_ACQUIRE,
							__ATOMIC_ACQUIRE))
				return;
			continue;
		}
		k->armed = true;
		int r = sleep_cancellable(k, s, clock, abs);
		k->armed = false;
		if (r == ETIMEDOUT) {
			cancel_waiting(v, k->seq, g);
			*result = ETIMEDOUT;
			return;
		}
	}
}

int __nptl_glibc_cond_wait(pthread_cond_t *c, pthread_mutex_t *m,
			   clockid_t clock, const struct timespec *abs)
{
	struct cv v = view(c);
	uint64_t ws = __atomic_fetch_add(v.wseq, 2, __ATOMIC_ACQUIRE);
	unsigned int g = (unsigned int)(ws & 1);
	uint64_t seq = ws >> 1;
	__atomic_fetch_add(v.wrefs, WREFS_WAITER, __ATOMIC_RELAXED);

	/* Registered: only now may the mutex go (see the block comment).  */
	int err = __nptl_mutex_unlock_for_wait(m);
	if (err) {
		cancel_waiting(&v, seq, g);
		confirm_wakeup(&v);
		return err;
	}

	int result = 0;
	struct cancel_guard guard __attribute__((cleanup(cancel_unwind))) = {
		&v, m, seq, g, false
	};
	if (v.g_refs)
		wait_refs(&guard, clock, abs, &result);
	else
		wait_norefs(&guard, clock, abs, &result);
	/* Out of the condvar before relocking, so that a thread holding the
	 * mutex may destroy it.  */
	confirm_wakeup(&v);
	err = __nptl_mutex_relock_after_wait(m);
	return err ? err : result;
}
