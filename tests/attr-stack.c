// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Stack attributes: size and address setters and their errors, the
 * default size glibc derives from RLIMIT_STACK, and that created threads
 * get the size asked for or really run on the stack they were given.
 */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* stackaddr */
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "t.h"

static size_t page;

/* glibc's compile-time PTHREAD_STACK_MIN; _GNU_SOURCE makes the macro a
 * sysconf call that may return more on machines with large signal
 * frames.  */
#define STACK_MIN 16384

static size_t round_page(size_t s)
{
	return (s + page - 1) / page * page;
}

static void check_stacksize(void)
{
	pthread_attr_t a;
	size_t s, dflt;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_getstacksize(&a, &dflt));
	CHECK_ERR(pthread_attr_setstacksize(&a, 0), EINVAL);
	CHECK_ERR(pthread_attr_setstacksize(&a, STACK_MIN - 1), EINVAL);
	CHECK_ERR(pthread_attr_setstacksize(&a, 1), EINVAL);
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == dflt);
	CHECK0(pthread_attr_setstacksize(&a, STACK_MIN));
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == STACK_MIN);
	/* Not rounded.  */
	CHECK0(pthread_attr_setstacksize(&a, 1000003));
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == 1000003);
	CHECK_ERR(pthread_attr_setstacksize(&a, 100), EINVAL);
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == 1000003);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_stack(void)
{
	pthread_attr_t a;
	void *p;
	size_t s;
	char *base = (char *)0x10000000;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_getstackaddr(&a, &p));
	CHECK(p == NULL);
	CHECK_ERR(pthread_attr_setstack(&a, base, STACK_MIN - 1), EINVAL);
	CHECK_ERR(pthread_attr_setstack(&a, base, 0), EINVAL);
	CHECK0(pthread_attr_getstack(&a, &p, &s));
	CHECK(p == NULL && s == 0);
	CHECK0(pthread_attr_setstack(&a, base, 65536));
	CHECK0(pthread_attr_getstack(&a, &p, &s));
	CHECK(p == base && s == 65536);
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == 65536);
	/* The obsolete interface deals in the top of the stack.  */
	CHECK0(pthread_attr_getstackaddr(&a, &p));
	CHECK(p == base + 65536);
	CHECK0(pthread_attr_setstackaddr(&a, base + 4096));
	CHECK0(pthread_attr_getstackaddr(&a, &p));
	CHECK(p == base + 4096);
	CHECK0(pthread_attr_getstack(&a, &p, &s));
	CHECK(p == base + 4096 - 65536 && s == 65536);
	/* setstacksize keeps the top.  */
	CHECK0(pthread_attr_setstacksize(&a, 32768));
	CHECK0(pthread_attr_getstack(&a, &p, &s));
	CHECK(p == base + 4096 - 32768 && s == 32768);
	CHECK0(pthread_attr_destroy(&a));

	/* setstackaddr takes anything, even with no size yet.  */
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstackaddr(&a, (void *)1));
	CHECK0(pthread_attr_getstackaddr(&a, &p));
	CHECK(p == (void *)1);
	CHECK0(pthread_attr_destroy(&a));
}

/* glibc: RLIMIT_STACK, or 2 MiB if unlimited, page-rounded.  */
static void check_default_size(rlim_t lim)
{
	pthread_attr_t a;
	size_t s, want = lim == RLIM_INFINITY ? 2 << 20 : round_page(lim);
	if (want < STACK_MIN)
		want = STACK_MIN;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_getstacksize(&a, &s));
	if (s != want)
		fprintf(stderr, "limit %llu: default stack %zu, want %zu\n",
			(unsigned long long)lim, s, want);
	CHECK(s == want);
	CHECK0(pthread_attr_destroy(&a));
	CHECK0(pthread_getattr_default_np(&a));
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == want);
	CHECK0(pthread_attr_destroy(&a));
}

/* The default is fixed at start-up, so other limits need a new image.  */
static void run_with_limit(rlim_t lim)
{
	struct rlimit old, rl;
	if (getrlimit(RLIMIT_STACK, &old) != 0)
		FATAL("getrlimit");
	rl = old;
	rl.rlim_cur = lim;
	if (lim != RLIM_INFINITY && old.rlim_max != RLIM_INFINITY && lim > old.rlim_max)
		return;
	if (lim == RLIM_INFINITY && old.rlim_max != RLIM_INFINITY)
		return;
	if (setrlimit(RLIMIT_STACK, &rl) != 0)
		return;
	char arg[32];
	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)lim);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", "attr-stack", arg, (char *)NULL);
		_exit(98);
	}
	CHECK(pid > 0);
	setrlimit(RLIMIT_STACK, &old);
	int st = 0;
	if (pid > 0 && waitpid(pid, &st, 0) == pid)
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* ---- created threads ----------------------------------------------- */

struct seen {
	void *local;
	void *addr;
	size_t size, guard;
	int err;
};

static void *report(void *arg)
{
	struct seen *s = arg;
	char here;
	pthread_attr_t a;
	s->local = &here;
	s->err = pthread_getattr_np(pthread_self(), &a);
	if (s->err)
		return NULL;
	pthread_attr_getstack(&a, &s->addr, &s->size);
	pthread_attr_getguardsize(&a, &s->guard);
	pthread_attr_destroy(&a);
	return NULL;
}

static void *use_stack(void *arg)
{
	size_t n = (size_t)arg;
	volatile char buf[n];
	for (size_t i = 0; i < n; i += 512)
		buf[i] = (char)i;
	return (void *)(uintptr_t)buf[n - 512];
}

static void check_size_thread(void)
{
	/* Page multiples: glibc trims other sizes to its TLS alignment.  */
	size_t sizes[] = { STACK_MIN, 74 * page, 1 << 20, 5 << 20 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		pthread_attr_t a;
		pthread_t t;
		struct seen s = { 0 };
		CHECK0(pthread_attr_init(&a));
		CHECK0(pthread_attr_setstacksize(&a, sizes[i]));
		CHECK0(pthread_create(&t, &a, report, &s));
		CHECK0(pthread_join(t, NULL));
		CHECK0(s.err);
		if (s.size < sizes[i])
			fprintf(stderr, "asked %zu, got %zu\n", sizes[i], s.size);
		CHECK(s.size >= sizes[i]);
		CHECK(s.guard == page);
		CHECK((char *)s.local >= (char *)s.addr &&
		      (char *)s.local < (char *)s.addr + s.size);
		CHECK0(pthread_attr_destroy(&a));
	}

	/* Most of a big stack is really usable.  */
	pthread_attr_t a;
	pthread_t t;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstacksize(&a, 4 << 20));
	CHECK0(pthread_create(&t, &a, use_stack, (void *)(uintptr_t)(3 << 20)));
	CHECK0(pthread_join(t, NULL));
	CHECK0(pthread_attr_destroy(&a));

	/* NULL and a fresh attribute give the default size.  */
	size_t dflt;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_getstacksize(&a, &dflt));
	struct seen s = { 0 };
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.size >= dflt);
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, NULL, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.size >= dflt);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_user_stack(void)
{
	size_t size = 256 * 1024;
	for (int old_api = 0; old_api < 2; old_api++) {
		char *mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			FATAL("mmap");
		pthread_attr_t a;
		pthread_t t;
		struct seen s = { 0 };
		CHECK0(pthread_attr_init(&a));
		if (old_api) {
			CHECK0(pthread_attr_setstacksize(&a, size));
			CHECK0(pthread_attr_setstackaddr(&a, mem + size));
		} else {
			CHECK0(pthread_attr_setstack(&a, mem, size));
		}
		CHECK0(pthread_create(&t, &a, report, &s));
		CHECK0(pthread_join(t, NULL));
		CHECK0(s.err);
		CHECK(s.local > (void *)mem && s.local < (void *)(mem + size));
		/* What the thread reports lies within what it was given.  */
		CHECK((char *)s.addr >= mem &&
		      (char *)s.addr + s.size <= mem + size);
		CHECK(s.size >= size / 2);
		CHECK0(pthread_attr_destroy(&a));
		munmap(mem, size);
	}

	/* A user stack can serve again once its thread is joined.  */
	char *mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		FATAL("mmap");
	pthread_attr_t a;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstack(&a, mem, size));
	for (int i = 0; i < 3; i++) {
		pthread_t t;
		struct seen s = { 0 };
		CHECK0(pthread_create(&t, &a, report, &s));
		CHECK0(pthread_join(t, NULL));
		CHECK(s.local > (void *)mem && s.local < (void *)(mem + size));
	}
	CHECK0(pthread_attr_destroy(&a));
	munmap(mem, size);
}

int main(int argc, char **argv)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	if (argc > 1) {
		check_default_size((rlim_t)strtoull(argv[1], NULL, 10));
		return t_done();
	}
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) == 0)
		check_default_size(rl.rlim_cur);
	run_with_limit((1 << 20) + 100);
	run_with_limit(RLIM_INFINITY);
	check_stacksize();
	check_stack();
	check_size_thread();
	check_user_stack();
	return t_done();
}
