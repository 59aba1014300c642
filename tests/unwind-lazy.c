// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgcc_s is loaded when the first unwind needs it, not at start-up (as
 * glibc does): a C program that never exits a thread with pthread_exit or
 * cancels one has no libgcc_s mapped.  The first pthread_exit loads it and
 * unwinds; in a fresh process pthread_cancel loads it in the canceller
 * before it returns, for a target blocked in a cancellation point and for
 * an asynchronously cancelled one (whose SIGCANCEL handler must not load
 * anything).  Each case runs in a child of its own, so each starts with
 * nothing loaded.  Passes on glibc too.
 */
#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/wait.h>
#include "t.h"

static bool mapped(const char *name)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		FATAL("cannot open /proc/self/maps");
	while (fgets(line, sizeof line, f))
		if (strstr(line, name))
			found = true;
	fclose(f);
	return found;
}

static int cleaned;

static void cleanup(void *arg)
{
	cleaned += (int)(long)arg;
}

static void *exiter(void *arg)
{
	(void)arg;
	pthread_cleanup_push(cleanup, (void *)1L);
	pthread_cleanup_push(cleanup, (void *)1L);
	pthread_cleanup_push(cleanup, (void *)1L);
	pthread_exit((void *)42L);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}

static int pipefd[2];

static void *reader(void *arg)
{
	char c;
	(void)arg;
	pthread_cleanup_push(cleanup, (void *)10L);
	for (;;)
		if (read(pipefd[0], &c, 1) == 1)
			break;
	pthread_cleanup_pop(0);
	return NULL;
}

static volatile int spinning;

static void *spinner(void *arg)
{
	(void)arg;
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	for (;;)
		spinning = 1;
	return NULL;
}

static int case_exit(void)
{
	pthread_t t;
	void *res;
	/* A thread that only returns unwinds nothing.  */
	CHECK0(pthread_create(&t, NULL, reader, NULL));
	CHECK(write(pipefd[1], "x", 1) == 1);
	CHECK0(pthread_join(t, &res));
	CHECK(!mapped("libgcc_s"));
	CHECK0(pthread_create(&t, NULL, exiter, NULL));
	CHECK0(pthread_join(t, &res));
	CHECK(res == (void *)42L);
	CHECK(cleaned == 3);
	CHECK(mapped("libgcc_s"));
	return t_failures;
}

static int case_cancel(void)
{
	pthread_t t;
	void *res;
	CHECK0(pthread_create(&t, NULL, reader, NULL));
	CHECK(!mapped("libgcc_s"));
	CHECK0(pthread_cancel(t));
	CHECK(mapped("libgcc_s"));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(cleaned == 10);
	return t_failures;
}

static int case_async(void)
{
	pthread_t t;
	void *res;
	CHECK0(pthread_create(&t, NULL, spinner, NULL));
	while (!spinning)
		sched_yield();
	CHECK(!mapped("libgcc_s"));
	CHECK0(pthread_cancel(t));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	return t_failures;
}

static void in_child(const char *name, int (*fn)(void))
{
	pid_t p = fork();
	if (p < 0)
		FATAL("fork");
	if (p == 0)
		_exit(fn() ? 1 : 0);
	int st;
	CHECK(waitpid(p, &st, 0) == p);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "case %s failed (status %#x)\n", name, st);
		t_failures++;
	}
}

int main(void)
{
	if (pipe(pipefd))
		FATAL("pipe");
	CHECK(!mapped("libgcc_s"));
	in_child("exit", case_exit);
	in_child("cancel", case_cancel);
	in_child("async", case_async);
	return t_failures ? 1 : 0;
}
