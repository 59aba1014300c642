// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glibc's read-write lock protocol, which libnptl follows for every
 * process-shared rwlock (__shared != 0, as pthread_rwlock_init of either
 * library writes it), so that libnptl and glibc processes can read- and
 * write-lock one rwlock in shared memory.  Process-private rwlocks keep
 * libnptl's own protocol and read bias (src/rwlock/pthread_rwlock.c).
 * The protocol is glibc's private business; it is the same in 2.36 and
 * 2.41 (the two releases' pthread_rwlock_common.c differ only in their
 * copyright line), and lives here with the other glibc protocols.
 *
 * The state, in glibc's pthread_rwlock_t:
 *   __readers   bit 0 WRPHASE (the lock is in a write phase), bit 1
 *               WRLOCKED (there is a primary writer), bit 2 RWAITING
 *               (readers wait for a preferred writer without counting
 *               themselves), and from bit 3 the readers that hold or are
 *               acquiring the lock.
 *   __wrphase_futex  what waiters for a phase change sleep on: 1 in a
 *               write phase, 0 in a read phase, plus bit 1 "someone may
 *               sleep here" (FUTEX_USED).
 *   __writers_futex  where writers sleep for the primary writer: 1 while
 *               there is one that lets them sleep, plus FUTEX_USED.
 *   __writers   writers waiting to be handed WRLOCKED (writer-preferring
 *               kinds), bit 31 WRHANDOVER: WRLOCKED is being handed over.
 *   __cur_writer  the tid of the writer holding the lock: EDEADLK, and how
 *               unlock knows it holds the write lock.
 *   __flags     the kind; __shared nonzero: process-shared futexes.
 *
 * A reader adds itself to __readers; in a read phase that is the lock.
 * In a write phase with no primary writer it turns the phase to read
 * itself (CAS) and then sets __wrphase_futex to 0 and wakes its sleepers,
 * as a writer handing over would.  Otherwise it sleeps on __wrphase_futex
 * until that reads 0 *and* __readers shows a read phase: whoever changes
 * the phase changes the futex word next, and a waiter must not leave on
 * the old word's value, or it could acquire, release and destroy the lock
 * while the hand-over still writes to it ("explicit hand-over").  A
 * writer first becomes the primary writer (WRLOCKED, by fetch_or or CAS,
 * or by taking WRHANDOVER from the writer before it), then turns an idle
 * read phase into a write phase, or waits on __wrphase_futex for the last
 * reader, who (seeing WRLOCKED as it leaves) starts the write phase and
 * sets __wrphase_futex to 1.  Writers that are not primary sleep on
 * __writers_futex.  Unlocking as writer: clear __cur_writer, disable
 * sleeping on __writers_futex (noting whether anyone sleeps there), hand
 * WRLOCKED straight to a registered writer if the kind prefers writers,
 * else drop WRLOCKED and, with readers waiting, start their read phase
 * and hand over through __wrphase_futex; then wake one writer.  With
 * PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP a reader that finds a
 * primary writer and other readers in a read phase does not add itself:
 * it sets RWAITING and sleeps on __readers until the last reader or the
 * writer clears it.
 *
 * Why no wake-up is lost: each futex word has three states -- nobody may
 * sleep on it, sleeping allowed, sleeping allowed and someone may sleep
 * (FUTEX_USED) -- and a sleeper sets FUTEX_USED by CAS only from the
 * "allowed" state, while the thread that ends the condition it sleeps on
 * exchanges the word to a value it will not sleep on and wakes if the old
 * value had FUTEX_USED.  So either the sleeper's CAS or FUTEX_WAIT fails
 * on the changed word, or the exchange sees its flag.  The RWAITING wait
 * is on __readers itself, which its waker changes before waking.
 *
 * Why a mix of libnptl and glibc processes is as race-free as glibc
 * alone: each step here is the access glibc's code makes at that step
 * (same word, same atomic operation, memory order at least as strong),
 * with shared futexes as glibc uses for __shared != 0, so to any other
 * party a libnptl reader or writer is a glibc one and glibc's argument
 * above covers every mix.  __shared is fixed at init, so a lock never
 * changes protocol while in use.
 *
 * Timeouts follow glibc: a reader that times out before a read phase was
 * installed takes itself out of __readers; one that finds the phase
 * already changed takes the lock (waiting for the hand-over to finish).
 * A writer that times out passes WRLOCKED to a registered writer if it
 * can, or drops it while still in a read phase, waking whom it held back;
 * if the write phase has started it takes the lock.  rwlocks are not
 * cancellation points.  A process that dies while it waits stays counted
 * in __readers or __writers, and the lock then waits for it forever, as
 * in glibc.
 *
 * Unlike glibc, unlock refuses (EPERM) when no reader holds the lock and
 * the caller is not the writer, instead of corrupting __readers; that
 * check only reads the lock.
 */
#include <limits.h>
#include "nptl.h"

#define WRPHASE 1u
#define WRLOCKED 2u
#define RWAITING 4u
#define READER_SHIFT 3
#define READER (1u << READER_SHIFT)
#define READER_OVERFLOW (1u << 31)
#define WRHANDOVER (1u << 31)
#define FUTEX_USED 2u

#define R(rw) (&(rw)->__data.__readers)
#define W(rw) (&(rw)->__data.__writers)
#define WPF(rw) (&(rw)->__data.__wrphase_futex)
#define WF(rw) (&(rw)->__data.__writers_futex)

static inline unsigned int ld(unsigned int *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline bool cas(unsigned int *p, unsigned int *old, unsigned int new,
		       int mo)
{
	return __atomic_compare_exchange_n(p, old, new, true, mo,
					   __ATOMIC_RELAXED);
}

static inline unsigned int xchg(unsigned int *p, unsigned int v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}

static inline void wake(unsigned int *p, int n)
{
	nptl_futex_wake(p, n, false);
}

/* glibc's non-cancellable timed futex wait: a deadline before the epoch
 * has passed already.  */
static int sleep_on(unsigned int *p, unsigned int val, clockid_t clock,
		    const struct timespec *abs)
{
	if (abs && abs->tv_sec < 0)
		return ETIMEDOUT;
	return nptl_futex_wait_abs(p, (int)val, clock, abs, false);
}

static inline bool prefer_writer(pthread_rwlock_t *rw)
{
	return rw->__data.__flags != PTHREAD_RWLOCK_PREFER_READER_NP;
}

static inline int self_tid(void)
{
	return nptl_self()->tid;
}

/* In a write phase that we (or a reader like us) just ended, publish the
 * read phase on the futex word and wake who sleeps for it.  */
static void start_read_phase(pthread_rwlock_t *rw)
{
	if (xchg(WPF(rw), 0) & FUTEX_USED)
		wake(WPF(rw), INT_MAX);
}

/* ---- readers -------------------------------------------------------- */

static void rdunlock(pthread_rwlock_t *rw)
{
	unsigned int r = ld(R(rw)), rnew;
	do {
		rnew = r - READER;
		/* The last reader starts a waiting writer's phase and lets
		 * readers held back by RWAITING in.  */
		if ((rnew >> READER_SHIFT) == 0) {
			if (rnew & WRLOCKED)
				rnew |= WRPHASE;
			rnew &= ~RWAITING;
		}
	} while (!cas(R(rw), &r, rnew, __ATOMIC_RELEASE));
	if (rnew & WRPHASE) {
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (xchg(WPF(rw), 1) & FUTEX_USED)
			wake(WPF(rw), INT_MAX);
	}
	if ((r & RWAITING) != (rnew & RWAITING))
		wake(R(rw), INT_MAX);
}

/* Wait until __wrphase_futex leaves `busy` (1 for a reader waiting for a
 * read phase, 0 for a writer waiting for a write phase) and __readers
 * agrees; see "explicit hand-over".  On a timeout, `give_up` may undo the
 * registration and returns its error, or 0 to keep waiting (the phase has
 * changed: the lock is ours once the hand-over is done).  */
static int await_handover(pthread_rwlock_t *rw, unsigned int busy,
			  clockid_t clock, const struct timespec *abs,
			  int (*give_up)(pthread_rwlock_t *, int))
{
	bool ready = false;
	for (;;) {
		unsigned int wpf;
		while (((wpf = ld(WPF(rw))) | FUTEX_USED) == (busy | FUTEX_USED)) {
			if (!(wpf & FUTEX_USED) &&
			    !cas(WPF(rw), &wpf, wpf | FUTEX_USED, __ATOMIC_RELAXED))
				continue;
			int err = sleep_on(WPF(rw), busy | FUTEX_USED, clock, abs);
			if (err == ETIMEDOUT) {
				err = give_up(rw, err);
				if (err)
					return err;
				__atomic_thread_fence(__ATOMIC_ACQUIRE);
				/* No more sleeping: spin out the hand-over.  */
				while ((ld(WPF(rw)) | FUTEX_USED) ==
				       (busy | FUTEX_USED))
					;
				ready = true;
				break;
			}
		}
		if (ready)
			return 0;
		/* A word that left `busy` is final only once __readers shows
		 * the phase it belongs to.  */
		unsigned int r = __atomic_load_n(R(rw), __ATOMIC_ACQUIRE);
		if (busy ? !(r & WRPHASE) : (r & WRPHASE))
			ready = true;
	}
}

/* A reader timed out waiting for a read phase.  */
static int reader_give_up(pthread_rwlock_t *rw, int err)
{
	unsigned int r = ld(R(rw));
	while (r & WRPHASE)
		if (cas(R(rw), &r, r - READER, __ATOMIC_RELAXED))
			return err;
	return 0;
}

int __nptl_glibc_rwlock_rdlock(pthread_rwlock_t *rw, clockid_t clock,
			       const struct timespec *abs)
{
	if (__atomic_load_n(&rw->__data.__cur_writer, __ATOMIC_RELAXED) ==
	    self_tid())
		return EDEADLK;

	unsigned int r;
	if (rw->__data.__flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP) {
		/* A primary writer waits for the readers of this read phase:
		 * do not prolong it, wait for the phase to turn.  */
		r = ld(R(rw));
		while (!(r & WRPHASE) && (r & WRLOCKED) &&
		       (r >> READER_SHIFT) > 0) {
			if (!cas(R(rw), &r, r | RWAITING, __ATOMIC_RELAXED))
				continue;
			while ((r = ld(R(rw))) & RWAITING) {
				int err = sleep_on(R(rw), r, clock, abs);
				if (err == ETIMEDOUT)
					return err;
			}
		}
	}

	r = __atomic_add_fetch(R(rw), READER, __ATOMIC_ACQUIRE);
	while (r >= READER_OVERFLOW)
		if (cas(R(rw), &r, r - READER, __ATOMIC_RELAXED))
			return EAGAIN;
	if (!(r & WRPHASE))
		return 0;
	/* A write phase without a writer: start the read phase ourselves.  */
	while ((r & WRPHASE) && !(r & WRLOCKED)) {
		if (cas(R(rw), &r, r ^ WRPHASE, __ATOMIC_ACQUIRE)) {
			start_read_phase(rw);
			return 0;
		}
	}
	return await_handover(rw, 1, clock, abs, reader_give_up);
}

int __nptl_glibc_rwlock_tryrdlock(pthread_rwlock_t *rw)
{
	unsigned int r = ld(R(rw)), rnew;
	do {
		if (!(r & WRPHASE)) {
			if ((r & WRLOCKED) &&
			    rw->__data.__flags ==
				    PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)
				return EBUSY;
			rnew = r + READER;
		} else {
			if (r & WRLOCKED)
				return EBUSY;
			rnew = (r + READER) ^ WRPHASE;
		}
		if (rnew >= READER_OVERFLOW)
			return EAGAIN;
	} while (!cas(R(rw), &r, rnew, __ATOMIC_ACQUIRE));
	if (r & WRPHASE)
		start_read_phase(rw);
	return 0;
}

/* ---- writers -------------------------------------------------------- */

static void wrunlock(pthread_rwlock_t *rw)
{
	__atomic_store_n(&rw->__data.__cur_writer, 0, __ATOMIC_RELAXED);
	bool wake_writers = xchg(WF(rw), 0) & FUTEX_USED;
	if (prefer_writer(rw)) {
		unsigned int w = ld(W(rw));
		while (w != 0)
			if (cas(W(rw), &w, w | WRHANDOVER, __ATOMIC_RELEASE))
				goto done;
	}
	unsigned int r = ld(R(rw));
	while (!cas(R(rw), &r,
		    (r ^ WRLOCKED) ^ ((r >> READER_SHIFT) == 0 ? 0 : WRPHASE),
		    __ATOMIC_RELEASE))
		;
	if (r >> READER_SHIFT)
		start_read_phase(rw);
done:
	if (wake_writers)
		wake(WF(rw), 1);
}

/* A primary writer timed out waiting for the readers to leave.  */
static int writer_give_up(pthread_rwlock_t *rw, int err)
{
	if (prefer_writer(rw)) {
		unsigned int w = ld(W(rw));
		if (w != 0) {
			/* Hand WRLOCKED to a registered writer; our blocking
			 * on __writers_futex must end first.  */
			unsigned int wf = xchg(WF(rw), 0);
			while (w != 0) {
				if (cas(W(rw), &w, w | WRHANDOVER,
					__ATOMIC_RELEASE)) {
					if (wf & FUTEX_USED)
						wake(WF(rw), 1);
					return err;
				}
			}
			__atomic_store_n(WF(rw), wf, __ATOMIC_RELAXED);
		}
	}
	unsigned int r = ld(R(rw));
	if (!(r & WRPHASE)) {
		unsigned int wf = xchg(WF(rw), 0);
		while (!(r & WRPHASE)) {
			if (cas(R(rw), &r, (r ^ WRLOCKED) & ~RWAITING,
				__ATOMIC_RELEASE)) {
				if (wf & FUTEX_USED)
					wake(WF(rw), 1);
				if (r & RWAITING)
					wake(R(rw), INT_MAX);
				return ETIMEDOUT;
			}
		}
		__atomic_store_n(WF(rw), wf, __ATOMIC_RELAXED);
	}
	return 0;
}

int __nptl_glibc_rwlock_wrlock(pthread_rwlock_t *rw, clockid_t clock,
			       const struct timespec *abs)
{
	int self = self_tid();
	if (__atomic_load_n(&rw->__data.__cur_writer, __ATOMIC_RELAXED) == self)
		return EDEADLK;

	bool shares_used_flag = false;
	unsigned int r = __atomic_fetch_or(R(rw), WRLOCKED, __ATOMIC_ACQUIRE);
	if (r & WRLOCKED) {
		/* Another primary writer: register for hand-over if the kind
		 * prefers writers, and sleep until WRLOCKED is ours.  */
		bool pw = prefer_writer(rw);
		if (pw)
			__atomic_fetch_add(W(rw), 1, __ATOMIC_RELAXED);
		for (;;) {
			if (!(r & WRLOCKED)) {
				if (cas(R(rw), &r, r | WRLOCKED, __ATOMIC_ACQUIRE)) {
					if (pw)
						__atomic_fetch_sub(W(rw), 1,
								   __ATOMIC_RELAXED);
					break;
				}
				continue;
			}
			if (pw) {
				unsigned int w = ld(W(rw));
				if (w & WRHANDOVER) {
					if (cas(W(rw), &w, w - WRHANDOVER - 1,
						__ATOMIC_ACQUIRE)) {
						/* The previous owner's view of
						 * __readers is now ours.  */
						r = ld(R(rw));
						break;
					}
					continue;
				}
			}
			unsigned int wf = ld(WF(rw));
			if ((wf & ~FUTEX_USED) != 1 ||
			    (wf != (1 | FUTEX_USED) &&
			     !cas(WF(rw), &wf, 1 | FUTEX_USED, __ATOMIC_RELAXED))) {
				r = ld(R(rw));
				continue;
			}
			/* We may share FUTEX_USED with other sleepers, so keep
			 * it set once we own the lock.  */
			shares_used_flag = true;
			int err = sleep_on(WF(rw), 1 | FUTEX_USED, clock, abs);
			if (err == ETIMEDOUT) {
				if (pw) {
					/* Unregister; the last registered writer
					 * must take a pending hand-over.  */
					unsigned int w = ld(W(rw));
					while (!cas(W(rw), &w,
						    w == WRHANDOVER + 1 ? 0 : w - 1,
						    __ATOMIC_ACQUIRE))
						;
					if (w == WRHANDOVER + 1) {
						r = ld(R(rw));
						break;
					}
				}
				return err;
			}
			r = ld(R(rw));
		}
		r |= WRLOCKED;
	}

	/* Primary writer: let other writers sleep on us.  */
	__atomic_store_n(WF(rw), 1 | (shares_used_flag ? FUTEX_USED : 0),
			 __ATOMIC_RELAXED);
	if (r & WRPHASE)
		goto done;
	while (!(r & WRPHASE) && (r >> READER_SHIFT) == 0) {
		if (cas(R(rw), &r, r | WRPHASE, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(WPF(rw), 1, __ATOMIC_RELAXED);
			goto done;
		}
	}
	/* Readers hold the lock: the last of them hands over to us.  */
	int err = await_handover(rw, 0, clock, abs, writer_give_up);
	if (err)
		return err;
done:
	__atomic_store_n(&rw->__data.__cur_writer, self, __ATOMIC_RELAXED);
	return 0;
}

int __nptl_glibc_rwlock_trywrlock(pthread_rwlock_t *rw)
{
	unsigned int r = ld(R(rw));
	bool pw = prefer_writer(rw);
	while (!(r & WRLOCKED) &&
	       ((r >> READER_SHIFT) == 0 || (pw && (r & WRPHASE)))) {
		if (cas(R(rw), &r, r | WRPHASE | WRLOCKED, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(WF(rw), 1, __ATOMIC_RELAXED);
			if (!(r & WRPHASE))
				__atomic_store_n(WPF(rw), 1, __ATOMIC_RELAXED);
			__atomic_store_n(&rw->__data.__cur_writer, self_tid(),
					 __ATOMIC_RELAXED);
			return 0;
		}
	}
	return EBUSY;
}

int __nptl_glibc_rwlock_unlock(pthread_rwlock_t *rw)
{
	if (__atomic_load_n(&rw->__data.__cur_writer, __ATOMIC_RELAXED) ==
	    self_tid()) {
		wrunlock(rw);
		return 0;
	}
	if ((ld(R(rw)) >> READER_SHIFT) == 0)
		return EPERM;
	rdunlock(rw);
	return 0;
}
