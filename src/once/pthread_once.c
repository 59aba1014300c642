// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_once, with glibc's encoding of the once word:
 *
 *   0                          not run yet (PTHREAD_ONCE_INIT)
 *   gen | ONCE_INPROGRESS      a thread of fork generation `gen` runs it
 *   ONCE_DONE                  finished
 *
 * `gen` is __nptl_fork_generation, a multiple of 4 so that it never touches
 * bits 0 and 1; the fork child handler adds 4 to it.
 *
 * Done is final and is published with a release store after the routine
 * returns, so one acquire load that sees it also sees everything the
 * routine wrote: that is the whole fast path.
 *
 * To run the routine a thread CASes the word from what it saw to
 * gen|INPROGRESS.  The CAS decides among racers: exactly one moves the word
 * out of "0", the others then see gen|INPROGRESS and sleep on the futex
 * with that value.  A waiter cannot miss the wake-up: the owner changes
 * the word (to DONE, or to 0 below) before FUTEX_WAKE, and FUTEX_WAIT
 * refuses to sleep if the word no longer holds the value the waiter saw.
 * Every wake-up or spurious return goes back to the start and re-reads.
 *
 * If the routine does not return -- the thread is cancelled or calls
 * pthread_exit inside it, both forced unwinds, or it throws -- the word is
 * reset to 0 and everyone woken, so that one of them (or the next caller)
 * runs the routine afresh, as POSIX requires.  Two handlers watch for that,
 * and whichever runs first does the reset: an entry on the thread's
 * old-style cleanup chain (pd->cleanup), which the forced unwind runs even
 * when it cannot step through the routine's frame because that code has no
 * unwind tables (pthread_exit.c), and a cleanup local, which is what an
 * ordinary C++ exception runs (it also takes the entry off the chain).
 *
 * fork() copies the word but not the thread that was running the routine.
 * In the child the word still says INPROGRESS with the parent's
 * generation, which no longer equals the child's (the child handler bumped
 * it), so the child knows nobody will ever finish it and takes it over
 * with the same CAS.  Threads in the parent never see a foreign
 * generation: the counter only changes in a child, where it is immutable
 * afterwards until the next fork.  (Like glibc's, this is ABA-prone after
 * 2^30 nested forks; nobody does that.)
 *
 * Lead: the fork child handler must do, while the child is still
 * single-threaded and before any pthread_once can run there,
 *     __nptl_fork_generation += 4;
 * (4 is glibc's __PTHREAD_ONCE_FORK_GEN_INCR; the low two bits must stay 0).
 * The handler must be installed before any thread can be inside an init
 * routine, glibc-made threads included.
 */
#include <limits.h>
#include "nptl.h"

unsigned int __nptl_fork_generation;

struct once_frame {
	struct _pthread_cleanup_buffer chain;   /* on pd->cleanup */
	pthread_once_t *once;                   /* NULL once reset or done */
};

static void reset_once(struct once_frame *f)
{
	pthread_once_t *once = f->once;
	if (!once)
		return;
	f->once = NULL;
	/* Nothing the routine wrote needs to be published: the next runner
	 * starts it again from the beginning.  */
	__atomic_store_n(once, 0, __ATOMIC_RELAXED);
	nptl_futex_wake(once, INT_MAX, true);
}

/* Run by the forced unwind, which also unlinks the entry.  */
static void reset_from_chain(void *arg)
{
	reset_once(arg);
}

/* Run when the frame is left by any unwind.  */
static void reset_from_scope(struct once_frame *f)
{
	if (f->once) {
		nptl_self()->cleanup = f->chain.__prev;
		reset_once(f);
	}
}

static __attribute__((noinline)) int once_slow(pthread_once_t *once,
					       void (*fn)(void))
{
	for (;;) {
		int val = __atomic_load_n(once, __ATOMIC_ACQUIRE);
		if (val & ONCE_DONE)
			return 0;
		int mine = (int)(__atomic_load_n(&__nptl_fork_generation,
						 __ATOMIC_RELAXED) | ONCE_INPROGRESS);
		if (val == mine) {
			nptl_futex_wait(once, val, true);
			continue;
		}
		/* val is 0 or a dead generation's INPROGRESS.  */
		if (__atomic_compare_exchange_n(once, &val, mine, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
	}

	{
		struct pthread *self = nptl_self();
		struct once_frame f __attribute__((cleanup(reset_from_scope))) = {
			.chain = { .__routine = reset_from_chain, .__arg = &f,
				   .__canceltype = 0, .__prev = self->cleanup },
			.once = once,
		};
		self->cleanup = &f.chain;
		fn();
		self->cleanup = f.chain.__prev;
		f.once = NULL;
	}
	__atomic_store_n(once, ONCE_DONE, __ATOMIC_RELEASE);
	nptl_futex_wake(once, INT_MAX, true);
	return 0;
}

int __nptl_pthread_once(pthread_once_t *once, void (*fn)(void))
{
	if (__builtin_expect(__atomic_load_n(once, __ATOMIC_ACQUIRE) & ONCE_DONE, 1))
		return 0;
	return once_slow(once, fn);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_once, pthread_once, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_once, pthread_once, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_once) __nptl___pthread_once
	__attribute__((alias("__nptl_pthread_once"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_once, __pthread_once, GLIBC_2.2.5);
