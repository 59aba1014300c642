// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/memory MODE -- what threads cost in memory, for the table of
 * bench/run memory (libnptl and glibc builds of this one source).
 *   join N STACK_KIB TOUCH_KIB: N threads at once, each touching TOUCH_KIB
 *        of its stack, all joined; prints VmRSS and VmSize (KiB) before
 *        the threads and after the joins.
 *   count AS_KIB STACK_KIB: under RLIMIT_AS = AS_KIB, how many threads
 *        with STACK_KIB stacks exist at once (each waits on a futex-backed
 *        barrier of a pipe); prints the count.
 *   rlimit: under RLIMIT_AS = 600,000 KiB, 30 joined threads with 8 MiB
 *        stacks, then malloc(450 MB) and mmap(450 MB): prints ok/FAIL.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static long status_kib(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;
	size_t n = strlen(key);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, key, n) == 0 && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return v;
}

static size_t touch_bytes;
static int gate[2];

static void *touch(void *arg)
{
	(void)arg;
	volatile char *buf = __builtin_alloca(touch_bytes + 1);
	for (size_t i = 0; i < touch_bytes; i += 4096)
		buf[i] = 1;
	return NULL;
}

static void *wait_gate(void *arg)
{
	(void)arg;
	char c;
	while (read(gate[0], &c, 1) < 0)
		;
	return NULL;
}

static int mode_join(int n, size_t stack, size_t touch_sz)
{
	pthread_t *t = calloc((size_t)n, sizeof *t);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, stack);
	touch_bytes = touch_sz;
	long rss0 = status_kib("VmRSS"), vm0 = status_kib("VmSize");
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], &a, touch, NULL)) {
			fprintf(stderr, "create failed at %d\n", i);
			return 1;
		}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("rss_before=%ld rss_after=%ld vmsize_before=%ld vmsize_after=%ld\n",
	       rss0, status_kib("VmRSS"), vm0, status_kib("VmSize"));
	return 0;
}

static int mode_count(size_t as, size_t stack)
{
	struct rlimit rl = { as, as };
	if (setrlimit(RLIMIT_AS, &rl) || pipe(gate))
		return 1;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, stack);
	size_t cap = 1 << 16, n = 0;
	pthread_t *t = malloc(cap * sizeof *t);
	while (n < cap && pthread_create(&t[n], &a, wait_gate, NULL) == 0)
		n++;
	printf("threads=%zu\n", n);
	fflush(stdout);
	for (size_t i = 0; i < n; i++)
		if (write(gate[1], "x", 1) != 1)
			return 1;
	for (size_t i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}

static int mode_rlimit(void)
{
	struct rlimit rl = { 600000UL << 10, 600000UL << 10 };
	if (setrlimit(RLIMIT_AS, &rl))
		return 1;
	pthread_t t[30];
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 8 << 20);
	touch_bytes = 64 << 10;
	for (int i = 0; i < 30; i++)
		if (pthread_create(&t[i], &a, touch, NULL))
			return 1;
	for (int i = 0; i < 30; i++)
		pthread_join(t[i], NULL);
	void *p = malloc(450000000);
	printf("malloc=%s ", p ? "ok" : "FAIL");
	free(p);
	void *m = mmap(NULL, 450000000, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("mmap=%s\n", m != MAP_FAILED ? "ok" : "FAIL");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "join"))
		return mode_join(atoi(argv[2]), (size_t)atol(argv[3]) << 10,
				 (size_t)atol(argv[4]) << 10);
	if (argc == 4 && !strcmp(argv[1], "count"))
		return mode_count((size_t)atol(argv[2]) << 10, (size_t)atol(argv[3]) << 10);
	if (argc == 2 && !strcmp(argv[1], "rlimit"))
		return mode_rlimit();
	fprintf(stderr, "usage: memory join N STACK_KIB TOUCH_KIB | count AS_KIB STACK_KIB | rlimit\n");
	return 2;
}
