/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Barriers: attributes, init errors, exactly one serial thread per round
 * over 1000 rounds with 2..8 threads, no overtaking between rounds,
 * destroy while the last round's threads are still leaving, and a
 * process-shared barrier between forked processes.  */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

static long rounds = 1000;
static pthread_barrier_t bar;
static int nthreads;
static int serial_count[100000];
static int arrived[100000];

static void *worker(void *arg)
{
	(void)arg;
	for (long r = 0; r < rounds; r++) {
		__atomic_add_fetch(&arrived[r], 1, __ATOMIC_RELAXED);
		int rc = pthread_barrier_wait(&bar);
		CHECK(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
		if (rc == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&serial_count[r], 1, __ATOMIC_RELAXED);
		/* Everyone of this round arrived before anyone left, and
		 * nobody from the next round got through.  */
		CHECK(__atomic_load_n(&arrived[r], __ATOMIC_RELAXED) == nthreads);
		if (r + 1 < rounds)
			CHECK(__atomic_load_n(&arrived[r + 1], __ATOMIC_RELAXED) <= nthreads);
		if (r > 0)
			CHECK(__atomic_load_n(&serial_count[r - 1], __ATOMIC_RELAXED) == 1);
	}
	return NULL;
}

static void run(int n)
{
	nthreads = n;
	memset(serial_count, 0, sizeof serial_count);
	memset(arrived, 0, sizeof arrived);
	CHECK0(pthread_barrier_init(&bar, NULL, (unsigned)n));
	pthread_t t[8];
	for (int i = 0; i < n; i++)
		CHECK0(pthread_create(&t[i], NULL, worker, NULL));
	for (int i = 0; i < n; i++)
		CHECK0(pthread_join(t[i], NULL));
	int bad = 0;
	for (long r = 0; r < rounds; r++)
		bad += serial_count[r] != 1;
	if (bad)
		fprintf(stderr, "%d threads: %d rounds without exactly one serial thread\n",
			n, bad);
	CHECK(bad == 0);
	CHECK0(pthread_barrier_destroy(&bar));
}

/* The serial thread destroys and re-initializes the barrier at once,
 * while the others may still be on their way out (glibc waits for them). */
static pthread_barrier_t bar2;
static void *leaver(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&bar2);
	return NULL;
}

static void destroy_while_leaving(void)
{
	for (int k = 0; k < 200; k++) {
		CHECK0(pthread_barrier_init(&bar2, NULL, 3));
		pthread_t t[2];
		for (int i = 0; i < 2; i++)
			CHECK0(pthread_create(&t[i], NULL, leaver, NULL));
		pthread_barrier_wait(&bar2);
		CHECK0(pthread_barrier_destroy(&bar2));
		for (int i = 0; i < 2; i++)
			CHECK0(pthread_join(t[i], NULL));
	}
}

static void pshared(void)
{
	struct shm {
		pthread_barrier_t b;
		int phase[2];
		int serial;
	} *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		FATAL("mmap");
	pthread_barrierattr_t a;
	CHECK0(pthread_barrierattr_init(&a));
	CHECK0(pthread_barrierattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_barrier_init(&s->b, &a, 2));
	CHECK0(pthread_barrierattr_destroy(&a));
	int n = 2000;
	pid_t pid = fork();
	if (pid < 0)
		FATAL("fork");
	int me = pid == 0;
	int errors = 0;
	for (int i = 0; i < n; i++) {
		__atomic_store_n(&s->phase[me], i + 1, __ATOMIC_RELAXED);
		int rc = pthread_barrier_wait(&s->b);
		if (rc == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&s->serial, 1, __ATOMIC_RELAXED);
		else if (rc != 0)
			errors++;
		/* The other process reached round i before we left it.  */
		if (__atomic_load_n(&s->phase[!me], __ATOMIC_RELAXED) < i + 1)
			errors++;
	}
	if (me)
		_exit(errors ? 1 : 0);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	      WEXITSTATUS(st) == 0);
	CHECK(errors == 0);
	CHECK(s->serial == n);
	CHECK0(pthread_barrier_destroy(&s->b));
	munmap(s, sizeof *s);
}

/* libnptl only (glibc would wait forever): destroy with a thread blocked
 * in an unfinished round is EBUSY and leaves the barrier usable.  */
static void *lone_waiter(void *arg)
{
	CHECK_ERR(pthread_barrier_wait(arg) & ~PTHREAD_BARRIER_SERIAL_THREAD, 0);
	return NULL;
}

static void destroy_busy(void)
{
	pthread_barrier_t b;
	pthread_t t;
	CHECK0(pthread_barrier_init(&b, NULL, 2));
	CHECK0(pthread_create(&t, NULL, lone_waiter, &b));
	int r, n = 0;
	while ((r = pthread_barrier_destroy(&b)) == 0 && n++ < 1000) {
		/* Not entered yet: destroy succeeded on an idle barrier.  */
		CHECK0(pthread_barrier_init(&b, NULL, 2));
		usleep(1000);
	}
	CHECK_ERR(r, EBUSY);
	pthread_barrier_wait(&b);
	CHECK0(pthread_join(t, NULL));
	CHECK0(pthread_barrier_destroy(&b));
}

int main(int argc, char **argv)
{
	if (argc > 1)
		rounds = atol(argv[1]);
	if (rounds > 100000)
		rounds = 100000;

	pthread_barrierattr_t a;
	int v = -1;
	CHECK0(pthread_barrierattr_init(&a));
	CHECK0(pthread_barrierattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_PRIVATE);
	CHECK0(pthread_barrierattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_barrierattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	CHECK_ERR(pthread_barrierattr_setpshared(&a, 42), EINVAL);
	CHECK0(pthread_barrierattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	CHECK0(pthread_barrierattr_destroy(&a));

	pthread_barrier_t b;
	CHECK_ERR(pthread_barrier_init(&b, NULL, 0), EINVAL);
	CHECK_ERR(pthread_barrier_init(&b, NULL, 0x80000000u), EINVAL);
	/* A barrier of one: every wait is the serial thread's.  */
	CHECK0(pthread_barrier_init(&b, NULL, 1));
	for (int i = 0; i < 5; i++)
		CHECK_ERR(pthread_barrier_wait(&b), PTHREAD_BARRIER_SERIAL_THREAD);
	CHECK0(pthread_barrier_destroy(&b));

	for (int n = 2; n <= 8; n++)
		run(n);
	destroy_while_leaving();
	pshared();
	if (t_on_libnptl())
		destroy_busy();
	return t_done();
}
