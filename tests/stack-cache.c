/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stack cache gives memory back (issue 13).  Each part runs in a
 * child process, so that limits and caches start clean:
 *  - rss: 8 joinable threads each touch 1 MiB of stack; after they are
 *    joined the process's RSS has grown by less than 1 MiB (the exiting
 *    threads returned their stack pages, as glibc's do);
 *  - rlimit: under RLIMIT_AS = 600,000 KiB, after 30 joined threads with
 *    8 MiB stacks, malloc(450 MB) and mmap(450 MB) succeed (the cache
 *    holds at most glibc's 40 MiB);
 *  - serial: a worker thread creates and joins 8 threads one after the
 *    other, each touching 2 MiB of stack: while the worker runs, RSS has
 *    grown by less than one such stack (libnptl keeps at most one stack's
 *    pages resident for the next thread, glibc none), and after the
 *    worker is joined by less than 1 MiB;
 *  - detached: the same with a detached thread that ends as the last one
 *    (it gives back its own kept pages): once it is gone, less than 1 MiB;
 *  - arenas: rounds of 8 detached threads with 16 MiB stacks, which never
 *    call malloc, exit together, so that their exits trim the cache:
 *    malloc still has one arena (libnptl's exiting threads freed the
 *    trimmed threads' TLS, and glibc's free() gave each of them an arena
 *    of its own, 64 MiB of address space: glibc's tst-create-detached ran
 *    out of RLIMIT_AS), and the heap in use does not grow from round to
 *    round (the TLS put off is freed);
 *  - userstack: threads on a user-supplied stack, created and joined one
 *    after the other, leave the heap in use as it was before the first
 *    (after one thread on a stack of the library's own, and with malloc's
 *    tcache off, whose chunks mallinfo2 counts as in use; glibc frees such a thread's DTV at the join; libnptl kept it with
 *    the cached descriptor, and glibc's tst-stack3 reported it by mtrace);
 *  - tunable: with GLIBC_TUNABLES=glibc.pthread.stack_cache_size=0 (the
 *    test re-executes itself) nothing is cached: VmSize after 8 joined
 *    8 MiB threads is back within 1 MiB of before;
 *  - retry (libnptl only; glibc's creation fails here): with the cache
 *    full of 8 MiB stacks and RLIMIT_AS leaving room for no new 16 MiB
 *    mapping unless the cache is emptied, a 16 MiB thread is created;
 *  - compact (libnptl only): with no room for libnptl's own layout but
 *    room for glibc's, a thread is still created and can use its stack
 *    minus what glibc would take.
 * Memory sizes, not times, are asserted.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

#define MIB ((size_t)1 << 20)

static void *touch(void *arg)
{
	size_t n = (size_t)(uintptr_t)arg;
	volatile char *buf = __builtin_alloca(n);
	for (size_t i = 0; i < n; i += 4096)
		buf[i] = 1;
	return (void *)(uintptr_t)buf[0];
}

static int run_threads(int n, size_t stack, size_t use)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, stack);
	for (int i = 0; i < n; i++) {
		pthread_t t;
		int r = pthread_create(&t, &a, touch, (void *)(uintptr_t)use);
		if (r) {
			fprintf(stderr, "pthread_create %d: %s\n", i, strerror(r));
			return r;
		}
		pthread_join(t, NULL);
	}
	pthread_attr_destroy(&a);
	return 0;
}

/* Threads all alive at once, then joined: each gets its own stack.  */
static int run_together(int n, size_t stack, size_t use)
{
	pthread_t t[64];
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, stack);
	int r = 0, made = 0;
	for (; made < n && made < 64; made++)
		if ((r = pthread_create(&t[made], &a, touch, (void *)(uintptr_t)use)))
			break;
	for (int i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	pthread_attr_destroy(&a);
	return r;
}

/* 1 when RSS stayed 1 MiB or more above `before` (what part found).  */
static int rss_kept(const char *part, long before)
{
	long after = t_status_kib("VmRSS");
	if (after - before >= 1024) {
		fprintf(stderr, "%s: RSS %ld KiB before, %ld after\n", part, before, after);
		return 1;
	}
	return 0;
}

static int part_rss(void)
{
	run_threads(1, 8 * MIB, 64 << 10);     /* warm up libraries, arenas */
	long before = t_status_kib("VmRSS");
	if (run_together(8, 8 * MIB, 1 * MIB))
		return 2;
	return rss_kept("rss", before);
}

static void *serial_worker(void *arg)
{
	long *rss = arg;
	if (run_threads(8, 8 * MIB, 2 * MIB))
		return (void *)1;
	*rss = t_status_kib("VmRSS");
	return NULL;
}

static int part_serial(void)
{
	run_threads(1, 8 * MIB, 64 << 10);
	long before = t_status_kib("VmRSS"), during = 0;
	pthread_t w;
	void *res;
	if (pthread_create(&w, NULL, serial_worker, &during) ||
	    pthread_join(w, &res) || res)
		return 2;
	long after = t_status_kib("VmRSS");
	if (during - before >= 2048 + 512 || after - before >= 1024) {
		fprintf(stderr, "serial: RSS %ld KiB before, %ld with the worker, %ld after\n",
			before, during, after);
		return 1;
	}
	return 0;
}

static int part_detached(void)
{
	run_threads(1, 8 * MIB, 64 << 10);
	long before = t_status_kib("VmRSS");
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 8 * MIB);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_t t;
	if (pthread_create(&t, &a, touch, (void *)(uintptr_t)(4 * MIB)))
		return 2;
	for (int i = 0; i < 10000 && t_tasks() != 1; i++)
		usleep(1000);
	if (t_tasks() != 1)
		return 2;
	return rss_kept("detached", before);
}

static pthread_barrier_t arena_go;

static void *arena_wait(void *arg)
{
	pthread_barrier_wait(&arena_go);
	return arg;
}

/* The arenas malloc has: the <heap> elements of malloc_info.  */
static int arenas(void)
{
	char *xml = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&xml, &len);
	if (!f || malloc_info(0, f) != 0 || fclose(f) != 0)
		return -1;
	int n = 0;
	for (char *p = xml; (p = strstr(p, "<heap nr=")); p++)
		n++;
	free(xml);
	return n;
}

static int part_arenas(void)
{
	enum { N = 8, ROUNDS = 12 };
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 16 * MIB);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	size_t used[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_init(&arena_go, NULL, N + 1);
		for (int i = 0; i < N; i++) {
			pthread_t t;
			if (pthread_create(&t, &a, arena_wait, NULL))
				return 2;
		}
		pthread_barrier_wait(&arena_go);
		for (int i = 0; i < 10000 && t_tasks() != 1; i++)
			usleep(1000);
		if (t_tasks() != 1)
			return 2;
		pthread_barrier_destroy(&arena_go);
		used[r] = mallinfo2().uordblks;
	}
	run_threads(1, 16 * MIB, 4096);
	size_t end = mallinfo2().uordblks;
	int n = arenas();
	if (n != 1 || end > used[1] + 4096) {
		fprintf(stderr, "arenas: %d malloc arenas (want 1); heap in use "
			"%zu bytes after round 2, %zu at the end\n", n, used[1], end);
		return 1;
	}
	return 0;
}

static void *nothing(void *arg)
{
	return arg;
}

static int part_userstack(void)
{
	size_t size = 4 * PTHREAD_STACK_MIN;
	void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stack == MAP_FAILED)
		return 2;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstack(&a, stack, size);
	/* A thread on a stack of the library's first: what a first thread
	 * allocates for good is not what is measured.  */
	run_threads(1, 64 * 1024, 4096);
	size_t before = mallinfo2().uordblks;
	for (int i = 0; i < 4; i++) {
		pthread_t t;
		if (pthread_create(&t, &a, nothing, NULL) || pthread_join(t, NULL))
			return 2;
	}
	size_t after = mallinfo2().uordblks;
	if (after > before) {
		fprintf(stderr, "userstack: heap in use %zu bytes before, %zu "
			"after 4 joined threads\n", before, after);
		return 1;
	}
	return 0;
}

static int part_rlimit(void)
{
	struct rlimit rl = { 600000UL << 10, 600000UL << 10 };
	if (setrlimit(RLIMIT_AS, &rl))
		return 3;
	for (int i = 0; i < 30; i++)
		if (run_together(1, 8 * MIB, 64 << 10))
			return 2;
	if (run_together(30, 8 * MIB, 64 << 10))
		return 2;
	char *p = malloc(450000000);
	if (!p) {
		fprintf(stderr, "rlimit: malloc(450 MB) failed, VmSize %ld KiB\n",
			t_status_kib("VmSize"));
		return 1;
	}
	free(p);
	void *m = mmap(NULL, 450000000, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		fprintf(stderr, "rlimit: mmap(450 MB) failed, VmSize %ld KiB\n",
			t_status_kib("VmSize"));
		return 1;
	}
	return 0;
}

static int part_tunable(void)
{
	run_threads(1, 64 << 10, 4096);
	long before = t_status_kib("VmSize");
	if (run_together(8, 8 * MIB, 64 << 10))
		return 2;
	long after = t_status_kib("VmSize");
	if (after - before > 1024) {
		fprintf(stderr, "tunable: VmSize %ld KiB before, %ld KiB after\n",
			before, after);
		return 1;
	}
	return 0;
}

static int limit_to(long extra_kib)
{
	long vm = t_status_kib("VmSize");
	struct rlimit rl = { (size_t)(vm + extra_kib) << 10, (size_t)(vm + extra_kib) << 10 };
	return setrlimit(RLIMIT_AS, &rl);
}

static int part_retry(void)
{
	if (run_together(4, 8 * MIB, 64 << 10))   /* ~33 MiB now cached */
		return 2;
	if (limit_to(12 * 1024))                   /* room for 12 MiB more */
		return 3;
	return run_together(1, 16 * MIB, 1 * MIB) ? 1 : 0;
}

static int part_compact(void)
{
	run_threads(1, 64 << 10, 4096);
	/* Nothing cached of this size; room for the requested stack plus a
	 * guard page and nothing more: libnptl's own layout needs more.  */
	if (limit_to((4 * MIB + 4096) >> 10))
		return 3;
	return run_together(1, 4 * MIB, 2 * MIB) ? 1 : 0;
}

static void part(const char *name, int (*fn)(void), const char *envs)
{
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		if (envs) {
			/* The rest of the environment (LD_LIBRARY_PATH of
			 * libtool's wrapper, LD_PRELOAD) stays.  */
			char *argv[] = { "stack-cache", (char *)name, NULL };
			putenv((char *)envs);
			execv("/proc/self/exe", argv);
			_exit(4);
		}
		_exit(fn());
	}
	int st;
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(stderr, "%s: %s %d\n", name,
			WIFEXITED(st) ? "exit" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "tunable") == 0)
		return part_tunable();
	if (argc > 1 && strcmp(argv[1], "userstack") == 0)
		return part_userstack();
	part("rss", part_rss, NULL);
	part("serial", part_serial, NULL);
	part("detached", part_detached, NULL);
	part("rlimit", part_rlimit, NULL);
	part("arenas", part_arenas, NULL);
	/* A free()d chunk in a tcache counts as in use for mallinfo2.  */
	part("userstack", NULL, "GLIBC_TUNABLES=glibc.malloc.tcache_count=0");
	part("tunable", NULL, "GLIBC_TUNABLES=glibc.pthread.stack_cache_size=0");
	if (t_on_libnptl()) {
		part("retry", part_retry, NULL);
		part("compact", part_compact, NULL);
	}
	return t_done();
}
