// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * create-destroy: the benchmark of Drepper's "first NPT vs. NGPT vs.
 * LinuxThreads benchmark results" mail (phil-list, 22 Sep 2002).
 *
 * T toplevel threads share N thread creations; each keeps at most C of its
 * children alive, joining the oldest before it creates the next.  Children
 * return at once.  The time from the moment all toplevel threads are ready
 * until the last child is joined is printed in microseconds.
 *
 *   create-destroy [-t T] [-c C] [-n N] [--floor]
 *
 * The same source is linked with libnptl and with glibc; it uses nothing
 * but <pthread.h> from the thread library (futexes are raw syscalls), so
 * the two builds differ only in pthread_create/pthread_join.  --floor
 * replaces the children (not the toplevel threads) by bare clone(2)s that
 * only exit, waited for on their cleared tid: the kernel's own cost.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "floor.h"

/* Floor children never touch their stack, but each slot still gets its own
 * so that the kernel sees distinct, plausible stack pointers. */
#define FLOOR_STACK 16384

struct top {
	pthread_t thread;
	long n;			/* creations this toplevel thread does */
	int err;		/* first pthread_create/clone error */
};

static int opt_c = 1;
static int opt_floor;
static int ready;		/* toplevel threads waiting for go */
static int go;

static void futex_wait(int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(int *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static void *child(void *arg)
{
	return arg;
}

/* Wait for the common start so that creating the toplevel threads is not
 * timed and they all begin together. */
static void await_go(void)
{
	if (__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST) == 0)
		futex_wake(&ready, 1);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		futex_wait(&go, 0);
}

static void *top_pthread(void *arg)
{
	struct top *t = arg;
	pthread_t *ring = calloc(opt_c, sizeof *ring);
	long alive = 0, head = 0;

	if (!ring) {
		t->err = ENOMEM;
		return NULL;
	}
	await_go();
	for (long i = 0; i < t->n; i++) {
		if (alive == opt_c) {
			pthread_join(ring[head], NULL);
			head = (head + 1) % opt_c;
			alive--;
		}
		int err = pthread_create(&ring[(head + alive) % opt_c], NULL,
					 child, NULL);
		if (err) {
			t->err = err;
			break;
		}
		alive++;
	}
	while (alive > 0) {
		pthread_join(ring[head], NULL);
		head = (head + 1) % opt_c;
		alive--;
	}
	free(ring);
	return NULL;
}

struct floor_slot {
	int tid;		/* set by the kernel, cleared when it exits */
	char *stack_top;
	long tls[8];		/* for CLONE_SETTLS; never used by the child */
};

static void *top_floor(void *arg)
{
	struct top *t = arg;
	struct floor_slot *ring = calloc(opt_c, sizeof *ring);
	char *stacks = mmap(NULL, (size_t)opt_c * FLOOR_STACK,
			    PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	long alive = 0, head = 0;

	if (!ring || stacks == MAP_FAILED) {
		t->err = ENOMEM;
		return NULL;
	}
	for (int i = 0; i < opt_c; i++)
		ring[i].stack_top = stacks + (size_t)(i + 1) * FLOOR_STACK;
	await_go();
	for (long i = 0; i < t->n; i++) {
		if (alive == opt_c) {
			floor_join(&ring[head].tid);
			head = (head + 1) % opt_c;
			alive--;
		}
		struct floor_slot *s = &ring[(head + alive) % opt_c];
		long r = floor_clone(FLOOR_CLONE_FLAGS, s->stack_top, &s->tid,
				     &s->tid, s->tls, NULL);
		if (r < 0) {
			t->err = -r;
			break;
		}
		alive++;
	}
	while (alive > 0) {
		floor_join(&ring[head].tid);
		head = (head + 1) % opt_c;
		alive--;
	}
	munmap(stacks, (size_t)opt_c * FLOOR_STACK);
	free(ring);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: create-destroy [-t 1..] [-c 1..] [-n N] "
		"[--floor]\n");
	exit(2);
}

static long number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 1)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	long opt_t = 1, opt_n = 100000;
	struct timespec t0, t1;
	struct top *tops;
	int err = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--floor"))
			opt_floor = 1;
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			opt_t = number(argv[++i]);
		else if (!strcmp(argv[i], "-c") && i + 1 < argc)
			opt_c = number(argv[++i]);
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			opt_n = number(argv[++i]);
		else
			usage();
	}
	if (opt_t > opt_n || opt_c > INT_MAX / FLOOR_STACK)
		usage();

	tops = calloc(opt_t, sizeof *tops);
	if (!tops)
		return 1;
	/* ready counts up from -T so that the last one makes it 0. */
	ready = -(int)opt_t;
	for (long i = 0; i < opt_t; i++) {
		tops[i].n = opt_n / opt_t + (i < opt_n % opt_t);
		err = pthread_create(&tops[i].thread, NULL,
				     opt_floor ? top_floor : top_pthread,
				     &tops[i]);
		if (err) {
			fprintf(stderr, "create-destroy: toplevel thread: "
				"%s\n", strerror(err));
			return 1;
		}
	}
	for (int r; (r = __atomic_load_n(&ready, __ATOMIC_ACQUIRE)) != 0;)
		futex_wait(&ready, r);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	futex_wake(&go, INT_MAX);
	for (long i = 0; i < opt_t; i++)
		pthread_join(tops[i].thread, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	for (long i = 0; i < opt_t; i++)
		if (tops[i].err && !err)
			err = tops[i].err;
	if (err) {
		fprintf(stderr, "create-destroy: thread creation failed: %s\n",
			strerror(err));
		return 1;
	}
	long us = (t1.tv_sec - t0.tv_sec) * 1000000L +
		  (t1.tv_nsec - t0.tv_nsec) / 1000;
	printf("mode=%s\tT=%ld\tC=%d\tN=%ld\tus=%ld\n",
	       opt_floor ? "floor" : "pthread", opt_t, opt_c, opt_n, us);
	free(tops);
	return 0;
}
