/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Many threads on many rwlocks, in the shapes that exercise libnptl's read
 * bias (slots, revocation, re-biasing, collisions) and that any POSIX
 * rwlock must survive: readers that hold up to 12 locks at once (more
 * than a thread's 8 slots, so some collide) and read-lock some of them
 * again, writers with plain, try, timed and clock locks, short-lived
 * threads that exit right after their last unlock (more than 512 of
 * them), a crowd of 600 threads holding the same locks at once (so
 * that threads share slots), and phases that alternate
 * between read-mostly and write-heavy so that the bias is revoked and
 * comes back many times.  Half the locks prefer writers.  Invariant,
 * checked by counters inside the critical sections: a writer is alone,
 * readers never overlap a writer; at the end every lock is free (a leaked
 * read lock, slot or not, makes trywrlock fail).  Argument: seconds
 * (default 2), e.g. tests/rwlock-bias-stress 60 for a long run.  */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

#define NLOCKS 16
#define LIVE 6                  /* threads alive at a time */
#define MAXHOLD 12

static struct {
	pthread_rwlock_t rw;
	int readers, writers;
} locks[NLOCKS];

static volatile int stop;
static volatile unsigned phase;         /* odd: write-heavy */
static long violations, reads, writes, timeouts, created;

static void spin(unsigned n)
{
	for (volatile unsigned i = 0; i < n; i++)
		;
}

static unsigned rnd(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 16;
}

static bool writer_first(int i)
{
	return i & 1;
}

/* Read-lock one lock in one of the ways that may fail; true if held.  */
static bool read_one(int i, unsigned r)
{
	pthread_rwlock_t *l = &locks[i].rw;
	struct timespec ts;
	int e;
	switch (r % 5) {
	case 0:
		e = pthread_rwlock_tryrdlock(l);
		CHECK(e == 0 || e == EBUSY);
		return e == 0;
	case 1:
		ts = t_soon(CLOCK_REALTIME, 50);
		e = pthread_rwlock_timedrdlock(l, &ts);
		break;
	case 2:
		ts = t_soon(CLOCK_MONOTONIC, 80);
		e = pthread_rwlock_clockrdlock(l, CLOCK_MONOTONIC, &ts);
		break;
	default:
		CHECK0(pthread_rwlock_rdlock(l));
		return true;
	}
	CHECK(e == 0 || e == ETIMEDOUT);
	if (e)
		__atomic_add_fetch(&timeouts, 1, __ATOMIC_RELAXED);
	return e == 0;
}

static void enter_read(int i)
{
	__atomic_add_fetch(&locks[i].readers, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&locks[i].writers, __ATOMIC_SEQ_CST) != 0)
		__atomic_add_fetch(&violations, 1, __ATOMIC_RELAXED);
}

static void leave_read(int i)
{
	if (__atomic_load_n(&locks[i].writers, __ATOMIC_SEQ_CST) != 0)
		__atomic_add_fetch(&violations, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&locks[i].readers, 1, __ATOMIC_SEQ_CST);
}

/* Hold several locks, taken in index order (readers of the writer-
 * preferring locks must not wait in a cycle), released in any order.  */
static void reader(unsigned *seed)
{
	int held[MAXHOLD + 4], n = 0;
	int want = 1 + (int)(rnd(seed) % MAXHOLD);
	int i = (int)(rnd(seed) % NLOCKS);
	for (; i < NLOCKS && n < want; i += 1 + (int)(rnd(seed) % 2)) {
		if (!read_one(i, rnd(seed)))
			continue;
		enter_read(i);
		held[n++] = i;
	}
	/* Recursive read locks: always granted for the reader-preferring
	 * kind (a queued writer does not hold readers back); the
	 * writer-preferring kind may refuse a try.  */
	int m = n;
	for (int k = 0; k < m && n < MAXHOLD + 4; k++) {
		if (rnd(seed) % 4)
			continue;
		int j = held[k];
		if (writer_first(j)) {
			int e = pthread_rwlock_tryrdlock(&locks[j].rw);
			CHECK(e == 0 || e == EBUSY);
			if (e)
				continue;
		} else {
			CHECK0(pthread_rwlock_rdlock(&locks[j].rw));
		}
		enter_read(j);
		held[n++] = j;
	}
	spin(rnd(seed) % 200);
	while (n > 0) {
		int k = (int)(rnd(seed) % (unsigned)n);
		int j = held[k];
		held[k] = held[--n];
		leave_read(j);
		CHECK0(pthread_rwlock_unlock(&locks[j].rw));
	}
	__atomic_add_fetch(&reads, 1, __ATOMIC_RELAXED);
}

static void writer(unsigned *seed)
{
	int i = (int)(rnd(seed) % NLOCKS);
	pthread_rwlock_t *l = &locks[i].rw;
	struct timespec ts;
	int e;
	switch (rnd(seed) % 4) {
	case 0:
		e = pthread_rwlock_trywrlock(l);
		CHECK(e == 0 || e == EBUSY);
		break;
	case 1:
		ts = t_soon(CLOCK_REALTIME, 100);
		e = pthread_rwlock_timedwrlock(l, &ts);
		CHECK(e == 0 || e == ETIMEDOUT);
		break;
	case 2:
		ts = t_soon(CLOCK_MONOTONIC, 300);
		e = pthread_rwlock_clockwrlock(l, CLOCK_MONOTONIC, &ts);
		CHECK(e == 0 || e == ETIMEDOUT);
		break;
	default:
		e = pthread_rwlock_wrlock(l);
		CHECK0(e);
		break;
	}
	if (e)
		return;
	if (__atomic_add_fetch(&locks[i].writers, 1, __ATOMIC_SEQ_CST) != 1 ||
	    __atomic_load_n(&locks[i].readers, __ATOMIC_SEQ_CST) != 0)
		__atomic_add_fetch(&violations, 1, __ATOMIC_RELAXED);
	spin(rnd(seed) % 100);
	if (__atomic_load_n(&locks[i].readers, __ATOMIC_SEQ_CST) != 0 ||
	    __atomic_load_n(&locks[i].writers, __ATOMIC_SEQ_CST) != 1)
		__atomic_add_fetch(&violations, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&locks[i].writers, 1, __ATOMIC_SEQ_CST);
	CHECK0(pthread_rwlock_unlock(l));
	__atomic_add_fetch(&writes, 1, __ATOMIC_RELAXED);
}

/* A short life: some operations, then exit right after the last unlock.  */
static void *worker(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1;
	unsigned ops = rnd(&seed) % 400;
	for (unsigned k = 0; k < ops && !stop; k++) {
		/* Read-mostly phases: 1 write in 1000; write-heavy: 1 in 3.  */
		bool heavy = phase & 1;
		if (rnd(&seed) % (heavy ? 3 : 1000) == 0)
			writer(&seed);
		else
			reader(&seed);
	}
	return NULL;
}

/* A crowd: more threads than the slot table has lines (512), all holding
 * read locks on locks 0 (reader-preferring) and 1 (writer-preferring) at
 * once, so that some share a slot with another thread; a timed writer
 * must time out meanwhile, and every read lock must be gone after.  */
#define CROWD 600
static pthread_barrier_t all_in, go;

static void *crowd_member(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	CHECK0(pthread_rwlock_rdlock(&locks[0].rw));
	enter_read(0);
	CHECK0(pthread_rwlock_rdlock(&locks[1].rw));
	enter_read(1);
	pthread_barrier_wait(&all_in);
	pthread_barrier_wait(&go);
	int first = (int)(rnd(&seed) & 1);
	leave_read(first);
	CHECK0(pthread_rwlock_unlock(&locks[first].rw));
	leave_read(!first);
	CHECK0(pthread_rwlock_unlock(&locks[!first].rw));
	return NULL;
}

static void crowd(void)
{
	static pthread_t t[CROWD];
	pthread_attr_t a;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstacksize(&a, 64 * 1024));
	CHECK0(pthread_barrier_init(&all_in, NULL, CROWD + 1));
	CHECK0(pthread_barrier_init(&go, NULL, CROWD + 1));
	for (uintptr_t i = 0; i < CROWD; i++)
		CHECK0(pthread_create(&t[i], &a, crowd_member, (void *)i));
	pthread_barrier_wait(&all_in);
	for (int i = 0; i < 2; i++) {
		struct timespec ts = t_soon(CLOCK_REALTIME, 2000);
		CHECK_ERR(pthread_rwlock_timedwrlock(&locks[i].rw, &ts),
			  ETIMEDOUT);
		CHECK_ERR(pthread_rwlock_trywrlock(&locks[i].rw), EBUSY);
	}
	pthread_barrier_wait(&go);
	for (int i = 0; i < CROWD; i++)
		CHECK0(pthread_join(t[i], NULL));
	for (int i = 0; i < 2; i++) {
		CHECK0(pthread_rwlock_wrlock(&locks[i].rw));
		CHECK0(pthread_rwlock_unlock(&locks[i].rw));
	}
	CHECK0(pthread_barrier_destroy(&all_in));
	CHECK0(pthread_barrier_destroy(&go));
	CHECK0(pthread_attr_destroy(&a));
}

static void *spawner(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	while (!stop) {
		pthread_t t;
		CHECK0(pthread_create(&t, NULL, worker,
				      (void *)(id += LIVE)));
		CHECK0(pthread_join(t, NULL));
		__atomic_add_fetch(&created, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2;
	for (int i = 0; i < NLOCKS; i++) {
		pthread_rwlockattr_t a;
		CHECK0(pthread_rwlockattr_init(&a));
		CHECK0(pthread_rwlockattr_setkind_np(&a, writer_first(i)
			? PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP
			: PTHREAD_RWLOCK_PREFER_READER_NP));
		CHECK0(pthread_rwlock_init(&locks[i].rw, &a));
		CHECK0(pthread_rwlockattr_destroy(&a));
	}
	crowd();
	pthread_t sp[LIVE];
	for (uintptr_t i = 0; i < LIVE; i++)
		CHECK0(pthread_create(&sp[i], NULL, spawner, (void *)i));
	/* Phases of 50 ms: read-mostly, then write-heavy, and so on.  */
	long steps = (long)(secs * 20);
	for (long k = 0; k < steps; k++) {
		usleep(50000);
		phase++;
	}
	stop = 1;
	for (int i = 0; i < LIVE; i++)
		CHECK0(pthread_join(sp[i], NULL));
	crowd();
	CHECK(violations == 0);
	CHECK(reads > 0 && writes > 0);
	/* Quiescent: every lock is free, no read lock leaked.  */
	for (int i = 0; i < NLOCKS; i++) {
		CHECK0(pthread_rwlock_trywrlock(&locks[i].rw));
		CHECK0(pthread_rwlock_unlock(&locks[i].rw));
		CHECK0(pthread_rwlock_rdlock(&locks[i].rw));
		CHECK0(pthread_rwlock_unlock(&locks[i].rw));
		CHECK0(pthread_rwlock_destroy(&locks[i].rw));
	}
	if (getenv("RWLOCK_STRESS_VERBOSE"))
		fprintf(stderr, "%ld threads, %ld reads, %ld writes, "
			"%ld timeouts in %.1f s\n", created, reads, writes,
			timeouts, secs);
	return t_done();
}
