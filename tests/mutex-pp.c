/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * PRIO_PROTECT mutexes, with glibc's semantics: attribute and mutex
 * ceilings and their errors; the lock word carrying the ceiling; and, when
 * this process may use SCHED_FIFO, the owner's priority raised to the
 * highest ceiling it holds (sched_getparam) while pthread_getschedparam
 * keeps the thread's own priority, nested locks, unlock order, recursive,
 * errorcheck, trylock, timedlock/clocklock, setprioceiling on held and free
 * mutexes, pthread_setschedparam/setschedprio while holding, waiters raised
 * while they wait, a condvar wait.  FIFO priorities stay low (<= 20) and
 * every wait sleeps, so that two CPUs are not starved.
 *
 * glibc cannot raise a SCHED_OTHER thread (it asks the kernel for its
 * policy with the ceiling, which the kernel refuses): the lock is EINVAL.
 * glibc then keeps the ceiling counted, so later locks by that thread
 * succeed without raising; such checks run in fresh threads, once each.
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <limits.h>
#include <sys/syscall.h>
#include "t.h"

#define CEIL_MASK 0xfff80000u
#define CEIL_SHIFT 19

static int fifo_min, fifo_max;

static int gettid_(void)
{
	return (int)syscall(SYS_gettid);
}

/* The priority the kernel runs thread `tid` at (0: the caller).  */
static int kprio(int tid)
{
	struct sched_param sp;
	if (sched_getparam(tid, &sp) != 0)
		return -1;
	return sp.sched_priority;
}

/* pthread_getschedparam's priority: the thread's own, without ceilings.  */
static int own_prio(void)
{
	struct sched_param sp;
	int pol;
	if (pthread_getschedparam(pthread_self(), &pol, &sp) != 0)
		return -1;
	return sp.sched_priority;
}

static void init_pp(pthread_mutex_t *m, int type, int ceiling)
{
	pthread_mutexattr_t a;
	CHECK0(pthread_mutexattr_init(&a));
	CHECK0(pthread_mutexattr_settype(&a, type));
	CHECK0(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT));
	if (ceiling)
		CHECK0(pthread_mutexattr_setprioceiling(&a, ceiling));
	CHECK0(pthread_mutex_init(m, &a));
	CHECK0(pthread_mutexattr_destroy(&a));
}

static void check_attributes(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	int v;

	CHECK0(pthread_mutexattr_init(&a));
	CHECK0(pthread_mutexattr_getprotocol(&a, &v));
	CHECK(v == PTHREAD_PRIO_NONE);
	CHECK0(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT));
	CHECK0(pthread_mutexattr_getprotocol(&a, &v));
	CHECK(v == PTHREAD_PRIO_PROTECT);
	CHECK_ERR(pthread_mutexattr_setprotocol(&a, 3), EINVAL);
	CHECK_ERR(pthread_mutexattr_setprotocol(&a, -1), EINVAL);
	/* Unset: SCHED_FIFO's minimum, also as the mutex's ceiling.  */
	CHECK0(pthread_mutexattr_getprioceiling(&a, &v));
	CHECK(v == fifo_min);
	CHECK0(pthread_mutex_init(&m, &a));
	CHECK0(pthread_mutex_getprioceiling(&m, &v));
	CHECK(v == fifo_min);
	CHECK(((unsigned)m.__data.__lock & CEIL_MASK) >> CEIL_SHIFT == (unsigned)fifo_min);
	CHECK((m.__data.__lock & ~(int)CEIL_MASK) == 0);
	CHECK0(pthread_mutex_destroy(&m));
	/* The range is SCHED_FIFO's.  */
	CHECK_ERR(pthread_mutexattr_setprioceiling(&a, 0), EINVAL);
	CHECK_ERR(pthread_mutexattr_setprioceiling(&a, fifo_min - 1), EINVAL);
	CHECK_ERR(pthread_mutexattr_setprioceiling(&a, fifo_max + 1), EINVAL);
	CHECK_ERR(pthread_mutexattr_setprioceiling(&a, -5), EINVAL);
	CHECK_ERR(pthread_mutexattr_setprioceiling(&a, INT_MAX), EINVAL);
	CHECK0(pthread_mutexattr_setprioceiling(&a, fifo_max));
	CHECK0(pthread_mutexattr_getprioceiling(&a, &v));
	CHECK(v == fifo_max);
	CHECK0(pthread_mutexattr_setprioceiling(&a, 7));
	CHECK0(pthread_mutexattr_getprioceiling(&a, &v));
	CHECK(v == 7);
	/* The protocol and the ceiling are independent of the type.  */
	CHECK0(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE));
	CHECK0(pthread_mutexattr_getprioceiling(&a, &v));
	CHECK(v == 7);
	CHECK0(pthread_mutexattr_getprotocol(&a, &v));
	CHECK(v == PTHREAD_PRIO_PROTECT);
	CHECK0(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_mutex_init(&m, &a));
	CHECK0(pthread_mutex_getprioceiling(&m, &v));
	CHECK(v == 7);
	CHECK(m.__data.__lock == 7 << CEIL_SHIFT);
	CHECK0(pthread_mutex_destroy(&m));
	/* Robust PP mutexes: glibc refuses them.  */
	CHECK0(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	CHECK_ERR(pthread_mutex_init(&m, &a), ENOTSUP);
	CHECK0(pthread_mutexattr_destroy(&a));

	/* Mutex ceilings: only PP mutexes have one.  */
	pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;
	CHECK_ERR(pthread_mutex_getprioceiling(&plain, &v), EINVAL);
	CHECK_ERR(pthread_mutex_setprioceiling(&plain, fifo_min, &v), EINVAL);
	init_pp(&m, PTHREAD_MUTEX_NORMAL, 4);
	CHECK_ERR(pthread_mutex_setprioceiling(&m, 0, &v), EINVAL);
	CHECK_ERR(pthread_mutex_setprioceiling(&m, fifo_max + 1, &v), EINVAL);
	CHECK0(pthread_mutex_getprioceiling(&m, &v));
	CHECK(v == 4);
	/* A free mutex: taken and released without a priority change.  */
	int before = kprio(0);
	v = -1;
	CHECK0(pthread_mutex_setprioceiling(&m, 9, &v));
	CHECK(v == 4);
	CHECK(kprio(0) == before);
	CHECK0(pthread_mutex_getprioceiling(&m, &v));
	CHECK(v == 9);
	CHECK(m.__data.__lock == 9 << CEIL_SHIFT);
	CHECK0(pthread_mutex_setprioceiling(&m, fifo_max, &v));
	CHECK0(pthread_mutex_getprioceiling(&m, &v));
	CHECK(v == fifo_max);
	CHECK0(pthread_mutex_destroy(&m));
}

/* As a SCHED_OTHER thread: the lock cannot raise it, EINVAL.  */
static void *other_lock(void *arg)
{
	pthread_mutex_t *m = arg;
	CHECK_ERR(pthread_mutex_lock(m), EINVAL);
	CHECK(sched_getscheduler(0) == SCHED_OTHER);
	CHECK(kprio(0) == 0);
	return NULL;
}

static void *other_trylock(void *arg)
{
	pthread_mutex_t *m = arg;
	CHECK_ERR(pthread_mutex_trylock(m), EINVAL);
	CHECK(sched_getscheduler(0) == SCHED_OTHER);
	return NULL;
}

static void run(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	CHECK0(pthread_create(&t, NULL, fn, arg));
	CHECK0(pthread_join(t, NULL));
}

static void check_sched_other(void)
{
	pthread_mutex_t m;
	init_pp(&m, PTHREAD_MUTEX_NORMAL, 3);
	run(other_lock, &m);
	run(other_trylock, &m);
	CHECK(m.__data.__lock == 3 << CEIL_SHIFT);
	CHECK0(pthread_mutex_destroy(&m));
}

/* ---- with SCHED_FIFO ---------------------------------------------------- */

#define BASE 1

static void set_own(int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	CHECK0(pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp));
}

static void check_nesting(void)
{
	pthread_mutex_t m3, m5, m5b, m10;
	int v;
	init_pp(&m3, PTHREAD_MUTEX_NORMAL, 3);
	init_pp(&m5, PTHREAD_MUTEX_NORMAL, 5);
	init_pp(&m5b, PTHREAD_MUTEX_ERRORCHECK, 5);
	init_pp(&m10, PTHREAD_MUTEX_ADAPTIVE_NP, 10);

	CHECK(kprio(0) == BASE);
	CHECK0(pthread_mutex_lock(&m5));
	CHECK(kprio(0) == 5);
	CHECK(own_prio() == BASE);
	CHECK(sched_getscheduler(0) == SCHED_FIFO);
	CHECK(((unsigned)m5.__data.__lock & ~CEIL_MASK) == 1);
	CHECK(m5.__data.__owner == gettid_());
	CHECK0(pthread_mutex_lock(&m10));
	CHECK(kprio(0) == 10);
	CHECK0(pthread_mutex_lock(&m3));
	CHECK(kprio(0) == 10);
	CHECK0(pthread_mutex_lock(&m5b));
	CHECK(kprio(0) == 10);
	CHECK0(pthread_mutex_unlock(&m10));
	CHECK(kprio(0) == 5);
	CHECK0(pthread_mutex_unlock(&m5));
	CHECK(kprio(0) == 5);           /* m5b has the same ceiling */
	CHECK0(pthread_mutex_unlock(&m5b));
	CHECK(kprio(0) == 3);
	CHECK0(pthread_mutex_unlock(&m3));
	CHECK(kprio(0) == BASE);
	CHECK(m3.__data.__lock == 3 << CEIL_SHIFT);
	CHECK(m10.__data.__lock == 10 << CEIL_SHIFT);

	/* Errorcheck: relock, and unlock of a free one.  */
	CHECK0(pthread_mutex_lock(&m5b));
	CHECK_ERR(pthread_mutex_lock(&m5b), EDEADLK);
	CHECK_ERR(pthread_mutex_trylock(&m5b), EDEADLK);
	CHECK_ERR(pthread_mutex_setprioceiling(&m5b, 6, &v), EDEADLK);
	CHECK(kprio(0) == 5);
	CHECK0(pthread_mutex_unlock(&m5b));
	CHECK_ERR(pthread_mutex_unlock(&m5b), EPERM);
	CHECK(kprio(0) == BASE);

	/* Trylock raises, as lock does.  */
	CHECK0(pthread_mutex_trylock(&m10));
	CHECK(kprio(0) == 10);
	CHECK0(pthread_mutex_unlock(&m10));
	CHECK(kprio(0) == BASE);

	/* A caller whose own priority is above the ceiling: EINVAL.  */
	set_own(4);
	CHECK_ERR(pthread_mutex_lock(&m3), EINVAL);
	CHECK_ERR(pthread_mutex_trylock(&m3), EINVAL);
	struct timespec ts = t_soon(CLOCK_REALTIME, 1000);
	CHECK_ERR(pthread_mutex_timedlock(&m3, &ts), EINVAL);
	CHECK(kprio(0) == 4);
	CHECK(m3.__data.__lock == 3 << CEIL_SHIFT);
	/* Equal is fine.  */
	set_own(5);
	CHECK0(pthread_mutex_lock(&m5));
	CHECK(kprio(0) == 5);
	CHECK0(pthread_mutex_unlock(&m5));
	set_own(BASE);
	CHECK(kprio(0) == BASE);

	CHECK0(pthread_mutex_destroy(&m3));
	CHECK0(pthread_mutex_destroy(&m5));
	CHECK0(pthread_mutex_destroy(&m5b));
	CHECK0(pthread_mutex_destroy(&m10));
}

static void check_recursive_and_ceiling(void)
{
	pthread_mutex_t r, n;
	int v;
	init_pp(&r, PTHREAD_MUTEX_RECURSIVE, 5);
	init_pp(&n, PTHREAD_MUTEX_NORMAL, 3);

	CHECK0(pthread_mutex_lock(&r));
	CHECK0(pthread_mutex_lock(&r));
	CHECK0(pthread_mutex_trylock(&r));
	CHECK(kprio(0) == 5);
	CHECK0(pthread_mutex_unlock(&r));
	CHECK0(pthread_mutex_unlock(&r));
	CHECK(kprio(0) == 5);
	/* Held (recursive): the ceiling changes in place, and ours with it.  */
	CHECK0(pthread_mutex_setprioceiling(&r, 8, &v));
	CHECK(v == 5);
	CHECK(kprio(0) == 8);
	CHECK(((unsigned)r.__data.__lock & CEIL_MASK) >> CEIL_SHIFT == 8);
	CHECK(((unsigned)r.__data.__lock & ~CEIL_MASK) == 1);
	CHECK0(pthread_mutex_setprioceiling(&r, 2, &v));
	CHECK(v == 8);
	CHECK(kprio(0) == 2);
	CHECK0(pthread_mutex_lock(&n));
	CHECK(kprio(0) == 3);
	CHECK0(pthread_mutex_unlock(&r));
	CHECK(kprio(0) == 3);
	CHECK0(pthread_mutex_unlock(&n));
	CHECK(kprio(0) == BASE);
	CHECK(r.__data.__lock == 2 << CEIL_SHIFT);
	CHECK_ERR(pthread_mutex_unlock(&r), EPERM);

	/* pthread_setschedparam / setschedprio while holding: never below
	 * the ceiling; the thread's own priority is what was asked.  */
	CHECK0(pthread_mutex_setprioceiling(&r, 10, &v));
	CHECK0(pthread_mutex_lock(&r));
	CHECK(kprio(0) == 10);
	set_own(2);
	CHECK(kprio(0) == 10);
	CHECK(own_prio() == 2);
	CHECK0(pthread_setschedprio(pthread_self(), 12));
	CHECK(kprio(0) == 12);
	CHECK(own_prio() == 12);
	CHECK0(pthread_setschedprio(pthread_self(), 3));
	CHECK(kprio(0) == 10);
	CHECK(own_prio() == 3);
	CHECK0(pthread_mutex_unlock(&r));
	CHECK(kprio(0) == 3);
	set_own(BASE);
	CHECK(kprio(0) == BASE);

	CHECK0(pthread_mutex_destroy(&r));
	CHECK0(pthread_mutex_destroy(&n));
}

/* ---- contention ---------------------------------------------------------- */

static pthread_mutex_t cm;
static volatile int holder_go, holder_has, waiter_tid, waiter_done;
static volatile int waiter_prio_held, waiter_ceiling_held;

static void *holder(void *arg)
{
	(void)arg;
	if (pthread_mutex_lock(&cm))
		exit(3);
	holder_has = 1;
	while (!holder_go)
		usleep(1000);
	pthread_mutex_unlock(&cm);
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	waiter_tid = gettid_();
	if (pthread_mutex_lock(&cm))
		exit(4);
	int c;
	pthread_mutex_getprioceiling(&cm, &c);
	waiter_ceiling_held = c;
	waiter_prio_held = kprio(0);
	pthread_mutex_unlock(&cm);
	waiter_done = kprio(0);
	return NULL;
}

static volatile pid_t setter_tid;

static void *setter(void *arg)
{
	int old = -1;
	setter_tid = t_tid();
	if (pthread_mutex_setprioceiling(&cm, (int)(long)arg, &old))
		exit(5);
	return (void *)(long)old;
}

static void wait_sleepers(void)
{
	for (int i = 0; i < 5000 && ((unsigned)cm.__data.__lock & ~CEIL_MASK) != 2; i++)
		usleep(1000);
	CHECK(((unsigned)cm.__data.__lock & ~CEIL_MASK) == 2);
}

static void check_contention(void)
{
	pthread_t h, w, s;

	/* A waiter runs at the ceiling while it waits and while it holds.  */
	init_pp(&cm, PTHREAD_MUTEX_NORMAL, 6);
	holder_go = holder_has = waiter_tid = 0;
	waiter_done = -1;
	CHECK0(pthread_create(&h, NULL, holder, NULL));
	while (!holder_has)
		usleep(1000);
	CHECK0(pthread_create(&w, NULL, waiter, NULL));
	wait_sleepers();
	CHECK(kprio(waiter_tid) == 6);
	/* Trylock of a held mutex: refused, not raised.  */
	CHECK_ERR(pthread_mutex_trylock(&cm), EBUSY);
	CHECK(kprio(0) == BASE);
	holder_go = 1;
	CHECK0(pthread_join(h, NULL));
	CHECK0(pthread_join(w, NULL));
	CHECK(waiter_prio_held == 6);
	CHECK(waiter_done == BASE);
	CHECK(cm.__data.__lock == 6 << CEIL_SHIFT);
	CHECK0(pthread_mutex_destroy(&cm));

	/* setprioceiling on a held mutex waits for it; a waiter that slept
	 * under the old ceiling holds it at whatever ceiling it then has.  */
	init_pp(&cm, PTHREAD_MUTEX_NORMAL, 6);
	holder_go = holder_has = waiter_tid = 0;
	CHECK0(pthread_create(&h, NULL, holder, NULL));
	while (!holder_has)
		usleep(1000);
	CHECK0(pthread_create(&w, NULL, waiter, NULL));
	wait_sleepers();
	setter_tid = 0;
	CHECK0(pthread_create(&s, NULL, setter, (void *)9L));
	t_wait_asleep(&setter_tid);     /* it waits for the holder */
	int v;
	CHECK0(pthread_mutex_getprioceiling(&cm, &v));
	CHECK(v == 6);          /* not before the holder lets go */
	holder_go = 1;
	void *old;
	CHECK0(pthread_join(h, NULL));
	CHECK0(pthread_join(s, &old));
	CHECK0(pthread_join(w, NULL));
	CHECK((long)old == 6);
	CHECK(waiter_prio_held == waiter_ceiling_held);
	CHECK(waiter_ceiling_held == 6 || waiter_ceiling_held == 9);
	CHECK(waiter_done == BASE);
	CHECK0(pthread_mutex_getprioceiling(&cm, &v));
	CHECK(v == 9);
	CHECK(cm.__data.__lock == 9 << CEIL_SHIFT);
	CHECK0(pthread_mutex_destroy(&cm));
}

static void *timed_thread(void *arg)
{
	(void)arg;
	/* Timed out: not raised any more (glibc stays raised after a
	 * timeout, the ceiling still counted: libnptl only).  */
	struct timespec ts = t_soon(CLOCK_REALTIME, 2000);
	CHECK_ERR(pthread_mutex_timedlock(&cm, &ts), ETIMEDOUT);
	if (t_on_libnptl())
		CHECK(kprio(0) == BASE);
	ts = t_soon(CLOCK_MONOTONIC, 2000);
	CHECK_ERR(pthread_mutex_clocklock(&cm, CLOCK_MONOTONIC, &ts), ETIMEDOUT);
	if (t_on_libnptl())
		CHECK(kprio(0) == BASE);
	struct timespec bad = { 0, 1000000000 };
	CHECK_ERR(pthread_mutex_timedlock(&cm, &bad), EINVAL);
	if (t_on_libnptl())
		CHECK(kprio(0) == BASE);
	return NULL;
}

static void check_timed_and_cond(void)
{
	pthread_t h;
	init_pp(&cm, PTHREAD_MUTEX_ERRORCHECK, 7);
	/* Free: taken, even with a deadline in the past.  */
	struct timespec past = { 1, 0 };
	CHECK0(pthread_mutex_timedlock(&cm, &past));
	CHECK(kprio(0) == 7);
	CHECK0(pthread_mutex_unlock(&cm));
	CHECK0(pthread_mutex_clocklock(&cm, CLOCK_MONOTONIC, &past));
	CHECK(kprio(0) == 7);

	/* A condvar wait gives the mutex (and its ceiling) up and takes it
	 * back.  */
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec ts = t_soon(CLOCK_REALTIME, 5000);
	CHECK_ERR(pthread_cond_timedwait(&c, &cm, &ts), ETIMEDOUT);
	CHECK(kprio(0) == 7);
	CHECK(cm.__data.__owner == gettid_());
	CHECK0(pthread_mutex_unlock(&cm));
	CHECK(kprio(0) == BASE);
	CHECK0(pthread_cond_destroy(&c));

	holder_go = holder_has = 0;
	CHECK0(pthread_create(&h, NULL, holder, NULL));
	while (!holder_has)
		usleep(1000);
	run(timed_thread, NULL);
	holder_go = 1;
	CHECK0(pthread_join(h, NULL));
	CHECK0(pthread_mutex_destroy(&cm));
}

int main(void)
{
	alarm(60);
	fifo_min = sched_get_priority_min(SCHED_FIFO);
	fifo_max = sched_get_priority_max(SCHED_FIFO);
	check_attributes();
	check_sched_other();

	struct sched_param sp = { .sched_priority = BASE };
	int r = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (r == EPERM) {
		fprintf(stderr, "SCHED_FIFO not permitted here: checked only the "
			"attributes, ceilings, setprioceiling of free mutexes and "
			"the EINVAL of a SCHED_OTHER locker; not the raised "
			"priorities\n");
		return t_done();
	}
	CHECK0(r);
	check_nesting();
	check_recursive_and_ceiling();
	check_contention();
	check_timed_and_cond();
	sp.sched_priority = 0;
	CHECK0(pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp));
	return t_done();
}
