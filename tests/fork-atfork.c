// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork and threads: pthread_atfork handlers run in POSIX order (prepare in
 * reverse order of registration, parent and child in order) and not for
 * vfork; a fork taken while other threads are creating and joining threads
 * gives a child with exactly one thread that can create, join, detach and
 * cancel threads again.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

static char order[64];
static int pos;
static void note(char c)
{
	if (pos < (int)sizeof(order) - 1)
		order[pos++] = c;
}
static void p1(void) { note('A'); }
static void p2(void) { note('B'); }
static void pa1(void) { note('c'); }
static void pa2(void) { note('d'); }
static void c1(void) { note('e'); }
static void c2(void) { note('f'); }

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

static volatile int stop;

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

static void *sleepy(void *a)
{
	(void)a;
	for (;;)
		pause();
	return NULL;
}

static int child_work(void)
{
	t_failures = 0;
	CHECK(tasks() == 1);
	for (intptr_t i = 0; i < 50; i++) {
		pthread_t t;
		void *r;
		CHECK0(pthread_create(&t, NULL, ret, (void *)i));
		CHECK0(pthread_join(t, &r));
		CHECK(r == (void *)i);
	}
	pthread_t d;
	CHECK0(pthread_create(&d, NULL, ret, NULL));
	CHECK0(pthread_detach(d));
	pthread_t s;
	void *r;
	CHECK0(pthread_create(&s, NULL, sleepy, NULL));
	CHECK0(pthread_cancel(s));
	CHECK0(pthread_join(s, &r));
	CHECK(r == PTHREAD_CANCELED);
	return t_done();
}

int main(void)
{
	CHECK0(pthread_atfork(p1, pa1, c1));
	CHECK0(pthread_atfork(p2, pa2, c2));
	pid_t pid = fork();
	if (pid == 0) {
		order[pos] = 0;
		_exit(strcmp(order, "BAef") == 0 ? 0 : 1);
	}
	order[pos] = 0;
	CHECK(strcmp(order, "BAcd") == 0);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);

	/* vfork runs no handler.  */
	pos = 0;
	pid = vfork();
	if (pid == 0)
		_exit(pos == 0 ? 0 : 1);
	CHECK(pos == 0);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);

	/* Forks in the middle of thread creation elsewhere.  */
	pthread_t ch[2], sl;
	for (int i = 0; i < 2; i++)
		CHECK0(pthread_create(&ch[i], NULL, churn, NULL));
	CHECK0(pthread_create(&sl, NULL, sleepy, NULL));
	for (int k = 0; k < 40; k++) {
		pid = fork();
		if (pid == 0)
			_exit(child_work());
		CHECK(pid > 0);
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			break;
	}
	stop = 1;
	for (int i = 0; i < 2; i++)
		CHECK0(pthread_join(ch[i], NULL));
	CHECK0(pthread_cancel(sl));
	CHECK0(pthread_join(sl, NULL));
	return t_done();
}
