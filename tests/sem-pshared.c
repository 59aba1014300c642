// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Process-shared semaphores between a parent and forked children over
 * MAP_SHARED memory: ping-pong, a counting stress, timed waits, and a
 * child killed with SIGKILL in the middle of a wait, after which the
 * semaphore still works.  Conformance: passes on glibc too.
 */
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

struct shared {
	sem_t ping, pong, count, done;
	long taken;
};

static uint32_t nwaiters(sem_t *s)	/* glibc's x86_64 encoding */
{
	return (uint32_t)(__atomic_load_n((uint64_t *)s, __ATOMIC_SEQ_CST) >> 32);
}

static int value(sem_t *s)
{
	int v = -1;
	sem_getvalue(s, &v);
	return v;
}

static void wait_for_waiters(sem_t *s, uint32_t n)
{
	for (int i = 0; i < 5000 && nwaiters(s) < n; i++)
		usleep(1000);
	CHECK(nwaiters(s) >= n);
	usleep(20000);	/* into the futex wait, not just registered */
}

static int reap(pid_t pid)
{
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#define ROUNDS 20000
#define ITEMS 50000

int main(void)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		FATAL("mmap");
	CHECK0(-sem_init(&sh->ping, 1, 0));
	CHECK0(-sem_init(&sh->pong, 1, 0));
	CHECK0(-sem_init(&sh->count, 1, 0));
	CHECK0(-sem_init(&sh->done, 1, 0));

	/* Ping-pong: each side sleeps on the other's post.  */
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < ROUNDS; i++) {
			if (sem_wait(&sh->ping) || sem_post(&sh->pong))
				_exit(1);
		}
		_exit(0);
	}
	for (int i = 0; i < ROUNDS; i++) {
		CHECK(sem_post(&sh->ping) == 0);
		CHECK(sem_wait(&sh->pong) == 0);
	}
	CHECK(reap(pid) == 0);
	CHECK(value(&sh->ping) == 0 && value(&sh->pong) == 0);
	CHECK(nwaiters(&sh->ping) == 0 && nwaiters(&sh->pong) == 0);

	/* Counting: two consumer processes, the parent produces.  */
	pid_t c[2];
	for (int k = 0; k < 2; k++) {
		c[k] = fork();
		if (c[k] == 0) {
			struct timespec dl;
			for (;;) {
				clock_gettime(CLOCK_REALTIME, &dl);
				dl.tv_sec += 5;
				if (sem_timedwait(&sh->count, &dl))
					_exit(2);
				long n = __atomic_add_fetch(&sh->taken, 1, __ATOMIC_SEQ_CST);
				if (n > ITEMS)
					_exit(0);	/* one of the two stop tokens */
			}
		}
	}
	for (int i = 0; i < ITEMS; i++) {
		CHECK(sem_post(&sh->count) == 0);
		if (i % 1000 == 0)
			usleep(100);
	}
	CHECK(sem_post(&sh->count) == 0);
	CHECK(sem_post(&sh->count) == 0);
	CHECK(reap(c[0]) == 0);
	CHECK(reap(c[1]) == 0);
	CHECK(sh->taken == ITEMS + 2);
	CHECK(value(&sh->count) == 0);
	CHECK(nwaiters(&sh->count) == 0);

	/* A timed wait in a child on the monotonic clock expires.  */
	pid = fork();
	if (pid == 0) {
		struct timespec dl;
		clock_gettime(CLOCK_MONOTONIC, &dl);
		dl.tv_nsec += 30000000;
		if (dl.tv_nsec >= 1000000000L) {
			dl.tv_sec++;
			dl.tv_nsec -= 1000000000L;
		}
		_exit(sem_clockwait(&sh->done, CLOCK_MONOTONIC, &dl) == -1 &&
		      errno == ETIMEDOUT ? 0 : 1);
	}
	CHECK(reap(pid) == 0);

	/* A child killed while it waits: the semaphore keeps working.  The
	 * dead waiter stays counted in glibc's encoding (glibc leaves it so
	 * too); that costs later posts a futex wake, nothing else.  */
	pid = fork();
	if (pid == 0) {
		sem_wait(&sh->done);
		_exit(3);
	}
	wait_for_waiters(&sh->done, 1);
	CHECK0(kill(pid, SIGKILL));
	CHECK(reap(pid) == 128 + SIGKILL);
	CHECK(value(&sh->done) == 0);
	uint32_t dead = nwaiters(&sh->done);
	CHECK(dead <= 1);
	CHECK(sem_post(&sh->done) == 0);
	CHECK(value(&sh->done) == 1);
	CHECK(sem_trywait(&sh->done) == 0);
	CHECK(sem_trywait(&sh->done) == -1 && errno == EAGAIN);
	/* A new waiter is woken by the parent's post.  */
	pid = fork();
	if (pid == 0)
		_exit(sem_wait(&sh->done) == 0 && sem_post(&sh->ping) == 0 ? 0 : 1);
	wait_for_waiters(&sh->done, dead + 1);
	CHECK(sem_post(&sh->done) == 0);
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 5;
	CHECK(sem_timedwait(&sh->ping, &dl) == 0);
	CHECK(reap(pid) == 0);
	CHECK(value(&sh->done) == 0);
	CHECK(nwaiters(&sh->done) == dead);
	/* And the parent itself can wait, woken by a child.  */
	pid = fork();
	if (pid == 0) {
		usleep(20000);
		_exit(sem_post(&sh->done) == 0 ? 0 : 1);
	}
	CHECK(sem_wait(&sh->done) == 0);
	CHECK(reap(pid) == 0);
	return t_done();
}
