// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Condition variables: every call and its error codes, the attributes
 * (stored where glibc keeps them), both clocks, timeouts, the mutex held
 * on every return, destroy while woken waiters are still leaving.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sc = PTHREAD_COND_INITIALIZER;
static int pred, woken, waiting;

static double now(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct timespec in_ms(clockid_t clk, long ms)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

/* An ERRORCHECK mutex tells whether the caller holds it.  */
static int held(pthread_mutex_t *em)
{
	return pthread_mutex_lock(em) == EDEADLK;
}

static void attrs(void)
{
	pthread_condattr_t a;
	int v;
	clockid_t clk;

	CHECK0(pthread_condattr_init(&a));
	memcpy(&v, &a, sizeof(v));
	CHECK(v == 0);
	CHECK0(pthread_condattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_PRIVATE);
	CHECK0(pthread_condattr_getclock(&a, &clk));
	CHECK(clk == CLOCK_REALTIME);

	CHECK_ERR(pthread_condattr_setpshared(&a, 2), EINVAL);
	CHECK_ERR(pthread_condattr_setpshared(&a, -1), EINVAL);
	CHECK0(pthread_condattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_condattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);

	CHECK_ERR(pthread_condattr_setclock(&a, CLOCK_PROCESS_CPUTIME_ID), EINVAL);
	CHECK_ERR(pthread_condattr_setclock(&a, CLOCK_THREAD_CPUTIME_ID), EINVAL);
	CHECK_ERR(pthread_condattr_setclock(&a, CLOCK_MONOTONIC_RAW), EINVAL);
	CHECK_ERR(pthread_condattr_setclock(&a, CLOCK_BOOTTIME), EINVAL);
	CHECK_ERR(pthread_condattr_setclock(&a, 1000), EINVAL);
	CHECK0(pthread_condattr_getclock(&a, &clk));
	CHECK(clk == CLOCK_REALTIME);
	CHECK0(pthread_condattr_setclock(&a, CLOCK_MONOTONIC));
	CHECK0(pthread_condattr_getclock(&a, &clk));
	CHECK(clk == CLOCK_MONOTONIC);
	CHECK0(pthread_condattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);

	/* glibc's encodings: the attribute is one int (bit 0 pshared, clock
	 * from bit 1), and the condvar keeps both in __wrefs (bit 0 pshared,
	 * bit 1 monotonic).  */
	memcpy(&v, &a, sizeof(v));
	CHECK(v == (1 | CLOCK_MONOTONIC << 1));
	pthread_cond_t c;
	memset(&c, 0xa5, sizeof(c));
	CHECK0(pthread_cond_init(&c, &a));
	CHECK(c.__data.__wrefs == 3);
	CHECK0(pthread_cond_destroy(&c));

	CHECK0(pthread_condattr_setpshared(&a, PTHREAD_PROCESS_PRIVATE));
	CHECK0(pthread_cond_init(&c, &a));
	CHECK(c.__data.__wrefs == 2);
	CHECK0(pthread_cond_destroy(&c));
	CHECK0(pthread_condattr_setclock(&a, CLOCK_REALTIME));
	memcpy(&v, &a, sizeof(v));
	CHECK(v == 0);
	CHECK0(pthread_condattr_destroy(&a));

	memset(&c, 0xa5, sizeof(c));
	CHECK0(pthread_cond_init(&c, NULL));
	pthread_cond_t zero = PTHREAD_COND_INITIALIZER;
	CHECK(memcmp(&c, &zero, sizeof(c)) == 0);
	CHECK0(pthread_cond_destroy(&c));
}

static void timeouts(void)
{
	pthread_mutexattr_t ma;
	pthread_mutex_t em;
	pthread_cond_t c, mono;
	pthread_condattr_t a;
	struct timespec ts;

	CHECK0(pthread_mutexattr_init(&ma));
	CHECK0(pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK));
	CHECK0(pthread_mutex_init(&em, &ma));
	CHECK0(pthread_cond_init(&c, NULL));
	CHECK0(pthread_condattr_init(&a));
	CHECK0(pthread_condattr_setclock(&a, CLOCK_MONOTONIC));
	CHECK0(pthread_cond_init(&mono, &a));

	CHECK0(pthread_mutex_lock(&em));
	/* Invalid timespecs: EINVAL, the mutex never released.  */
	ts = in_ms(CLOCK_REALTIME, 0);
	ts.tv_nsec = 1000000000L;
	CHECK_ERR(pthread_cond_timedwait(&c, &em, &ts), EINVAL);
	ts.tv_nsec = -1;
	CHECK_ERR(pthread_cond_timedwait(&c, &em, &ts), EINVAL);
	CHECK_ERR(pthread_cond_clockwait(&c, &em, CLOCK_MONOTONIC, &ts), EINVAL);
	CHECK(held(&em));
	/* Clocks clockwait refuses.  */
	ts = in_ms(CLOCK_MONOTONIC, 10);
	CHECK_ERR(pthread_cond_clockwait(&c, &em, CLOCK_PROCESS_CPUTIME_ID, &ts), EINVAL);
	CHECK_ERR(pthread_cond_clockwait(&c, &em, CLOCK_THREAD_CPUTIME_ID, &ts), EINVAL);
	CHECK_ERR(pthread_cond_clockwait(&c, &em, CLOCK_MONOTONIC_RAW, &ts), EINVAL);
	CHECK(held(&em));

	/* Past and negative deadlines: ETIMEDOUT with the mutex held.  */
	ts.tv_sec = 0;
	ts.tv_nsec = 0;
	CHECK_ERR(pthread_cond_timedwait(&c, &em, &ts), ETIMEDOUT);
	CHECK(held(&em));
	ts.tv_sec = -1;
	CHECK_ERR(pthread_cond_timedwait(&c, &em, &ts), ETIMEDOUT);
	CHECK(held(&em));
	CHECK_ERR(pthread_cond_clockwait(&c, &em, CLOCK_MONOTONIC, &ts), ETIMEDOUT);
	CHECK(held(&em));
	CHECK_ERR(pthread_cond_timedwait(&mono, &em, &ts), ETIMEDOUT);
	CHECK(held(&em));

	/* Real timeouts on each clock.  */
	double t0 = now(CLOCK_MONOTONIC);
	ts = in_ms(CLOCK_REALTIME, 60);
	CHECK_ERR(pthread_cond_timedwait(&c, &em, &ts), ETIMEDOUT);
	CHECK(now(CLOCK_MONOTONIC) - t0 >= 0.055);
	CHECK(held(&em));
	t0 = now(CLOCK_MONOTONIC);
	ts = in_ms(CLOCK_MONOTONIC, 60);
	CHECK_ERR(pthread_cond_clockwait(&c, &em, CLOCK_MONOTONIC, &ts), ETIMEDOUT);
	CHECK(now(CLOCK_MONOTONIC) - t0 >= 0.055);
	t0 = now(CLOCK_MONOTONIC);
	ts = in_ms(CLOCK_REALTIME, 60);
	CHECK_ERR(pthread_cond_clockwait(&c, &em, CLOCK_REALTIME, &ts), ETIMEDOUT);
	CHECK(now(CLOCK_MONOTONIC) - t0 >= 0.055);
	/* A CLOCK_MONOTONIC condvar reads timedwait's deadline on that clock
	 * (on CLOCK_REALTIME it would be decades past).  */
	t0 = now(CLOCK_MONOTONIC);
	ts = in_ms(CLOCK_MONOTONIC, 60);
	CHECK_ERR(pthread_cond_timedwait(&mono, &em, &ts), ETIMEDOUT);
	CHECK(now(CLOCK_MONOTONIC) - t0 >= 0.055);
	CHECK(held(&em));
	CHECK0(pthread_mutex_unlock(&em));

	/* Waiting with a mutex we do not hold.  */
	CHECK_ERR(pthread_cond_wait(&c, &em), EPERM);
	ts = in_ms(CLOCK_REALTIME, 10);
	CHECK_ERR(pthread_cond_timedwait(&c, &em, &ts), EPERM);
	CHECK0(pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE));
	pthread_mutex_t rm;
	CHECK0(pthread_mutex_init(&rm, &ma));
	CHECK_ERR(pthread_cond_wait(&c, &rm), EPERM);
	CHECK0(pthread_mutex_destroy(&rm));

	/* Nobody waiting: signal and broadcast succeed, destroy returns.  */
	CHECK0(pthread_cond_signal(&c));
	CHECK0(pthread_cond_broadcast(&c));
	CHECK0(pthread_cond_destroy(&c));
	CHECK0(pthread_cond_destroy(&mono));
	CHECK0(pthread_mutex_destroy(&em));
}

static void *waiter(void *arg)
{
	pthread_cond_t *c = arg;
	pthread_mutex_lock(&m);
	waiting++;
	while (!pred)
		pthread_cond_wait(c, &m);
	woken++;
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *timed_waiter(void *arg)
{
	pthread_cond_t *c = arg;
	struct timespec ts = in_ms(CLOCK_REALTIME, 10000);
	int r = 0;
	pthread_mutex_lock(&m);
	waiting++;
	while (!pred && r == 0)
		r = pthread_cond_timedwait(c, &m, &ts);
	if (pred)
		woken++;
	pthread_mutex_unlock(&m);
	return (void *)(intptr_t)r;
}

static void wakeups(void)
{
	pthread_t t[6];
	void *r;

	/* signal wakes one of them; broadcast the rest.  */
	pred = 0;
	woken = 0;
	waiting = 0;
	for (int i = 0; i < 6; i++)
		CHECK0(pthread_create(&t[i], NULL, i & 1 ? timed_waiter : waiter,
				      &sc));
	t_lock_when_waiting(&m, &waiting, 6);      /* all six inside */
	pred = 1;
	CHECK0(pthread_cond_signal(&sc));
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 200 && !__atomic_load_n(&woken, __ATOMIC_RELAXED); i++)
		usleep(10000);
	pthread_mutex_lock(&m);
	CHECK(woken >= 1);
	CHECK0(pthread_cond_broadcast(&sc));
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 6; i++) {
		CHECK0(pthread_join(t[i], &r));
		CHECK(r == NULL);
	}
	CHECK(woken == 6);

	/* Destroy right after the broadcast, with the mutex still held: it
	 * waits for the woken waiters to leave the condvar.  */
	pthread_cond_t *c = malloc(sizeof(*c));
	CHECK0(pthread_cond_init(c, NULL));
	pred = 0;
	woken = 0;
	waiting = 0;
	for (int i = 0; i < 6; i++)
		CHECK0(pthread_create(&t[i], NULL, waiter, c));
	t_lock_when_waiting(&m, &waiting, 6);
	pred = 1;
	CHECK0(pthread_cond_broadcast(c));
	CHECK0(pthread_cond_destroy(c));
	memset(c, 0xff, sizeof(*c));
	free(c);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 6; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK(woken == 6);
}

int main(void)
{
	attrs();
	timeouts();
	wakeups();
	return t_done();
}
