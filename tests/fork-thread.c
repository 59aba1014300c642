/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fork() from a thread other than the main one, while other threads run
 * malloc and stdio and another creates and joins threads in a loop, a few
 * dozen times.  In each child: exactly one task, and malloc/free, printf
 * into a pipe, a nested fork, and creating and joining threads all work;
 * the parent reads back exactly what the child (and grandchild) wrote and
 * reaps the child with status 0.  Every eighth child instead ends its only
 * thread (the one that forked) with pthread_exit while a new thread still
 * has to write: the process lives on until that thread ends, status 0.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

#define ROUNDS 40
#define BUSY 2

static volatile int stop;

static int tasks(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	if (d)
		closedir(d);
	return n;
}

static void *ret(void *a)
{
	return a;
}

static void *churn(void *a)
{
	(void)a;
	while (!stop) {
		pthread_t t;
		if (pthread_create(&t, NULL, ret, NULL) == 0)
			pthread_join(t, NULL);
	}
	return NULL;
}

/* Keep malloc's and stdio's locks busy, so that fork often comes while
 * another thread holds one.  */
static void *busy(void *a)
{
	FILE *f = a;
	unsigned n = 0;
	while (!stop) {
		void *p[16];
		for (int i = 0; i < 16; i++)
			p[i] = malloc(16 + (n++ % 64) * 64);
		fprintf(f, "busy %u\n", n);
		for (int i = 0; i < 16; i++)
			free(p[i]);
	}
	return NULL;
}

static void *square(void *a)
{
	intptr_t v = (intptr_t)a;
	char *p = malloc(1000);
	if (!p)
		return (void *)-1;
	memset(p, (int)v, 1000);
	intptr_t r = p[999] == (char)v ? v * v : -1;
	free(p);
	return (void *)r;
}

/* The child: returns its exit status.  */
static int child(int fd, int round)
{
	if (tasks() != 1)
		return 10;
	void *blocks[100];
	for (int i = 0; i < 100; i++) {
		blocks[i] = malloc((size_t)(i + 1) * 100);
		if (!blocks[i])
			return 11;
		memset(blocks[i], i, (size_t)(i + 1) * 100);
	}
	for (int i = 0; i < 100; i++)
		free(blocks[i]);
	FILE *f = fdopen(fd, "w");
	if (!f)
		return 12;
	fprintf(f, "child %d\n", round);
	fflush(f);

	pid_t g = fork();
	if (g < 0)
		return 13;
	if (g == 0) {
		char *p = malloc(12345);
		int ok = p && tasks() == 1;
		free(p);
		fprintf(f, "grandchild %d %s\n", round, ok ? "ok" : "bad");
		fclose(f);
		_exit(ok ? 0 : 1);
	}
	int st;
	if (waitpid(g, &st, 0) != g || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 14;

	/* New threads, twice over (the second round reuses their
	 * resources).  */
	long sum = 0;
	for (int rep = 0; rep < 2; rep++) {
		pthread_t t[4];
		for (int i = 0; i < 4; i++)
			if (pthread_create(&t[i], NULL, square, (void *)(intptr_t)(i + 1)))
				return 15;
		for (int i = 0; i < 4; i++) {
			void *r;
			if (pthread_join(t[i], &r))
				return 16;
			sum += (intptr_t)r;
		}
	}
	/* A joined thread's task may linger in /proc a moment after the
	 * kernel cleared its tid (which is what join waits for).  */
	for (int i = 0; i < 2000 && tasks() != 1; i++)
		usleep(1000);
	if (tasks() != 1)
		return 17;
	printf("%s", "");   /* stdout's lock works too */
	fprintf(f, "threads %ld\ndone %d\n", sum, round);
	return 0;   /* exit() flushes f */
}

static int late_fd;

static void *late_writer(void *a)
{
	(void)a;
	/* Write only once the thread that forked, the child's first and
	 * main thread, has ended.  */
	if (!t_wait_main_ended())
		_exit(32);
	if (write(late_fd, "late\n", 5) != 5)
		_exit(31);
	return NULL;
}

static _Noreturn void child_pthread_exit(int fd)
{
	late_fd = fd;
	pthread_t t;
	if (pthread_create(&t, NULL, late_writer, NULL))
		_exit(30);
	pthread_exit(NULL);
}

static void *forker(void *a)
{
	(void)a;
	long bad = 0;
	for (int round = 0; round < ROUNDS; round++) {
		int fd[2];
		if (pipe(fd) != 0) {
			bad++;
			break;
		}
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0) {
			bad++;
			close(fd[0]);
			close(fd[1]);
			break;
		}
		if (pid == 0) {
			close(fd[0]);
			if (round % 8 == 7)
				child_pthread_exit(fd[1]);
			exit(child(fd[1], round));
		}
		close(fd[1]);
		char buf[256];
		size_t got = 0;
		ssize_t n;
		while (got < sizeof buf - 1 &&
		       (n = read(fd[0], buf + got, sizeof buf - 1 - got)) > 0)
			got += (size_t)n;
		buf[got] = 0;
		close(fd[0]);
		char want[256];
		snprintf(want, sizeof want,
			 "child %d\ngrandchild %d ok\nthreads %d\ndone %d\n", round,
			 round, 2 * (1 + 4 + 9 + 16), round);
		if (round % 8 == 7)
			strcpy(want, "late\n");
		if (strcmp(buf, want) != 0) {
			fprintf(stderr, "round %d: child wrote \"%s\"\n", round, buf);
			bad++;
		}
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0) {
			fprintf(stderr, "round %d: child status %#x\n", round, st);
			bad++;
		}
	}
	return (void *)bad;
}

int main(void)
{
	FILE *sink = fopen("/dev/null", "w");
	if (!sink)
		FATAL("/dev/null: %s", strerror(errno));
	pthread_t c, b[BUSY], f;
	CHECK0(pthread_create(&c, NULL, churn, NULL));
	for (int i = 0; i < BUSY; i++)
		CHECK0(pthread_create(&b[i], NULL, busy, sink));
	CHECK0(pthread_create(&f, NULL, forker, NULL));
	void *r;
	CHECK0(pthread_join(f, &r));
	CHECK(r == NULL);
	stop = 1;
	CHECK0(pthread_join(c, NULL));
	for (int i = 0; i < BUSY; i++)
		CHECK0(pthread_join(b[i], NULL));
	fclose(sink);
	return t_done();
}
