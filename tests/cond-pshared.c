// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Process-shared condition variables between forked processes over
 * MAP_SHARED memory: broadcast and signal across processes, timed waits,
 * and a child killed with SIGKILL in the middle of a wait, after which the
 * condvar keeps working for everybody else.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

struct shared {
	pthread_mutex_t m;
	pthread_cond_t c;
	int waiting, go, woken, ping, pong;
};
static struct shared *sh;

static void lock(void)
{
	if (pthread_mutex_lock(&sh->m))
		_exit(90);
}
static void unlock(void)
{
	if (pthread_mutex_unlock(&sh->m))
		_exit(91);
}

/* Wait until the n processes in pids announced themselves under the
 * mutex; each waits right after announcing, so then they are all inside
 * the wait.  Then until each sleeps there (state S): nowhere else can it
 * sleep once it announced.  */
static void wait_for(int n, const pid_t *pids)
{
	int w = 0;
	for (int i = 0; i < 20000 && w < n; i++) {      /* 20 s */
		lock();
		w = sh->waiting;
		unlock();
		if (w < n)
			usleep(1000);
	}
	if (w < n)
		FATAL("children did not start waiting");
	for (int k = 0; k < n; k++) {
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/stat", (int)pids[k]);
		int i = 0;
		for (; i < 20000 && t_proc_state(path) != 'S'; i++)
			usleep(1000);
		if (i == 20000)
			FATAL("child %d never slept in the wait", (int)pids[k]);
	}
}

static void child_wait_go(void)
{
	lock();
	sh->waiting++;
	while (!sh->go)
		if (pthread_cond_wait(&sh->c, &sh->m))
			_exit(92);
	sh->woken++;
	unlock();
	_exit(0);
}

static void child_wait_forever(void)
{
	lock();
	sh->waiting++;
	for (;;)
		pthread_cond_wait(&sh->c, &sh->m);
}

static int reap(pid_t p)
{
	int st;
	if (waitpid(p, &st, 0) != p)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void)
{
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		FATAL("mmap");
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	CHECK0(pthread_mutexattr_init(&ma));
	CHECK0(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_mutex_init(&sh->m, &ma));
	CHECK0(pthread_condattr_init(&ca));
	CHECK0(pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_cond_init(&sh->c, &ca));

	/* Broadcast wakes waiters in three processes.  */
	pid_t kids[4];
	for (int i = 0; i < 3; i++)
		if ((kids[i] = fork()) == 0)
			child_wait_go();
	wait_for(3, kids);
	lock();
	sh->go = 1;
	CHECK0(pthread_cond_broadcast(&sh->c));
	unlock();
	for (int i = 0; i < 3; i++)
		CHECK(reap(kids[i]) == 0);
	CHECK(sh->woken == 3);

	/* Ping-pong between the parent and a child, both waiting.  */
	if ((kids[1] = fork()) == 0) {
		lock();
		for (int i = 0; i < 2000; i++) {
			while (sh->ping == sh->pong)
				pthread_cond_wait(&sh->c, &sh->m);
			sh->pong++;
			pthread_cond_broadcast(&sh->c);
		}
		unlock();
		_exit(0);
	}
	lock();
	for (int i = 0; i < 2000; i++) {
		sh->ping++;
		CHECK0(pthread_cond_broadcast(&sh->c));
		while (sh->ping != sh->pong)
			CHECK0(pthread_cond_wait(&sh->c, &sh->m));
	}
	unlock();
	CHECK(reap(kids[1]) == 0);
	CHECK(sh->pong == 2000);

	/* The parent times out, then a child's signal wakes it.  */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 20000000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	lock();
	CHECK_ERR(pthread_cond_timedwait(&sh->c, &sh->m, &ts), ETIMEDOUT);
	sh->go = 0;
	sh->waiting = 0;
	unlock();
	if ((kids[2] = fork()) == 0) {
		/* Signal once the parent announced itself: it holds the mutex
		 * from then until it is inside the wait.  */
		for (int i = 0; i < 20000; i++) {       /* 20 s */
			lock();
			if (sh->waiting) {
				sh->go = 1;
				pthread_cond_signal(&sh->c);
				unlock();
				_exit(0);
			}
			unlock();
			usleep(1000);
		}
		_exit(93);
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	lock();
	sh->waiting = 1;
	int r = 0;
	while (!sh->go && r == 0)
		r = pthread_cond_timedwait(&sh->c, &sh->m, &ts);
	CHECK(r == 0);
	CHECK(sh->go == 1);
	unlock();
	CHECK(reap(kids[2]) == 0);
	/* A child killed while waiting, next to a live one; afterwards the
	 * condvar must still work for signal, broadcast and waits.  glibc 2.36
	 * wedges here (the next broadcast waits forever in
	 * __condvar_quiesce_and_switch_g1 for the dead waiter's group
	 * reference), and so does libnptl on 2.36, which follows glibc's
	 * protocol for process-shared condvars so that glibc processes can
	 * share them.  2.41's protocol has no group references: there libnptl
	 * is held to it.  */
	if (!t_on_libnptl() || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 41))
		return t_done();
	sh->waiting = sh->go = sh->woken = 0;
	pid_t victim = fork();
	if (victim == 0)
		child_wait_forever();
	if ((kids[0] = fork()) == 0)
		child_wait_go();
	wait_for(2, (pid_t[]){ victim, kids[0] });
	CHECK0(kill(victim, SIGKILL));
	CHECK(reap(victim) == 128 + SIGKILL);
	/* Signals until the live child is woken (one may go to the dead
	 * child's slot; a signal must never block or fail).  */
	lock();
	sh->go = 1;
	CHECK0(pthread_cond_signal(&sh->c));
	unlock();
	for (int i = 0; i < 100; i++) {
		lock();
		int w = sh->woken;
		CHECK0(pthread_cond_signal(&sh->c));
		unlock();
		if (w)
			break;
		usleep(10000);
	}
	CHECK(reap(kids[0]) == 0);
	CHECK(sh->woken == 1);

	sh->waiting = sh->go = sh->woken = 0;
	for (int i = 0; i < 2; i++)
		if ((kids[i] = fork()) == 0)
			child_wait_go();
	wait_for(2, kids);
	lock();
	sh->go = 1;
	CHECK0(pthread_cond_broadcast(&sh->c));
	unlock();
	for (int i = 0; i < 2; i++)
		CHECK(reap(kids[i]) == 0);
	CHECK(sh->woken == 2);
	return t_done();
}
