// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sem_wait and sem_timedwait are cancellation points: a thread cancelled
 * while blocked ends with PTHREAD_CANCELED, its cleanup handlers run, and
 * the semaphore's value and waiter count (glibc's x86_64 encoding) are
 * intact afterwards; a cancellation already pending acts even when a token
 * is there, and takes none.  Conformance: passes on glibc too.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

static sem_t sem, ready;
static int cleaned;

static uint32_t nwaiters(sem_t *s)
{
	return (uint32_t)(__atomic_load_n((uint64_t *)s, __ATOMIC_SEQ_CST) >> 32);
}

static int value(sem_t *s)
{
	int v = -1;
	sem_getvalue(s, &v);
	return v;
}

static void cleanup(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&cleaned, 1, __ATOMIC_SEQ_CST);
}

static void *blocked(void *arg)
{
	int kind = (int)(intptr_t)arg;
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 30;
	pthread_cleanup_push(cleanup, NULL);
	if (kind == 0)
		sem_wait(&sem);
	else if (kind == 1)
		sem_timedwait(&sem, &dl);
	else {
		clock_gettime(CLOCK_MONOTONIC, &dl);
		dl.tv_sec += 30;
		sem_clockwait(&sem, CLOCK_MONOTONIC, &dl);
	}
	pthread_cleanup_pop(0);
	return (void *)1;
}

static void *pending(void *arg)
{
	int kind = (int)(intptr_t)arg;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	sem_post(&ready);
	while (!(__atomic_load_n(&cleaned, __ATOMIC_SEQ_CST) & 0x10000))
		usleep(1000);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 30;
	pthread_cleanup_push(cleanup, NULL);
	if (kind == 0)
		sem_wait(&sem);
	else
		sem_timedwait(&sem, &dl);
	pthread_cleanup_pop(0);
	return (void *)1;
}

int main(void)
{
	CHECK0(-sem_init(&sem, 0, 0));
	CHECK0(-sem_init(&ready, 0, 0));

	/* Cancelled while blocked, alone and with another waiter.  */
	for (int kind = 0; kind < 3; kind++) {
		for (int others = 0; others < 2; others++) {
			pthread_t t, o = 0;
			void *r;
			cleaned = 0;
			if (others)
				CHECK0(pthread_create(&o, NULL, blocked, (void *)0));
			CHECK0(pthread_create(&t, NULL, blocked, (void *)(intptr_t)kind));
			for (int i = 0; i < 5000 && nwaiters(&sem) < 1u + others; i++)
				usleep(1000);
			CHECK(nwaiters(&sem) == 1u + others);
			usleep(20000);
			CHECK0(pthread_cancel(t));
			CHECK0(pthread_join(t, &r));
			CHECK(r == PTHREAD_CANCELED);
			CHECK(cleaned == 1);
			CHECK(value(&sem) == 0);
			CHECK(nwaiters(&sem) == (uint32_t)others);
			if (others) {
				/* The other waiter still gets the next token.  */
				CHECK(sem_post(&sem) == 0);
				CHECK0(pthread_join(o, &r));
				CHECK(r == (void *)1);
			}
			CHECK(value(&sem) == 0);
			CHECK(nwaiters(&sem) == 0);
		}
	}

	/* A pending cancellation acts in sem_wait/sem_timedwait even with a
	 * token available, and the token stays.  */
	for (int kind = 0; kind < 2; kind++) {
		pthread_t t;
		void *r;
		cleaned = 0;
		CHECK(sem_post(&sem) == 0);
		CHECK0(pthread_create(&t, NULL, pending, (void *)(intptr_t)kind));
		CHECK(sem_wait(&ready) == 0);
		CHECK0(pthread_cancel(t));
		__atomic_add_fetch(&cleaned, 0x10000, __ATOMIC_SEQ_CST);
		CHECK0(pthread_join(t, &r));
		CHECK(r == PTHREAD_CANCELED);
		CHECK(cleaned == 0x10001);
		CHECK(value(&sem) == 1);
		CHECK(nwaiters(&sem) == 0);
		CHECK(sem_trywait(&sem) == 0);
	}

	/* Cancellation races with posts: every token is accounted for.  */
	int lost = 0;
	for (int i = 0; i < 200; i++) {
		pthread_t t;
		void *r;
		CHECK0(pthread_create(&t, NULL, blocked, (void *)(intptr_t)(i % 3)));
		if (i & 1)
			usleep(i % 7 * 100);
		CHECK(sem_post(&sem) == 0);
		pthread_cancel(t);
		CHECK0(pthread_join(t, &r));
		/* Either it took the token and returned, or it was cancelled
		 * and the token is still there.  */
		if (r == PTHREAD_CANCELED) {
			if (sem_trywait(&sem) != 0)
				lost++;
		} else {
			CHECK(r == (void *)1);
		}
		CHECK(value(&sem) == 0);
		CHECK(nwaiters(&sem) == 0);
	}
	CHECK(lost == 0);
	return t_done();
}
