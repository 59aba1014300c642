/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A pthread_once initializer cancelled in code without unwind tables (this
 * file is compiled with -fno-asynchronous-unwind-tables -fno-exceptions):
 * the unwinder cannot step through the initializer's frame, so the once
 * control must be reset from the thread's cleanup chain, which needs no
 * unwind information.  The next pthread_once then runs its initializer
 * instead of waiting forever for the cancelled one.
 */
// test-cflags: -fno-asynchronous-unwind-tables -fno-exceptions
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <unistd.h>
#include "t.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static sem_t entered;
static int second_ran;

static void init_blocks(void)
{
	sem_post(&entered);
	for (;;)
		pause();   /* a cancellation point */
}

static void init_returns(void)
{
	second_ran++;
}

static void *runner(void *arg)
{
	(void)arg;
	pthread_once(&once, init_blocks);
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "pthread_once still waits for the cancelled "
				  "initializer\n";
	ssize_t r = write(2, msg, sizeof(msg) - 1);
	(void)r;
	_exit(1);
}

int main(void)
{
	signal(SIGALRM, on_alarm);
	alarm(20);
	CHECK0(sem_init(&entered, 0, 0));
	pthread_t t;
	CHECK0(pthread_create(&t, NULL, runner, NULL));
	while (sem_wait(&entered) != 0)
		;
	CHECK0(pthread_cancel(t));
	void *res = NULL;
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);

	/* From another thread as well as from this one.  */
	CHECK0(pthread_once(&once, init_returns));
	CHECK(second_ran == 1);
	CHECK0(pthread_once(&once, init_returns));
	CHECK(second_ran == 1);
	return t_done();
}
