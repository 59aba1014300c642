/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Spinlocks: init/destroy/lock/trylock/unlock, EBUSY, mutual exclusion
 * between threads (no thread starved), and a process-shared spinlock
 * between a parent and a forked child over MAP_SHARED memory.  */
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

#define NTHREADS 4
static pthread_spinlock_t lock;
static long counter;
static long iters = 500000;
static long done_by[NTHREADS];

static void *worker(void *arg)
{
	long id = (long)(intptr_t)arg;
	for (long i = 0; i < iters; i++) {
		CHECK0(pthread_spin_lock(&lock));
		long c = counter;
		if ((i & 16383) == 0)
			sched_yield();  /* a held lock must still exclude */
		counter = c + 1;
		done_by[id]++;
		CHECK0(pthread_spin_unlock(&lock));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		iters = atol(argv[1]);

	/* Basic calls, EBUSY, and glibc's x86_64 encoding (1 free, <= 0
	 * held), which a spinlock shared with a glibc process relies on.  */
	pthread_spinlock_t l = 12345;
	CHECK0(pthread_spin_init(&l, PTHREAD_PROCESS_PRIVATE));
	CHECK(l == 1);
	CHECK0(pthread_spin_trylock(&l));
	CHECK(l == 0);
	CHECK_ERR(pthread_spin_trylock(&l), EBUSY);
	CHECK(l == 0);
	CHECK0(pthread_spin_unlock(&l));
	CHECK(l == 1);
	CHECK0(pthread_spin_lock(&l));
	CHECK_ERR(pthread_spin_trylock(&l), EBUSY);
	CHECK0(pthread_spin_unlock(&l));
	CHECK0(pthread_spin_destroy(&l));
	CHECK0(pthread_spin_init(&l, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_spin_trylock(&l));
	CHECK0(pthread_spin_unlock(&l));
	CHECK0(pthread_spin_destroy(&l));
	/* As in glibc on x86_64, a zeroed int reads as held.  */
	l = 0;
	CHECK_ERR(pthread_spin_trylock(&l), EBUSY);

	/* Mutual exclusion, and everyone gets through (no starvation).  */
	CHECK0(pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE));
	pthread_t t[NTHREADS];
	for (long i = 0; i < NTHREADS; i++)
		CHECK0(pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i));
	for (int i = 0; i < NTHREADS; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK(counter == NTHREADS * iters);
	for (int i = 0; i < NTHREADS; i++)
		CHECK(done_by[i] == iters);
	CHECK0(pthread_spin_destroy(&lock));

	/* Process-shared: parent and child increment a shared counter.  */
	struct shm {
		pthread_spinlock_t lock;
		long counter;
	} *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		FATAL("mmap");
	CHECK0(pthread_spin_init(&s->lock, PTHREAD_PROCESS_SHARED));
	long n = iters / 2;
	pid_t pid = fork();
	if (pid < 0)
		FATAL("fork");
	for (long i = 0; i < n; i++) {
		pthread_spin_lock(&s->lock);
		long c = s->counter;
		if ((i & 16383) == 0)
			sched_yield();
		s->counter = c + 1;
		pthread_spin_unlock(&s->lock);
	}
	if (pid == 0)
		_exit(0);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	      WEXITSTATUS(st) == 0);
	CHECK(s->counter == 2 * n);
	/* The child's last unlock is visible here: the lock is free.  */
	CHECK0(pthread_spin_trylock(&s->lock));
	CHECK0(pthread_spin_unlock(&s->lock));
	return t_done();
}
