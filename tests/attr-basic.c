// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_attr_t: defaults, every setter's error codes, round trips, and
 * that a created thread gets the detach state, guard size and scheduling
 * it was asked for.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <unistd.h>
#include "t.h"

static size_t page;

static void check_defaults(void)
{
	pthread_attr_t a;
	int v;
	size_t s;
	void *p;
	struct sched_param sp = { .sched_priority = 77 };

	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_getdetachstate(&a, &v));
	CHECK(v == PTHREAD_CREATE_JOINABLE);
	CHECK0(pthread_attr_getscope(&a, &v));
	CHECK(v == PTHREAD_SCOPE_SYSTEM);
	CHECK0(pthread_attr_getinheritsched(&a, &v));
	CHECK(v == PTHREAD_INHERIT_SCHED);
	CHECK0(pthread_attr_getschedpolicy(&a, &v));
	CHECK(v == SCHED_OTHER);
	CHECK0(pthread_attr_getschedparam(&a, &sp));
	CHECK(sp.sched_priority == 0);
	CHECK0(pthread_attr_getguardsize(&a, &s));
	CHECK(s == page);
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s >= (size_t)PTHREAD_STACK_MIN && s % page == 0);
	CHECK0(pthread_attr_getstack(&a, &p, &s));
	CHECK(s == 0);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_detachstate(void)
{
	pthread_attr_t a;
	int v;
	CHECK0(pthread_attr_init(&a));
	CHECK_ERR(pthread_attr_setdetachstate(&a, 2), EINVAL);
	CHECK_ERR(pthread_attr_setdetachstate(&a, -1), EINVAL);
	CHECK0(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED));
	CHECK_ERR(pthread_attr_setdetachstate(&a, 12345), EINVAL);
	CHECK0(pthread_attr_getdetachstate(&a, &v));
	CHECK(v == PTHREAD_CREATE_DETACHED);   /* a failed set changes nothing */
	CHECK0(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_JOINABLE));
	CHECK0(pthread_attr_getdetachstate(&a, &v));
	CHECK(v == PTHREAD_CREATE_JOINABLE);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_scope(void)
{
	pthread_attr_t a;
	int v;
	CHECK0(pthread_attr_init(&a));
	CHECK_ERR(pthread_attr_setscope(&a, PTHREAD_SCOPE_PROCESS), ENOTSUP);
	CHECK_ERR(pthread_attr_setscope(&a, 2), EINVAL);
	CHECK_ERR(pthread_attr_setscope(&a, -1), EINVAL);
	CHECK0(pthread_attr_setscope(&a, PTHREAD_SCOPE_SYSTEM));
	CHECK0(pthread_attr_getscope(&a, &v));
	CHECK(v == PTHREAD_SCOPE_SYSTEM);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_inheritsched(void)
{
	pthread_attr_t a;
	int v;
	CHECK0(pthread_attr_init(&a));
	CHECK_ERR(pthread_attr_setinheritsched(&a, 2), EINVAL);
	CHECK_ERR(pthread_attr_setinheritsched(&a, -1), EINVAL);
	CHECK0(pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED));
	CHECK0(pthread_attr_getinheritsched(&a, &v));
	CHECK(v == PTHREAD_EXPLICIT_SCHED);
	CHECK_ERR(pthread_attr_setinheritsched(&a, 7), EINVAL);
	CHECK0(pthread_attr_getinheritsched(&a, &v));
	CHECK(v == PTHREAD_EXPLICIT_SCHED);
	CHECK0(pthread_attr_setinheritsched(&a, PTHREAD_INHERIT_SCHED));
	CHECK0(pthread_attr_getinheritsched(&a, &v));
	CHECK(v == PTHREAD_INHERIT_SCHED);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_sched(void)
{
	pthread_attr_t a;
	int v;
	struct sched_param sp;
	CHECK0(pthread_attr_init(&a));

	/* Only the POSIX policies are accepted.  */
	CHECK_ERR(pthread_attr_setschedpolicy(&a, SCHED_BATCH), EINVAL);
	CHECK_ERR(pthread_attr_setschedpolicy(&a, SCHED_IDLE), EINVAL);
	CHECK_ERR(pthread_attr_setschedpolicy(&a, -1), EINVAL);
	CHECK_ERR(pthread_attr_setschedpolicy(&a, 42), EINVAL);
	CHECK0(pthread_attr_getschedpolicy(&a, &v));
	CHECK(v == SCHED_OTHER);
	int pols[] = { SCHED_FIFO, SCHED_RR, SCHED_OTHER };
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		CHECK0(pthread_attr_setschedpolicy(&a, pols[i]));
		CHECK0(pthread_attr_getschedpolicy(&a, &v));
		CHECK(v == pols[i]);
	}

	/* The priority is checked against the attribute's current policy.  */
	sp.sched_priority = 1;
	CHECK_ERR(pthread_attr_setschedparam(&a, &sp), EINVAL);
	sp.sched_priority = -1;
	CHECK_ERR(pthread_attr_setschedparam(&a, &sp), EINVAL);
	sp.sched_priority = 0;
	CHECK0(pthread_attr_setschedparam(&a, &sp));

	for (int pol = SCHED_FIFO; pol <= SCHED_RR; pol++) {
		int min = sched_get_priority_min(pol);
		int max = sched_get_priority_max(pol);
		CHECK(min >= 1 && max >= min);
		CHECK0(pthread_attr_setschedpolicy(&a, pol));
		sp.sched_priority = min - 1;
		CHECK_ERR(pthread_attr_setschedparam(&a, &sp), EINVAL);
		sp.sched_priority = max + 1;
		CHECK_ERR(pthread_attr_setschedparam(&a, &sp), EINVAL);
		sp.sched_priority = min;
		CHECK0(pthread_attr_setschedparam(&a, &sp));
		sp.sched_priority = max;
		CHECK0(pthread_attr_setschedparam(&a, &sp));
		sp.sched_priority = -5;
		CHECK0(pthread_attr_getschedparam(&a, &sp));
		CHECK(sp.sched_priority == max);
		sp.sched_priority = (min + max) / 2;
		CHECK0(pthread_attr_setschedparam(&a, &sp));
		sp.sched_priority = max + 100;
		CHECK_ERR(pthread_attr_setschedparam(&a, &sp), EINVAL);
		CHECK0(pthread_attr_getschedparam(&a, &sp));
		CHECK(sp.sched_priority == (min + max) / 2);
	}
	/* Setting the policy does not recheck the stored priority.  */
	CHECK0(pthread_attr_setschedpolicy(&a, SCHED_OTHER));
	CHECK0(pthread_attr_getschedparam(&a, &sp));
	CHECK(sp.sched_priority != 0);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_guardsize(void)
{
	pthread_attr_t a;
	size_t s;
	CHECK0(pthread_attr_init(&a));
	/* Stored as given, not rounded.  */
	size_t vals[] = { 0, 1, 12345, 3 * page, (size_t)1 << 30 };
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		CHECK0(pthread_attr_setguardsize(&a, vals[i]));
		CHECK0(pthread_attr_getguardsize(&a, &s));
		CHECK(s == vals[i]);
	}
	CHECK0(pthread_attr_destroy(&a));
}

/* ---- created threads ----------------------------------------------- */

static int gate;

static void gate_wait(void)
{
	while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE))
		usleep(1000);
}

static int done;

static void *hold(void *arg)
{
	(void)arg;
	gate_wait();
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	return NULL;
}

struct seen {
	int detach;
	size_t guard, stack;
	int policy, inherit_ok;
	struct sched_param sp;
};

static void *report(void *arg)
{
	struct seen *s = arg;
	pthread_attr_t a;
	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return (void *)1;
	pthread_attr_getdetachstate(&a, &s->detach);
	pthread_attr_getguardsize(&a, &s->guard);
	pthread_attr_getstacksize(&a, &s->stack);
	pthread_attr_destroy(&a);
	pthread_getschedparam(pthread_self(), &s->policy, &s->sp);
	return NULL;
}

static void check_detached_thread(void)
{
	pthread_attr_t a;
	pthread_t t;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED));
	__atomic_store_n(&gate, 0, __ATOMIC_RELAXED);
	CHECK0(pthread_create(&t, &a, hold, NULL));
	/* The thread is held alive, so t still names it.  */
	CHECK_ERR(pthread_join(t, NULL), EINVAL);
	CHECK_ERR(pthread_detach(t), EINVAL);
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		usleep(1000);

	/* It sees itself as detached.  Static: with no join, the thread
	 * may still be writing after the check below.  */
	static struct seen ds;
	CHECK0(pthread_create(&t, &a, report, &ds));
	CHECK0(pthread_attr_destroy(&a));
	for (int i = 0; i < 5000 && !__atomic_load_n(&ds.detach, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	CHECK(ds.detach == PTHREAD_CREATE_DETACHED);

	struct seen s;

	/* A joinable one sees itself joinable.  */
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, NULL, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.detach == PTHREAD_CREATE_JOINABLE);
}

static void check_guard_thread(void)
{
	size_t want[] = { 3 * page, 5000, 0 };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		pthread_attr_t a;
		pthread_t t;
		struct seen s = { 0 };
		void *r = (void *)-1;
		CHECK0(pthread_attr_init(&a));
		CHECK0(pthread_attr_setguardsize(&a, want[i]));
		CHECK0(pthread_create(&t, &a, report, &s));
		CHECK0(pthread_join(t, &r));
		CHECK(r == NULL);
		/* Reported as created: rounded up to whole pages (glibc
		 * 2.36; the attribute itself keeps the unrounded value).  */
		CHECK(s.guard == (want[i] + page - 1) / page * page);
		CHECK0(pthread_attr_destroy(&a));
	}
}

static void check_sched_thread(void)
{
	pthread_attr_t a;
	pthread_t t;
	struct seen s = { 0 };
	struct sched_param sp = { 0 };

	/* Explicit SCHED_OTHER needs no privilege.  */
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED));
	CHECK0(pthread_attr_setschedpolicy(&a, SCHED_OTHER));
	CHECK0(pthread_attr_setschedparam(&a, &sp));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.policy == SCHED_OTHER && s.sp.sched_priority == 0);

	/* Real-time needs CAP_SYS_NICE: either it is granted and the thread
	 * runs with it, or creation fails with EPERM.  */
	int min = sched_get_priority_min(SCHED_FIFO);
	CHECK0(pthread_attr_setschedpolicy(&a, SCHED_FIFO));
	sp.sched_priority = min;
	CHECK0(pthread_attr_setschedparam(&a, &sp));
	memset(&s, 0, sizeof(s));
	int err = pthread_create(&t, &a, report, &s);
	CHECK(err == 0 || err == EPERM);
	if (err == 0) {
		CHECK0(pthread_join(t, NULL));
		CHECK(s.policy == SCHED_FIFO && s.sp.sched_priority == min);
	}

	/* Inherit (the default) ignores the attribute's policy.  */
	CHECK0(pthread_attr_setinheritsched(&a, PTHREAD_INHERIT_SCHED));
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.policy == SCHED_OTHER);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_scope_thread(void)
{
	pthread_attr_t a;
	pthread_t t;
	struct seen s = { 0 };
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setscope(&a, PTHREAD_SCOPE_SYSTEM));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.detach == PTHREAD_CREATE_JOINABLE && s.guard == page);
	CHECK0(pthread_attr_destroy(&a));
}

int main(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	check_defaults();
	check_detachstate();
	check_scope();
	check_inheritsched();
	check_sched();
	check_guardsize();
	check_detached_thread();
	check_guard_thread();
	check_sched_thread();
	check_scope_thread();
	return t_done();
}
