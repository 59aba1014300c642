// SPDX-License-Identifier: LGPL-2.1-or-later
/* pthread_create/join/exit/detach/self/equal and their error codes.  */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "t.h"

static pthread_t creator_saw;
static pthread_t *published;

static void *ret_arg(void *arg)
{
	return arg;
}

static void *check_self(void *arg)
{
	(void)arg;
	creator_saw = *published;   /* stored before the thread ran */
	return (void *)pthread_self();
}

static int deeper(int n)
{
	if (n == 0)
		pthread_exit((void *)42);
	if (n > 1000)
		return n;
	return deeper(n - 1) + 1;
}

static void *exit_deep(void *arg)
{
	(void)arg;
	deeper(10);
	return NULL;
}

static void *self_join(void *arg)
{
	(void)arg;
	return (void *)(intptr_t)pthread_join(pthread_self(), NULL);
}

static void *pid_tid(void *arg)
{
	pid_t *out = arg;
	out[0] = getpid();
	out[1] = (pid_t)syscall(SYS_gettid);
	return NULL;
}

static volatile int detached_ran;
static void *detached(void *arg)
{
	(void)arg;
	__atomic_store_n(&detached_ran, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A sleeper runs until main writes a byte to its gate: running for sure
 * while main checks what a running thread gives, however slow the
 * machine.  */
struct gate {
	int fd[2];
	void *ret;
};

static void *sleeper(void *arg)
{
	struct gate *g = arg;
	char c;
	(void)!read(g->fd[0], &c, 1);
	return g->ret;
}

static void open_gate(struct gate *g)
{
	CHECK(write(g->fd[1], "x", 1) == 1);
}

int main(void)
{
	pthread_t t;
	void *r;

	CHECK0(pthread_create(&t, NULL, ret_arg, (void *)0x1234));
	CHECK0(pthread_join(t, &r));
	CHECK(r == (void *)0x1234);

	published = &t;
	CHECK0(pthread_create(&t, NULL, check_self, NULL));
	CHECK0(pthread_join(t, &r));
	CHECK(pthread_equal((pthread_t)r, t));
	CHECK(pthread_equal(creator_saw, t));
	CHECK(!pthread_equal(t, pthread_self()));
	CHECK(pthread_equal(pthread_self(), pthread_self()));

	CHECK0(pthread_create(&t, NULL, exit_deep, NULL));
	CHECK0(pthread_join(t, &r));
	CHECK(r == (void *)42);

	/* Joining yourself is EDEADLK.  */
	CHECK_ERR(pthread_join(pthread_self(), NULL), EDEADLK);
	CHECK0(pthread_create(&t, NULL, self_join, NULL));
	CHECK0(pthread_join(t, &r));
	CHECK((intptr_t)r == EDEADLK);

	/* getpid() is the process's in every thread; each has its own tid.  */
	pid_t ids[2];
	CHECK0(pthread_create(&t, NULL, pid_tid, ids));
	CHECK0(pthread_join(t, NULL));
	CHECK(ids[0] == getpid());
	CHECK(ids[1] != getpid() && ids[1] > 0);

	/* A detached thread cannot be joined or detached again.  */
	pthread_attr_t a;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED));
	CHECK0(pthread_create(&t, &a, detached, NULL));
	CHECK0(pthread_attr_destroy(&a));
	while (!__atomic_load_n(&detached_ran, __ATOMIC_ACQUIRE))
		sched_yield();

	static struct gate g7 = { .ret = (void *)7 }, g8 = { .ret = (void *)8 };
	CHECK0(pipe(g7.fd));
	CHECK0(pipe(g8.fd));
	CHECK0(pthread_create(&t, NULL, sleeper, &g7));
	CHECK0(pthread_detach(t));
	CHECK_ERR(pthread_detach(t), EINVAL);
	CHECK_ERR(pthread_join(t, NULL), EINVAL);
	open_gate(&g7);

	/* tryjoin on a running thread is EBUSY; timedjoin times out.  */
	CHECK0(pthread_create(&t, NULL, sleeper, &g8));
	CHECK_ERR(pthread_tryjoin_np(t, &r), EBUSY);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 10000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	CHECK_ERR(pthread_timedjoin_np(t, &r, &ts), ETIMEDOUT);
	/* glibc 2.36 spins until the thread ends on an invalid timespec (its
	 * futex wait's EINVAL is ignored); libnptl reports EINVAL, and so
	 * does glibc from 2.41, which checks the timespec first.  */
	struct timespec bad = { 0, 1000000000 };
	if (t_on_libnptl() || __GLIBC_MINOR__ >= 41)
		CHECK_ERR(pthread_timedjoin_np(t, &r, &bad), EINVAL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += 10;
	CHECK_ERR(pthread_clockjoin_np(t, &r, CLOCK_PROCESS_CPUTIME_ID, &ts), EINVAL);
	open_gate(&g8);
	CHECK0(pthread_clockjoin_np(t, &r, CLOCK_MONOTONIC, &ts));
	CHECK(r == (void *)8);
#if __GLIBC_MINOR__ >= 41
	/* From 2.41 a bad timespec is EINVAL whether or not the thread has
	 * ended already (2.36 joins an ended thread), and the thread stays
	 * joinable.  */
	CHECK0(pthread_create(&t, NULL, ret_arg, (void *)9));
	CHECK_ERR(pthread_timedjoin_np(t, &r, &bad), EINVAL);
	CHECK0(pthread_join(t, &r));
	CHECK(r == (void *)9);
#endif

	/* Many threads at once, then many in sequence (descriptor reuse).  */
	enum { N = 200 };
	pthread_t ts_[N];
	for (intptr_t i = 0; i < N; i++)
		CHECK0(pthread_create(&ts_[i], NULL, ret_arg, (void *)i));
	for (intptr_t i = 0; i < N; i++) {
		CHECK0(pthread_join(ts_[i], &r));
		CHECK(r == (void *)i);
	}
	for (intptr_t i = 0; i < 5000; i++) {
		CHECK0(pthread_create(&t, NULL, ret_arg, (void *)i));
		CHECK0(pthread_join(t, &r));
		if (r != (void *)i) {
			CHECK(r == (void *)i);
			break;
		}
	}
	return t_done();
}
