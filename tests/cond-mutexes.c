// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Broadcasts that do not hold the mutex, to waiters that sleep.
 *
 * Part "two": one condvar used with two mutexes in turn, as LTP's
 * pthread_cond_timedwait/2-5 does: N threads wait with m1; the main thread
 * broadcasts over and over without a mutex; each released thread waits
 * again with m2 while the others are still relocking m1.  Every thread
 * must get through both waits, each holding the right mutex when its wait
 * returns.  (libnptl requeued the sleepers of m1 onto m2's lock word here,
 * where nothing woke them again.)
 *
 * Part "late": one mutex; waiters keep arriving while a broadcaster that
 * holds no mutex broadcasts, so that a waiter may start between a
 * broadcast's seq bump and its requeue (it must still relock as a
 * requeued one would); every round all waiters get out.  That window is
 * narrow: this part did not catch the code before the fix in three runs,
 * so it guards the protocol rather than proving that case.
 *
 * A lost waiter shows as a hang: an alarm ends the test with a message.
 * Passes on glibc, linked and preloaded.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>
#include "t.h"

#define N 64

static pthread_mutex_t m1, m2;
static pthread_cond_t cv;
static volatile int go;
static int started, stopped, wrong;

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "cond-mutexes: a waiter never came back "
				  "from pthread_cond_wait (lost wake-up)\n";
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

/* Whether the caller holds m (an error-checking mutex).  */
static int holds(pthread_mutex_t *m)
{
	return pthread_mutex_lock(m) == EDEADLK;
}

static void *two(void *arg)
{
	pthread_mutex_lock(&m1);
	started++;
	do
		pthread_cond_wait(&cv, &m1);
	while (!go);
	if (!holds(&m1))
		__atomic_fetch_add(&wrong, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&m1);
	pthread_mutex_lock(&m2);
	do
		pthread_cond_wait(&cv, &m2);
	while (!go);
	if (!holds(&m2))
		__atomic_fetch_add(&wrong, 1, __ATOMIC_RELAXED);
	stopped++;
	pthread_mutex_unlock(&m2);
	return arg;
}

static void init_mutex(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	CHECK0(pthread_mutexattr_init(&a));
	CHECK0(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	CHECK0(pthread_mutex_init(m, &a));
	CHECK0(pthread_mutexattr_destroy(&a));
}

static void part_two(int rounds)
{
	pthread_t t[N];
	for (int r = 0; r < rounds; r++) {
		init_mutex(&m1);
		init_mutex(&m2);
		CHECK0(pthread_cond_init(&cv, NULL));
		go = 0;
		started = stopped = 0;
		for (int i = 0; i < N; i++)
			CHECK0(pthread_create(&t[i], NULL, two, NULL));
		int n;
		do {
			pthread_mutex_lock(&m1);
			n = started;
			pthread_mutex_unlock(&m1);
		} while (n < N);
		go = 1;
		do {
			CHECK0(pthread_cond_broadcast(&cv));
			sched_yield();
			pthread_mutex_lock(&m2);
			n = stopped;
			pthread_mutex_unlock(&m2);
		} while (n < N);
		for (int i = 0; i < N; i++)
			CHECK0(pthread_join(t[i], NULL));
		CHECK0(pthread_cond_destroy(&cv));
		CHECK0(pthread_mutex_destroy(&m1));
		CHECK0(pthread_mutex_destroy(&m2));
	}
	CHECK(wrong == 0);
}

/* Part "late": generation counter under m1; waiters wait for the next
 * generation; the broadcaster advances it, unlocks, then broadcasts.  */
static unsigned gen;
static int done_late;

static void *late(void *arg)
{
	pthread_mutex_lock(&m1);
	while (!done_late) {
		unsigned g = gen;
		while (gen == g && !done_late)
			pthread_cond_wait(&cv, &m1);
		if (!holds(&m1))
			__atomic_fetch_add(&wrong, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&m1);
	return arg;
}

static void part_late(int rounds)
{
	pthread_t t[N / 4];
	init_mutex(&m1);
	CHECK0(pthread_cond_init(&cv, NULL));
	for (int i = 0; i < N / 4; i++)
		CHECK0(pthread_create(&t[i], NULL, late, NULL));
	for (int r = 0; r < rounds; r++) {
		pthread_mutex_lock(&m1);
		gen++;
		if (r == rounds - 1)
			done_late = 1;
		pthread_mutex_unlock(&m1);
		CHECK0(pthread_cond_broadcast(&cv));
		if (r % 64 == 0)
			sched_yield();
	}
	for (int i = 0; i < N / 4; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK0(pthread_cond_destroy(&cv));
	CHECK0(pthread_mutex_destroy(&m1));
	CHECK(wrong == 0);
}

int main(void)
{
	signal(SIGALRM, on_alarm);
	alarm(120);
	part_two(20);
	part_late(20000);
	return t_done();
}
