// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Waiting on a semaphore, in glibc 2.36's protocol on the 64-bit word
 * (value low, registered waiters high; struct nptl_sem in nptl.h), so that
 * libnptl and glibc processes can wait and post on one shared semaphore.
 *
 * 1. Fast path: take a token with a CAS of value -> value - 1.
 * 2. Spin, only with more than one CPU online, while the value is 0 and
 *    nobody is registered: a sem_post from a running thread then hands its
 *    token over without either side entering the kernel.  The spinner is
 *    not registered, so sem_post owes it no wake; it only reads until it
 *    sees a token, which it takes with the same CAS as step 1.  It gives up
 *    at once when a waiter is registered (those are asleep and first in
 *    line).  How long it spins adapts per semaphore as a condvar waiter's
 *    does (src/spin/handoff.c), with the budget in the `pad` word that
 *    glibc leaves unused on x86_64 and the poster's stamp in sem_t's bytes
 *    beyond glibc's struct.
 * 3. Register: add 1 to the waiter count (one atomic add).  From then on
 *    every sem_post sees the count in the same atomic step that adds its
 *    token, and wakes one sleeper.
 * 4. Loop: with value 0, futex-wait on the value word expecting 0.  A post
 *    between our read and the kernel's check changes the word, so the
 *    kernel refuses to sleep; a post after we sleep sees our registration
 *    and wakes us: no wake-up is lost.  With value > 0, take a token and
 *    unregister in one CAS (value - 1, waiters - 1).
 * 5. Timeout, EINTR or cancellation: unregister.  If we leave while tokens
 *    remain and others are registered, a wake meant for us may have been
 *    spent on us (a cancellation arriving just after the wake), so pass one
 *    on; an extra wake is harmless in this protocol.
 *
 * The futex is shared or private as the semaphore's `private` field says,
 * exactly as glibc chooses.  sem_wait, sem_timedwait and sem_clockwait
 * act on a pending cancellation even when a token is there and they would
 * not block (POSIX "shall occur"; glibc does the same for the first two,
 * and its sem_clockwait only while it sleeps).  An invalid argument is
 * reported first, as in glibc.
 */
#include <semaphore.h>
#include "nptl.h"

#define SEM_ONE_WAITER ((uint64_t)1 << NPTL_SEM_NWAITERS_SHIFT)

static bool try_take(struct nptl_sem *s)
{
	uint64_t d = __atomic_load_n(&s->data, __ATOMIC_RELAXED);
	while (d & NPTL_SEM_VALUE_MASK) {
		if (__atomic_compare_exchange_n(&s->data, &d, d - 1, true,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

/* Spin for a token for up to `budget` iterations.  */
static bool spin_take(struct nptl_sem *s, int budget)
{
	for (int i = 0; i < budget; i++) {
		uint64_t d = __atomic_load_n(&s->data, __ATOMIC_RELAXED);
		if (d & NPTL_SEM_VALUE_MASK) {
			if (!try_take(s))
				break;
			__nptl_handoff_caught(&s->pad, budget, i);
			return true;
		}
		if (d >> NPTL_SEM_NWAITERS_SHIFT)
			break;
		nptl_arch_pause();
	}
	return false;
}

struct registration {
	struct nptl_sem *s;
	bool on;
};

static void unregister(struct registration *r)
{
	if (!r->on)
		return;
	struct nptl_sem *s = r->s;
	uint64_t d = __atomic_sub_fetch(&s->data, SEM_ONE_WAITER, __ATOMIC_RELAXED);
	if ((d & NPTL_SEM_VALUE_MASK) && (d >> NPTL_SEM_NWAITERS_SHIFT))
		nptl_futex_wake(nptl_sem_word(s), 1, nptl_sem_private(s));
}

static int wait_slow(struct nptl_sem *s, int budget, clockid_t clock,
		     const struct timespec *abs)
{
	bool private = nptl_sem_private(s);
	int err = 0;
	bool slept = false;
	unsigned int t0 = budget ? __nptl_handoff_now() : 0;
	uint64_t d = __atomic_add_fetch(&s->data, SEM_ONE_WAITER, __ATOMIC_RELAXED);
	struct registration reg __attribute__((cleanup(unregister))) = { s, true };

	for (;;) {
		if (d & NPTL_SEM_VALUE_MASK) {
			if (__atomic_compare_exchange_n(&s->data, &d,
							d - 1 - SEM_ONE_WAITER, true,
							__ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED)) {
				reg.on = false;
				/* Could spinning have bridged the sleep?  */
				if (slept && budget)
					__nptl_handoff_slept(&s->pad, budget, t0,
							     &s->woke_at);
				return 0;
			}
			continue;
		}
		/* The kernel refuses negative absolute times; they are simply
		 * past.  */
		if (abs && abs->tv_sec < 0) {
			err = ETIMEDOUT;
			break;
		}
		int old = __nptl_enable_asynccancel();
		int r = nptl_futex_wait_abs(nptl_sem_word(s), 0, clock, abs, private);
		__nptl_disable_asynccancel(old);
		if (r == ETIMEDOUT || r == EINTR) {
			err = r;
			break;
		}
		slept |= r == 0;
		d = __atomic_load_n(&s->data, __ATOMIC_RELAXED);
	}
	/* unregister() runs on the way out.  */
	errno = err;
	return -1;
}

static int sem_wait_common(struct nptl_sem *s, clockid_t clock,
			   const struct timespec *abs)
{
	if (try_take(s))
		return 0;
	nptl_mutex_cool();       /* a hand-off, not a surplus */
	int budget = nptl_spin_pays() && !nptl_handoff_colocated(&s->waker_cpu)
			     ? __nptl_handoff_budget(&s->pad) : 0;
	if (budget && spin_take(s, budget))
		return 0;
	return wait_slow(s, budget, clock, abs);
}

NPTL_API int __nptl_sem_wait(sem_t *sem)
{
	nptl_testcancel();
	return sem_wait_common((struct nptl_sem *)sem, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_sem_wait, sem_wait, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_wait, sem_wait, GLIBC_2.2.5);

/* Never fails spuriously: the CAS is retried while a token is there.  */
NPTL_API int __nptl_sem_trywait(sem_t *sem)
{
	if (try_take((struct nptl_sem *)sem))
		return 0;
	errno = EAGAIN;
	return -1;
}
NPTL_SYMVER_DEFAULT(__nptl_sem_trywait, sem_trywait, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_trywait, sem_trywait, GLIBC_2.2.5);

/* glibc 2.36 rejects a bad tv_nsec before looking at the semaphore, even
 * when a token is available.  */
NPTL_API int __nptl_sem_timedwait(sem_t *sem, const struct timespec *abs)
{
	if (!nptl_valid_timespec(abs)) {
		errno = EINVAL;
		return -1;
	}
	nptl_testcancel();
	return sem_wait_common((struct nptl_sem *)sem, CLOCK_REALTIME, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_sem_timedwait, sem_timedwait, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_timedwait, sem_timedwait, GLIBC_2.2.5);

/* Likewise the clock, which the futex must support: CLOCK_REALTIME or
 * CLOCK_MONOTONIC.  */
NPTL_API int __nptl_sem_clockwait(sem_t *sem, clockid_t clock,
				  const struct timespec *abs)
{
	if ((clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) ||
	    !nptl_valid_timespec(abs)) {
		errno = EINVAL;
		return -1;
	}
	nptl_testcancel();
	return sem_wait_common((struct nptl_sem *)sem, clock, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_sem_clockwait, sem_clockwait, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_clockwait, sem_clockwait, GLIBC_2.30);
