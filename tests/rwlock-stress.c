/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Random rwlock operations from many threads on both kinds; invariant,
 * checked by counters inside the critical sections: a writer is alone,
 * readers never overlap a writer.  Then the saturated shape: threads
 * that do nothing but rdlock/wrlock back to back (1 in 10 a write), more
 * of them than CPUs, where libnptl's hot readers nap before they queue;
 * each must still make progress.  Argument: seconds per kind (default
 * 0.5), for long runs: tests/rwlock-stress 60  */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "t.h"
#include "rw-inside.h"

#define NTHREADS 8              /* the most run() starts */
static pthread_rwlock_t lock;
static volatile int stop;
static long ops[NTHREADS];

static void *worker(void *arg)
{
	long id = (long)(intptr_t)arg;
	unsigned seed = (unsigned)id * 2654435761u + 1;
	while (!stop) {
		seed = seed * 1103515245 + 12345;
		unsigned op = (seed >> 16) % 10;
		struct timespec ts;
		int r;
		switch (op) {
		case 0: case 1: case 2:
			CHECK0(pthread_rwlock_rdlock(&lock));
			rw_check_read();
			break;
		case 3:
			r = pthread_rwlock_tryrdlock(&lock);
			CHECK(r == 0 || r == EBUSY);
			if (r)
				continue;
			rw_check_read();
			break;
		case 4:
			ts = t_soon(CLOCK_MONOTONIC, 50);
			r = pthread_rwlock_clockrdlock(&lock, CLOCK_MONOTONIC, &ts);
			CHECK(r == 0 || r == ETIMEDOUT);
			if (r)
				continue;
			rw_check_read();
			break;
		case 5: case 6:
			CHECK0(pthread_rwlock_wrlock(&lock));
			rw_check_write();
			break;
		case 7:
			r = pthread_rwlock_trywrlock(&lock);
			CHECK(r == 0 || r == EBUSY);
			if (r)
				continue;
			rw_check_write();
			break;
		case 8:
			ts = t_soon(CLOCK_REALTIME, 30);
			r = pthread_rwlock_timedwrlock(&lock, &ts);
			CHECK(r == 0 || r == ETIMEDOUT);
			if (r)
				continue;
			rw_check_write();
			break;
		default:
			ts = t_soon(CLOCK_REALTIME, 40);
			r = pthread_rwlock_timedrdlock(&lock, &ts);
			CHECK(r == 0 || r == ETIMEDOUT);
			if (r)
				continue;
			rw_check_read();
			break;
		}
		CHECK0(pthread_rwlock_unlock(&lock));
		ops[id]++;
		if ((seed & 0x3ff) == 0)
			sched_yield();
	}
	return NULL;
}

/* Blocking calls only, no yield, no work outside the lock.  */
static void *tight_worker(void *arg)
{
	long id = (long)(intptr_t)arg;
	unsigned seed = (unsigned)id * 2654435761u + 1;
	while (!stop) {
		seed = seed * 1103515245 + 12345;
		if ((seed >> 16) % 10 == 0) {
			CHECK0(pthread_rwlock_wrlock(&lock));
			rw_check_write();
		} else {
			CHECK0(pthread_rwlock_rdlock(&lock));
			rw_check_read();
		}
		CHECK0(pthread_rwlock_unlock(&lock));
		ops[id]++;
	}
	return NULL;
}

static void run(int kind, double secs, void *(*fn)(void *), int n)
{
	pthread_rwlockattr_t a;
	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a, kind);
	CHECK0(pthread_rwlock_init(&lock, &a));
	pthread_rwlockattr_destroy(&a);
	stop = 0;
	pthread_t t[NTHREADS];
	for (long i = 0; i < n; i++) {
		ops[i] = 0;
		CHECK0(pthread_create(&t[i], NULL, fn, (void *)(intptr_t)i));
	}
	usleep((useconds_t)(secs * 1e6));
	stop = 1;
	long total = 0;
	for (int i = 0; i < n; i++) {
		CHECK0(pthread_join(t[i], NULL));
		total += ops[i];
		/* Every thread made progress.  */
		CHECK(ops[i] > 0);
	}
	CHECK(rw_violations == 0);
	/* Quiescent: the lock is free.  */
	CHECK0(pthread_rwlock_trywrlock(&lock));
	CHECK0(pthread_rwlock_unlock(&lock));
	CHECK0(pthread_rwlock_destroy(&lock));
	if (getenv("RWLOCK_STRESS_VERBOSE"))
		fprintf(stderr, "kind %d: %ld ops in %.1f s\n", kind, total, secs);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.5;
	run(PTHREAD_RWLOCK_PREFER_READER_NP, secs, worker, 6);
	run(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP, secs, worker, 6);
	run(PTHREAD_RWLOCK_PREFER_READER_NP, secs / 2, tight_worker, NTHREADS);
	run(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP, secs / 2, tight_worker, NTHREADS);
	return t_done();
}
