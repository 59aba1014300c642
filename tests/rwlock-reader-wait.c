/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A reader that waits, holding its read lock, for a second reader to get
 * in while two writers lock and unlock as fast as they can (glibc's
 * tst-rwlock16, which deadlocked under libnptl).  With the kinds that do
 * not prefer writers (PTHREAD_RWLOCK_INITIALIZER, and a lock made with
 * kind PTHREAD_RWLOCK_PREFER_READER_NP) a reader is never blocked by a
 * writer that does not hold the lock, so reader B must get in and every
 * round must finish.  libnptl's writer used to wait, holding the lock
 * word, for the bias slot through which reader A held the lock: B queued
 * behind that writer and A waited for B for good.  So most rounds park
 * the writers first and let A read-lock and unlock in a loop for a few
 * hundred microseconds, which turns the lock read-biased, so that A's
 * last read lock, the one it keeps, is a biased one; then the writers
 * come back while A waits, and B comes after them, at once or a little
 * later.  The other rounds leave the writers running throughout.  A hang
 * is a failure with a message, from an alarm, not a harness timeout.
 * Also checked, by counters inside the critical sections: a writer is
 * alone, readers never overlap a writer; every call returns 0; at the
 * end the lock is free (trywrlock).  The writer-preferring nonrecursive
 * kind is left out: there B waits behind a queued writer by design, in
 * glibc too.  Passes on glibc.  */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "t.h"
#include "rw-inside.h"

#define NWRITERS 2
#define ROUNDS 1000             /* per kind, */
#define SECONDS 0.5             /* or this long, whichever comes first */

static pthread_rwlock_t *lock;
static long writes;
static int stop, quit, hold, parked;
static int prime_us;            /* A's read loop this round, writers parked */
static int round_no;
static const char *kind_name;
static sem_t go_a, go_b, a_holds, b_in, done;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_alarm(int sig)
{
	(void)sig;
	char buf[200], num[16];
	size_t n = 0, k = 0;
	const char *s;
	unsigned r = (unsigned)__atomic_load_n(&round_no, __ATOMIC_RELAXED);
	do
		num[k++] = (char)('0' + r % 10);
	while ((r /= 10) && k < sizeof(num));
	for (s = "rwlock-reader-wait: hang: reader B blocked behind a writer "
		 "that does not hold the lock (round "; *s; s++)
		buf[n++] = *s;
	while (k)
		buf[n++] = num[--k];
	buf[n++] = ',';
	buf[n++] = ' ';
	for (s = kind_name; s && *s && n < sizeof(buf) - 3; s++)
		buf[n++] = *s;
	buf[n++] = ')';
	buf[n++] = '\n';
	(void)!write(2, buf, n);
	_exit(1);
}

static void wait_sem(sem_t *s)
{
	while (sem_wait(s) != 0)
		CHECK(errno == EINTR);
}

/* Write-locks as fast as it can, except while `hold` parks it.  */
static void *writer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&hold, __ATOMIC_ACQUIRE)) {
			__atomic_add_fetch(&parked, 1, __ATOMIC_SEQ_CST);
			while (__atomic_load_n(&hold, __ATOMIC_ACQUIRE))
				sched_yield();
			__atomic_sub_fetch(&parked, 1, __ATOMIC_SEQ_CST);
			continue;
		}
		CHECK0(pthread_rwlock_wrlock(lock));
		rw_check_write();
		CHECK0(pthread_rwlock_unlock(lock));
		__atomic_add_fetch(&writes, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Reader A: takes the read lock and keeps it until B holds it too.  */
static void *reader_a(void *arg)
{
	(void)arg;
	for (;;) {
		wait_sem(&go_a);
		if (__atomic_load_n(&quit, __ATOMIC_ACQUIRE))
			break;
		/* The writers are parked: read locks until the lock turns
		 * read-biased (libnptl), so that the next one is biased.  */
		if (prime_us) {
			double end = now() + prime_us / 1e6;
			do {
				CHECK0(pthread_rwlock_rdlock(lock));
				rw_enter_read();
				rw_leave_read();
				CHECK0(pthread_rwlock_unlock(lock));
			} while (now() < end);
		}
		CHECK0(pthread_rwlock_rdlock(lock));
		rw_enter_read();
		sem_post(&a_holds);
		wait_sem(&b_in);
		rw_leave_read();
		CHECK0(pthread_rwlock_unlock(lock));
		sem_post(&done);
	}
	return NULL;
}

/* Reader B: must get in while A holds the lock, writers or not.  */
static void *reader_b(void *arg)
{
	(void)arg;
	for (;;) {
		wait_sem(&go_b);
		if (__atomic_load_n(&quit, __ATOMIC_ACQUIRE))
			break;
		CHECK0(pthread_rwlock_rdlock(lock));
		rw_enter_read();
		CHECK(__atomic_load_n(&rw_readers, __ATOMIC_SEQ_CST) >= 2);
		sem_post(&b_in);
		rw_leave_read();
		CHECK0(pthread_rwlock_unlock(lock));
		sem_post(&done);
	}
	return NULL;
}

static void run(pthread_rwlock_t *l, const char *name)
{
	static const int pause_us[] = { 0, 50, 200, 400 };
	static const int b_delay_us[] = { 0, 20, 100 };
	pthread_t w[NWRITERS], a, b;
	lock = l;
	kind_name = name;
	stop = quit = hold = 0;
	writes = 0;
	for (int i = 0; i < NWRITERS; i++)
		CHECK0(pthread_create(&w[i], NULL, writer, NULL));
	CHECK0(pthread_create(&a, NULL, reader_a, NULL));
	CHECK0(pthread_create(&b, NULL, reader_b, NULL));
	double end = now() + SECONDS;
	for (int r = 0; r < ROUNDS && now() < end; r++) {
		__atomic_store_n(&round_no, r, __ATOMIC_RELAXED);
		/* Rounds cycle through 4 pauses and 3 delays of B: 12
		 * combinations.  */
		prime_us = pause_us[r % 4];
		if (prime_us) {
			__atomic_store_n(&hold, 1, __ATOMIC_RELEASE);
			while (__atomic_load_n(&parked, __ATOMIC_SEQ_CST) <
			       NWRITERS)
				sched_yield();
		}
		sem_post(&go_a);
		wait_sem(&a_holds);
		/* A holds the lock (through the bias, most likely, after a
		 * pause): the writers come back and reach for the lock,
		 * then B comes.  */
		__atomic_store_n(&hold, 0, __ATOMIC_RELEASE);
		if (b_delay_us[r % 3])
			usleep(b_delay_us[r % 3]);
		sem_post(&go_b);
		wait_sem(&done);
		wait_sem(&done);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&hold, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&quit, 1, __ATOMIC_RELEASE);
	sem_post(&go_a);
	sem_post(&go_b);
	for (int i = 0; i < NWRITERS; i++)
		CHECK0(pthread_join(w[i], NULL));
	CHECK0(pthread_join(a, NULL));
	CHECK0(pthread_join(b, NULL));
	CHECK(rw_violations == 0);
	CHECK(writes > 0);
	/* Nothing leaked: the lock is free.  */
	CHECK0(pthread_rwlock_trywrlock(l));
	CHECK0(pthread_rwlock_unlock(l));
	CHECK0(pthread_rwlock_destroy(l));
	if (getenv("RWLOCK_STRESS_VERBOSE"))
		fprintf(stderr, "%s: %d rounds, %ld writes\n", name,
			round_no + 1, writes);
}

int main(void)
{
	signal(SIGALRM, on_alarm);
	alarm(20);
	CHECK0(sem_init(&go_a, 0, 0));
	CHECK0(sem_init(&go_b, 0, 0));
	CHECK0(sem_init(&a_holds, 0, 0));
	CHECK0(sem_init(&b_in, 0, 0));
	CHECK0(sem_init(&done, 0, 0));

	static pthread_rwlock_t dflt = PTHREAD_RWLOCK_INITIALIZER;
	run(&dflt, "PTHREAD_RWLOCK_INITIALIZER");

	pthread_rwlock_t reader;
	pthread_rwlockattr_t at;
	CHECK0(pthread_rwlockattr_init(&at));
	CHECK0(pthread_rwlockattr_setkind_np(&at,
					     PTHREAD_RWLOCK_PREFER_READER_NP));
	CHECK0(pthread_rwlock_init(&reader, &at));
	CHECK0(pthread_rwlockattr_destroy(&at));
	run(&reader, "PTHREAD_RWLOCK_PREFER_READER_NP");

	CHECK0(sem_destroy(&go_a));
	CHECK0(sem_destroy(&go_b));
	CHECK0(sem_destroy(&a_holds));
	CHECK0(sem_destroy(&b_in));
	CHECK0(sem_destroy(&done));
	return t_done();
}
