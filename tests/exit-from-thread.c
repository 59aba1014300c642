/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * exit(3) called from a thread other than the main one while other
 * threads run malloc, sleep, or create and join threads in a loop (and
 * the main thread waits in pthread_join), in a forked
 * child, several times: the parent sees exit status 3, and the child's
 * atexit handler ran (it writes to a pipe), as did stdio's flush.
 */
#include <pthread.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

#define ROUNDS 20
#define NT 6

static int pipe_w;
static pthread_t main_thread;

static void at_exit_handler(void)
{
	char msg[64];
	int n = snprintf(msg, sizeof msg, "atexit %s",
			 pthread_equal(pthread_self(), main_thread) ? "main" : "other");
	if (write(pipe_w, msg, (size_t)n) != n)
		_exit(20);
}

static void *spinner(void *a)
{
	(void)a;
	for (;;) {
		void *p = malloc(100);
		free(p);
		sched_yield();
	}
	return NULL;
}

static void *sleeper(void *a)
{
	(void)a;
	for (;;)
		pause();
	return NULL;
}

static void *ret(void *a)
{
	return a;
}

static void *churn(void *a)
{
	(void)a;
	for (;;) {
		pthread_t t;
		if (pthread_create(&t, NULL, ret, NULL) == 0)
			pthread_join(t, NULL);
	}
	return NULL;
}

static void *exiter(void *a)
{
	(void)a;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	exit(3);
}

static void child(void)
{
	main_thread = pthread_self();
	if (atexit(at_exit_handler) != 0)
		_exit(21);
	/* Buffered: written out only by exit's flush.  */
	FILE *f = fdopen(dup(pipe_w), "w");
	if (!f)
		_exit(22);
	fputs("buffered|", f);
	pthread_t t[NT];
	for (int i = 0; i < NT; i++)
		if (pthread_create(&t[i], NULL,
				   i % 3 == 0 ? sleeper : i % 3 == 1 ? spinner : churn,
				   NULL))
			_exit(23);
	pthread_t e;
	if (pthread_create(&e, NULL, exiter, NULL))
		_exit(24);
	pthread_join(t[0], NULL);   /* never returns */
	_exit(25);
}

int main(void)
{
	for (int round = 0; round < ROUNDS; round++) {
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
			child();
		}
		close(fd[1]);
		char buf[128];
		size_t got = 0;
		ssize_t n;
		while (got < sizeof buf - 1 &&
		       (n = read(fd[0], buf + got, sizeof buf - 1 - got)) > 0)
			got += (size_t)n;
		buf[got] = 0;
		close(fd[0]);
		/* Handlers run before stdio is flushed.  */
		if (strcmp(buf, "atexit otherbuffered|") != 0) {
			fprintf(stderr, "round %d: child wrote \"%s\"\n", round, buf);
			t_failures++;
		}
		int st;
		CHECK(waitpid(pid, &st, 0) == pid);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 3) {
			fprintf(stderr, "round %d: child status %#x\n", round, st);
			t_failures++;
		}
	}
	return t_done();
}
