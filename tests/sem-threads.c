// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Semaphore stress with many threads (conformance: passes on glibc too).
 *
 * 1. A pool: a semaphore of K tokens guards a counter of holders, which
 *    must never exceed K; holders acquire with every kind of wait (wait,
 *    trywait, timedwait, clockwait on both clocks) at random.
 * 2. Producer/consumer: producers post, consumers take with random kinds
 *    of wait; in the end every token is consumed exactly once and the
 *    semaphore is back at 0 with no waiter registered.
 * 3. Ping-pong between two threads, timed (a hand-off benchmark).
 *
 * Usage: sem-threads [seconds]   (default: a short run for `make check`;
 * `tests/sem-threads 20` is the long stress run.)
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

#define K 3
#define POOL_THREADS 8
#define PRODUCERS 4
#define CONSUMERS 6

static sem_t pool, items;
static int holders, max_holders;
static volatile int stop;
static long produced[PRODUCERS], consumed[CONSUMERS];
static long acquired;
static int errors;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static struct timespec in_ms(clockid_t c, long ms)
{
	struct timespec t;
	clock_gettime(c, &t);
	t.tv_nsec += ms * 1000000L;
	while (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/* Take a token with a random kind of wait; false if none came in time.  */
static bool take(sem_t *s, unsigned *seed)
{
	struct timespec dl;
	int r;
	switch (rand_r(seed) % 5) {
	case 0:
		r = sem_wait(s);
		break;
	case 1:
		r = sem_trywait(s);
		if (r && errno != EAGAIN)
			__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
		return r == 0;
	case 2:
		dl = in_ms(CLOCK_REALTIME, 1 + rand_r(seed) % 3);
		r = sem_timedwait(s, &dl);
		break;
	case 3:
		dl = in_ms(CLOCK_MONOTONIC, 1 + rand_r(seed) % 3);
		r = sem_clockwait(s, CLOCK_MONOTONIC, &dl);
		break;
	default:
		dl = in_ms(CLOCK_REALTIME, rand_r(seed) % 2);
		r = sem_clockwait(s, CLOCK_REALTIME, &dl);
		break;
	}
	if (r && errno != ETIMEDOUT)
		__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
	return r == 0;
}

static void *pool_user(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 7919u + 1;
	while (!stop) {
		if (!take(&pool, &seed))
			continue;
		int h = __atomic_add_fetch(&holders, 1, __ATOMIC_SEQ_CST);
		if (h > __atomic_load_n(&max_holders, __ATOMIC_RELAXED))
			__atomic_store_n(&max_holders, h, __ATOMIC_RELAXED);
		if (rand_r(&seed) % 4 == 0)
			sched_yield();
		__atomic_sub_fetch(&holders, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&acquired, 1, __ATOMIC_RELAXED);
		if (sem_post(&pool))
			__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void *producer(void *arg)
{
	int i = (int)(uintptr_t)arg;
	unsigned seed = (unsigned)i + 100;
	while (!stop) {
		int n = 1 + rand_r(&seed) % 8;
		for (int j = 0; j < n; j++) {
			if (sem_post(&items))
				__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
			produced[i]++;
		}
		if (rand_r(&seed) % 3 == 0)
			usleep(rand_r(&seed) % 50);
	}
	return NULL;
}

/* Consumers end on "poison": once the producers are done, main posts one
 * more token per consumer; a take whose sequence number is beyond the
 * number produced is one of those, and each consumer stops at its first.  */
static long total_produced = -1;
static long taken;
static void *consumer(void *arg)
{
	int i = (int)(uintptr_t)arg;
	unsigned seed = (unsigned)i + 1000;
	for (;;) {
		if (!take(&items, &seed))
			continue;
		long n = __atomic_add_fetch(&taken, 1, __ATOMIC_SEQ_CST);
		long p = __atomic_load_n(&total_produced, __ATOMIC_SEQ_CST);
		if (p >= 0 && n > p)
			break;
		consumed[i]++;
	}
	return NULL;
}

static sem_t ping, pong;
static long rounds;
static void *ponger(void *arg)
{
	(void)arg;
	for (long i = 0; i < rounds; i++) {
		sem_wait(&ping);
		sem_post(&pong);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.6;
	pthread_t pt[POOL_THREADS], pr[PRODUCERS], co[CONSUMERS];

	CHECK0(-sem_init(&pool, 0, K));
	CHECK0(-sem_init(&items, 0, 0));
	for (int i = 0; i < POOL_THREADS; i++)
		CHECK0(pthread_create(&pt[i], NULL, pool_user, (void *)(uintptr_t)i));
	for (int i = 0; i < CONSUMERS; i++)
		CHECK0(pthread_create(&co[i], NULL, consumer, (void *)(uintptr_t)i));
	for (int i = 0; i < PRODUCERS; i++)
		CHECK0(pthread_create(&pr[i], NULL, producer, (void *)(uintptr_t)i));

	double t0 = now();
	while (now() - t0 < secs) {
		usleep(20000);
		int v;
		sem_getvalue(&pool, &v);
		CHECK(v >= 0 && v <= K);
	}
	stop = 1;
	for (int i = 0; i < PRODUCERS; i++)
		CHECK0(pthread_join(pr[i], NULL));
	long p = 0, c = 0;
	for (int i = 0; i < PRODUCERS; i++)
		p += produced[i];
	__atomic_store_n(&total_produced, p, __ATOMIC_SEQ_CST);
	for (int i = 0; i < CONSUMERS; i++)
		CHECK(sem_post(&items) == 0);
	for (int i = 0; i < CONSUMERS; i++)
		CHECK0(pthread_join(co[i], NULL));
	for (int i = 0; i < POOL_THREADS; i++)
		CHECK0(pthread_join(pt[i], NULL));

	for (int i = 0; i < CONSUMERS; i++)
		c += consumed[i];
	int v = -1;
	sem_getvalue(&items, &v);
	CHECK(v == 0);
	CHECK(p == c);
	CHECK(max_holders >= 1 && max_holders <= K);
	sem_getvalue(&pool, &v);
	CHECK(v == K);
	CHECK(errors == 0);
	/* glibc's encoding: no waiter left registered.  */
	CHECK(*(uint64_t *)&items == 0);
	CHECK(*(uint64_t *)&pool == K);

	/* Ping-pong.  */
	rounds = secs > 2 ? 1000000 : 100000;
	CHECK0(-sem_init(&ping, 0, 0));
	CHECK0(-sem_init(&pong, 0, 0));
	pthread_t t;
	double t1 = now();
	CHECK0(pthread_create(&t, NULL, ponger, NULL));
	for (long i = 0; i < rounds; i++) {
		sem_post(&ping);
		sem_wait(&pong);
	}
	CHECK0(pthread_join(t, NULL));
	double pp = now() - t1;
	printf("sem-threads (%s): %.1fs: pool %ld acquisitions, max holders %d; "
	       "%ld items; ping-pong %.0f ns/round-trip\n",
	       t_on_libnptl() ? "libnptl" : "glibc", secs, acquired, max_holders,
	       p, pp / rounds * 1e9);
	return t_done();
}
