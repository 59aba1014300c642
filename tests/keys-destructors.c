// SPDX-License-Identifier: LGPL-2.1-or-later
/* Key destructors at thread exit: in threads made with pthread_create and
 * in a thread glibc makes itself (timer_create's SIGEV_THREAD).  */
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include "t.h"

#define NTHREADS 8

/* ---- one destructor call per thread, with that thread's value ---------- */

static pthread_key_t k_plain;
static int plain_calls;
static uintptr_t plain_sum;

static void plain_dtor(void *v)
{
	__atomic_fetch_add(&plain_calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&plain_sum, (uintptr_t)v, __ATOMIC_RELAXED);
}

static void *set_plain(void *arg)
{
	CHECK0(pthread_setspecific(k_plain, arg));
	if ((uintptr_t)arg & 1)
		pthread_exit(NULL);
	return NULL;
}

/* ---- destructors that store values again ------------------------------- */

static pthread_key_t k_again, k_twice, k_chain, k_high;
static int again_calls, twice_calls, chain_calls, high_calls;
static void *high_seen;

static void again_dtor(void *v)
{
	__atomic_fetch_add(&again_calls, 1, __ATOMIC_RELAXED);
	CHECK0(pthread_setspecific(k_again, v));
}

static void twice_dtor(void *v)
{
	/* Re-set on the first two calls only: three calls in all.  */
	int n = __atomic_add_fetch(&twice_calls, 1, __ATOMIC_RELAXED);
	if (n < 3)
		CHECK0(pthread_setspecific(k_twice, v));
}

/* Sets a second-level key whose block this thread has never used.  */
static void chain_dtor(void *v)
{
	__atomic_fetch_add(&chain_calls, 1, __ATOMIC_RELAXED);
	CHECK(pthread_getspecific(k_high) == NULL);
	CHECK0(pthread_setspecific(k_high, v));
}

static void high_dtor(void *v)
{
	__atomic_fetch_add(&high_calls, 1, __ATOMIC_RELAXED);
	high_seen = v;
}

static int token;

static void *set_again(void *arg)
{
	(void)arg;
	CHECK0(pthread_setspecific(k_again, &token));
	CHECK0(pthread_setspecific(k_twice, &token));
	CHECK0(pthread_setspecific(k_chain, &token));
	return NULL;
}

/* ---- a key deleted while a thread holds a value ------------------------- */

static pthread_key_t k_deleted;
static int deleted_calls;
static pthread_barrier_t bar;

static void deleted_dtor(void *v)
{
	(void)v;
	__atomic_fetch_add(&deleted_calls, 1, __ATOMIC_RELAXED);
}

static void *hold_deleted(void *arg)
{
	(void)arg;
	CHECK0(pthread_setspecific(k_deleted, &token));
	pthread_barrier_wait(&bar);   /* value set */
	pthread_barrier_wait(&bar);   /* key deleted */
	CHECK(pthread_getspecific(k_deleted) == NULL);
	return NULL;
}

/* ---- NULL values get no destructor ------------------------------------- */

static pthread_key_t k_null;
static int null_calls;

static void null_dtor(void *v)
{
	(void)v;
	__atomic_fetch_add(&null_calls, 1, __ATOMIC_RELAXED);
}

static void *set_null(void *arg)
{
	(void)arg;
	CHECK0(pthread_setspecific(k_null, &token));
	CHECK0(pthread_setspecific(k_null, NULL));
	return NULL;
}

/* ---- a new thread starts with no values -------------------------------- */

static void *check_fresh(void *arg)
{
	(void)arg;
	int stale = 0;
	stale += pthread_getspecific(k_plain) != NULL;
	stale += pthread_getspecific(k_high) != NULL;
	stale += pthread_getspecific(k_null) != NULL;
	CHECK(stale == 0);
	CHECK0(pthread_setspecific(k_null, &token));
	CHECK0(pthread_setspecific(k_high, &token));
	return NULL;
}

/* ---- timer_create's SIGEV_THREAD thread, made by glibc ----------------- */

static pthread_key_t k_timer;
static sem_t timer_dtor_ran;
static void *timer_dtor_val;

static void timer_dtor(void *v)
{
	timer_dtor_val = v;
	sem_post(&timer_dtor_ran);
}

static void timer_notify(union sigval sv)
{
	CHECK(pthread_getspecific(k_timer) == NULL);
	CHECK0(pthread_setspecific(k_timer, sv.sival_ptr));
}

static pthread_key_t filler[40];

int main(void)
{
	pthread_t t[NTHREADS];

	CHECK0(pthread_key_create(&k_plain, plain_dtor));
	uintptr_t want = 0;
	for (uintptr_t i = 0; i < NTHREADS; i++) {
		CHECK0(pthread_create(&t[i], NULL, set_plain, (void *)(i + 1)));
		want += i + 1;
	}
	for (int i = 0; i < NTHREADS; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK(plain_calls == NTHREADS);
	CHECK(plain_sum == want);

	/* Push k_high into a second-level block.  */
	for (int i = 0; i < 40; i++)
		CHECK0(pthread_key_create(&filler[i], NULL));
	CHECK0(pthread_key_create(&k_again, again_dtor));
	CHECK0(pthread_key_create(&k_twice, twice_dtor));
	CHECK0(pthread_key_create(&k_chain, chain_dtor));
	CHECK0(pthread_key_create(&k_high, high_dtor));
	CHECK(k_high >= 32);
	CHECK0(pthread_create(&t[0], NULL, set_again, NULL));
	CHECK0(pthread_join(t[0], NULL));
	CHECK(again_calls == PTHREAD_DESTRUCTOR_ITERATIONS);
	CHECK(twice_calls == 3);
	CHECK(chain_calls == 1);
	CHECK(high_calls == 1);
	CHECK(high_seen == &token);

	CHECK0(pthread_key_create(&k_deleted, deleted_dtor));
	CHECK0(pthread_barrier_init(&bar, NULL, 2));
	CHECK0(pthread_create(&t[0], NULL, hold_deleted, NULL));
	pthread_barrier_wait(&bar);
	CHECK0(pthread_key_delete(k_deleted));
	pthread_barrier_wait(&bar);
	CHECK0(pthread_join(t[0], NULL));
	CHECK(deleted_calls == 0);
	/* The slot, reused at once, must not inherit the old value either.  */
	pthread_key_t k_reuse;
	CHECK0(pthread_key_create(&k_reuse, deleted_dtor));
	CHECK(pthread_getspecific(k_reuse) == NULL);
	CHECK0(pthread_key_delete(k_reuse));
	CHECK(deleted_calls == 0);

	CHECK0(pthread_key_create(&k_null, null_dtor));
	CHECK0(pthread_create(&t[0], NULL, set_null, NULL));
	CHECK0(pthread_join(t[0], NULL));
	CHECK(null_calls == 0);

	/* Thread descriptors and stacks get reused: none may carry values.  */
	high_calls = 0;
	for (int i = 0; i < 16; i++) {
		CHECK0(pthread_create(&t[0], NULL, check_fresh, NULL));
		CHECK0(pthread_join(t[0], NULL));
	}
	CHECK(null_calls == 16);
	CHECK(high_calls == 16);

	CHECK0(pthread_key_create(&k_timer, timer_dtor));
	CHECK0(sem_init(&timer_dtor_ran, 0, 0));
	struct sigevent sev = {
		.sigev_notify = SIGEV_THREAD,
		.sigev_notify_function = timer_notify,
		.sigev_value.sival_ptr = &token,
	};
	timer_t tm;
	CHECK(timer_create(CLOCK_MONOTONIC, &sev, &tm) == 0);
	struct itimerspec its = { .it_value = { 0, 1000000 } };
	CHECK(timer_settime(tm, 0, &its, NULL) == 0);
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 10;
	int r;
	while ((r = sem_timedwait(&timer_dtor_ran, &dl)) != 0 && errno == EINTR)
		;
	CHECK(r == 0);
	CHECK(timer_dtor_val == &token);
	CHECK(timer_delete(tm) == 0);

	return t_done();
}
