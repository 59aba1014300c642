/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hundreds of threads alive at once (issue 13): libnptl then makes thread
 * mappings in batches, with one process_madvise for their guards and one
 * for their first pages, and unmaps trimmed ones together.  What a program
 * must see is what it sees with one mapping per thread:
 *  - every thread has its own stack: the ranges pthread_getattr_np reports
 *    do not overlap, each thread can write the lowest byte of its range,
 *    and 32 KiB that each thread writes into its stack is intact when all
 *    of them have written theirs;
 *  - a thread that overflows its stack faults on its own guard (the
 *    address its SIGSEGV handler sees), even when it was created among
 *    hundreds;
 *  - once every thread is joined, VmSize is back within the stack cache's
 *    bound (40 MiB) of what it was before: no batch is left behind.
 * Each part runs three ways, in child processes: as is; under a seccomp
 * filter that refuses process_madvise (ENOSYS) and the madvise advice
 * MADV_POPULATE_WRITE and MADV_GUARD_INSTALL (EINVAL), as an older kernel
 * or a container's filter would, so the one-by-one paths are taken; and
 * under a finite RLIMIT_AS, where libnptl makes no batches.  The same
 * checks pass against glibc, which makes one mapping per thread.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

#define NTHREADS 600
#define MARK 32768

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif

struct slot {
	uintptr_t lo, hi;   /* reported stack */
	int ok;             /* its mark was intact */
};

static struct slot slots[NTHREADS];
/* Every thread has written its mark; main has looked at every stack.  */
static pthread_barrier_t all_written, all_seen;

/* The threads call nothing that mallocs: a thread's first malloc makes
 * glibc's allocator map an arena (64 MiB of address space), which would
 * hide what this test looks for.  */
static void *crowd(void *arg)
{
	struct slot *s = arg;
	unsigned char id = (unsigned char)(s - slots);
	volatile unsigned char *buf = __builtin_alloca(MARK);
	for (size_t i = 0; i < MARK; i++)
		buf[i] = (unsigned char)(id + i);
	pthread_barrier_wait(&all_written);
	pthread_barrier_wait(&all_seen);
	/* The lowest byte of the stack main saw reported is ours to write
	 * (not the guard's, not another thread's).  */
	*(volatile unsigned char *)s->lo = id;
	int ok = 1;
	for (size_t i = 0; i < MARK; i++)
		ok &= buf[i] == (unsigned char)(id + i);
	s->ok = ok;
	return NULL;
}

static void *nothing(void *arg)
{
	return arg;
}

static int by_lo(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The crowd: own stacks, marks intact, VmSize back after the joins.  */
static int part_crowd(void)
{
	pthread_t t[NTHREADS];
	/* Warm up: libnptl's and glibc's first-thread set-up is not ours to
	 * count.  */
	pthread_t w;
	CHECK0(pthread_create(&w, NULL, nothing, NULL));
	CHECK0(pthread_join(w, NULL));
	long vm0 = t_status_kib("VmSize");

	CHECK0(pthread_barrier_init(&all_written, NULL, NTHREADS + 1));
	CHECK0(pthread_barrier_init(&all_seen, NULL, NTHREADS + 1));
	int n = 0;
	for (; n < NTHREADS; n++)
		if (pthread_create(&t[n], NULL, crowd, &slots[n]) != 0)
			break;
	CHECK(n == NTHREADS);
	if (n < NTHREADS)
		return 1;   /* the barriers would never open */
	pthread_barrier_wait(&all_written);
	for (int i = 0; i < n; i++) {
		pthread_attr_t a;
		void *lo;
		size_t size;
		CHECK0(pthread_getattr_np(t[i], &a));
		CHECK0(pthread_attr_getstack(&a, &lo, &size));
		pthread_attr_destroy(&a);
		slots[i].lo = (uintptr_t)lo;
		slots[i].hi = (uintptr_t)lo + size;
	}
	pthread_barrier_wait(&all_seen);
	for (int i = 0; i < n; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK0(pthread_barrier_destroy(&all_written));
	CHECK0(pthread_barrier_destroy(&all_seen));
	long vm1 = t_status_kib("VmSize");

	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += !slots[i].ok || slots[i].hi <= slots[i].lo;
	CHECK(bad == 0);
	qsort(slots, n, sizeof slots[0], by_lo);
	int overlaps = 0;
	for (int i = 1; i < n; i++)
		overlaps += slots[i].lo < slots[i - 1].hi;
	CHECK(overlaps == 0);
	if (vm1 - vm0 > 48 * 1024)
		fprintf(stderr, "VmSize %ld kB before, %ld kB after the joins\n",
			vm0, vm1);
	CHECK(vm1 - vm0 <= 48 * 1024);
	return t_failures != 0;
}

static volatile int sink = 1;

/* Recurses for as long as sink says so: always, but the compiler cannot
 * know that.  */
static int deep(int n)
{
	volatile char pad[4096];
	pad[0] = (char)n;
	if (sink)
		return deep(n + 1) + pad[4095];
	return pad[0];
}

/* The overflowing thread's guard: below the stack pthread_getattr_np
 * reports, with some slack (libnptl's mapping has room for a signal
 * frame and page rounding below the reported stack).  */
static uintptr_t guard_lo, guard_hi;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	uintptr_t a = (uintptr_t)si->si_addr;
	_exit(a >= guard_lo && a < guard_hi ? 42 : 43);
}

static void *overflow(void *arg)
{
	static char alt[65536];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt };
	struct sigaction sa = { .sa_sigaction = on_segv,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };
	pthread_attr_t a;
	void *lo;
	size_t size, guard;
	if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGSEGV, &sa, NULL) != 0 ||
	    pthread_getattr_np(pthread_self(), &a) != 0 ||
	    pthread_attr_getstack(&a, &lo, &size) != 0 ||
	    pthread_attr_getguardsize(&a, &guard) != 0 || guard == 0)
		_exit(44);
	guard_hi = (uintptr_t)lo;
	guard_lo = (uintptr_t)lo - guard - 65536;
	return (void *)(intptr_t)deep((int)(intptr_t)arg);
}

static void *wait_on(void *arg)
{
	pthread_barrier_wait(arg);
	return NULL;
}

/* Among NTHREADS live threads, one more overflows its stack: it faults
 * on its own guard (exit 42 from its handler), not in memory further
 * down that another thread's missing guard would let it reach.  */
static int part_guard(void)
{
	static pthread_barrier_t hold;
	pthread_t t[NTHREADS];
	CHECK0(pthread_barrier_init(&hold, NULL, NTHREADS + 1));
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, wait_on, &hold) != 0)
			FATAL("pthread_create %d failed", i);
	pthread_t o;
	CHECK0(pthread_create(&o, NULL, overflow, NULL));
	pthread_join(o, NULL);
	fprintf(stderr, "the overflowing thread came back\n");
	return 1;
}

/* Refuse what a kernel before 6.15 or a container's filter may refuse.  */
static void install_filter(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_madvise, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_madvise, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MADV_POPULATE_WRITE, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MADV_GUARD_INSTALL, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
	};
	struct sock_fprog prog = { sizeof f / sizeof f[0], f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
		FATAL("seccomp filter: %s", strerror(errno));
}

enum way { AS_IS, FILTERED, AS_LIMITED };
static const char *const way_name[] = { "as is", "filtered", "RLIMIT_AS" };

static int in_child(int (*part)(void), enum way w, int want)
{
	fflush(NULL);
	pid_t p = fork();
	if (p < 0)
		FATAL("fork: %s", strerror(errno));
	if (p == 0) {
		struct rlimit nocore = { 0, 0 };
		t_failures = 0;   /* the parent's are not this part's */
		setrlimit(RLIMIT_CORE, &nocore);
		if (w == FILTERED)
			install_filter();
		if (w == AS_LIMITED) {
			/* Room for the threads (8 MiB stacks each), none for
			 * address space left lying around in batches.  */
			struct rlimit rl = { (rlim_t)16 << 30, (rlim_t)16 << 30 };
			if (setrlimit(RLIMIT_AS, &rl) != 0)
				FATAL("setrlimit: %s", strerror(errno));
		}
		_exit(part());
	}
	int st;
	if (waitpid(p, &st, 0) != p)
		FATAL("waitpid: %s", strerror(errno));
	int ok = WIFEXITED(st) && WEXITSTATUS(st) == want;
	if (!ok)
		fprintf(stderr, "%s: status %#x (want exit %d)\n", way_name[w],
			st, want);
	return ok;
}

int main(void)
{
	for (enum way w = AS_IS; w <= AS_LIMITED; w++) {
		CHECK(in_child(part_crowd, w, 0));
		CHECK(in_child(part_guard, w, 42));
	}
	return t_failures != 0;
}
