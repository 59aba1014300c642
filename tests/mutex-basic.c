/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every mutex call and its error codes; static initializers give mutexes
 * of the right kind; attributes round-trip; C11 mtx_* results.
 */
#include <pthread.h>
#include <threads.h>
#include <time.h>
#include <limits.h>
#include "t.h"

static pthread_mutex_t *shared_m;
static int thread_result;

static void *try_other(void *arg)
{
	(void)arg;
	thread_result = pthread_mutex_trylock(shared_m);
	return NULL;
}

static void *unlock_other(void *arg)
{
	(void)arg;
	thread_result = pthread_mutex_unlock(shared_m);
	return NULL;
}

static int in_thread(void *(*fn)(void *), pthread_mutex_t *m)
{
	pthread_t t;
	shared_m = m;
	thread_result = -1;
	if (pthread_create(&t, NULL, fn, NULL))
		FATAL("pthread_create");
	pthread_join(t, NULL);
	return thread_result;
}

static struct timespec in_future(long ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += (ms % 1000) * 1000000L;
	ts.tv_sec += ms / 1000 + ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return ts;
}

/* Behaviour every type shares, then the type's own.  */
static void check_type(pthread_mutex_t *m, int type)
{
	CHECK0(pthread_mutex_lock(m));
	CHECK_ERR(in_thread(try_other, m), EBUSY);
	switch (type) {
	case PTHREAD_MUTEX_RECURSIVE:
		CHECK0(pthread_mutex_lock(m));
		CHECK0(pthread_mutex_trylock(m));
		CHECK_ERR(in_thread(unlock_other, m), EPERM);
		CHECK0(pthread_mutex_unlock(m));
		CHECK0(pthread_mutex_unlock(m));
		CHECK_ERR(in_thread(try_other, m), EBUSY);
		break;
	case PTHREAD_MUTEX_ERRORCHECK:
		CHECK_ERR(pthread_mutex_lock(m), EDEADLK);
		CHECK_ERR(pthread_mutex_trylock(m), EBUSY);
		{
			struct timespec ts = in_future(10);
			CHECK_ERR(pthread_mutex_timedlock(m, &ts), EDEADLK);
		}
		CHECK_ERR(in_thread(unlock_other, m), EPERM);
		break;
	default:
		CHECK_ERR(pthread_mutex_trylock(m), EBUSY);
		break;
	}
	/* Contended: an invalid timespec is EINVAL, a past one ETIMEDOUT.  */
	struct timespec bad = { .tv_sec = time(NULL) + 10, .tv_nsec = 1000000000L };
	struct timespec past = { .tv_sec = 1, .tv_nsec = 0 };
	struct timespec neg = { .tv_sec = -1, .tv_nsec = 0 };
	if (type != PTHREAD_MUTEX_RECURSIVE && type != PTHREAD_MUTEX_ERRORCHECK) {
		/* NORMAL/ADAPTIVE: relocking would block (deadlock); the
		 * timeout paths must still answer.  */
		CHECK_ERR(pthread_mutex_timedlock(m, &bad), EINVAL);
		CHECK_ERR(pthread_mutex_timedlock(m, &past), ETIMEDOUT);
		CHECK_ERR(pthread_mutex_timedlock(m, &neg), ETIMEDOUT);
		CHECK_ERR(pthread_mutex_clocklock(m, CLOCK_MONOTONIC, &past), ETIMEDOUT);
		struct timespec soon = in_future(30);
		CHECK_ERR(pthread_mutex_timedlock(m, &soon), ETIMEDOUT);
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		CHECK(now.tv_sec > soon.tv_sec ||
		      (now.tv_sec == soon.tv_sec && now.tv_nsec >= soon.tv_nsec));
	}
	CHECK_ERR(pthread_mutex_clocklock(m, CLOCK_PROCESS_CPUTIME_ID, &past), EINVAL);
	CHECK_ERR(pthread_mutex_destroy(m), EBUSY);
	CHECK0(pthread_mutex_unlock(m));
	if (type == PTHREAD_MUTEX_ERRORCHECK || type == PTHREAD_MUTEX_RECURSIVE)
		CHECK_ERR(pthread_mutex_unlock(m), EPERM);
	/* Free: an invalid timespec is not looked at.  */
	CHECK0(pthread_mutex_timedlock(m, &bad));
	CHECK0(pthread_mutex_unlock(m));
	CHECK0(pthread_mutex_clocklock(m, CLOCK_MONOTONIC, &past));
	CHECK0(pthread_mutex_unlock(m));
	CHECK0(pthread_mutex_clocklock(m, CLOCK_REALTIME, &past));
	CHECK0(pthread_mutex_unlock(m));
	CHECK0(pthread_mutex_trylock(m));
	CHECK0(pthread_mutex_unlock(m));
}

static void check_attr_roundtrip(void)
{
	pthread_mutexattr_t a;
	int v;

	CHECK0(pthread_mutexattr_init(&a));
	CHECK0(pthread_mutexattr_gettype(&a, &v));
	CHECK(v == PTHREAD_MUTEX_DEFAULT);
	CHECK0(pthread_mutexattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_PRIVATE);
	CHECK0(pthread_mutexattr_getrobust(&a, &v));
	CHECK(v == PTHREAD_MUTEX_STALLED);
	CHECK0(pthread_mutexattr_getprotocol(&a, &v));
	CHECK(v == PTHREAD_PRIO_NONE);

	int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
			PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_ADAPTIVE_NP };
	for (unsigned i = 0; i < 4; i++) {
		CHECK0(pthread_mutexattr_settype(&a, types[i]));
		CHECK0(pthread_mutexattr_gettype(&a, &v));
		CHECK(v == types[i]);
	}
	CHECK_ERR(pthread_mutexattr_settype(&a, -1), EINVAL);
	CHECK_ERR(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP + 1), EINVAL);

	CHECK0(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_mutexattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	CHECK_ERR(pthread_mutexattr_setpshared(&a, 7), EINVAL);
	CHECK0(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	CHECK0(pthread_mutexattr_getrobust(&a, &v));
	CHECK(v == PTHREAD_MUTEX_ROBUST);
	CHECK_ERR(pthread_mutexattr_setrobust(&a, 7), EINVAL);
	CHECK0(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT));
	CHECK0(pthread_mutexattr_getprotocol(&a, &v));
	CHECK(v == PTHREAD_PRIO_INHERIT);
	CHECK_ERR(pthread_mutexattr_setprotocol(&a, 7), EINVAL);
	/* The type survives the flags, and the flags the type.  */
	CHECK0(pthread_mutexattr_gettype(&a, &v));
	CHECK(v == PTHREAD_MUTEX_ADAPTIVE_NP);
	CHECK0(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	CHECK0(pthread_mutexattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	CHECK0(pthread_mutexattr_getrobust(&a, &v));
	CHECK(v == PTHREAD_MUTEX_ROBUST);

	/* Ceilings: SCHED_FIFO's range; unset reads as its minimum.  */
	int min = sched_get_priority_min(SCHED_FIFO);
	int max = sched_get_priority_max(SCHED_FIFO);
	CHECK0(pthread_mutexattr_getprioceiling(&a, &v));
	CHECK(v == min);
	CHECK0(pthread_mutexattr_setprioceiling(&a, max));
	CHECK0(pthread_mutexattr_getprioceiling(&a, &v));
	CHECK(v == max);
	CHECK_ERR(pthread_mutexattr_setprioceiling(&a, max + 1), EINVAL);
	CHECK_ERR(pthread_mutexattr_setprioceiling(&a, min - 1), EINVAL);

	pthread_mutex_t m;
	CHECK0(pthread_mutex_init(&m, &a));
	CHECK_ERR(pthread_mutex_getprioceiling(&m, &v), EINVAL);
	CHECK_ERR(pthread_mutex_setprioceiling(&m, min, &v), EINVAL);
	CHECK_ERR(pthread_mutex_consistent(&m), EINVAL);
	CHECK0(pthread_mutex_destroy(&m));
	/* A destroyed mutex has no ceiling either (glibc reads its __kind of
	 * -1 as a ceiling mutex's and returns garbage).  */
	if (t_on_libnptl()) {
		CHECK_ERR(pthread_mutex_getprioceiling(&m, &v), EINVAL);
		CHECK_ERR(pthread_mutex_setprioceiling(&m, min, &v), EINVAL);
	}
	CHECK0(pthread_mutexattr_destroy(&a));

	/* PRIO_PROTECT (tests/mutex-pp.c has the rest).  */
	CHECK0(pthread_mutexattr_init(&a));
	CHECK0(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT));
	CHECK0(pthread_mutexattr_getprotocol(&a, &v));
	CHECK(v == PTHREAD_PRIO_PROTECT);
	CHECK0(pthread_mutexattr_destroy(&a));
}

static void check_kind(pthread_mutex_t *m, int type)
{
	check_type(m, type);
	CHECK0(pthread_mutex_destroy(m));
}

static void check_c11(void)
{
	mtx_t m;
	CHECK(mtx_init(&m, mtx_plain) == thrd_success);
	CHECK(mtx_lock(&m) == thrd_success);
	CHECK(mtx_trylock(&m) == thrd_busy);
	struct timespec past = { 1, 0 };
	CHECK(mtx_timedlock(&m, &past) == thrd_timedout);
	CHECK(mtx_unlock(&m) == thrd_success);
	CHECK(mtx_timedlock(&m, &past) == thrd_success);
	CHECK(mtx_unlock(&m) == thrd_success);
	mtx_destroy(&m);

	CHECK(mtx_init(&m, mtx_timed | mtx_recursive) == thrd_success);
	CHECK(mtx_lock(&m) == thrd_success);
	CHECK(mtx_lock(&m) == thrd_success);
	CHECK(mtx_trylock(&m) == thrd_success);
	CHECK(mtx_unlock(&m) == thrd_success);
	CHECK(mtx_unlock(&m) == thrd_success);
	CHECK(mtx_unlock(&m) == thrd_success);
	CHECK(mtx_unlock(&m) == thrd_error);
	mtx_destroy(&m);

	CHECK(mtx_init(&m, mtx_timed) == thrd_success);
	mtx_destroy(&m);
	CHECK(mtx_init(&m, mtx_plain | mtx_recursive) == thrd_success);
	mtx_destroy(&m);
	/* glibc makes any unknown type a plain mutex.  */
	CHECK(mtx_init(&m, 42) == thrd_success);
	mtx_destroy(&m);
}

int main(void)
{
	pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_t m2 = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
	pthread_mutex_t m3 = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
	pthread_mutex_t m4 = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
	check_kind(&m1, PTHREAD_MUTEX_NORMAL);
	check_kind(&m2, PTHREAD_MUTEX_RECURSIVE);
	check_kind(&m3, PTHREAD_MUTEX_ERRORCHECK);
	check_kind(&m4, PTHREAD_MUTEX_ADAPTIVE_NP);

	int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
			PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_ADAPTIVE_NP };
	for (int pshared = 0; pshared < 2; pshared++)
		for (unsigned i = 0; i < 4; i++) {
			pthread_mutexattr_t a;
			pthread_mutex_t m;
			CHECK0(pthread_mutexattr_init(&a));
			CHECK0(pthread_mutexattr_settype(&a, types[i]));
			CHECK0(pthread_mutexattr_setpshared(&a, pshared ?
				PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE));
			CHECK0(pthread_mutex_init(&m, &a));
			check_kind(&m, types[i]);
			/* Default attribute (NULL) is a NORMAL mutex.  */
			CHECK0(pthread_mutex_init(&m, NULL));
			check_kind(&m, PTHREAD_MUTEX_NORMAL);
		}

	/* Recursion counts up to UINT_MAX, then EAGAIN.  */
	{
		pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
		CHECK0(pthread_mutex_lock(&m));
		m.__data.__count = UINT_MAX;    /* fast-forward 4e9 locks */
		CHECK_ERR(pthread_mutex_lock(&m), EAGAIN);
		CHECK_ERR(pthread_mutex_trylock(&m), EAGAIN);
		m.__data.__count = 1;
		CHECK0(pthread_mutex_unlock(&m));
	}
	/* A NORMAL mutex: the unlocked-by-other case is glibc's (allowed).  */
	{
		pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
		CHECK0(pthread_mutex_lock(&m));
		CHECK0(in_thread(unlock_other, &m));
		CHECK0(pthread_mutex_trylock(&m));
		CHECK0(pthread_mutex_unlock(&m));
	}
	check_attr_roundtrip();
	check_c11();
	return t_done();
}
