/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Robust mutexes (plain and PI): the owner thread exits holding it ->
 * EOWNERDEAD; pthread_mutex_consistent makes it usable again; unlocking
 * without it makes it ENOTRECOVERABLE for everyone.  Across processes: a
 * child SIGKILLed while holding the mutex (and one killed while a waiter
 * sleeps) -> the parent gets EOWNERDEAD.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>
#include "t.h"

static pthread_mutex_t *gm;

static void *die_holding(void *arg)
{
	(void)arg;
	if (pthread_mutex_lock(gm))
		exit(5);
	return NULL;            /* exits with the mutex held */
}

/* A thread whose first robust-list operation is a trylock or a timed
 * lock dies holding the mutex: that first operation must make the dead
 * owner visible as well as a plain lock does.  */
static void *die_holding_try(void *arg)
{
	(void)arg;
	if (pthread_mutex_trylock(gm))
		exit(5);
	return NULL;
}

static void *die_holding_timed(void *arg)
{
	(void)arg;
	struct timespec ts = { time(NULL) + 5, 0 };
	if (pthread_mutex_timedlock(gm, &ts))
		exit(5);
	return NULL;
}

/* A thread forks; its child locks the process-shared mutex and exits
 * holding it.  */
static void *fork_child_dies_holding(void *arg)
{
	(void)arg;
	pid_t pid = fork();
	if (pid == 0) {
		if (pthread_mutex_lock(gm))
			_exit(1);
		_exit(0);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return (void *)1;
	return NULL;
}

static volatile int held;
static volatile pid_t waiter_tid;       /* the waiter about to block */

static void *hold_then_die(void *arg)
{
	(void)arg;
	if (pthread_mutex_lock(gm))
		exit(5);
	held = 1;
	t_wait_asleep(&waiter_tid);     /* die only once the waiter sleeps */
	return NULL;
}

static void *lock_expect_ownerdead(void *arg)
{
	(void)arg;
	waiter_tid = t_tid();
	long r = pthread_mutex_lock(gm);
	if (r == EOWNERDEAD)
		pthread_mutex_consistent(gm), pthread_mutex_unlock(gm);
	return (void *)r;
}

static void init_robust(pthread_mutex_t *m, int type, int pi, int pshared)
{
	pthread_mutexattr_t a;
	CHECK0(pthread_mutexattr_init(&a));
	CHECK0(pthread_mutexattr_settype(&a, type));
	CHECK0(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	if (pi)
		CHECK0(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT));
	if (pshared)
		CHECK0(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_mutex_init(m, &a));
	CHECK0(pthread_mutexattr_destroy(&a));
}

static void thread_cases(int type, int pi)
{
	pthread_mutex_t m;
	pthread_t t;
	void *res;
	gm = &m;

	/* Dead owner, recovered with consistent.  */
	init_robust(&m, type, pi, 0);
	pthread_create(&t, NULL, die_holding, NULL);
	pthread_join(t, NULL);
	CHECK_ERR(pthread_mutex_lock(&m), EOWNERDEAD);
	CHECK0(pthread_mutex_consistent(&m));
	CHECK_ERR(pthread_mutex_consistent(&m), EINVAL);
	CHECK0(pthread_mutex_unlock(&m));
	CHECK0(pthread_mutex_lock(&m));
	CHECK0(pthread_mutex_unlock(&m));

	/* trylock and timedlock see the dead owner too.  */
	pthread_create(&t, NULL, die_holding, NULL);
	pthread_join(t, NULL);
	CHECK_ERR(pthread_mutex_trylock(&m), EOWNERDEAD);
	CHECK0(pthread_mutex_consistent(&m));
	CHECK0(pthread_mutex_unlock(&m));
	pthread_create(&t, NULL, die_holding, NULL);
	pthread_join(t, NULL);
	struct timespec ts = { time(NULL) + 5, 0 };
	CHECK_ERR(pthread_mutex_timedlock(&m, &ts), EOWNERDEAD);
	CHECK0(pthread_mutex_consistent(&m));
	CHECK0(pthread_mutex_unlock(&m));

	/* The dead owner's first robust operation was a trylock, a timed
	 * lock.  */
	void *(*first[])(void *) = { die_holding_try, die_holding_timed };
	for (int i = 0; i < 2; i++) {
		pthread_create(&t, NULL, first[i], NULL);
		pthread_join(t, NULL);
		CHECK_ERR(pthread_mutex_lock(&m), EOWNERDEAD);
		CHECK0(pthread_mutex_consistent(&m));
		CHECK0(pthread_mutex_unlock(&m));
	}

	/* A waiter blocked in lock when the owner dies gets EOWNERDEAD.  */
	pthread_t w;
	held = 0;
	waiter_tid = 0;
	pthread_create(&t, NULL, hold_then_die, NULL);
	while (!held)
		usleep(1000);
	pthread_create(&w, NULL, lock_expect_ownerdead, NULL);
	pthread_join(t, NULL);
	pthread_join(w, &res);
	CHECK(res == (void *)EOWNERDEAD);

	/* Not made consistent: unrecoverable, for good.  */
	pthread_create(&t, NULL, die_holding, NULL);
	pthread_join(t, NULL);
	CHECK_ERR(pthread_mutex_lock(&m), EOWNERDEAD);
	CHECK0(pthread_mutex_unlock(&m));
	CHECK_ERR(pthread_mutex_lock(&m), ENOTRECOVERABLE);
	CHECK_ERR(pthread_mutex_timedlock(&m, &ts), ENOTRECOVERABLE);
	/* Last: glibc 2.36's trylock leaves an unrecoverable robust mutex
	 * locked by the caller (its "oldval == id" test sees the CAS's 0).  */
	CHECK_ERR(pthread_mutex_trylock(&m), ENOTRECOVERABLE);
	CHECK0(pthread_mutex_destroy(&m));

	/* Owner errors: EPERM from a non-owner, EDEADLK on relock.  */
	init_robust(&m, type, pi, 0);
	CHECK_ERR(pthread_mutex_unlock(&m), EPERM);
	CHECK0(pthread_mutex_lock(&m));
	if (type == PTHREAD_MUTEX_ERRORCHECK) {
		CHECK_ERR(pthread_mutex_lock(&m), EDEADLK);
		CHECK_ERR(pthread_mutex_trylock(&m), EDEADLK);
	} else if (type == PTHREAD_MUTEX_RECURSIVE) {
		CHECK0(pthread_mutex_lock(&m));
		CHECK0(pthread_mutex_unlock(&m));
	} else {
		CHECK_ERR(pthread_mutex_trylock(&m), EBUSY);
	}
	CHECK0(pthread_mutex_unlock(&m));
	CHECK_ERR(pthread_mutex_unlock(&m), EPERM);
	/* Many held at once: the robust list links and unlinks in any order.  */
	pthread_mutex_t many[4];
	for (int i = 0; i < 4; i++) {
		init_robust(&many[i], type, pi && (i & 1), 0);
		CHECK0(pthread_mutex_lock(&many[i]));
	}
	CHECK0(pthread_mutex_unlock(&many[1]));
	CHECK0(pthread_mutex_unlock(&many[3]));
	CHECK0(pthread_mutex_unlock(&many[0]));
	CHECK0(pthread_mutex_unlock(&many[2]));
	CHECK0(pthread_mutex_destroy(&m));
}

static void process_cases(int type, int pi)
{
	pthread_mutex_t *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		FATAL("mmap");
	init_robust(m, type, pi, 1);
	volatile int *flag = (volatile int *)(m + 1);
	volatile pid_t *parent_tid = (volatile pid_t *)(flag + 1);

	/* Child holds it and is killed; parent locks afterwards.  */
	*flag = 0;
	pid_t pid = fork();
	if (pid == 0) {
		if (pthread_mutex_lock(m))
			_exit(1);
		*flag = 1;
		pause();
		_exit(0);
	}
	while (!*flag)
		usleep(1000);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK_ERR(pthread_mutex_lock(m), EOWNERDEAD);
	CHECK0(pthread_mutex_consistent(m));
	CHECK0(pthread_mutex_unlock(m));

	/* Parent already waiting when the owner is killed.  */
	*flag = 0;
	pid = fork();
	if (pid == 0) {
		if (pthread_mutex_lock(m))
			_exit(1);
		*flag = 1;
		pause();
		_exit(0);
	}
	while (!*flag)
		usleep(1000);
	*parent_tid = 0;
	if (fork() == 0) {
		/* Kill once we sleep in lock (/proc/TID names a thread of
		 * any process).  */
		t_wait_asleep_in(parent_tid, "/proc/%d/stat");
		kill(pid, SIGKILL);
		_exit(0);
	}
	*parent_tid = t_tid();
	CHECK_ERR(pthread_mutex_lock(m), EOWNERDEAD);
	waitpid(pid, NULL, 0);
	wait(NULL);
	CHECK0(pthread_mutex_consistent(m));
	CHECK0(pthread_mutex_unlock(m));
	CHECK0(pthread_mutex_lock(m));
	CHECK0(pthread_mutex_unlock(m));

	/* The child of a thread (not the main one) dies holding it.  */
	pthread_t t;
	void *res;
	gm = m;
	CHECK0(pthread_create(&t, NULL, fork_child_dies_holding, NULL));
	CHECK0(pthread_join(t, &res));
	CHECK(res == NULL);
	CHECK_ERR(pthread_mutex_lock(m), EOWNERDEAD);
	CHECK0(pthread_mutex_consistent(m));
	CHECK0(pthread_mutex_unlock(m));
	munmap(m, 4096);
}

int main(void)
{
	alarm(120);     /* a dead owner nobody sees would hang the lock */
	int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
			PTHREAD_MUTEX_ERRORCHECK };
	for (int pi = 0; pi < 2; pi++)
		for (int i = 0; i < 3; i++) {
			thread_cases(types[i], pi);
			process_cases(types[i], pi);
		}
	return t_done();
}
