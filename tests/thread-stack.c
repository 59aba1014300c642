// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Thread stacks: pthread_getattr_np describes a stack that really holds the
 * thread's locals (main thread included) and reports the size the thread was
 * created with, as glibc does; the requested size is usable, the guard
 * catches an overflow, a user stack is used as given.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

struct info {
	void *addr;
	size_t size, guard;
	int detach;
	uintptr_t local;
};

static void describe(struct info *in)
{
	pthread_attr_t a;
	int local;
	in->local = (uintptr_t)&local;
	CHECK0(pthread_getattr_np(pthread_self(), &a));
	CHECK0(pthread_attr_getstack(&a, &in->addr, &in->size));
	CHECK0(pthread_attr_getguardsize(&a, &in->guard));
	CHECK0(pthread_attr_getdetachstate(&a, &in->detach));
	CHECK0(pthread_attr_destroy(&a));
}

static int inside(const struct info *in)
{
	return in->local >= (uintptr_t)in->addr &&
	       in->local < (uintptr_t)in->addr + in->size;
}

static void *run_describe(void *arg)
{
	describe(arg);
	return NULL;
}

/* Use `n` bytes of stack.  */
static void *use_stack(void *arg)
{
	size_t n = (size_t)(uintptr_t)arg;
	volatile char *p = __builtin_alloca(n);
	for (size_t i = 0; i < n; i += 512)
		p[i] = (char)i;
	return (void *)(uintptr_t)p[0];
}

static int depth(int n)
{
	volatile char pad[1024];
	pad[0] = (char)n;
	if (n < 0)
		return pad[0];
	return depth(n + 1) + pad[0];
}

static void *overflow(void *arg)
{
	(void)arg;
	return (void *)(intptr_t)depth(0);
}

int main(void)
{
	struct info in;
	describe(&in);
	CHECK(inside(&in));
	CHECK(in.size >= 64 * 1024);

	pthread_t t;
	pthread_attr_t a;
	CHECK0(pthread_create(&t, NULL, run_describe, &in));
	CHECK0(pthread_join(t, NULL));
	CHECK(inside(&in));
	CHECK(in.detach == PTHREAD_CREATE_JOINABLE);
	CHECK(in.guard == (size_t)sysconf(_SC_PAGESIZE));
	size_t dflt;
	CHECK0(pthread_getattr_default_np(&a));
	CHECK0(pthread_attr_getstacksize(&a, &dflt));
	CHECK0(pthread_attr_destroy(&a));
	CHECK(in.size == dflt);

	/* A requested size: that is reported, and it is usable.  */
	size_t want = 256 * 1024;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstacksize(&a, want));
	CHECK0(pthread_attr_setguardsize(&a, 3 * 4096));
	CHECK0(pthread_create(&t, &a, run_describe, &in));
	CHECK0(pthread_join(t, NULL));
	CHECK(inside(&in));
	CHECK(in.size == want);
	CHECK(in.guard == 3 * 4096);
	CHECK0(pthread_create(&t, &a, use_stack, (void *)(uintptr_t)(want - 32 * 1024)));
	CHECK0(pthread_join(t, NULL));
	CHECK0(pthread_attr_destroy(&a));

	/* libnptl puts TLS and the descriptor on top of the requested size
	 * (glibc carves them out of it, its bug 11787): the smallest stack
	 * still has nearly all of PTHREAD_STACK_MIN to use.  */
	if (t_on_libnptl()) {
		CHECK0(pthread_attr_init(&a));
		CHECK0(pthread_attr_setstacksize(&a, PTHREAD_STACK_MIN));
		CHECK0(pthread_create(&t, &a, use_stack,
				      (void *)(uintptr_t)(PTHREAD_STACK_MIN - 2048)));
		CHECK0(pthread_join(t, NULL));
		CHECK0(pthread_attr_destroy(&a));
	}

	/* A user-supplied stack is the one the thread runs on.  */
	size_t us = 512 * 1024;
	void *mem = mmap(NULL, us, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstack(&a, mem, us));
	CHECK0(pthread_create(&t, &a, run_describe, &in));
	CHECK0(pthread_join(t, NULL));
	CHECK(in.local >= (uintptr_t)mem && in.local < (uintptr_t)mem + us);
	CHECK(inside(&in));
	/* ... and can be reused for the next thread once joined.  */
	CHECK0(pthread_create(&t, &a, run_describe, &in));
	CHECK0(pthread_join(t, NULL));
	CHECK(in.local >= (uintptr_t)mem && in.local < (uintptr_t)mem + us);
	CHECK0(pthread_attr_destroy(&a));
	munmap(mem, us);

	/* Running off the end hits the guard: SIGSEGV, not silent damage.  */
	pid_t pid = fork();
	if (pid == 0) {
		CHECK0(pthread_attr_init(&a));
		CHECK0(pthread_attr_setstacksize(&a, 128 * 1024));
		if (pthread_create(&t, &a, overflow, NULL) == 0)
			pthread_join(t, NULL);
		_exit(0);
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	return t_done();
}
