// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_cancel and its state: deferred and asynchronous cancellation,
 * setcancelstate/setcanceltype (values, EINVAL, DISABLE holding a
 * cancellation until re-enabled), pthread_testcancel, self-cancel,
 * cancelling an exited unjoined thread, cleanup handlers in LIFO order with
 * PTHREAD_CANCELED as the join result, the LinuxThreads-era
 * _pthread_cleanup_push_defer/_pop_restore, cancellation inside glibc's own
 * cancellation points (fgets), a thread that blocked every signal it could,
 * and SIGEV_THREAD timers still working after a cancellation (glibc's
 * SIGTIMER is the cancellation signal's number).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

static int order[8];
static int norder;

static void push_order(void *arg)
{
	order[norder++] = (int)(intptr_t)arg;
}

static int pipefd[2];
static volatile pid_t blocker;   /* the thread about to block (t_wait_asleep) */

static void *lifo_thread(void *arg)
{
	(void)arg;
	pthread_cleanup_push(push_order, (void *)1);
	pthread_cleanup_push(push_order, (void *)2);
	pthread_cleanup_push(push_order, (void *)3);
	char c;
	blocker = t_tid();
	(void)!read(pipefd[0], &c, 1);   /* blocks: nothing is ever written */
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}

static void test_lifo(void)
{
	pthread_t t;
	void *res;
	norder = 0;
	CHECK0(pipe(pipefd));
	blocker = 0;
	CHECK0(pthread_create(&t, NULL, lifo_thread, NULL));
	t_wait_asleep(&blocker);
	CHECK0(pthread_cancel(t));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(norder == 3);
	CHECK(order[0] == 3 && order[1] == 2 && order[2] == 1);
	close(pipefd[0]);
	close(pipefd[1]);
}

static volatile int stage;

static void *disabled_thread(void *arg)
{
	(void)arg;
	int old;
	CHECK0(pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old));
	CHECK(old == PTHREAD_CANCEL_ENABLE);
	stage = 1;
	while (stage != 2)
		usleep(1000);   /* a cancellation point: must not act */
	pthread_testcancel();   /* nor this */
	struct timespec ts = { 0, 1000000 };
	nanosleep(&ts, NULL);
	stage = 3;
	CHECK0(pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old));
	CHECK(old == PTHREAD_CANCEL_DISABLE);
	stage = 4;   /* deferred: enabling alone does not act */
	pthread_testcancel();
	stage = 5;
	return NULL;
}

static void test_disable(void)
{
	pthread_t t;
	void *res;
	stage = 0;
	CHECK0(pthread_create(&t, NULL, disabled_thread, NULL));
	while (stage != 1)
		usleep(1000);
	CHECK0(pthread_cancel(t));
	usleep(20000);
	stage = 2;
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(stage == 4);
}

static void *async_thread(void *arg)
{
	(void)arg;
	int old;
	CHECK0(pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old));
	CHECK(old == PTHREAD_CANCEL_DEFERRED);
	stage = 1;
	for (volatile unsigned long i = 0;; i++)
		;
	return NULL;
}

static void test_async(void)
{
	pthread_t t;
	void *res;
	stage = 0;
	CHECK0(pthread_create(&t, NULL, async_thread, NULL));
	while (stage != 1)
		usleep(1000);
	CHECK0(pthread_cancel(t));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
}

/* Turning asynchronous on with a cancellation pending acts at once.  */
static void *async_late_thread(void *arg)
{
	(void)arg;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	stage = 1;
	while (stage != 2)
		usleep(1000);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	stage = 3;
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	stage = 4;
	return NULL;
}

static void test_async_late(void)
{
	pthread_t t;
	void *res;
	stage = 0;
	CHECK0(pthread_create(&t, NULL, async_late_thread, NULL));
	while (stage != 1)
		usleep(1000);
	CHECK0(pthread_cancel(t));
	stage = 2;
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(stage == 3);
}

static void *self_thread(void *arg)
{
	(void)arg;
	CHECK0(pthread_cancel(pthread_self()));
	stage = 1;   /* deferred: nothing yet */
	pthread_testcancel();
	stage = 2;
	return NULL;
}

static void test_self(void)
{
	pthread_t t;
	void *res;
	stage = 0;
	CHECK0(pthread_create(&t, NULL, self_thread, NULL));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(stage == 1);
}

static void *quick_thread(void *arg)
{
	return arg;
}

static void test_exited(void)
{
	pthread_t t;
	void *res;
	CHECK0(pthread_create(&t, NULL, quick_thread, (void *)42));
	for (int i = 0; i < 20000 && t_tasks() != 1; i++)   /* until it ended */
		usleep(1000);
	CHECK(t_tasks() == 1);
	CHECK0(pthread_cancel(t));   /* exited, not joined: 0 since 2.34 */
	CHECK0(pthread_join(t, &res));
	CHECK(res == (void *)42);
}

static void test_invalid(void)
{
	int old = -1;
	CHECK_ERR(pthread_setcancelstate(2, &old), EINVAL);
	CHECK_ERR(pthread_setcancelstate(-1, NULL), EINVAL);
	CHECK_ERR(pthread_setcanceltype(2, &old), EINVAL);
	CHECK0(pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL));
	CHECK0(pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &old));
	CHECK(old == PTHREAD_CANCEL_DEFERRED);
	pthread_testcancel();   /* nothing pending */
}

/* glibc's own cancellation point (fgets's read) acting on this thread.  */
static FILE *fp;
static int fgets_cleanup;

static void note_fgets(void *arg)
{
	(void)arg;
	fgets_cleanup = 1;
}

static void *fgets_thread(void *arg)
{
	(void)arg;
	char buf[16];
	pthread_cleanup_push(note_fgets, NULL);
	blocker = t_tid();
	(void)!fgets(buf, sizeof(buf), fp);
	pthread_cleanup_pop(0);
	return NULL;
}

static void test_glibc_point(void)
{
	pthread_t t;
	void *res;
	int p[2];
	CHECK0(pipe(p));
	fp = fdopen(p[0], "r");
	fgets_cleanup = 0;
	blocker = 0;
	CHECK0(pthread_create(&t, NULL, fgets_thread, NULL));
	t_wait_asleep(&blocker);
	CHECK0(pthread_cancel(t));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(fgets_cleanup == 1);
	/* fgets was left holding nothing: the stream is usable.  */
	CHECK(write(p[1], "ok\n", 3) == 3);
	char buf[8];
	CHECK(fgets(buf, sizeof(buf), fp) != NULL && strcmp(buf, "ok\n") == 0);
	fclose(fp);
	close(p[1]);
}

/* A thread that blocked everything it could is still cancellable.  */
static void *blocked_thread(void *arg)
{
	(void)arg;
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	char c;
	blocker = t_tid();
	(void)!read(pipefd[0], &c, 1);
	return NULL;
}

static void test_sigmask(void)
{
	pthread_t t;
	void *res;
	CHECK0(pipe(pipefd));
	blocker = 0;
	CHECK0(pthread_create(&t, NULL, blocked_thread, NULL));
	t_wait_asleep(&blocker);
	CHECK0(pthread_cancel(t));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	close(pipefd[0]);
	close(pipefd[1]);
}

/* The cancellation arrives while a handler of the thread's own runs on
 * top of its read(): when that handler returns into the read, the
 * cancellation still acts.  */
static volatile int in_handler, handler_go;

static void slow_handler(int sig)
{
	(void)sig;
	in_handler = 1;
	while (!handler_go)
		;
}

/* Wait until the cancellation signal that pthread_cancel may have sent
 * thread tid (32, the first real-time signal: glibc's SIGCANCEL and
 * libnptl's) is no longer pending unblocked: the kernel delivered it, or
 * the thread holds it blocked.  Whatever its handler does has begun.  */
static void wait_cancel_signal_taken(pid_t tid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/status", (int)tid);
	for (int i = 0; i < 20000; i++) {       /* 20 s */
		unsigned long long pnd = 0, blk = 0;
		char line[256];
		FILE *f = fopen(path, "r");
		if (!f)
			return;         /* the thread is gone */
		while (fgets(line, sizeof line, f)) {
			sscanf(line, "SigPnd: %llx", &pnd);
			sscanf(line, "SigBlk: %llx", &blk);
		}
		fclose(f);
		if (!(pnd & ~blk & 1ULL << (32 - 1)))
			return;
		usleep(1000);
	}
	FATAL("thread %d never took the cancellation signal", (int)tid);
}

static void *nested_thread(void *arg)
{
	(void)arg;
	char c;
	stage = 1;
	blocker = t_tid();
	(void)!read(pipefd[0], &c, 1);
	stage = 2;
	return NULL;
}

static void test_nested_handler(void)
{
	/* glibc 2.41's handler looks only at the innermost interrupted
	 * context: it finds the handler, not its read stub, does nothing,
	 * and the read restarts and blocks for good.  libnptl keeps the
	 * signal pending until the stub is back (src/cancel/cancellation.c).  */
	if (!t_on_libnptl() && __GLIBC_MINOR__ >= 41) {
		printf("nested handler: not checked on plain glibc 2.41 (the "
		       "cancellation is lost there)\n");
		return;
	}
	struct sigaction sa = { .sa_handler = slow_handler, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	CHECK0(sigaction(SIGUSR2, &sa, NULL));
	pthread_t t;
	void *res;
	stage = in_handler = handler_go = 0;
	blocker = 0;
	CHECK0(pipe(pipefd));
	CHECK0(pthread_create(&t, NULL, nested_thread, NULL));
	t_wait_asleep(&blocker);        /* the handler interrupts the read */
	CHECK0(pthread_kill(t, SIGUSR2));
	while (!in_handler)
		usleep(1000);
	CHECK0(pthread_cancel(t));
	wait_cancel_signal_taken(blocker);      /* it came during the handler */
	handler_go = 1;
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(stage == 1);
	close(pipefd[0]);
	close(pipefd[1]);
}

/* _pthread_cleanup_push_defer / _pthread_cleanup_pop_restore: the
 * compatibility interface of pthread_cleanup_push_defer_np.  */
struct old_buf {
	void (*routine)(void *);
	void *arg;
	int canceltype;
	struct old_buf *prev;
};

static void (*push_defer)(struct old_buf *, void (*)(void *), void *);
static void (*pop_restore)(struct old_buf *, int);

static void *defer_thread(void *arg)
{
	(void)arg;
	struct old_buf b;
	int type;
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	push_defer(&b, push_order, (void *)7);
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &type);
	CHECK(type == PTHREAD_CANCEL_DEFERRED);   /* push_defer deferred us */
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, NULL);
	blocker = t_tid();
	stage = 1;
	while (stage != 2)
		;   /* not a cancellation point: deferred, nothing acts */
	stage = 3;
	/* Back to asynchronous: acts at once, and (glibc's order) before the
	 * handler, which is already unlinked, could run.  */
	pop_restore(&b, 1);
	stage = 4;
	return NULL;
}

static void test_compat_defer(void)
{
	push_defer = (void (*)(struct old_buf *, void (*)(void *), void *))
		dlvsym(RTLD_DEFAULT, "_pthread_cleanup_push_defer", "GLIBC_2.2.5");
	pop_restore = (void (*)(struct old_buf *, int))
		dlvsym(RTLD_DEFAULT, "_pthread_cleanup_pop_restore", "GLIBC_2.2.5");
	CHECK(push_defer && pop_restore);
	if (!push_defer || !pop_restore)
		return;
	pthread_t t;
	void *res;
	stage = 0;
	norder = 0;
	CHECK0(pthread_create(&t, NULL, defer_thread, NULL));
	while (stage != 1)
		usleep(1000);
	CHECK0(pthread_cancel(t));
	/* A signal it sent has been taken: had it acted, stage stays 1.  */
	wait_cancel_signal_taken(blocker);
	stage = 2;
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(stage == 3);
	CHECK(norder == 0);
}

static volatile int timer_hits;

static void timer_fn(union sigval v)
{
	(void)v;
	__atomic_fetch_add(&timer_hits, 1, __ATOMIC_RELAXED);
}

static void test_timer(void)
{
	struct sigevent ev = { 0 };
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = timer_fn;
	timer_t tm;
	CHECK0(timer_create(CLOCK_MONOTONIC, &ev, &tm));
	struct itimerspec its = { { 0, 5000000 }, { 0, 5000000 } };
	CHECK0(timer_settime(tm, 0, &its, NULL));
	for (int i = 0; i < 200 && timer_hits < 5; i++)
		usleep(5000);
	CHECK(timer_hits >= 5);
	timer_delete(tm);
}

int main(void)
{
	test_invalid();
	test_lifo();
	test_disable();
	test_async();
	test_async_late();
	test_self();
	test_exited();
	test_glibc_point();
	test_sigmask();
	test_nested_handler();
	test_compat_defer();
	test_timer();   /* after cancellations: SIGTIMER must still work */
	return t_done();
}
