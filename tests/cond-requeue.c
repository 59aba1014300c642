// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Broadcast to waiters that sleep, with every mutex kind: all of them get
 * through the mutex one at a time, each holding it when its wait returns
 * (libnptl requeues sleepers onto the lock word of plain mutexes; a lost
 * link in that chain would leave a waiter asleep, which the alarm reports).
 * Then, still per kind: destroy right after the broadcast with the mutex
 * held; timed waiters whose deadline passes while the broadcaster holds
 * the mutex (they were woken before it: they return 0, mutex held);
 * waiters cancelled after the broadcast (the cleanup handler runs with the
 * mutex held).
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

#define NW 8

static pthread_mutex_t m;
static pthread_cond_t *cv;
static int pred, inside, returned, bad, cleanups;
static int timed;                       /* waiters use timedwait */
static struct timespec latest;          /* the latest of their deadlines */
static int waiting;                     /* waiters that announced themselves */
static volatile pid_t tids[NW];

enum kind { NORMAL, RECURSIVE, ERRORCHECK, ADAPTIVE, ROBUST, PSHARED, NKINDS };
static const char *const names[] = {
	"normal", "recursive", "errorcheck", "adaptive", "robust", "pshared"
};

static void mutex_init(enum kind k)
{
	pthread_mutexattr_t a;
	CHECK0(pthread_mutexattr_init(&a));
	switch (k) {
	case RECURSIVE:
		CHECK0(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE));
		break;
	case ERRORCHECK:
		CHECK0(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
		break;
	case ADAPTIVE:
		CHECK0(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP));
		break;
	case ROBUST:
		CHECK0(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
		break;
	case PSHARED:
		CHECK0(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
		break;
	default:
		break;
	}
	CHECK0(pthread_mutex_init(&m, &a));
	CHECK0(pthread_mutexattr_destroy(&a));
}

/* Called with m held before the first wait: the caller's tid for
 * t_wait_asleep, so that start() knows when all of them sleep.  */
static void announce(void)
{
	tids[waiting++] = t_tid();
}

/* Called with m held after a wait returned: alone inside, and really the
 * owner (for the kinds that can tell).  */
static void in_critical(enum kind k)
{
	if (__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) != 1)
		__atomic_add_fetch(&bad, 1, __ATOMIC_SEQ_CST);
	if (k == ERRORCHECK && pthread_mutex_lock(&m) != EDEADLK)
		__atomic_add_fetch(&bad, 1, __ATOMIC_SEQ_CST);
	if (k == RECURSIVE) {
		if (pthread_mutex_trylock(&m) != 0 || pthread_mutex_unlock(&m) != 0)
			__atomic_add_fetch(&bad, 1, __ATOMIC_SEQ_CST);
	}
	usleep(1000);
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
}

static void *waiter(void *arg)
{
	enum kind k = (enum kind)(intptr_t)arg;
	int r = 0;
	struct timespec deadline = { 0, 0 };
	CHECK0(pthread_mutex_lock(&m));
	if (timed) {
		/* 500 ms is ample for the others to start and for the
		 * broadcast; the broadcaster then holds m past it.  */
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_nsec += 500 * 1000000L;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		if (deadline.tv_sec > latest.tv_sec ||
		    (deadline.tv_sec == latest.tv_sec &&
		     deadline.tv_nsec > latest.tv_nsec))
			latest = deadline;
	}
	announce();
	while (!pred && r == 0)
		r = timed ? pthread_cond_timedwait(cv, &m, &deadline)
			  : pthread_cond_wait(cv, &m);
	if (r != 0)
		__atomic_add_fetch(&bad, 1, __ATOMIC_SEQ_CST);
	in_critical(k);
	returned++;
	CHECK0(pthread_mutex_unlock(&m));
	return NULL;
}

static void unlock_in_cleanup(void *arg)
{
	(void)arg;
	/* The wait relocked the mutex before the handlers run.  */
	if (pthread_mutex_unlock(&m) != 0)
		__atomic_add_fetch(&bad, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&cleanups, 1, __ATOMIC_SEQ_CST);
}

static void *cancelled_waiter(void *arg)
{
	(void)arg;
	CHECK0(pthread_mutex_lock(&m));
	pthread_cleanup_push(unlock_in_cleanup, NULL);
	announce();
	while (!pred)
		pthread_cond_wait(cv, &m);
	pthread_cleanup_pop(1);
	return NULL;
}

static void start(pthread_t *t, void *(*fn)(void *), enum kind k)
{
	pred = 0;
	returned = 0;
	cleanups = 0;
	waiting = 0;
	memset((void *)tids, 0, sizeof tids);
	for (int i = 0; i < NW; i++)
		CHECK0(pthread_create(&t[i], NULL, fn, (void *)(intptr_t)k));
	/* Every waiter asleep in the condvar: a waiter holds m from its
	 * announcement until it waits, and blocks nowhere else after it.  */
	for (int i = 0; i < NW; i++)
		t_wait_asleep(&tids[i]);
}

static void join_all(pthread_t *t, void *want)
{
	for (int i = 0; i < NW; i++) {
		void *r;
		CHECK0(pthread_join(t[i], &r));
		CHECK(r == want);
	}
}

static void run(enum kind k)
{
	pthread_t t[NW];
	pthread_cond_t c;

	mutex_init(k);
	cv = &c;
	bad = 0;

	/* Broadcast, unlock: the chain.  */
	CHECK0(pthread_cond_init(&c, NULL));
	timed = 0;
	start(t, waiter, k);
	CHECK0(pthread_mutex_lock(&m));
	pred = 1;
	CHECK0(pthread_cond_broadcast(&c));
	CHECK0(pthread_mutex_unlock(&m));
	join_all(t, NULL);
	CHECK(returned == NW);

	/* Destroy right after the broadcast, mutex held.  */
	start(t, waiter, k);
	CHECK0(pthread_mutex_lock(&m));
	pred = 1;
	CHECK0(pthread_cond_broadcast(&c));
	CHECK0(pthread_cond_destroy(&c));
	memset(&c, 0xa5, sizeof(c));
	CHECK0(pthread_mutex_unlock(&m));
	join_all(t, NULL);
	CHECK(returned == NW);

	/* Timed waiters whose deadline passes after the broadcast while the
	 * mutex is held: they were woken in time.  */
	CHECK0(pthread_cond_init(&c, NULL));
	timed = 1;
	latest = (struct timespec){ 0, 0 };
	start(t, waiter, k);
	CHECK0(pthread_mutex_lock(&m));
	pred = 1;
	CHECK0(pthread_cond_broadcast(&c));
	struct timespec hold = latest;
	hold.tv_nsec += 100 * 1000000L;
	if (hold.tv_nsec >= 1000000000L) {
		hold.tv_sec++;
		hold.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &hold, NULL))
		;
	CHECK0(pthread_mutex_unlock(&m));
	join_all(t, NULL);
	CHECK(returned == NW);
	timed = 0;

	/* Cancelled after a broadcast that did not make the predicate
	 * true: each handler runs with the mutex held.  */
	start(t, cancelled_waiter, k);
	CHECK0(pthread_mutex_lock(&m));
	CHECK0(pthread_cond_broadcast(&c));
	for (int i = 0; i < NW; i++)
		CHECK0(pthread_cancel(t[i]));
	usleep(50000);
	CHECK0(pthread_mutex_unlock(&m));
	join_all(t, PTHREAD_CANCELED);
	CHECK(cleanups == NW);

	CHECK0(pthread_cond_destroy(&c));
	CHECK0(pthread_mutex_destroy(&m));
	if (bad)
		fprintf(stderr, "%s mutex: %d waits returned wrongly or without "
			"the mutex\n", names[k], bad);
	CHECK(bad == 0);
}

int main(void)
{
	alarm(120);
	for (enum kind k = 0; k < NKINDS; k++)
		run(k);
	return t_done();
}
