/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tiny test helpers.  A test is a program run by automake's harness: exit 0
 * passes, 77 skips, anything else fails.  CHECK prints what failed, where.
 * Conformance tests include only this and system headers, so they build and
 * pass against plain glibc too (make check-glibc).
 */
#ifndef NPTL_TEST_H
#define NPTL_TEST_H
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static int t_failures;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                          \
			t_failures++;                                      \
		}                                                          \
	} while (0)

/* CHECK_ERR(call, E): call returns the error number E (pthread style).  */
#define CHECK_ERR(call, e)                                                 \
	do {                                                               \
		int t_r_ = (call);                                         \
		if (t_r_ != (e)) {                                         \
			fprintf(stderr, "%s:%d: %s returned %d (%s), want %d (%s)\n", \
				__FILE__, __LINE__, #call, t_r_, strerror(t_r_), \
				(e), strerror(e));                         \
			t_failures++;                                      \
		}                                                          \
	} while (0)

#define CHECK0(call) CHECK_ERR(call, 0)

#define FATAL(...)                                                         \
	do {                                                               \
		fprintf(stderr, __VA_ARGS__);                              \
		fputc('\n', stderr);                                       \
		exit(99);                                                  \
	} while (0)

#define SKIP(...)                                                          \
	do {                                                               \
		fprintf(stderr, "SKIP: " __VA_ARGS__);                     \
		fputc('\n', stderr);                                       \
		exit(77);                                                  \
	} while (0)

/* Which library serves pthread_create in this process.  */
static inline int t_on_libnptl(void)
{
	return dlsym(RTLD_DEFAULT, "nptl_version") != NULL;
}

/* A deadline `us` microseconds from now on clock c (us below 1 s).  */
static inline struct timespec t_soon(clockid_t c, long us)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	ts.tv_nsec += us * 1000;
	ts.tv_sec += ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	return ts;
}

static inline int t_done(void)
{
	if (t_failures) {
		fprintf(stderr, "%d check(s) failed\n", t_failures);
		return 1;
	}
	return 0;
}

/* How many tasks (threads) the process has now.  */
static inline int t_tasks(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* A "Key:   N kB" line of /proc/self/status (VmSize, VmRSS...), in kB;
 * -1 when there is none.  */
static inline long t_status_kib(const char *key)
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

/* The state letter (R, S, D, T...) a /proc/.../stat file shows; 0 when
 * it cannot be read.  */
static inline char t_proc_state(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')');   /* the name may hold anything */
	return p && p[1] == ' ' ? p[2] : 0;
}

/* The calling thread's kernel tid, for t_wait_asleep.  */
static inline pid_t t_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Wait until the thread whose tid is in *tid sleeps in the kernel (state
 * S or D in its /proc stat file; fmt names that file from the tid).  The
 * thread stores t_tid() there right before the call that must block; so a
 * test that then cancels or signals it acts on a thread blocked in that
 * call, however slow the machine, instead of on one that has not got
 * there yet.  */
static inline void t_wait_asleep_in(volatile pid_t *tid, const char *fmt)
{
	for (int i = 0; i < 20000; i++) {       /* 20 s */
		pid_t t = *tid;
		if (t > 0) {
			char path[64];
			snprintf(path, sizeof path, fmt, (int)t);
			char st = t_proc_state(path);
			if (st == 'S' || st == 'D')
				return;
		}
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	FATAL("thread %d never blocked", (int)*tid);
}

/* Lock m once *count reaches n, where waiters raise *count under m
 * right before they wait on a condvar with it: each holds m from the
 * raise until the wait releases it, so all n are then inside the wait.
 * Returns with m held.  */
static inline void t_lock_when_waiting(pthread_mutex_t *m, const int *count,
				       int n)
{
	for (int i = 0; i < 20000; i++) {       /* 20 s */
		pthread_mutex_lock(m);
		if (*count >= n)
			return;
		pthread_mutex_unlock(m);
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	FATAL("only %d of %d waiters arrived", *count, n);
}

/* A thread of this process.  */
static inline void t_wait_asleep(volatile pid_t *tid)
{
	t_wait_asleep_in(tid, "/proc/self/task/%d/stat");
}

/* Wait until the process's main thread has ended (its task is a zombie,
 * Z, until the last thread ends); false after 20 s.  */
static inline int t_wait_main_ended(void)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)getpid());
	for (int i = 0; i < 20000; i++) {
		if (t_proc_state(path) == 'Z')
			return 1;
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	return 0;
}
#endif
