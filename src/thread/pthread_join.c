// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Join waits on the kernel's tid futex: CLONE_CHILD_CLEARTID zeroes pd->tid
 * and wakes it (as a shared futex) when the thread is gone.  pd->joinid
 * elects the one joiner (glibc's protocol: NULL joinable, the joiner's
 * descriptor while someone waits, the thread itself when detached), so a
 * second joiner or a detached thread gets EINVAL.  A joined descriptor's tid
 * becomes -1 before it is freed, so a stale handle gets ESRCH until the
 * descriptor is reused.  The thread's exit mark in joinid (pthread_detach.c)
 * survives a join that gives up, so a later detach still frees an exited
 * thread.
 *
 * Cancellation.  pthread_join, pthread_timedjoin_np, pthread_clockjoin_np
 * and thrd_join are cancellation points; pthread_tryjoin_np is not.  A
 * cancellation pending at entry acts there, before the thread is taken,
 * even when it has already exited and the join would not wait (glibc acts
 * only once it is about to sleep; POSIX has no such condition, and musl's
 * libc-test checks it).  The thread stays joinable.  One requested later
 * acts in the sleep (glibc's protocol, src/cancel/cancellation.c), where
 * the guard gives the thread back; a join that finds the thread gone
 * without sleeping completes, and the request acts at the next point.
 */
#include "nptl.h"

struct unjoin {
	struct pthread *pd;
	bool armed;
};

/* Give the thread back, joinable, keeping the exit mark it may have set
 * meanwhile (the only change anyone else makes while we hold joinid).  */
static void release(struct pthread *pd)
{
	uintptr_t *w = nptl_joinid_word(pd);
	uintptr_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(w, &old, old & JOINID_EXITED, true,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
}

static void unjoin(struct unjoin *u)
{
	if (u->armed)
		release(u->pd);
}

int __nptl_join(pthread_t t, void **res, bool block, clockid_t clock,
		const struct timespec *abs)
{
	struct pthread *pd = (struct pthread *)t;
	struct pthread *self = nptl_self();

	if (__atomic_load_n(&pd->tid, __ATOMIC_ACQUIRE) < 0)
		return ESRCH;
	if (nptl_joinid(pd) == pd)
		return EINVAL;
	/* From glibc 2.41 a bad deadline is an error even if the thread has
	 * already exited (src/glibc/builds.c).  */
	if (abs && __nptl_glibc->join_checks_time_first &&
	    !nptl_valid_timespec(abs))
		return EINVAL;
	/* Joining ourselves, or a thread that is joining us.  */
	if (pd == self ||
	    (nptl_joinid(self) == pd &&
	     !(__atomic_load_n(&pd->cancelhandling, __ATOMIC_RELAXED) &
	       (CANCELING_BITMASK | CANCELED_BITMASK | EXITING_BITMASK |
		TERMINATED_BITMASK))))
		return EDEADLK;
	if (block)
		nptl_testcancel();
	/* Take it, joinable and either running or exited (EXITED kept).  */
	uintptr_t *w = nptl_joinid_word(pd);
	uintptr_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
	do {
		if (old & ~JOINID_EXITED)
			return EINVAL;   /* detached, or another joiner */
	} while (!__atomic_compare_exchange_n(w, &old, (uintptr_t)self | old,
					      true, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));

	int err = 0;
	pid_t tid;
	/* A cancelled joiner leaves the thread joinable.  */
	struct unjoin guard __attribute__((cleanup(unjoin))) = { pd, true };
	while ((tid = __atomic_load_n(&pd->tid, __ATOMIC_ACQUIRE)) != 0) {
		if (!block) {
			err = EBUSY;
			break;
		}
		if (abs) {
			if (!nptl_valid_timespec(abs)) {
				err = EINVAL;
				break;
			}
			if (abs->tv_sec < 0) {
				err = ETIMEDOUT;
				break;
			}
		}
		int oldtype = __nptl_enable_asynccancel();
		int r = nptl_futex_wait_abs(&pd->tid, tid, clock, abs, false);
		__nptl_disable_asynccancel(oldtype);
		if (r == ETIMEDOUT) {
			err = ETIMEDOUT;
			break;
		}
	}
	guard.armed = false;
	if (err) {
		release(pd);
		return err;
	}
	void *r = pd->result;
	pd->tid = -1;
	if (res)
		*res = r;
	__nptl_free_tcb(pd);
	return 0;
}

NPTL_API int __nptl_pthread_join(pthread_t t, void **res)
{
	return __nptl_join(t, res, true, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_join, pthread_join, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_join, pthread_join, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_tryjoin_np(pthread_t t, void **res)
{
	struct pthread *pd = (struct pthread *)t;
	/* glibc answers EBUSY before anything else unless the tid is 0.  */
	if (__atomic_load_n(&pd->tid, __ATOMIC_ACQUIRE) != 0)
		return EBUSY;
	return __nptl_join(t, res, false, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_tryjoin_np, pthread_tryjoin_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_tryjoin_np, pthread_tryjoin_np, GLIBC_2.3.3);

NPTL_API int __nptl_pthread_clockjoin_np(pthread_t t, void **res, clockid_t c,
					 const struct timespec *abs)
{
	if (c != CLOCK_REALTIME && c != CLOCK_MONOTONIC)
		return EINVAL;
	return __nptl_join(t, res, true, c, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_clockjoin_np, pthread_clockjoin_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_clockjoin_np, pthread_clockjoin_np, GLIBC_2.31);

NPTL_API int __nptl_pthread_timedjoin_np(pthread_t t, void **res,
					 const struct timespec *abs)
{
	return __nptl_join(t, res, true, CLOCK_REALTIME, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_timedjoin_np, pthread_timedjoin_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_timedjoin_np, pthread_timedjoin_np, GLIBC_2.3.3);
