/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * 8 threads x random lock/trylock/timedlock on one mutex of each type;
 * a plain counter updated in two non-atomic halves inside the critical
 * section must come out exact.  `mutex-stress N` runs N times longer.
 */
#include <pthread.h>
#include <time.h>
#include "t.h"

#define NTHREADS 8

static pthread_mutex_t m;
static int type;
static long iters = 20000;
static volatile long counter, inside;

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(long)arg * 2654435761u;
	for (long i = 0; i < iters; i++) {
		int r;
		seed = seed * 1103515245u + 12345u;
		switch ((seed >> 16) % 3) {
		case 0:
			r = pthread_mutex_lock(&m);
			break;
		case 1:
			while ((r = pthread_mutex_trylock(&m)) == EBUSY)
				;
			break;
		default: {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 200000;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			while ((r = pthread_mutex_timedlock(&m, &ts)) == ETIMEDOUT)
				ts.tv_sec++;
			break;
		}
		}
		if (r) {
			fprintf(stderr, "lock: %d\n", r);
			exit(1);
		}
		if (type == PTHREAD_MUTEX_RECURSIVE && (i & 7) == 0)
			if (pthread_mutex_lock(&m))
				exit(1);
		if (inside++ != 0)
			exit(2);
		long c = counter;
		counter = c + 1;
		inside--;
		if (type == PTHREAD_MUTEX_RECURSIVE && (i & 7) == 0)
			if (pthread_mutex_unlock(&m))
				exit(1);
		if (pthread_mutex_unlock(&m))
			exit(3);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		iters *= atol(argv[1]);
	int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
			PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_ADAPTIVE_NP };
	for (int pi = 0; pi < 2; pi++)
		for (int robust = 0; robust < 2; robust++)
			for (unsigned k = 0; k < 4; k++) {
				pthread_mutexattr_t a;
				pthread_t t[NTHREADS];
				type = types[k];
				CHECK0(pthread_mutexattr_init(&a));
				CHECK0(pthread_mutexattr_settype(&a, type));
				CHECK0(pthread_mutexattr_setrobust(&a, robust ?
					PTHREAD_MUTEX_ROBUST : PTHREAD_MUTEX_STALLED));
				CHECK0(pthread_mutexattr_setprotocol(&a, pi ?
					PTHREAD_PRIO_INHERIT : PTHREAD_PRIO_NONE));
				CHECK0(pthread_mutex_init(&m, &a));
				counter = 0;
				for (long i = 0; i < NTHREADS; i++)
					if (pthread_create(&t[i], NULL, worker, (void *)i))
						FATAL("pthread_create");
				for (int i = 0; i < NTHREADS; i++)
					pthread_join(t[i], NULL);
				if (counter != NTHREADS * iters)
					fprintf(stderr, "type %d robust %d pi %d: %ld\n",
						type, robust, pi, counter);
				CHECK(counter == NTHREADS * iters);
				CHECK0(pthread_mutex_destroy(&m));
			}
	return t_done();
}
