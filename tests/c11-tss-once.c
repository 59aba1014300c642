// SPDX-License-Identifier: LGPL-2.1-or-later
/* C11 thread-specific storage and call_once.  */
#include <limits.h>
#include <pthread.h>
#include <threads.h>
#include "t.h"

#define NTHREADS 8

static tss_t key;
static int dtor_calls;
static int vals[NTHREADS];

static void dtor(void *v)
{
	__atomic_fetch_add(&dtor_calls, 1, __ATOMIC_RELAXED);
	*(int *)v = -1;
}

static once_flag flag = ONCE_FLAG_INIT;
static int once_runs, once_done;

static void once_fn(void)
{
	__atomic_fetch_add(&once_runs, 1, __ATOMIC_RELAXED);
	thrd_sleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	once_done = 1;
}

static int worker(void *arg)
{
	int *v = arg;
	CHECK(tss_get(key) == NULL);
	CHECK(tss_set(key, v) == thrd_success);
	CHECK(tss_get(key) == v);
	call_once(&flag, once_fn);
	CHECK(once_done == 1);
	return 0;
}

int main(void)
{
	thrd_t t[NTHREADS];
	int mine;

	CHECK(TSS_DTOR_ITERATIONS == PTHREAD_DESTRUCTOR_ITERATIONS);
	CHECK(tss_create(&key, dtor) == thrd_success);
	CHECK(tss_get(key) == NULL);
	CHECK(tss_set(key, &mine) == thrd_success);
	for (int i = 0; i < NTHREADS; i++)
		CHECK(thrd_create(&t[i], worker, &vals[i]) == thrd_success);
	for (int i = 0; i < NTHREADS; i++)
		CHECK(thrd_join(t[i], NULL) == thrd_success);
	CHECK(dtor_calls == NTHREADS);
	int bad = 0;
	for (int i = 0; i < NTHREADS; i++)
		bad += vals[i] != -1;
	CHECK(bad == 0);
	CHECK(once_runs == 1);
	call_once(&flag, once_fn);
	CHECK(once_runs == 1);
	CHECK(tss_get(key) == &mine);

	tss_delete(key);
	CHECK(tss_get(key) == NULL);
	CHECK(tss_set(key, &mine) == thrd_error);

	/* Running out of keys is thrd_error, not an errno value.  */
	static tss_t all[PTHREAD_KEYS_MAX + 1];
	int n = 0, r;
	while (n <= PTHREAD_KEYS_MAX && (r = tss_create(&all[n], NULL)) == thrd_success)
		n++;
	CHECK(n <= PTHREAD_KEYS_MAX);
	CHECK(r == thrd_error);
	while (n--)
		tss_delete(all[n]);
	CHECK(tss_create(&key, NULL) == thrd_success);
	tss_delete(key);
	return t_done();
}
