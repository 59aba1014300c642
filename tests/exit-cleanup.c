/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pthread_exit and <pthread.h>'s cleanup handlers, compiled as C without
 * -fexceptions (the setjmp-based pthread_cleanup_push of glibc's header),
 * in 8 threads at once:
 *  - pthread_exit runs the handlers still pushed, LIFO, across nested
 *    frames, each with its own argument, and the join result is the
 *    value given to pthread_exit;
 *  - pthread_cleanup_pop(1) runs its handler, pop(0) does not;
 *  - a thread whose start routine returns, after popping everything,
 *    runs no handler;
 * and, in a forked child, pthread_exit from the main thread leaves the
 * process running until its last thread ends, with exit status 0.
 */
#include <pthread.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

#define NT 8

struct log {
	int n;
	int order[32];
	int popped_wrong;
};

struct arg {
	struct log *log;
	int id;
};

static void handler(void *p)
{
	struct arg *a = p;
	if (a->log->n < 32)
		a->log->order[a->log->n++] = a->id;
}

static void must_not_run(void *p)
{
	((struct log *)p)->popped_wrong++;
}

static void level3(struct log *lg, int t)
{
	struct arg a5 = { lg, 5 }, a6 = { lg, 6 };
	pthread_cleanup_push(handler, &a5);
	pthread_cleanup_push(must_not_run, lg);
	pthread_cleanup_pop(0);                      /* not run */
	pthread_cleanup_push(handler, &a6);
	pthread_exit((void *)(intptr_t)(1000 + t));
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
}

static void level2(struct log *lg, int t)
{
	struct arg a3 = { lg, 3 }, a4 = { lg, 4 }, a9 = { lg, 9 };
	pthread_cleanup_push(handler, &a3);
	pthread_cleanup_push(handler, &a9);
	pthread_cleanup_pop(1);                      /* runs now: 9 */
	pthread_cleanup_push(handler, &a4);
	level3(lg, t);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
}

static struct log logs[NT];

static void *exiting(void *p)
{
	int t = (int)(intptr_t)p;
	struct log *lg = &logs[t];
	struct arg a1 = { lg, 1 }, a2 = { lg, 2 };
	pthread_cleanup_push(handler, &a1);
	pthread_cleanup_push(handler, &a2);
	level2(lg, t);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;   /* not reached */
}

static void *returning(void *p)
{
	int t = (int)(intptr_t)p;
	struct log *lg = &logs[t];
	struct arg a1 = { lg, 1 }, a2 = { lg, 2 };
	pthread_cleanup_push(handler, &a1);
	pthread_cleanup_push(must_not_run, lg);
	pthread_cleanup_pop(0);
	pthread_cleanup_push(handler, &a2);
	pthread_cleanup_pop(1);                      /* runs: 2 */
	pthread_cleanup_pop(0);
	return (void *)(intptr_t)(2000 + t);
}

static void test_threads(void)
{
	for (int round = 0; round < 20; round++) {
		pthread_t th[NT];
		memset(logs, 0, sizeof logs);
		for (int t = 0; t < NT; t++)
			CHECK0(pthread_create(&th[t], NULL,
					      t % 4 == 3 ? returning : exiting,
					      (void *)(intptr_t)t));
		for (int t = 0; t < NT; t++) {
			void *r;
			CHECK0(pthread_join(th[t], &r));
			struct log *lg = &logs[t];
			CHECK(lg->popped_wrong == 0);
			if (t % 4 == 3) {
				CHECK(r == (void *)(intptr_t)(2000 + t));
				CHECK(lg->n == 1 && lg->order[0] == 2);
				continue;
			}
			static const int want[] = { 9, 6, 5, 4, 3, 2, 1 };
			CHECK(r == (void *)(intptr_t)(1000 + t));
			CHECK(lg->n == 7);
			if (lg->n == 7 &&
			    memcmp(lg->order, want, sizeof want) != 0) {
				fprintf(stderr, "thread %d ran handlers", t);
				for (int i = 0; i < lg->n; i++)
					fprintf(stderr, " %d", lg->order[i]);
				fprintf(stderr, ", want 9 6 5 4 3 2 1\n");
				t_failures++;
			}
		}
	}
}

/* ---- pthread_exit in the main thread ---------------------------------- */

static int pipe_w;

static void *late_writer(void *p)
{
	(void)p;
	if (!t_wait_main_ended())       /* write only after it ended */
		_exit(7);
	static const char msg[] = "still running";
	if (write(pipe_w, msg, sizeof msg - 1) != sizeof msg - 1)
		_exit(5);
	return NULL;
}

static void test_main_exit(void)
{
	int fd[2];
	if (pipe(fd) != 0)
		FATAL("pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		FATAL("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fd[0]);
		pipe_w = fd[1];
		pthread_t t;
		if (pthread_create(&t, NULL, late_writer, NULL) != 0)
			_exit(6);
		pthread_exit(NULL);
	}
	close(fd[1]);
	char buf[64];
	size_t got = 0;
	ssize_t n;
	while ((n = read(fd[0], buf + got, sizeof buf - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = 0;
	close(fd[0]);
	CHECK(strcmp(buf, "still running") == 0);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fprintf(stderr, "child status %#x\n", st);
}

int main(void)
{
	test_threads();
	test_main_exit();
	return t_done();
}
