// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * many-threads: Ingo Molnar's test from the NPTL 0.1 announcement thread
 * (20 Sep 2002): start N threads at once without throttling, wait until
 * all of them run, then tell them all to stop and join them all.
 *
 *   many-threads [-n N] [--floor|--floor-touch|--floor-spaced] [--max]
 *
 * Prints the time to start all (first create until the last one is
 * running), the time to stop all (stop signalled until the last join),
 * the peak RSS (VmHWM) and how many threads it reached.  Threads get the
 * default attribute (default stack size): virtual memory is no issue on
 * 64-bit, RSS is, and that is what a real program pays.
 *
 * --floor uses bare clone(2)s (floor.S) on preallocated small stacks with
 * the same start/stop protocol.  Its children touch no memory of their
 * own, which no thread that runs code can do: a thread writes at least its
 * first stack frame and its TLS and descriptor, two fresh pages when its
 * stack is new.  --floor-touch is the floor whose children write one word
 * to each of two fresh pages of their own (on a machine where a first
 * touch is dear, a virtual machine with shadow page tables, the two rows
 * differ a lot: that part of the cost is the memory's, not the library's).
 * --floor-spaced is --floor-touch with its children's stacks as far apart
 * as default thread stacks are (the default stack size and a guard page):
 * each child's two pages then lie in a page table of their own, as a real
 * thread's do.  Where page tables are dear (shadow paging) that is a cost
 * of its own: on a 2-CPU virtual machine, 20,000 children, start took
 * 1.5 times as long as --floor-touch's.  Threads on default stacks can
 * hardly do better than this row; the targets are set against the bare
 * floor all the same.  --max creates threads until creation fails and
 * reports which system limit stopped it.  The same source is linked with
 * libnptl and glibc; it uses only <pthread.h> of the thread library.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "floor.h"

/* A floor child never touches its stack; a page each keeps the region
 * small while every child still has its own stack pointer.  A touching
 * one has two pages.  */
#define FLOOR_STACK 4096
/* --max stops here even if nothing failed (and sizes the floor arrays). */
#define MAX_CAP 1000000

/* The pthread children follow the floor children's protocol exactly. */
static struct floor_ctl ctl;

static void futex_wait_timed(int *addr, int val, long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, ms ? &ts : NULL,
		NULL, 0);
}

static void futex_wake(int *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static void *child(void *arg)
{
	if (__atomic_add_fetch(&ctl.count, 1, __ATOMIC_SEQ_CST) ==
	    __atomic_load_n(&ctl.target, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&ctl.started, 1, __ATOMIC_RELEASE);
		futex_wake(&ctl.started, 1);
	}
	while (!__atomic_load_n(&ctl.stop, __ATOMIC_ACQUIRE))
		futex_wait_timed(&ctl.stop, 0, 0);
	return arg;
}

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/* A number from a /proc file ("key" == NULL: the first number in it). */
static long proc_number(const char *path, const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		if (!key) {
			v = strtol(line, NULL, 10);
			break;
		}
		if (!strncmp(line, key, strlen(key))) {
			v = strtol(line + strlen(key), NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

static long count_lines(const char *path)
{
	char buf[65536];
	long n = 0;
	size_t len;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while ((len = fread(buf, 1, sizeof buf, f)) > 0)
		for (size_t i = 0; i < len; i++)
			n += buf[i] == '\n';
	fclose(f);
	return n;
}

/* Tasks in the whole system: the part after '/' in /proc/loadavg. */
static long system_tasks(void)
{
	char buf[128];
	FILE *f = fopen("/proc/loadavg", "r");
	char *slash;

	if (!f)
		return -1;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = 0;
	fclose(f);
	slash = strchr(buf, '/');
	return slash ? strtol(slash + 1, NULL, 10) : -1;
}

/*
 * When creation failed: which limit is nearest to full?  pthread_create
 * says EAGAIN for all of them (glibc maps a failed stack mmap to EAGAIN),
 * so look at the counters themselves, right at the failure.
 */
static const char *which_limit(char *detail, size_t size)
{
	long maps = count_lines("/proc/self/maps");
	long max_maps = proc_number("/proc/sys/vm/max_map_count", NULL);
	long tasks = system_tasks();
	long pid_max = proc_number("/proc/sys/kernel/pid_max", NULL);
	long threads_max = proc_number("/proc/sys/kernel/threads-max", NULL);
	struct rlimit nproc;
	const char *why = "unknown";

	getrlimit(RLIMIT_NPROC, &nproc);
	snprintf(detail, size, "maps=%ld/%ld\ttasks=%ld/pid_max=%ld/"
		 "threads-max=%ld", maps, max_maps, tasks, pid_max,
		 threads_max);
	/* Slack: maps a failed attempt may have freed again; pids below 300
	 * are reserved once pid numbers wrap, and kernel threads use pids. */
	if (max_maps > 0 && maps >= max_maps - 4)
		why = "vm.max_map_count";
	else if (pid_max > 0 && tasks >= pid_max - 400)
		why = "kernel.pid_max";
	else if (threads_max > 0 && tasks >= threads_max - 64)
		why = "kernel.threads-max";
	else if (getuid() != 0 && nproc.rlim_cur != RLIM_INFINITY &&
		 (rlim_t)tasks >= nproc.rlim_cur - 64)
		why = "RLIMIT_NPROC";
	return why;
}

/* How far apart default thread stacks lie: glibc's default stack size
 * (RLIMIT_STACK, 8 MiB when unlimited, rounded to pages) and one guard
 * page.  */
static size_t default_stack_span(void)
{
	struct rlimit rl;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t size = 8 << 20;

	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur >= 2 * pg)
		size = rl.rlim_cur;
	return ((size + pg - 1) & ~(pg - 1)) + pg;
}

static void usage(void)
{
	fprintf(stderr, "usage: many-threads [-n N] [--floor|--floor-touch|"
		"--floor-spaced] [--max]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long n = 100000, reached = 0;
	int floor = 0, max = 0, err = 0;
	char detail[256] = "";
	const char *limit = "-";

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--floor"))
			floor = 1;
		else if (!strcmp(argv[i], "--floor-touch"))
			floor = 2;
		else if (!strcmp(argv[i], "--floor-spaced"))
			floor = 3;
		else if (!strcmp(argv[i], "--max"))
			max = 1;
		else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			char *end;
			n = strtol(argv[++i], &end, 10);
			if (*end || n < 1 || n > MAX_CAP)
				usage();
		} else
			usage();
	}
	if (max)
		n = MAX_CAP;

	/* Allocated before timing: creating a thread must not pay for it. */
	pthread_t *threads = NULL;
	int *tids = NULL;
	char *stacks = NULL;
	static long tls[8];	/* for CLONE_SETTLS; the children never use it */

	size_t floor_stack = floor == 2 ? 2 * FLOOR_STACK : FLOOR_STACK;
	if (floor == 3)
		floor_stack = default_stack_span();
	ctl.touch = floor >= 2;
	if (floor) {
		tids = calloc(n, sizeof *tids);
		stacks = mmap(NULL, (size_t)n * floor_stack,
			      PROT_READ | PROT_WRITE, MAP_PRIVATE |
			      MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
		if (!tids || stacks == MAP_FAILED) {
			perror("many-threads: floor stacks");
			return 1;
		}
	} else {
		threads = calloc(n, sizeof *threads);
		if (!threads) {
			perror("many-threads");
			return 1;
		}
	}
	ctl.target = n;

	long t0 = now_us();
	for (; reached < n; reached++) {
		if (floor) {
			long r = floor_clone(FLOOR_CLONE_FLAGS,
					     stacks + (size_t)(reached + 1) *
					     floor_stack, &tids[reached],
					     &tids[reached], tls, &ctl);
			err = r < 0 ? -r : 0;
		} else {
			err = pthread_create(&threads[reached], NULL, child,
					     NULL);
		}
		if (err) {
			limit = which_limit(detail, sizeof detail);
			break;
		}
	}
	if (reached < n) {
		/* The child that makes count == target may have read the
		 * old target: poll as well as wait. */
		__atomic_store_n(&ctl.target, reached, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&ctl.count, __ATOMIC_SEQ_CST) >= reached)
			ctl.started = 1;
	}
	while (!__atomic_load_n(&ctl.started, __ATOMIC_ACQUIRE)) {
		futex_wait_timed(&ctl.started, 0, reached < n ? 10 : 1000);
		if (__atomic_load_n(&ctl.count, __ATOMIC_SEQ_CST) >= reached)
			break;
	}
	long t1 = now_us();

	__atomic_store_n(&ctl.stop, 1, __ATOMIC_RELEASE);
	futex_wake(&ctl.stop, INT_MAX);
	for (long i = 0; i < reached; i++) {
		if (floor)
			floor_join(&tids[i]);
		else
			pthread_join(threads[i], NULL);
	}
	long t2 = now_us();

	printf("mode=%s\tN=%ld\treached=%ld\tstart_us=%ld\tstop_us=%ld\t"
	       "hwm_kb=%ld\terror=%s\tlimit=%s%s%s\n",
	       floor == 3 ? "floor-spaced" : floor == 2 ? "floor-touch" :
	       floor ? "floor" : "pthread", max ? 0 : n, reached, t1 - t0,
	       t2 - t1, proc_number("/proc/self/status", "VmHWM:"),
	       err ? strerror(err) : "-", limit, detail[0] ? "\t" : "",
	       detail);
	/* Reaching N is the test; --max is expected to fail somewhere. */
	return max || reached == n ? 0 : 1;
}
