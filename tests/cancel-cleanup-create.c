// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A thread created by a cancellation cleanup handler can itself be
 * cancelled (glibc's tst-cancel25).  The cleanup handler of a thread
 * cancelled in pause() may run inside the library's cancellation signal
 * handler, where that signal is blocked; the new thread must not inherit
 * the block (glibc takes its reserved signals out of every new thread's
 * mask; libnptl's thread sat in pause() for good).  Also: the new thread
 * starts with the signals of the creator's own mask blocked, as POSIX
 * asks, and a program-blocked signal stays blocked.
 * Passes on glibc, linked and preloaded.
 */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include "t.h"

static pthread_t made;
static volatile pid_t victim_tid;
static int made_err = -1;
static int usr2_blocked = -1;

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "cancel-cleanup-create: the thread made in a "
				  "cleanup handler was never cancelled\n";
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

static void *wait_forever(void *arg)
{
	sigset_t cur;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	usr2_blocked = sigismember(&cur, SIGUSR2);
	for (;;)
		pause();
	return arg;
}

static void make_one(void *arg)
{
	(void)arg;
	made_err = pthread_create(&made, NULL, wait_forever, NULL);
}

static void *victim(void *arg)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	pthread_cleanup_push(make_one, NULL);
	victim_tid = t_tid();
	for (;;)
		pause();
	pthread_cleanup_pop(0);
	return arg;
}

int main(void)
{
	signal(SIGALRM, on_alarm);
	alarm(20);
	pthread_t t;
	void *res;
	CHECK0(pthread_create(&t, NULL, victim, NULL));
	t_wait_asleep(&victim_tid);     /* in pause(): cancelled by the signal */
	CHECK0(pthread_cancel(t));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(made_err == 0);
	if (made_err == 0) {
		for (int i = 0; i < 10000 && usr2_blocked < 0; i++)
			usleep(1000);
		CHECK(usr2_blocked == 1);
		CHECK0(pthread_cancel(made));
		CHECK0(pthread_join(made, &res));
		CHECK(res == PTHREAD_CANCELED);
	}
	return t_done();
}
