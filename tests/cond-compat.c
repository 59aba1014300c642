// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GLIBC_2.2.5 condition variable entry points (the LinuxThreads-era
 * ABI, before 2.3.2's condvar): bound explicitly with .symver.  Their
 * object's first word points to a real condvar allocated on first use;
 * init refuses non-default attributes.
 */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

#define OLD(name, alias) __asm__(".symver " #alias ", " #name "@GLIBC_2.2.5")

struct old_cond {
	void *real;
	long pad[5];
};

int old_init(struct old_cond *c, const pthread_condattr_t *a);
int old_destroy(struct old_cond *c);
int old_wait(struct old_cond *c, pthread_mutex_t *m);
int old_timedwait(struct old_cond *c, pthread_mutex_t *m,
		  const struct timespec *abs);
int old_signal(struct old_cond *c);
int old_broadcast(struct old_cond *c);
OLD(pthread_cond_init, old_init);
OLD(pthread_cond_destroy, old_destroy);
OLD(pthread_cond_wait, old_wait);
OLD(pthread_cond_timedwait, old_timedwait);
OLD(pthread_cond_signal, old_signal);
OLD(pthread_cond_broadcast, old_broadcast);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct old_cond oc;          /* the old static initializer: zero */
static struct old_cond lazy[4];
static int pred, woken, waiting;

static void *waiter(void *arg)
{
	struct old_cond *c = arg;
	pthread_mutex_lock(&m);
	waiting++;
	while (!pred)
		if (old_wait(c, &m))
			break;
	woken++;
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *racer(void *arg)
{
	/* First uses racing to allocate the real condvar.  */
	for (int i = 0; i < 4; i++)
		old_signal(&lazy[i]);
	return arg;
}

int main(void)
{
	pthread_condattr_t a;
	struct old_cond c = { (void *)1, { 0 } };
	struct timespec ts;

	CHECK0(old_init(&c, NULL));
	CHECK(c.real == NULL);
	CHECK0(pthread_condattr_init(&a));
	CHECK0(old_init(&c, &a));
	CHECK0(pthread_condattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK_ERR(old_init(&c, &a), EINVAL);
	CHECK0(pthread_condattr_setpshared(&a, PTHREAD_PROCESS_PRIVATE));
	CHECK0(pthread_condattr_setclock(&a, CLOCK_MONOTONIC));
	CHECK_ERR(old_init(&c, &a), EINVAL);
	CHECK0(old_init(&c, NULL));

	/* Timeouts, and the lazily allocated condvar behind the first word.  */
	CHECK0(pthread_mutex_lock(&m));
	ts.tv_sec = 0;
	ts.tv_nsec = 0;
	CHECK_ERR(old_timedwait(&c, &m, &ts), ETIMEDOUT);
	CHECK(c.real != NULL);
	ts.tv_nsec = 1000000000L;
	CHECK_ERR(old_timedwait(&c, &m, &ts), EINVAL);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 30000000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	CHECK_ERR(old_timedwait(&c, &m, &ts), ETIMEDOUT);
	CHECK0(pthread_mutex_unlock(&m));
	CHECK0(old_signal(&c));
	CHECK0(old_broadcast(&c));
	CHECK0(old_destroy(&c));

	/* Statically initialized: signal, broadcast and wait work.  */
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		CHECK0(pthread_create(&t[i], NULL, waiter, &oc));
	t_lock_when_waiting(&m, &waiting, 3);
	pred = 1;
	CHECK0(old_signal(&oc));
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 20000 && !__atomic_load_n(&woken, __ATOMIC_RELAXED); i++)
		usleep(1000);
	pthread_mutex_lock(&m);
	CHECK(woken >= 1);
	CHECK0(old_broadcast(&oc));
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 3; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK(woken == 3);
	CHECK(oc.real != NULL);
	CHECK0(old_destroy(&oc));

	/* Racing first uses end up with one real condvar each.  */
	for (int i = 0; i < 3; i++)
		CHECK0(pthread_create(&t[i], NULL, racer, NULL));
	for (int i = 0; i < 3; i++)
		CHECK0(pthread_join(t[i], NULL));
	for (int i = 0; i < 4; i++) {
		CHECK(lazy[i].real != NULL);
		CHECK0(old_destroy(&lazy[i]));
	}
	return t_done();
}
