/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by tests/rwlock-interop.c (libnptl) and
 * tests/rwlock-interop-peer.c (plain glibc): process-shared rwlocks of
 * the three kinds over a memfd, and the part each process plays (party 0
 * libnptl, party 1 glibc), phases separated by a process-shared barrier
 * (whose interop tests/sync-interop checks).  */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#define RI_PARTIES 2
#define RI_THREADS 2            /* per process */
#define RI_LOCKS 3

struct rinterop {
	pthread_barrier_t bar;
	pthread_rwlock_t lock[RI_LOCKS];  /* 0, 2: init by libnptl; 1: glibc */
	int readers, writers, violations;
	long counter;                     /* written under the write lock */
	long writes;
	int wdone;                        /* phase 3: the writer has run */
	int rstart;                       /* phase 3: the late reader started */
	int errors;
};

static const int ri_kind[RI_LOCKS] = {
	PTHREAD_RWLOCK_PREFER_READER_NP,
	PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP,
	PTHREAD_RWLOCK_PREFER_WRITER_NP,
};

static inline void ri_error(struct rinterop *s, int *errors)
{
	(*errors)++;
	__atomic_add_fetch(&s->errors, 1, __ATOMIC_RELAXED);
}

static inline void ri_init_lock(pthread_rwlock_t *l, int kind)
{
	pthread_rwlockattr_t a;
	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_rwlockattr_setkind_np(&a, kind);
	pthread_rwlock_init(l, &a);
	pthread_rwlockattr_destroy(&a);
}

static inline void ri_setup(struct rinterop *s)
{
	pthread_barrierattr_t ba;
	pthread_barrierattr_init(&ba);
	pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&s->bar, &ba, RI_PARTIES);
	ri_init_lock(&s->lock[0], ri_kind[0]);
	ri_init_lock(&s->lock[2], ri_kind[2]);
}

static inline struct timespec ri_in(clockid_t c, long ms)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

struct ri_thread {
	struct rinterop *s;
	pthread_rwlock_t *l;
	long rounds;
	unsigned int seed;
	int errors;
};

static void ri_write_section(struct rinterop *s)
{
	if (__atomic_add_fetch(&s->writers, 1, __ATOMIC_SEQ_CST) != 1 ||
	    __atomic_load_n(&s->readers, __ATOMIC_SEQ_CST))
		__atomic_add_fetch(&s->violations, 1, __ATOMIC_SEQ_CST);
	/* A plain read-modify-write: lost updates show a second writer.  */
	long c = s->counter;
	if ((s->writes & 3) == 0)
		sched_yield();
	s->counter = c + 1;
	s->writes++;
	__atomic_sub_fetch(&s->writers, 1, __ATOMIC_SEQ_CST);
}

static void ri_read_section(struct rinterop *s)
{
	__atomic_add_fetch(&s->readers, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&s->writers, __ATOMIC_SEQ_CST))
		__atomic_add_fetch(&s->violations, 1, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&s->readers, 1, __ATOMIC_SEQ_CST);
}

/* Every way of locking, at random; returns the writes it made.  */
static void *ri_stress(void *p)
{
	struct ri_thread *t = p;
	struct rinterop *s = t->s;
	for (long i = 0; i < t->rounds; i++) {
		t->seed = t->seed * 1103515245 + 12345;
		unsigned int op = (t->seed >> 16) % 6;
		struct timespec ts = ri_in(CLOCK_REALTIME, 10000);
		struct timespec tm = ri_in(CLOCK_MONOTONIC, 10000);
		int r;
		bool write = op < 3;
		switch (op) {
		case 0:
			r = pthread_rwlock_wrlock(t->l);
			break;
		case 1:
			r = pthread_rwlock_timedwrlock(t->l, &ts);
			break;
		case 2:
			while ((r = pthread_rwlock_trywrlock(t->l)) == EBUSY)
				sched_yield();
			if (r == 0 && (t->seed & 0x100)) {
				/* Sometimes take it the blocking way too.  */
				pthread_rwlock_unlock(t->l);
				r = pthread_rwlock_clockwrlock(t->l, CLOCK_MONOTONIC,
							       &tm);
			}
			break;
		case 3:
			r = pthread_rwlock_rdlock(t->l);
			break;
		case 4:
			r = pthread_rwlock_clockrdlock(t->l, CLOCK_MONOTONIC, &tm);
			break;
		default:
			while ((r = pthread_rwlock_tryrdlock(t->l)) == EBUSY)
				sched_yield();
			break;
		}
		if (r) {
			ri_error(s, &t->errors);
			continue;
		}
		if (write)
			ri_write_section(s);
		else
			ri_read_section(s);
		if (pthread_rwlock_unlock(t->l))
			ri_error(s, &t->errors);
	}
	return NULL;
}

/* While the other party holds `l` (for writing if `w`), every timed lock
 * times out and the try locks fail.  */
static inline int ri_timeouts(struct rinterop *s, pthread_rwlock_t *l, int w)
{
	int errors = 0;
	struct timespec ts = ri_in(CLOCK_REALTIME, 20);
	if (pthread_rwlock_timedwrlock(l, &ts) != ETIMEDOUT)
		ri_error(s, &errors);
	struct timespec tm = ri_in(CLOCK_MONOTONIC, 20);
	if (pthread_rwlock_clockwrlock(l, CLOCK_MONOTONIC, &tm) != ETIMEDOUT)
		ri_error(s, &errors);
	if (pthread_rwlock_trywrlock(l) != EBUSY)
		ri_error(s, &errors);
	if (w) {
		ts = ri_in(CLOCK_REALTIME, 20);
		if (pthread_rwlock_timedrdlock(l, &ts) != ETIMEDOUT)
			ri_error(s, &errors);
		tm = ri_in(CLOCK_MONOTONIC, 20);
		if (pthread_rwlock_clockrdlock(l, CLOCK_MONOTONIC, &tm) != ETIMEDOUT)
			ri_error(s, &errors);
		if (pthread_rwlock_tryrdlock(l) != EBUSY)
			ri_error(s, &errors);
	} else {
		/* Readers share it.  */
		if (pthread_rwlock_tryrdlock(l) != 0 || pthread_rwlock_unlock(l))
			ri_error(s, &errors);
	}
	return errors;
}

/* Phase 3's writer, in the process that does not hold the read lock.  */
static void *ri_pref_writer(void *p)
{
	struct ri_thread *t = p;
	if (pthread_rwlock_wrlock(t->l))
		ri_error(t->s, &t->errors);
	__atomic_store_n(&t->s->wdone, 1, __ATOMIC_SEQ_CST);
	if (pthread_rwlock_unlock(t->l))
		ri_error(t->s, &t->errors);
	return NULL;
}

/* Phase 3's late reader, in the holder's process: it must get the lock
 * only after the queued writer of the other process.  */
static void *ri_pref_reader(void *p)
{
	struct ri_thread *t = p;
	struct timespec ts = ri_in(CLOCK_REALTIME, 60000);
	__atomic_store_n(&t->s->rstart, 1, __ATOMIC_SEQ_CST);
	if (pthread_rwlock_timedrdlock(t->l, &ts)) {
		ri_error(t->s, &t->errors);
		return NULL;
	}
	if (!__atomic_load_n(&t->s->wdone, __ATOMIC_SEQ_CST))
		ri_error(t->s, &t->errors);
	if (pthread_rwlock_unlock(t->l))
		ri_error(t->s, &t->errors);
	return NULL;
}

static inline int ri_run(struct rinterop *s, int me, long rounds)
{
	int errors = 0;
	if (me == 1)
		ri_init_lock(&s->lock[1], ri_kind[1]);
	pthread_barrier_wait(&s->bar);

	/* 1: every kind, threads of both processes locking every way.  */
	for (int k = 0; k < RI_LOCKS; k++) {
		struct ri_thread t[RI_THREADS];
		pthread_t th[RI_THREADS];
		for (int i = 0; i < RI_THREADS; i++) {
			t[i] = (struct ri_thread){ s, &s->lock[k], rounds,
						   (unsigned)(me * 31 + i * 7 + k), 0 };
			pthread_create(&th[i], NULL, ri_stress, &t[i]);
		}
		for (int i = 0; i < RI_THREADS; i++) {
			pthread_join(th[i], NULL);
			errors += t[i].errors;
		}
		pthread_barrier_wait(&s->bar);
		if (s->violations || s->counter != s->writes)
			ri_error(s, &errors);
		pthread_barrier_wait(&s->bar);
	}

	/* 2: timeouts against a holder in the other process, both ways and
	 * for every kind; the holder also checks EDEADLK.  */
	for (int k = 0; k < RI_LOCKS; k++) {
		pthread_rwlock_t *l = &s->lock[k];
		for (int holder = 0; holder < RI_PARTIES; holder++) {
			for (int w = 0; w < 2; w++) {
				if (me == holder) {
					if ((w ? pthread_rwlock_wrlock(l) :
						 pthread_rwlock_rdlock(l)) != 0)
						ri_error(s, &errors);
					if (w && (pthread_rwlock_rdlock(l) != EDEADLK ||
						  pthread_rwlock_wrlock(l) != EDEADLK))
						ri_error(s, &errors);
				}
				pthread_barrier_wait(&s->bar);
				if (me != holder)
					errors += ri_timeouts(s, l, w);
				pthread_barrier_wait(&s->bar);
				if (me == holder && pthread_rwlock_unlock(l))
					ri_error(s, &errors);
				pthread_barrier_wait(&s->bar);
			}
		}
		/* Free again: either side gets it at once.  */
		if (pthread_rwlock_trywrlock(l) == 0)
			pthread_rwlock_unlock(l);
		pthread_barrier_wait(&s->bar);
	}

	/* 3: writer preference across processes, both ways, on the
	 * PREFER_WRITER_NONRECURSIVE lock: one process read-locks it; a
	 * writer of the other queues, which the holder sees as tryrdlock
	 * failing; a reader that comes after it in the holder's process gets
	 * the lock only after that writer.  */
	pthread_rwlock_t *l = &s->lock[1];
	for (int holder = 0; holder < RI_PARTIES; holder++) {
		struct ri_thread t = { s, l, 0, 0, 0 };
		pthread_t th;
		if (me == holder) {
			s->wdone = 0;
			if (pthread_rwlock_rdlock(l))
				ri_error(s, &errors);
		}
		pthread_barrier_wait(&s->bar);
		if (me != holder) {
			pthread_create(&th, NULL, ri_pref_writer, &t);
		} else {
			int r;
			while ((r = pthread_rwlock_tryrdlock(l)) == 0) {
				pthread_rwlock_unlock(l);
				sched_yield();
			}
			if (r != EBUSY)
				ri_error(s, &errors);
			s->rstart = 0;
			pthread_create(&th, NULL, ri_pref_reader, &t);
			/* Most often let it block while we hold the lock (it
			 * then waits without counting itself, RWAITING); the
			 * outcome must be the same either way.  */
			while (!__atomic_load_n(&s->rstart, __ATOMIC_SEQ_CST))
				sched_yield();
			usleep(2000);
			if (__atomic_load_n(&s->wdone, __ATOMIC_SEQ_CST))
				ri_error(s, &errors);   /* past our read lock */
			if (pthread_rwlock_unlock(l))
				ri_error(s, &errors);
		}
		pthread_join(th, NULL);
		errors += t.errors;
		pthread_barrier_wait(&s->bar);
		if (!s->wdone)
			ri_error(s, &errors);
		pthread_barrier_wait(&s->bar);
	}
	return errors;
}
