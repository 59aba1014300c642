// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unnamed semaphores: every call and error code, glibc 2.36's encoding of
 * sem_t (shared with glibc processes), sem_post from signal handlers, and
 * the GLIBC_2.2.5 versions.  Conformance: passes on plain glibc too.
 */
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

/* CHECK_ERRNO(call, E): call returns -1 with errno E (sem_* style).  */
#define CHECK_ERRNO(call, e)                                                 \
	do {                                                                 \
		errno = 0;                                                   \
		int t_r_ = (call);                                           \
		int t_e_ = errno;                                            \
		if (t_r_ != -1 || t_e_ != (e)) {                             \
			fprintf(stderr, "%s:%d: %s returned %d errno %d (%s), want -1 errno %d (%s)\n", \
				__FILE__, __LINE__, #call, t_r_, t_e_,       \
				strerror(t_e_), (e), strerror(e));           \
			t_failures++;                                        \
		}                                                            \
	} while (0)
#define CHECK_OK(call) CHECK((call) == 0)

static int value(sem_t *s)
{
	int v = -12345;
	CHECK_OK(sem_getvalue(s, &v));
	return v;
}

/* glibc's x86_64 struct new_sem: value low, waiters high, then private.  */
static uint64_t sem_data(sem_t *s)
{
	return __atomic_load_n((uint64_t *)s, __ATOMIC_SEQ_CST);
}
static int sem_private(sem_t *s)
{
	return ((int *)s)[2];
}

static struct timespec in(clockid_t c, long ms)
{
	struct timespec t;
	clock_gettime(c, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	if (t.tv_nsec < 0) {
		t.tv_sec--;
		t.tv_nsec += 1000000000L;
	}
	return t;
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

static void wait_for_waiters(sem_t *s, unsigned n)
{
	for (int i = 0; i < 5000 && (sem_data(s) >> 32) < n; i++)
		usleep(1000);
	CHECK((sem_data(s) >> 32) == n);
	usleep(10000);
}

static sem_t sig_sem;
static void post_handler(int sig)
{
	(void)sig;
	int e = errno;
	if (sem_post(&sig_sem) != 0)
		abort();
	errno = e;
}
static void nop_handler(int sig)
{
	(void)sig;
}

static void *waiter(void *arg)
{
	intptr_t r = sem_wait(arg) == 0 ? 0 : errno;
	return (void *)r;
}

static volatile int intr_done;
static void *intr_waiter(void *arg)
{
	struct timespec dl = in(CLOCK_REALTIME, 5000);
	intptr_t r = sem_timedwait(arg, &dl) == 0 ? 0 : errno;
	intr_done = 1;
	return (void *)r;
}

static void basics(void)
{
	sem_t s;
	CHECK_ERRNO(sem_init(&s, 0, (unsigned)SEM_VALUE_MAX + 1), EINVAL);
	CHECK_ERRNO(sem_init(&s, 1, UINT_MAX), EINVAL);

	CHECK_OK(sem_init(&s, 0, 5));
	CHECK(sem_data(&s) == 5);
	CHECK(sem_private(&s) == 0);
	CHECK(value(&s) == 5);
	for (int i = 0; i < 5; i++)
		CHECK_OK(sem_trywait(&s));
	CHECK_ERRNO(sem_trywait(&s), EAGAIN);
	CHECK(value(&s) == 0);
	CHECK_OK(sem_post(&s));
	CHECK(value(&s) == 1);
	CHECK_OK(sem_wait(&s));
	CHECK(value(&s) == 0);
	CHECK_OK(sem_destroy(&s));

	CHECK_OK(sem_init(&s, 1, 0));
	CHECK(sem_private(&s) == 128);	/* FUTEX_PRIVATE_FLAG: "shared" */
	CHECK(sem_data(&s) == 0);
	CHECK_OK(sem_destroy(&s));

	/* EOVERFLOW at SEM_VALUE_MAX; the value is unchanged.  */
	CHECK_OK(sem_init(&s, 0, SEM_VALUE_MAX));
	CHECK(value(&s) == SEM_VALUE_MAX);
	CHECK_ERRNO(sem_post(&s), EOVERFLOW);
	CHECK(value(&s) == SEM_VALUE_MAX);
	CHECK_OK(sem_trywait(&s));
	CHECK_OK(sem_post(&s));
	CHECK_ERRNO(sem_post(&s), EOVERFLOW);
	CHECK_OK(sem_destroy(&s));
}

static void timed(void)
{
	sem_t s;
	CHECK_OK(sem_init(&s, 0, 0));
	struct timespec bad[] = { { 0, -1 }, { 0, 1000000000L }, { 1, LONG_MAX } };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ERRNO(sem_timedwait(&s, &bad[i]), EINVAL);
		CHECK_ERRNO(sem_clockwait(&s, CLOCK_MONOTONIC, &bad[i]), EINVAL);
		CHECK_ERRNO(sem_clockwait(&s, CLOCK_REALTIME, &bad[i]), EINVAL);
	}
	struct timespec past = { 0, 0 }, neg = { -1, 0 };
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_PROCESS_CPUTIME_ID, &past), EINVAL);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_THREAD_CPUTIME_ID, &past), EINVAL);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_BOOTTIME, &past), EINVAL);
	CHECK_ERRNO(sem_clockwait(&s, 12345, &past), EINVAL);

	/* Past deadlines, with both clocks, negative ones included.  */
	CHECK_ERRNO(sem_timedwait(&s, &past), ETIMEDOUT);
	CHECK_ERRNO(sem_timedwait(&s, &neg), ETIMEDOUT);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_REALTIME, &past), ETIMEDOUT);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_MONOTONIC, &past), ETIMEDOUT);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_MONOTONIC, &neg), ETIMEDOUT);
	struct timespec rt = in(CLOCK_REALTIME, -1000), mono = in(CLOCK_MONOTONIC, -1000);
	CHECK_ERRNO(sem_timedwait(&s, &rt), ETIMEDOUT);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_REALTIME, &rt), ETIMEDOUT);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_MONOTONIC, &mono), ETIMEDOUT);
	CHECK(sem_data(&s) == 0);	/* no waiter left registered */

	/* Future deadlines expire no earlier than asked.  */
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rt = in(CLOCK_REALTIME, 60);
	CHECK_ERRNO(sem_timedwait(&s, &rt), ETIMEDOUT);
	CHECK(ms_since(&t0) >= 59);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	mono = in(CLOCK_MONOTONIC, 60);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_MONOTONIC, &mono), ETIMEDOUT);
	CHECK(ms_since(&t0) >= 59);
	CHECK(ms_since(&t0) < 2000);
	CHECK(sem_data(&s) == 0);

	/* A token is taken even with a past deadline.  */
	CHECK_OK(sem_post(&s));
	CHECK_OK(sem_timedwait(&s, &past));
	CHECK_OK(sem_post(&s));
	CHECK_OK(sem_clockwait(&s, CLOCK_MONOTONIC, &past));
	CHECK_OK(sem_post(&s));
	CHECK_OK(sem_clockwait(&s, CLOCK_REALTIME, &neg));

	/* glibc 2.36 validates the timespec (and the clock) before looking
	 * at the semaphore: EINVAL even with a token, which stays.  */
	CHECK_OK(sem_post(&s));
	CHECK_ERRNO(sem_timedwait(&s, &bad[0]), EINVAL);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_MONOTONIC, &bad[1]), EINVAL);
	CHECK_ERRNO(sem_clockwait(&s, CLOCK_PROCESS_CPUTIME_ID, &past), EINVAL);
	CHECK(value(&s) == 1);

	/* A timed wait that is woken in time.  */
	pthread_t t;
	CHECK_OK(sem_trywait(&s));
	CHECK0(pthread_create(&t, NULL, intr_waiter, &s));
	wait_for_waiters(&s, 1);
	CHECK_OK(sem_post(&s));
	void *r;
	CHECK0(pthread_join(t, &r));
	CHECK(r == (void *)0);
	CHECK(sem_data(&s) == 0);
	CHECK_OK(sem_destroy(&s));
}

static void signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);

	/* sem_post in a handler that runs on another thread.  */
	sa.sa_handler = post_handler;
	sa.sa_flags = SA_RESTART;
	CHECK0(sigaction(SIGUSR1, &sa, NULL));
	CHECK_OK(sem_init(&sig_sem, 0, 0));
	pthread_t t;
	void *r;
	CHECK0(pthread_create(&t, NULL, waiter, &sig_sem));
	wait_for_waiters(&sig_sem, 1);
	CHECK0(raise(SIGUSR1));
	CHECK0(pthread_join(t, &r));
	CHECK(r == (void *)0);
	CHECK(sem_data(&sig_sem) == 0);

	/* ... and on the waiting thread itself (SA_RESTART: the wait goes
	 * on and finds the token).  */
	CHECK0(pthread_create(&t, NULL, waiter, &sig_sem));
	wait_for_waiters(&sig_sem, 1);
	CHECK0(pthread_kill(t, SIGUSR1));
	CHECK0(pthread_join(t, &r));
	CHECK(r == (void *)0);
	CHECK(sem_data(&sig_sem) == 0);

	/* Many posts from handlers while a thread consumes.  */
	CHECK0(pthread_create(&t, NULL, waiter, &sig_sem));
	for (int i = 0; i < 200; i++)
		CHECK0(raise(SIGUSR1));
	CHECK0(pthread_join(t, &r));
	CHECK(r == (void *)0);
	CHECK(value(&sig_sem) == 199);

	/* A handler without SA_RESTART interrupts a wait: EINTR, and the
	 * waiter is no longer registered.  */
	sem_t s;
	CHECK_OK(sem_init(&s, 0, 0));
	sa.sa_handler = nop_handler;
	sa.sa_flags = 0;
	CHECK0(sigaction(SIGUSR2, &sa, NULL));
	intr_done = 0;
	CHECK0(pthread_create(&t, NULL, intr_waiter, &s));
	wait_for_waiters(&s, 1);
	for (int i = 0; i < 500 && !intr_done; i++) {
		pthread_kill(t, SIGUSR2);
		usleep(2000);
	}
	CHECK0(pthread_join(t, &r));
	CHECK(r == (void *)(intptr_t)EINTR);
	CHECK(sem_data(&s) == 0);
}

/* The GLIBC_2.2.5 versions are the same functions on x86_64.  */
static void old_versions(void)
{
	int (*init)(sem_t *, int, unsigned) = (int (*)(sem_t *, int, unsigned))
		dlvsym(RTLD_DEFAULT, "sem_init", "GLIBC_2.2.5");
	int (*post)(sem_t *) = (int (*)(sem_t *))dlvsym(RTLD_DEFAULT, "sem_post", "GLIBC_2.2.5");
	int (*wait)(sem_t *) = (int (*)(sem_t *))dlvsym(RTLD_DEFAULT, "sem_wait", "GLIBC_2.2.5");
	int (*trywait)(sem_t *) = (int (*)(sem_t *))dlvsym(RTLD_DEFAULT, "sem_trywait", "GLIBC_2.2.5");
	int (*getvalue)(sem_t *, int *) = (int (*)(sem_t *, int *))
		dlvsym(RTLD_DEFAULT, "sem_getvalue", "GLIBC_2.2.5");
	int (*timedwait)(sem_t *, const struct timespec *) =
		(int (*)(sem_t *, const struct timespec *))
		dlvsym(RTLD_DEFAULT, "sem_timedwait", "GLIBC_2.2.5");
	int (*clockwait)(sem_t *, clockid_t, const struct timespec *) =
		(int (*)(sem_t *, clockid_t, const struct timespec *))
		dlvsym(RTLD_DEFAULT, "sem_clockwait", "GLIBC_2.30");
	int (*destroy)(sem_t *) = (int (*)(sem_t *))dlvsym(RTLD_DEFAULT, "sem_destroy", "GLIBC_2.2.5");
	const char *named[] = { "sem_open", "sem_close", "sem_unlink" };
	for (unsigned i = 0; i < 3; i++)
		CHECK(dlvsym(RTLD_DEFAULT, named[i], "GLIBC_2.2.5") != NULL);
	if (!init || !post || !wait || !trywait || !getvalue || !timedwait ||
	    !clockwait || !destroy) {
		CHECK(!"a compat version is missing");
		return;
	}
	sem_t s;
	int v;
	CHECK_ERRNO(init(&s, 0, (unsigned)SEM_VALUE_MAX + 1), EINVAL);
	CHECK_OK(init(&s, 0, 2));
	CHECK(sem_data(&s) == 2 && sem_private(&s) == 0);
	CHECK_OK(wait(&s));
	CHECK_OK(trywait(&s));
	CHECK_ERRNO(trywait(&s), EAGAIN);
	struct timespec past = { 0, 0 };
	CHECK_ERRNO(timedwait(&s, &past), ETIMEDOUT);
	CHECK_ERRNO(clockwait(&s, CLOCK_MONOTONIC, &past), ETIMEDOUT);
	CHECK_OK(post(&s));
	CHECK_OK(getvalue(&s, &v));
	CHECK(v == 1);
	CHECK_OK(sem_wait(&s));
	CHECK_OK(destroy(&s));
	CHECK_OK(init(&s, 0, SEM_VALUE_MAX));
	CHECK_ERRNO(post(&s), EOVERFLOW);
}

int main(void)
{
	basics();
	timed();
	signals();
	old_versions();
	return t_done();
}
