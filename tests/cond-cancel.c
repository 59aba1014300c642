// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_cond_wait and pthread_cond_timedwait are cancellation points: a
 * cancelled waiter runs its cleanup handlers with the mutex held, and the
 * condvar keeps working for the others -- including when the cancelled
 * waiter may have taken the wake-up of a concurrent signal.
 */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

static pthread_mutex_t m;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int waiting, pred, woken;
static int handler_held[8];

/* With an ERRORCHECK mutex, relocking tells whether we own it.  */
static void handler(void *arg)
{
	int i = (int)(intptr_t)arg;
	handler_held[i] = pthread_mutex_lock(&m) == EDEADLK;
	pthread_mutex_unlock(&m);
}

static void *cancelled_waiter(void *arg)
{
	int i = (int)(intptr_t)arg;
	int timed = i & 1;
	pthread_mutex_lock(&m);
	pthread_cleanup_push(handler, arg);
	waiting++;
	/* Waiter 2 heeds the predicate: a wake-up it took is not lost.  */
	while (i != 2 || !pred) {
		if (timed) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 60;
			pthread_cond_timedwait(&c, &m, &ts);
		} else {
			pthread_cond_wait(&c, &m);
		}
	}
	woken++;
	pthread_mutex_unlock(&m);
	pthread_cleanup_pop(0);
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	waiting++;
	while (!pred)
		pthread_cond_wait(&c, &m);
	woken++;
	pthread_mutex_unlock(&m);
	return NULL;
}

/* Until n waiters are inside the wait (t_lock_when_waiting), then a
 * little longer: long enough, usually, for them to sleep there.  */
static void wait_for(int n)
{
	t_lock_when_waiting(&m, &waiting, n);
	pthread_mutex_unlock(&m);
	usleep(20000);
}

static void *pending_cancel(void *arg)
{
	(void)arg;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	pthread_cancel(pthread_self());
	pthread_mutex_lock(&m);
	pthread_cleanup_push(handler, (void *)(intptr_t)7);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	pthread_cond_wait(&c, &m); /* acts at once */
	pthread_cleanup_pop(0);
	return NULL;
}

int main(void)
{
	pthread_mutexattr_t ma;
	pthread_t t[4], u;
	void *r;

	CHECK0(pthread_mutexattr_init(&ma));
	CHECK0(pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK));
	CHECK0(pthread_mutex_init(&m, &ma));

	/* A lone waiter, untimed and timed.  */
	for (int i = 0; i < 2; i++) {
		waiting = 0;
		CHECK0(pthread_create(&t[0], NULL, cancelled_waiter,
				      (void *)(intptr_t)i));
		wait_for(1);
		CHECK0(pthread_cancel(t[0]));
		CHECK0(pthread_join(t[0], &r));
		CHECK(r == PTHREAD_CANCELED);
		CHECK(handler_held[i]);
	}

	/* A cancellation pending when the wait starts acts at once.  */
	CHECK0(pthread_create(&u, NULL, pending_cancel, NULL));
	CHECK0(pthread_join(u, &r));
	CHECK(r == PTHREAD_CANCELED);
	CHECK(handler_held[7]);

	/* Cancel one waiter among others while signalling: the signal is
	 * not lost.  Either the cancelled thread took it and returned
	 * normally (its cancellation then stays pending), or it was
	 * cancelled inside the wait and the other waiter must wake (POSIX:
	 * a waiter unblocked by cancellation does not consume a concurrent
	 * signal).  */
	int cancelled = 0, consumed = 0;
	for (int round = 0; round < 20; round++) {
		waiting = 0;
		pred = 0;
		woken = 0;
		handler_held[2] = 0;
		CHECK0(pthread_create(&t[0], NULL, cancelled_waiter,
				      (void *)(intptr_t)2));
		CHECK0(pthread_create(&t[1], NULL, waiter, NULL));
		wait_for(2);
		pthread_mutex_lock(&m);
		pred = 1;
		CHECK0(pthread_cond_signal(&c));
		CHECK0(pthread_cancel(t[0]));
		pthread_mutex_unlock(&m);
		CHECK0(pthread_join(t[0], &r));
		if (r == PTHREAD_CANCELED) {
			cancelled++;
			CHECK(handler_held[2]);
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 5;
			int e = pthread_timedjoin_np(t[1], NULL, &ts);
			CHECK_ERR(e, 0);
			if (e == 0)
				continue;
		} else {
			consumed++;
		}
		pthread_mutex_lock(&m);
		pthread_cond_broadcast(&c);
		pthread_mutex_unlock(&m);
		CHECK0(pthread_join(t[1], NULL));
	}
	if (cancelled == 0 || consumed == 0)
		fprintf(stderr, "note: cancelled %d, consumed %d of 20\n",
			cancelled, consumed);

	/* The condvar still works: a broadcast wakes three waiters.  */
	waiting = 0;
	pred = 0;
	woken = 0;
	for (int i = 1; i < 4; i++)
		CHECK0(pthread_create(&t[i], NULL, waiter, NULL));
	wait_for(3);
	pthread_mutex_lock(&m);
	pred = 1;
	CHECK0(pthread_cond_broadcast(&c));
	pthread_mutex_unlock(&m);
	for (int i = 1; i < 4; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK(woken == 3);
	CHECK0(pthread_cond_destroy(&c));
	return t_done();
}
