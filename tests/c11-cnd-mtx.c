// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * C11 condition variables with C11 mutexes: results are thrd_* values,
 * cnd_timedwait times out on CLOCK_REALTIME with the mutex held, signal
 * and broadcast wake waiters.
 */
#include <threads.h>
#include <time.h>
#include "t.h"

static mtx_t m;
static cnd_t c;
static int pred, woken, ready;

static int waiter(void *arg)
{
	(void)arg;
	if (mtx_lock(&m) != thrd_success)
		return 1;
	ready++;
	cnd_broadcast(&c);
	while (!pred)
		if (cnd_wait(&c, &m) != thrd_success)
			return 2;
	woken++;
	mtx_unlock(&m);
	return 0;
}

int main(void)
{
	struct timespec ts;
	thrd_t t[4];
	int res;

	CHECK(cnd_init(&c) == thrd_success);
	CHECK(mtx_init(&m, mtx_plain) == thrd_success);

	CHECK(mtx_lock(&m) == thrd_success);
	ts.tv_sec = 0;
	ts.tv_nsec = 0;
	CHECK(cnd_timedwait(&c, &m, &ts) == thrd_timedout);
	ts.tv_nsec = 1000000000L;
	CHECK(cnd_timedwait(&c, &m, &ts) == thrd_error);
	timespec_get(&ts, TIME_UTC);
	struct timespec t0 = ts;
	ts.tv_nsec += 50000000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	CHECK(cnd_timedwait(&c, &m, &ts) == thrd_timedout);
	struct timespec t1;
	timespec_get(&t1, TIME_UTC);
	CHECK((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec) >= 45e6);
	/* Still ours: a plain mutex's trylock from here says busy.  */
	CHECK(mtx_trylock(&m) == thrd_busy);
	CHECK(mtx_unlock(&m) == thrd_success);

	CHECK(cnd_signal(&c) == thrd_success);
	CHECK(cnd_broadcast(&c) == thrd_success);

	for (int i = 0; i < 4; i++)
		CHECK(thrd_create(&t[i], waiter, NULL) == thrd_success);
	mtx_lock(&m);
	while (ready < 4)
		cnd_wait(&c, &m);
	pred = 1;
	CHECK(cnd_signal(&c) == thrd_success);
	CHECK(cnd_broadcast(&c) == thrd_success);
	mtx_unlock(&m);
	for (int i = 0; i < 4; i++) {
		CHECK(thrd_join(t[i], &res) == thrd_success);
		CHECK(res == 0);
	}
	CHECK(woken == 4);

	/* A timed mutex and a recursive one work with cnd_wait too.  */
	mtx_t tm;
	CHECK(mtx_init(&tm, mtx_timed) == thrd_success);
	CHECK(mtx_lock(&tm) == thrd_success);
	ts.tv_sec = 1;
	ts.tv_nsec = 0;
	CHECK(cnd_timedwait(&c, &tm, &ts) == thrd_timedout);
	CHECK(mtx_unlock(&tm) == thrd_success);
	mtx_destroy(&tm);

	cnd_destroy(&c);
	mtx_destroy(&m);
	return t_done();
}
