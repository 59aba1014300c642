// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Condition variables under load: a bounded buffer with several producers
 * and consumers (not_empty/not_full with signal, then one condvar with
 * broadcast, then consumers on short timed waits), checking the buffer
 * invariant under the mutex and that every item arrives exactly once; and
 * a token ring where each of N threads waits for its turn on one condvar
 * (a lost wake-up stops the ring, which the watchdog reports).
 * `cond-stress N` runs N times longer (the default takes about a second).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

#define CAP 4
#define NPROD 3
#define NCONS 3

static long scale = 1;
static long items;

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static long buf[CAP];
static int head, count, mode, bad;
static long produced, consumed, sum_in, sum_out;
static volatile long progress;

static void wake(pthread_cond_t *c)
{
	if (mode == 1)
		pthread_cond_broadcast(c);
	else
		pthread_cond_signal(c);
}

static void wait_on(pthread_cond_t *c)
{
	if (mode == 2) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		int r = pthread_cond_timedwait(c, &m, &ts);
		if (r != 0 && r != ETIMEDOUT)
			bad++;
	} else {
		if (pthread_cond_wait(c, &m) != 0)
			bad++;
	}
}

static void *producer(void *arg)
{
	long id = (intptr_t)arg;
	for (;;) {
		pthread_mutex_lock(&m);
		while (count == CAP && produced < items)
			wait_on(&not_full);
		if (produced == items) {
			pthread_mutex_unlock(&m);
			return NULL;
		}
		long v = ++produced * NPROD + id;
		buf[(head + count) % CAP] = v;
		count++;
		sum_in += v;
		if (count < 1 || count > CAP)
			bad++;
		wake(&not_empty);
		pthread_mutex_unlock(&m);
	}
}

static void *consumer(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&m);
		while (count == 0 && consumed < items)
			wait_on(&not_empty);
		if (consumed == items) {
			pthread_mutex_unlock(&m);
			return NULL;
		}
		long v = buf[head];
		head = (head + 1) % CAP;
		count--;
		consumed++;
		progress++;
		sum_out += v;
		if (count < 0 || count >= CAP)
			bad++;
		if (consumed == items) {
			/* Release everybody still waiting for the end.  */
			pthread_cond_broadcast(&not_empty);
			pthread_cond_broadcast(&not_full);
		} else {
			wake(&not_full);
		}
		pthread_mutex_unlock(&m);
	}
}

static void bounded_buffer(int md, pthread_cond_t *full)
{
	pthread_t p[NPROD], c[NCONS];
	mode = md;
	head = count = 0;
	produced = consumed = sum_in = sum_out = 0;
	(void)full;
	for (long i = 0; i < NCONS; i++)
		CHECK0(pthread_create(&c[i], NULL, consumer, NULL));
	for (long i = 0; i < NPROD; i++)
		CHECK0(pthread_create(&p[i], NULL, producer, (void *)(intptr_t)i));
	for (int i = 0; i < NPROD; i++)
		CHECK0(pthread_join(p[i], NULL));
	for (int i = 0; i < NCONS; i++)
		CHECK0(pthread_join(c[i], NULL));
	CHECK(produced == items);
	CHECK(consumed == items);
	CHECK(sum_in == sum_out);
	CHECK(count == 0);
	CHECK(bad == 0);
}

/* The ring: thread i waits until turn == i, passes it on.  */
#define RING 5
static pthread_cond_t ring_cv = PTHREAD_COND_INITIALIZER;
static long turn, laps;

static void *ring(void *arg)
{
	long me = (intptr_t)arg;
	pthread_mutex_lock(&m);
	for (;;) {
		while (turn % RING != me && turn < laps)
			pthread_cond_wait(&ring_cv, &m);
		if (turn >= laps)
			break;
		turn++;
		progress++;
		pthread_cond_broadcast(&ring_cv);
	}
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *watchdog(void *arg)
{
	(void)arg;
	long last = -1;
	for (;;) {
		sleep(10);
		long p = progress;
		if (p == last) {
			fprintf(stderr, "no progress in 10 s: lost wake-up?\n");
			_exit(1);
		}
		last = p;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		scale = atol(argv[1]);
	if (scale < 1)
		scale = 1;
	pthread_t w;
	CHECK0(pthread_create(&w, NULL, watchdog, NULL));

	items = 50000 * scale;
	bounded_buffer(0, &not_full);
	bounded_buffer(1, &not_full);
	items = 20000 * scale;
	bounded_buffer(2, &not_full);

	pthread_t t[RING];
	laps = 10000 * scale;
	turn = 0;
	for (long i = 0; i < RING; i++)
		CHECK0(pthread_create(&t[i], NULL, ring, (void *)(intptr_t)i));
	for (int i = 0; i < RING; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK(turn == laps);
	return t_done();
}
