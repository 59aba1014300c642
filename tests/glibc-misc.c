/* SPDX-License-Identifier: LGPL-2.1-or-later */
// test-cflags: -fstack-protector-strong
/*
 * Assorted glibc facilities inside threads, several threads at once:
 *  - setjmp/longjmp and sigsetjmp/siglongjmp;
 *  - code compiled with -fstack-protector-strong (tests/local.am), and
 *    the canary at %fs:0x28 is the process's;
 *  - gettid: distinct per thread, equal to syscall(SYS_gettid);
 *  - the resolver state _res is per thread;
 *  - sched_getcpu in a thread pinned to CPU k returns k, for every CPU;
 *  - getaddrinfo("localhost") from 4 threads at once;
 *  - rseq: the area at __rseq_offset from the thread pointer is
 *    registered (cpu_id >= 0, the CPU the thread runs on when pinned) or
 *    marked RSEQ_CPU_ID_REGISTRATION_FAILED, never left uninitialized;
 *  - the kernel's robust list head of every thread is at the same offset
 *    in its descriptor as the main thread's, 24 bytes long, at the latest
 *    once the thread has locked a robust mutex (glibc registers one for
 *    every thread at its start; libnptl, like musl, at a thread's first
 *    robust lock).
 */
#include <netdb.h>
#include <pthread.h>
#include <resolv.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/rseq.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <netinet/in.h>
#include <unistd.h>
#include "t.h"

#define NT 8

static pthread_barrier_t bar;

/* ---- setjmp/longjmp ---------------------------------------------------- */

/* Returns only for a negative depth.  */
static __attribute__((noinline)) int dive(jmp_buf *env, int depth, int val)
{
	volatile char pad[64];
	pad[0] = (char)depth;
	if (depth < 0)
		return 0;
	if (depth > 0)
		return dive(env, depth - 1, val + pad[0] - depth) + 1;
	longjmp(*env, val);
}

static __attribute__((noinline)) int sigdive(sigjmp_buf *env, int depth)
{
	if (depth < 0)
		return 0;
	if (depth > 0)
		return sigdive(env, depth - 1) + 1;
	siglongjmp(*env, 1);
}

static __attribute__((noinline)) long one_jump(int t, int i)
{
	jmp_buf env;
	volatile int before = t * 1000 + i;
	int r = setjmp(env);
	if (r == 0) {
		dive(&env, i % 50, t * 1000 + i + 1);
		return 1;   /* not reached */
	}
	return (r != t * 1000 + i + 1) + (before != t * 1000 + i);
}

/* siglongjmp restores the signal mask sigsetjmp saved.  */
static __attribute__((noinline)) long sig_jump(int t)
{
	sigset_t blk, now;
	sigemptyset(&blk);
	sigaddset(&blk, SIGUSR1 + t % 2);
	pthread_sigmask(SIG_SETMASK, &blk, NULL);
	sigjmp_buf senv;
	if (sigsetjmp(senv, 1) == 0) {
		sigset_t other;
		sigemptyset(&other);
		sigaddset(&other, SIGWINCH);
		pthread_sigmask(SIG_SETMASK, &other, NULL);
		sigdive(&senv, 10);
		return 1;   /* not reached */
	}
	pthread_sigmask(SIG_SETMASK, NULL, &now);
	sigemptyset(&blk);
	pthread_sigmask(SIG_SETMASK, &blk, NULL);
	return !sigismember(&now, SIGUSR1 + t % 2) || sigismember(&now, SIGWINCH);
}

static long test_jumps(int t)
{
	long bad = 0;
	for (int i = 0; i < 200; i++)
		bad += one_jump(t, i);
	return bad + sig_jump(t);
}

/* ---- stack protector --------------------------------------------------- */

static __attribute__((noinline)) unsigned guarded(int t, int i)
{
	char buf[128];   /* an array: -fstack-protector-strong guards this */
	snprintf(buf, sizeof buf, "thread %d call %d", t, i);
	unsigned h = 0;
	for (char *p = buf; *p; p++)
		h = h * 31 + (unsigned char)*p;
	return h;
}

static uintptr_t main_canary;

static uintptr_t read_canary(void)
{
	uintptr_t v = 0;
#if defined(__x86_64__)
	__asm__ volatile("mov %%fs:0x28, %0" : "=r"(v));
#endif
	return v;
}

static long test_stack_protector(int t)
{
	long bad = 0;
	for (int i = 0; i < 1000; i++) {
		char want[64];
		snprintf(want, sizeof want, "thread %d call %d", t, i);
		unsigned h = 0;
		for (char *p = want; *p; p++)
			h = h * 31 + (unsigned char)*p;
		bad += guarded(t, i) != h;
	}
	bad += read_canary() != main_canary;
	return bad;
}

/* ---- rseq, robust list, gettid ----------------------------------------- */

static ptrdiff_t robust_off;

static int rseq_cpu(void)
{
	if (__rseq_size == 0)
		return -3;   /* rseq disabled (glibc.pthread.rseq=0) */
	struct rseq *rs = (struct rseq *)((char *)__builtin_thread_pointer() +
					  __rseq_offset);
	return (int)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);
}

static int rseq_ok(void)
{
	int c = rseq_cpu();
	return c == -3 || c >= 0 || c == RSEQ_CPU_ID_REGISTRATION_FAILED;
}

static long test_kernel_state(void)
{
	long bad = 0;
	if (!rseq_ok()) {
		fprintf(stderr, "rseq cpu_id %d\n", rseq_cpu());
		bad++;
	}
	struct robust_list_head *head = NULL;
	size_t len = 0;
	/* Before a robust lock: glibc's head, or none yet.  */
	if (syscall(SYS_get_robust_list, 0, &head, &len) != 0) {
		bad++;
	} else if (head) {
		bad += (char *)head - (char *)pthread_self() != robust_off;
		bad += len != 24;
	}
	/* After one: glibc's head, whoever registered it.  */
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	if (pthread_mutex_init(&m, &a) || pthread_mutex_lock(&m) ||
	    pthread_mutex_unlock(&m))
		bad++;
	pthread_mutex_destroy(&m);
	pthread_mutexattr_destroy(&a);
	head = NULL;
	if (syscall(SYS_get_robust_list, 0, &head, &len) != 0) {
		bad++;
	} else {
		bad += (char *)head - (char *)pthread_self() != robust_off;
		bad += len != 24;
	}
	return bad;
}

static pid_t tids[NT];
static struct __res_state *resp[NT + 1];

static void *worker(void *arg)
{
	int t = (int)(intptr_t)arg;
	long bad = 0;
	tids[t] = gettid();
	bad += tids[t] != (pid_t)syscall(SYS_gettid);
	bad += tids[t] == getpid();
	resp[t] = &_res;
	_res.retrans = 100 + t;
	pthread_barrier_wait(&bar);
	if ((bad += test_jumps(t)))
		fprintf(stderr, "thread %d: setjmp/longjmp\n", t);
	long b = test_stack_protector(t);
	if (b)
		fprintf(stderr, "thread %d: stack protector\n", t);
	bad += b;
	b = test_kernel_state();
	if (b)
		fprintf(stderr, "thread %d: rseq or robust list\n", t);
	bad += b;
	bad += gettid() != tids[t];
	bad += &_res != resp[t] || _res.retrans != 100 + t;
	return (void *)bad;
}

static void test_workers(void)
{
	pthread_t th[NT];
	pthread_barrier_init(&bar, NULL, NT);
	for (int t = 0; t < NT; t++)
		CHECK0(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t));
	for (int t = 0; t < NT; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == NULL);
	}
	pthread_barrier_destroy(&bar);
	resp[NT] = &_res;
	for (int i = 0; i < NT; i++)
		for (int j = i + 1; j <= NT; j++) {
			CHECK(j == NT || tids[i] != tids[j]);
			CHECK(resp[i] != resp[j]);
		}
}

/* ---- sched_getcpu ------------------------------------------------------ */

static void *pinned(void *arg)
{
	int k = (int)(intptr_t)arg;
	long bad = 0;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(k, &set);
	/* Half of them through pthread_setaffinity_np, half on their tid.  */
	int err = k % 2 ? pthread_setaffinity_np(pthread_self(), sizeof set, &set)
			: (sched_setaffinity(gettid(), sizeof set, &set) ? errno : 0);
	if (err) {
		fprintf(stderr, "pinning to CPU %d: %s\n", k, strerror(err));
		return (void *)1;
	}
	for (int i = 0; i < 100; i++) {
		int c = sched_getcpu();
		int rc = rseq_cpu();
		if (c != k) {
			fprintf(stderr, "pinned to %d, sched_getcpu says %d\n", k, c);
			bad++;
		}
		if (rc >= 0 && rc != k) {
			fprintf(stderr, "pinned to %d, rseq cpu_id says %d\n", k, rc);
			bad++;
		}
		if (i % 10 == 0)
			sched_yield();
	}
	return (void *)bad;
}

static void test_getcpu(void)
{
	cpu_set_t avail;
	CHECK(sched_getaffinity(0, sizeof avail, &avail) == 0);
	pthread_t th[CPU_SETSIZE];
	int n = 0, ks[CPU_SETSIZE];
	/* Two threads per CPU, all at once.  */
	for (int rep = 0; rep < 2; rep++)
		for (int k = 0; k < CPU_SETSIZE && n < 64; k++) {
			if (!CPU_ISSET(k, &avail))
				continue;
			ks[n] = k;
			CHECK0(pthread_create(&th[n], NULL, pinned, (void *)(intptr_t)k));
			n++;
		}
	CHECK(n >= 2);
	for (int i = 0; i < n; i++) {
		void *r;
		CHECK0(pthread_join(th[i], &r));
		if (r != NULL) {
			fprintf(stderr, "CPU %d failed\n", ks[i]);
			t_failures++;
		}
	}
}

/* ---- getaddrinfo ------------------------------------------------------- */

static int hosts_has_localhost(void)
{
	FILE *f = fopen("/etc/hosts", "r");
	char line[512];
	int found = 0;
	while (f && !found && fgets(line, sizeof line, f)) {
		char *h = strchr(line, '#');
		if (h)
			*h = 0;
		for (char *w = strtok(line, " \t\n"); w; w = strtok(NULL, " \t\n"))
			if (strcmp(w, "localhost") == 0)
				found = 1;
	}
	if (f)
		fclose(f);
	return found;
}

static void *resolver(void *arg)
{
	(void)arg;
	long bad = 0;
	pthread_barrier_wait(&bar);
	for (int i = 0; i < 50; i++) {
		struct addrinfo hints = { 0 }, *res = NULL;
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		int e = getaddrinfo("localhost", "80", &hints, &res);
		if (e != 0) {
			fprintf(stderr, "getaddrinfo: %s\n", gai_strerror(e));
			bad++;
			continue;
		}
		int loop = 0;
		for (struct addrinfo *a = res; a; a = a->ai_next) {
			if (a->ai_family == AF_INET) {
				struct sockaddr_in *s = (void *)a->ai_addr;
				bad += ntohs(s->sin_port) != 80;
				loop += (ntohl(s->sin_addr.s_addr) >> 24) == 127;
			} else if (a->ai_family == AF_INET6) {
				struct sockaddr_in6 *s = (void *)a->ai_addr;
				bad += ntohs(s->sin6_port) != 80;
				loop += IN6_IS_ADDR_LOOPBACK(&s->sin6_addr);
			}
		}
		bad += loop == 0;
		freeaddrinfo(res);
	}
	return (void *)bad;
}

static void test_getaddrinfo(void)
{
	if (!hosts_has_localhost()) {
		fprintf(stderr, "no localhost in /etc/hosts: getaddrinfo part "
				"skipped\n");
		return;
	}
	pthread_t th[4];
	pthread_barrier_init(&bar, NULL, 4);
	for (int t = 0; t < 4; t++)
		CHECK0(pthread_create(&th[t], NULL, resolver, NULL));
	for (int t = 0; t < 4; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == NULL);
	}
	pthread_barrier_destroy(&bar);
}

int main(void)
{
	main_canary = read_canary();
	struct robust_list_head *head = NULL;
	size_t len = 0;
	CHECK(syscall(SYS_get_robust_list, 0, &head, &len) == 0);
	CHECK(len == 24);
	robust_off = (char *)head - (char *)pthread_self();
	CHECK(rseq_ok());
	test_workers();
	test_getcpu();
	test_getaddrinfo();
	/* The main thread is as it was.  */
	CHECK(test_kernel_state() == 0);
	CHECK(test_jumps(0) == 0);
	return t_done();
}
