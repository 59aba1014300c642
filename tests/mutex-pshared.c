/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Process-shared mutexes of every type (plus robust and PI) in a
 * MAP_SHARED mapping: parent and forked children contend with a shared
 * counter invariant; a child killed while it sleeps in lock leaves the
 * mutex working for the others.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

struct shared {
	pthread_mutex_t m;
	volatile long counter;
	volatile int inside;
	volatile pid_t ready;           /* a child about to lock: its pid */
};

static long iters = 20000;

static int work(struct shared *s, int type)
{
	for (long i = 0; i < iters; i++) {
		int r = (i & 1) ? pthread_mutex_lock(&s->m)
				: pthread_mutex_trylock(&s->m);
		if (r == EBUSY)
			r = pthread_mutex_lock(&s->m);
		if (r)
			return 1;
		if (type == PTHREAD_MUTEX_RECURSIVE && pthread_mutex_lock(&s->m))
			return 1;
		if (s->inside++)
			return 2;
		s->counter++;
		s->inside--;
		if (type == PTHREAD_MUTEX_RECURSIVE && pthread_mutex_unlock(&s->m))
			return 3;
		if (pthread_mutex_unlock(&s->m))
			return 3;
	}
	return 0;
}

static void one(struct shared *s, int type, int robust, int pi)
{
	pthread_mutexattr_t a;
	CHECK0(pthread_mutexattr_init(&a));
	CHECK0(pthread_mutexattr_settype(&a, type));
	CHECK0(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	if (robust)
		CHECK0(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	if (pi)
		CHECK0(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT));
	CHECK0(pthread_mutex_init(&s->m, &a));
	s->counter = 0;
	s->inside = 0;

	pid_t kids[2];
	for (int k = 0; k < 2; k++)
		if ((kids[k] = fork()) == 0)
			_exit(work(s, type));
	CHECK0(work(s, type));
	for (int k = 0; k < 2; k++) {
		int st;
		waitpid(kids[k], &st, 0);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	CHECK(s->counter == 3 * iters);

	/* A waiter killed in its sleep.  */
	CHECK0(pthread_mutex_lock(&s->m));
	s->ready = 0;
	pid_t victim = fork();
	if (victim == 0) {
		s->ready = getpid();    /* right before the lock call */
		pthread_mutex_lock(&s->m);
		_exit(0);
	}
	t_wait_asleep_in(&s->ready, "/proc/%d/stat");   /* in that lock */
	kill(victim, SIGKILL);
	waitpid(victim, NULL, 0);
	/* Another waiter, asleep when we unlock: the mutex goes to it.  */
	s->ready = 0;
	pid_t next = fork();
	if (next == 0) {
		s->ready = getpid();    /* right before the lock call */
		int r = pthread_mutex_lock(&s->m);
		if (r == 0)
			r = pthread_mutex_unlock(&s->m);
		_exit(r);
	}
	t_wait_asleep_in(&s->ready, "/proc/%d/stat");
	CHECK0(pthread_mutex_unlock(&s->m));
	int st;
	waitpid(next, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK0(pthread_mutex_lock(&s->m));
	CHECK0(pthread_mutex_unlock(&s->m));
	CHECK0(pthread_mutex_destroy(&s->m));
}

int main(int argc, char **argv)
{
	if (argc > 1)
		iters *= atol(argv[1]);
	struct shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		FATAL("mmap");
	int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
			PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_ADAPTIVE_NP };
	for (int pi = 0; pi < 2; pi++)
		for (int robust = 0; robust < 2; robust++)
			for (int i = 0; i < 4; i++)
				one(s, types[i], robust, pi);
	return t_done();
}
