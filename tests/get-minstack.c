// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * __pthread_get_minstack, used as OpenJDK uses it: looked up with
 * dlsym(RTLD_DEFAULT, ...), its answer for an attribute is the stack size
 * that leaves PTHREAD_STACK_MIN usable, so a thread that needs NEED bytes
 * of its own asks for answer + NEED.  Such a thread, on a stack libnptl (or
 * glibc) maps and on one the caller supplies, runs a recursion that
 * touches NEED plus half of PTHREAD_STACK_MIN below its start, and must not
 * crash.  On libnptl the name must be libnptl's (dladdr), and its answer
 * is PTHREAD_STACK_MIN itself: the whole request is usable stack there.
 * The mapped-stack case runs again in a child under a finite RLIMIT_AS,
 * where libnptl maps threads in glibc's layout and must answer more than
 * PTHREAD_STACK_MIN + a page (what it takes out of the request).
 */
#include <sys/resource.h>
#include <sys/wait.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include "t.h"

#define NEED (64 * 1024)
#define STACK_MIN 16384   /* glibc's compile-time PTHREAD_STACK_MIN */

typedef size_t minstack_fn(const pthread_attr_t *);

static uintptr_t start;
static volatile size_t deepest;

/* Each frame touches its own 1 KiB; go until `want` bytes lie between the
 * thread's first frame and this one.  */
static __attribute__((noinline)) size_t descend(size_t want)
{
	volatile char buf[1024];
	memset((char *)buf, 0x5a, sizeof(buf));
	uintptr_t here = (uintptr_t)buf;
	size_t used = start - here;
	if (used > deepest)
		deepest = used;
	if (used >= want)
		return buf[0];
	return descend(want) + buf[sizeof(buf) - 1];
}

static void *body(void *arg)
{
	volatile char anchor;
	start = (uintptr_t)&anchor;
	size_t want = (size_t)(uintptr_t)arg;
	return (void *)(uintptr_t)(descend(want) != 0);
}

static void run(pthread_attr_t *a, const char *what)
{
	pthread_t t;
	void *r = NULL;
	deepest = 0;
	int err = pthread_create(&t, a, body, (void *)(uintptr_t)(NEED + STACK_MIN / 2));
	if (err) {
		fprintf(stderr, "%s: pthread_create: %s\n", what, strerror(err));
		t_failures++;
		return;
	}
	CHECK0(pthread_join(t, &r));
	CHECK(r == (void *)1);
	CHECK(deepest >= NEED + STACK_MIN / 2);
}

int main(void)
{
	minstack_fn *get = (minstack_fn *)dlsym(RTLD_DEFAULT, "__pthread_get_minstack");
	if (!get)
		SKIP("__pthread_get_minstack is not defined here");
	pthread_attr_t a;
	CHECK0(pthread_attr_init(&a));
	size_t min = get(&a);
	CHECK(min >= STACK_MIN);
	CHECK(min < (size_t)64 << 20);

	if (t_on_libnptl()) {
		Dl_info info;
		CHECK(dladdr((void *)get, &info) != 0 && info.dli_fname &&
		      strstr(info.dli_fname, "libnptl"));
		CHECK(min == STACK_MIN);
	}

	/* A stack the library maps: min + NEED.  */
	CHECK0(pthread_attr_setstacksize(&a, min + NEED));
	run(&a, "mapped stack");
	CHECK0(pthread_attr_destroy(&a));

	/* A stack the caller supplies, of the same size (page-rounded).  */
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t size = (min + NEED + pg - 1) & ~(pg - 1);
	void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	CHECK(mem != MAP_FAILED);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstack(&a, mem, size));
	CHECK(get(&a) == min);
	run(&a, "caller's stack");
	CHECK0(pthread_attr_destroy(&a));
	munmap(mem, size);

	/* Under a finite RLIMIT_AS, a mapped stack again.  */
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl = { (size_t)1 << 32, (size_t)1 << 32 };
		if (setrlimit(RLIMIT_AS, &rl))
			_exit(3);
		CHECK0(pthread_attr_init(&a));
		size_t lim_min = get(&a);
		if (t_on_libnptl())
			CHECK(lim_min > STACK_MIN + pg);
		CHECK0(pthread_attr_setstacksize(&a, lim_min + NEED));
		run(&a, "mapped stack, finite RLIMIT_AS");
		_exit(t_failures ? 1 : 0);
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return t_done();
}
