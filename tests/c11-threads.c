// SPDX-License-Identifier: LGPL-2.1-or-later
/* C11 <threads.h>: thrd_create/join/detach/exit/current/equal/sleep/yield.  */
#include <threads.h>
#include <stdint.h>
#include <time.h>
#include "t.h"

static thrd_t seen;

static int body(void *arg)
{
	seen = thrd_current();
	return (int)(intptr_t)arg;
}

static int exiter(void *arg)
{
	(void)arg;
	thrd_exit(-7);
	return 0;
}

static int sleeper(void *arg)
{
	(void)arg;
	struct timespec d = { 0, 20000000 }, rem;
	int r = thrd_sleep(&d, &rem);
	thrd_yield();
	return r == 0 ? 5 : 6;
}

int main(void)
{
	thrd_t t;
	int res = 0;
	CHECK(thrd_create(&t, body, (void *)(intptr_t)123) == thrd_success);
	CHECK(thrd_join(t, &res) == thrd_success);
	CHECK(res == 123);
	CHECK(thrd_equal(seen, t));
	CHECK(!thrd_equal(thrd_current(), t));

	CHECK(thrd_create(&t, exiter, NULL) == thrd_success);
	CHECK(thrd_join(t, &res) == thrd_success);
	CHECK(res == -7);

	CHECK(thrd_create(&t, sleeper, NULL) == thrd_success);
	CHECK(thrd_join(t, NULL) == thrd_success);

	CHECK(thrd_create(&t, sleeper, NULL) == thrd_success);
	CHECK(thrd_detach(t) == thrd_success);
	CHECK(thrd_detach(t) == thrd_error);

	struct timespec bad = { 0, -1 };
	CHECK(thrd_sleep(&bad, NULL) < -1);
	struct timespec d = { 0, 50000000 };
	CHECK(thrd_sleep(&d, NULL) == 0);
	return t_done();
}
