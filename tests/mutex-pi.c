/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * PRIO_INHERIT mutexes: the lock word is the owner's tid (the kernel's
 * PI-futex protocol); contention works for every type; and, when we may
 * use SCHED_FIFO, a low-priority owner is boosted to the priority of a
 * high-priority waiter (observed in the owner's effective priority).
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <time.h>
#include <sys/syscall.h>
#include "t.h"

static pthread_mutex_t m;
static volatile int owner_tid, stop;
static volatile long counter;

static void init_pi(int type)
{
	pthread_mutexattr_t a;
	CHECK0(pthread_mutexattr_init(&a));
	CHECK0(pthread_mutexattr_settype(&a, type));
	CHECK0(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT));
	CHECK0(pthread_mutex_init(&m, &a));
}

static void *contend(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++) {
		if (pthread_mutex_lock(&m))
			exit(3);
		long c = counter;
		counter = c + 1;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

static void *low_owner(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	owner_tid = (int)syscall(SYS_gettid);
	while (!stop)
		usleep(1000);
	pthread_mutex_unlock(&m);
	return NULL;
}

static volatile pid_t waiter_tid;       /* for t_wait_asleep */

static void *high_waiter(void *arg)
{
	(void)arg;
	waiter_tid = t_tid();
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
	return NULL;
}

/* The kernel's effective priority (field 18 of /proc/.../stat: -1 - the
 * RT priority for a real-time task), which shows inheritance; the
 * scheduling parameters themselves keep the base priority.  */
static int effective_prio(int tid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	if (!p)
		return 0;
	/* after ") " come fields 3.. ; priority is field 18 */
	int field = 2, prio = 0;
	for (char *tok = strtok(p + 1, " "); tok; tok = strtok(NULL, " "))
		if (++field == 18) {
			prio = atoi(tok);
			break;
		}
	return prio;
}

static int start_fifo(pthread_t *t, void *(*fn)(void *), int prio)
{
	pthread_attr_t a;
	struct sched_param sp = { .sched_priority = prio };
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_setschedparam(&a, &sp);
	int r = pthread_create(t, &a, fn, NULL);
	pthread_attr_destroy(&a);
	return r;
}

int main(void)
{
	int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
			PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_ADAPTIVE_NP };
	for (int i = 0; i < 4; i++) {
		init_pi(types[i]);
		CHECK0(pthread_mutex_lock(&m));
		CHECK(m.__data.__lock == (int)syscall(SYS_gettid));
		CHECK(m.__data.__owner == (int)syscall(SYS_gettid));
		struct timespec past = { 1, 0 };
		if (types[i] == PTHREAD_MUTEX_ERRORCHECK)
			CHECK_ERR(pthread_mutex_lock(&m), EDEADLK);
		else if (types[i] == PTHREAD_MUTEX_NORMAL)
			CHECK_ERR(pthread_mutex_timedlock(&m, &past), ETIMEDOUT);
		CHECK0(pthread_mutex_unlock(&m));
		CHECK(m.__data.__lock == 0);
		pthread_t t[3];
		counter = 0;
		for (int k = 0; k < 3; k++)
			pthread_create(&t[k], NULL, contend, NULL);
		for (int k = 0; k < 3; k++)
			pthread_join(t[k], NULL);
		CHECK(counter == 60000);
		/* A waiter asleep on the held mutex gets it at the unlock.  */
		CHECK0(pthread_mutex_lock(&m));
		pthread_t w;
		waiter_tid = 0;
		pthread_create(&w, NULL, high_waiter, NULL);
		t_wait_asleep(&waiter_tid);     /* unlock hands it over */
		CHECK0(pthread_mutex_unlock(&m));
		pthread_join(w, NULL);
		CHECK0(pthread_mutex_destroy(&m));
	}

	/* A held PI mutex times out on both clocks, checked by another
	 * thread.  */
	init_pi(PTHREAD_MUTEX_NORMAL);
	stop = 0;
	owner_tid = 0;
	pthread_t lo;
	pthread_create(&lo, NULL, low_owner, NULL);
	while (!owner_tid)
		usleep(1000);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 20000000;
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_sec++, ts.tv_nsec -= 1000000000L;
	CHECK_ERR(pthread_mutex_clocklock(&m, CLOCK_MONOTONIC, &ts), ETIMEDOUT);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 20000000;
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_sec++, ts.tv_nsec -= 1000000000L;
	CHECK_ERR(pthread_mutex_timedlock(&m, &ts), ETIMEDOUT);
	struct timespec bad = { 0, -1 };
	CHECK_ERR(pthread_mutex_timedlock(&m, &bad), EINVAL);
	CHECK_ERR(pthread_mutex_trylock(&m), EBUSY);
	stop = 1;
	pthread_join(lo, NULL);

	/* Priority inheritance, if SCHED_FIFO is allowed.  */
	struct sched_param sp = { .sched_priority = 10 };
	if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
		fprintf(stderr, "no SCHED_FIFO: functional checks only\n");
		return t_done();
	}
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	stop = 0;
	owner_tid = 0;
	if (start_fifo(&lo, low_owner, 10))
		FATAL("start low");
	while (!owner_tid)
		usleep(1000);
	pthread_t hi;
	if (start_fifo(&hi, high_waiter, 30))
		FATAL("start high");
	int boosted = 0;
	for (int i = 0; i < 20000 && !boosted; i++) {   /* 20 s */
		if (effective_prio(owner_tid) == -1 - 30)
			boosted = 1;
		else
			usleep(1000);
	}
	CHECK(boosted);
	stop = 1;
	pthread_join(lo, NULL);
	pthread_join(hi, NULL);
	CHECK0(pthread_mutex_destroy(&m));
	return t_done();
}
