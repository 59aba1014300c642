/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A process that never created a thread cancels its main thread (deferred
 * mode) and then calls stdio: the cancellation must act at the cancellation
 * points inside glibc's own code -- the write(2) under fflush, the read(2)
 * under fgets -- as it does under glibc, whose cancellable system calls
 * skip the check in a process they believe single-threaded.  Each case runs
 * in a child process: the main thread's cleanup handler reports over a pipe,
 * and the child must never get past the stdio call.
 */
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

static int report;   /* write end of the parent's pipe */

/* Not write(): that is a cancellation point of its own.  */
static void said(void *arg)
{
	const char *what = arg;
	long r = syscall(SYS_write, report, what, strlen(what));
	(void)r;
}

static void child(int how)
{
	int data[2];
	if (pipe(data) != 0)
		_exit(3);
	if (write(data[1], "line\n", 5) != 5)
		_exit(3);
	FILE *out = fdopen(data[1], "w");
	FILE *in = fdopen(data[0], "r");
	if (!out || !in)
		_exit(3);
	pthread_cleanup_push(said, "cancelled");
	if (pthread_cancel(pthread_self()) != 0)
		_exit(4);
	char buf[16];
	if (how == 0) {
		fputs("more\n", out);
		fflush(out);              /* glibc's write */
	} else {
		if (!fgets(buf, sizeof(buf), in))   /* glibc's read */
			_exit(5);
	}
	said("not cancelled");
	syscall(SYS_exit_group, 2);
	pthread_cleanup_pop(0);
}

int main(void)
{
	static const char *name[] = { "fflush", "fgets" };
	for (int how = 0; how < 2; how++) {
		int p[2];
		CHECK0(pipe(p));
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0) {
			close(p[0]);
			report = p[1];
			child(how);
		}
		close(p[1]);
		char buf[64] = "";
		ssize_t n, len = 0;
		while ((n = read(p[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
			len += n;
		close(p[0]);
		int st;
		CHECK(waitpid(pid, &st, 0) == pid);
		if (strcmp(buf, "cancelled") != 0)
			fprintf(stderr, "%s: the child said \"%s\"\n", name[how], buf);
		CHECK(strcmp(buf, "cancelled") == 0);
		/* The last thread left through pthread_exit: status 0.  */
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	return t_done();
}
