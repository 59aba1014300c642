/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Detached threads created in a storm: several creators each start detached
 * threads with large stacks that return at once, so that a thread often
 * exits, and its memory is reused or unmapped, while its creator is still
 * inside pthread_create.  A creator that reads the new thread's descriptor
 * after clone(2) crashes here.  Half the creators start their threads
 * joinable and detach them at once, racing pthread_detach with the
 * thread's own exit: exactly one of the two must free it, and neither may
 * read it after the other did.  `tests/detach-storm N` makes N threads in
 * all (bench-stress runs a long one).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "t.h"

#define CREATORS 4

static atomic_long started, finished;
static long per_creator;

static void *worker(void *arg)
{
	(void)arg;
	atomic_fetch_add(&finished, 1);
	return NULL;
}

static void *creator(void *arg)
{
	int n = (int)(uintptr_t)arg;
	bool detach_later = n & 1;
	size_t stack = (size_t)(16 + (n & 2) / 2) << 20;
	pthread_attr_t a;
	CHECK0(pthread_attr_init(&a));
	if (!detach_later)
		CHECK0(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED));
	CHECK0(pthread_attr_setstacksize(&a, stack));
	for (long i = 0; i < per_creator; i++) {
		pthread_t t;
		int r = pthread_create(&t, &a, worker, NULL);
		if (r == EAGAIN) {
			/* Too many alive at once: let some finish.  */
			struct timespec ts = { 0, 100000 };
			nanosleep(&ts, NULL);
			i--;
			continue;
		}
		CHECK0(r);
		if (r)
			break;
		atomic_fetch_add(&started, 1);
		if (detach_later)
			CHECK0(pthread_detach(t));
	}
	CHECK0(pthread_attr_destroy(&a));
	return NULL;
}

int main(int argc, char **argv)
{
	long total = argc > 1 ? atol(argv[1]) : 40000;
	per_creator = total / CREATORS;
	pthread_t c[CREATORS];
	/* 16 and 17 MiB stacks: cached stacks of one size are trimmed
	 * (unmapped) while the other size is being created.  */
	for (int i = 0; i < CREATORS; i++)
		CHECK0(pthread_create(&c[i], NULL, creator, (void *)(uintptr_t)i));
	for (int i = 0; i < CREATORS; i++)
		CHECK0(pthread_join(c[i], NULL));
	/* Every detached thread ran; wait for the last ones (60 s at most).  */
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += 60;
	while (atomic_load(&finished) < atomic_load(&started)) {
		struct timespec now, ts = { 0, 1000000 };
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > deadline.tv_sec)
			break;
		nanosleep(&ts, NULL);
	}
	CHECK(atomic_load(&started) == per_creator * CREATORS);
	CHECK(atomic_load(&finished) == atomic_load(&started));
	return t_done();
}
