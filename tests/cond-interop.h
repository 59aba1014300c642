/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by tests/cond-interop.c (libnptl) and tests/cond-interop-peer.c
 * (plain glibc): the objects they share over a memfd, and the part each
 * process plays.  Party 0 is the libnptl process, party 1 the glibc one;
 * both run the same phases, separated by a process-shared barrier (whose
 * interop tests/sync-interop checks).  */
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#define CI_PARTIES 2
#define CI_CONSUMERS 3          /* per process */

struct cinterop {
	pthread_barrier_t bar;
	pthread_mutex_t m;          /* process-shared, error-checking */
	pthread_mutex_t mr;         /* process-shared, robust */
	pthread_cond_t tok;         /* init by party 0 (libnptl) */
	pthread_cond_t gen_cv;      /* init by party 1 (glibc) */
	pthread_cond_t mono;        /* CLOCK_MONOTONIC, init by party 1 */
	pthread_cond_t quiet;       /* never signalled: timeouts */
	pthread_cond_t last;        /* destroyed right after a broadcast */
	long tokens, produced, consumed, total;
	long arrived, gen;
	int turn;
	int go;
	int leaving;
	int inside, go2, woken2;
	int errors;
};

static inline void ci_error(struct cinterop *s, int *errors)
{
	(*errors)++;
	__atomic_add_fetch(&s->errors, 1, __ATOMIC_RELAXED);
}

static inline void ci_init_cond(pthread_cond_t *c, clockid_t clock)
{
	pthread_condattr_t a;
	pthread_condattr_init(&a);
	pthread_condattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_condattr_setclock(&a, clock);
	pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
}

/* Party 0 sets up the mutex and its condvars before the peers start; the
 * peer initialises its own condvars in phase 0.  */
static inline void ci_setup(struct cinterop *s)
{
	pthread_barrierattr_t ba;
	pthread_barrierattr_init(&ba);
	pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&s->bar, &ba, CI_PARTIES);
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&s->m, &ma);
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&s->mr, &ma);
	ci_init_cond(&s->tok, CLOCK_REALTIME);
	ci_init_cond(&s->quiet, CLOCK_REALTIME);
	ci_init_cond(&s->last, CLOCK_REALTIME);
}

struct ci_thread {
	struct cinterop *s;
	int errors;
	int timed;
};

/* Consumers take tokens until all are consumed: `timed` 0 waits
 * without a deadline, 1 with short deadlines (and so often times out
 * while signals fly), 2 with pthread_cond_clockwait on CLOCK_MONOTONIC
 * and a deadline far enough to be woken by signals only.  */
static void *ci_consumer(void *p)
{
	struct ci_thread *t = p;
	struct cinterop *s = t->s;
	pthread_mutex_lock(&s->m);
	for (;;) {
		while (s->tokens == 0 && s->consumed < s->total) {
			int r;
			if (t->timed == 2) {
				struct timespec ts;
				clock_gettime(CLOCK_MONOTONIC, &ts);
				ts.tv_sec += 60;
				r = pthread_cond_clockwait(&s->tok, &s->m,
							   CLOCK_MONOTONIC, &ts);
			} else if (t->timed) {
				struct timespec ts;
				clock_gettime(CLOCK_REALTIME, &ts);
				ts.tv_nsec += 200000;
				if (ts.tv_nsec >= 1000000000L) {
					ts.tv_sec++;
					ts.tv_nsec -= 1000000000L;
				}
				r = pthread_cond_timedwait(&s->tok, &s->m, &ts);
				if (r == ETIMEDOUT)
					r = 0;
			} else {
				r = pthread_cond_wait(&s->tok, &s->m);
			}
			if (r)
				ci_error(s, &t->errors);
		}
		if (s->consumed == s->total)
			break;
		s->tokens--;
		if (++s->consumed == s->total)
			pthread_cond_broadcast(&s->tok);  /* release the rest */
	}
	pthread_mutex_unlock(&s->m);
	return NULL;
}

static inline void ci_produce(struct cinterop *s, long n)
{
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&s->m);
		s->tokens++;
		s->produced++;
		pthread_cond_signal(&s->tok);
		pthread_mutex_unlock(&s->m);
		if ((i & 7) == 0)
			sched_yield();
	}
}

/* A condvar barrier: the last of n arrivals (any process, any thread)
 * bumps the generation and broadcasts.  */
static inline int ci_gen_wait(struct cinterop *s, long n)
{
	int err = 0;
	pthread_mutex_lock(&s->m);
	if (++s->arrived == n) {
		s->arrived = 0;
		s->gen++;
		err |= pthread_cond_broadcast(&s->gen_cv);
	} else {
		long g = s->gen;
		while (s->gen == g)
			err |= pthread_cond_wait(&s->gen_cv, &s->m);
	}
	pthread_mutex_unlock(&s->m);
	return err;
}

struct ci_gen_thread {
	struct cinterop *s;
	long rounds;
	int errors;
};

static void *ci_gen_thread(void *p)
{
	struct ci_gen_thread *t = p;
	for (long i = 0; i < t->rounds; i++)
		if (ci_gen_wait(t->s, 2 * CI_PARTIES))
			ci_error(t->s, &t->errors);
	return NULL;
}

static inline long ci_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* A timed wait nobody signals times out, no earlier than its deadline,
 * with the mutex held again.  */
static inline int ci_timeout(struct cinterop *s, pthread_cond_t *c,
			     clockid_t clock, int use_clockwait)
{
	int errors = 0;
	struct timespec ts;
	clock_gettime(clock, &ts);
	long t0 = ts.tv_sec * 1000000000L + ts.tv_nsec;
	ts.tv_nsec += 20000000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&s->m);
	int r = use_clockwait ? pthread_cond_clockwait(c, &s->m, clock, &ts)
			      : pthread_cond_timedwait(c, &s->m, &ts);
	if (r != ETIMEDOUT)
		ci_error(s, &errors);
	if (ci_ns(clock) - t0 < 20000000)
		ci_error(s, &errors);
	/* Error-checking mutex: this fails unless we hold it again.  */
	if (pthread_mutex_unlock(&s->m) != 0)
		ci_error(s, &errors);
	return errors;
}

static void ci_cleanup(void *p)
{
	struct ci_thread *t = p;
	/* Cancelled in the wait: the mutex is ours again (error-checking).  */
	if (pthread_mutex_unlock(&t->s->m) != 0)
		ci_error(t->s, &t->errors);
	t->timed = 1;   /* "cleanup ran" */
}

/* Waits forever; cancelled while it waits.  */
static void *ci_cancelled(void *p)
{
	struct ci_thread *t = p;
	struct cinterop *s = t->s;
	pthread_mutex_lock(&s->m);
	s->inside++;
	pthread_cleanup_push(ci_cleanup, t);
	for (;;)
		pthread_cond_wait(&s->tok, &s->m);
	pthread_cleanup_pop(0);
	return NULL;
}

/* Waits for go2; the other party's signals must reach it.  */
static void *ci_waiter2(void *p)
{
	struct ci_thread *t = p;
	struct cinterop *s = t->s;
	pthread_mutex_lock(&s->m);
	s->inside++;
	while (!s->go2)
		if (pthread_cond_wait(&s->tok, &s->m))
			ci_error(s, &t->errors);
	s->woken2++;
	pthread_mutex_unlock(&s->m);
	return NULL;
}

static inline void ci_await_inside(struct cinterop *s, int n)
{
	for (;;) {
		pthread_mutex_lock(&s->m);
		int k = s->inside;
		pthread_mutex_unlock(&s->m);
		if (k >= n)
			return;
		sched_yield();
	}
}

/* Phases both parties run.  */
static inline int ci_run(struct cinterop *s, int me, long rounds)
{
	int errors = 0;

	/* 0: the glibc party initialises its condvars; the libnptl party
	 * made the others.  Each side then uses both kinds.  */
	if (me == 1) {
		ci_init_cond(&s->gen_cv, CLOCK_REALTIME);
		ci_init_cond(&s->mono, CLOCK_MONOTONIC);
		s->total = rounds * CI_PARTIES;
	}
	pthread_barrier_wait(&s->bar);

	/* 1: ping-pong between the two main threads, alternating who waits
	 * and who signals.  */
	pthread_mutex_lock(&s->m);
	for (long i = 0; i < rounds; i++) {
		while (s->turn != me)
			if (pthread_cond_wait(&s->tok, &s->m))
				ci_error(s, &errors);
		s->turn = !me;
		pthread_cond_signal(&s->tok);
	}
	pthread_mutex_unlock(&s->m);
	pthread_barrier_wait(&s->bar);

	/* 2: tokens: a producer and consumers (plain, timed, clock) in each
	 * process on one condvar, signals only.  */
	struct ci_thread ct[CI_CONSUMERS];
	pthread_t th[CI_CONSUMERS];
	for (int i = 0; i < CI_CONSUMERS; i++) {
		ct[i] = (struct ci_thread){ s, 0, i };
		pthread_create(&th[i], NULL, ci_consumer, &ct[i]);
	}
	pthread_barrier_wait(&s->bar);
	ci_produce(s, rounds);
	for (int i = 0; i < CI_CONSUMERS; i++) {
		pthread_join(th[i], NULL);
		errors += ct[i].errors;
	}
	pthread_barrier_wait(&s->bar);
	if (s->produced != s->total || s->consumed != s->total || s->tokens)
		ci_error(s, &errors);

	/* 3: broadcasts: a condvar barrier across two threads in each
	 * process; whoever arrives last broadcasts.  */
	struct ci_gen_thread gt = { s, rounds, 0 };
	pthread_t g;
	pthread_create(&g, NULL, ci_gen_thread, &gt);
	for (long i = 0; i < rounds; i++)
		if (ci_gen_wait(s, 2 * CI_PARTIES))
			ci_error(s, &errors);
	pthread_join(g, NULL);
	errors += gt.errors;
	pthread_barrier_wait(&s->bar);
	if (s->gen != rounds)
		ci_error(s, &errors);

	/* 4: timeouts, both clocks, while the other party waits too.  */
	errors += ci_timeout(s, &s->quiet, CLOCK_REALTIME, 0);
	errors += ci_timeout(s, &s->mono, CLOCK_MONOTONIC, 0);
	errors += ci_timeout(s, &s->quiet, CLOCK_MONOTONIC, 1);
	pthread_barrier_wait(&s->bar);

	/* 5: the glibc party waits; the libnptl party broadcasts and at once
	 * destroys the condvar, which must wait for the waiter to leave.  */
	if (me == 1) {
		pthread_mutex_lock(&s->m);
		s->leaving = 1;
		while (!s->go)
			if (pthread_cond_wait(&s->last, &s->m))
				ci_error(s, &errors);
		pthread_mutex_unlock(&s->m);
	} else {
		for (;;) {
			pthread_mutex_lock(&s->m);
			int w = s->leaving;
			pthread_mutex_unlock(&s->m);
			if (w)
				break;
			sched_yield();
		}
		pthread_mutex_lock(&s->m);
		s->go = 1;
		pthread_cond_broadcast(&s->last);
		if (pthread_cond_destroy(&s->last))
			ci_error(s, &errors);
		pthread_mutex_unlock(&s->m);
	}
	pthread_barrier_wait(&s->bar);

	/* 6: cancellation: in each process one waiter is cancelled in the
	 * wait, next to a waiter in each process that must then be woken by
	 * two signals from the libnptl party.  */
	struct ci_thread c6 = { s, 0, 0 }, w6 = { s, 0, 0 };
	pthread_t tc, tw;
	pthread_create(&tw, NULL, ci_waiter2, &w6);
	pthread_create(&tc, NULL, ci_cancelled, &c6);
	ci_await_inside(s, 2 * CI_PARTIES);
	pthread_barrier_wait(&s->bar);
	pthread_cancel(tc);
	void *res;
	pthread_join(tc, &res);
	if (res != PTHREAD_CANCELED || !c6.timed)
		ci_error(s, &errors);
	errors += c6.errors;
	pthread_barrier_wait(&s->bar);
	if (me == 0) {
		pthread_mutex_lock(&s->m);
		s->go2 = 1;
		pthread_cond_signal(&s->tok);
		pthread_cond_signal(&s->tok);
		pthread_mutex_unlock(&s->m);
	}
	pthread_join(tw, NULL);
	errors += w6.errors;
	pthread_barrier_wait(&s->bar);
	if (s->woken2 != CI_PARTIES)
		ci_error(s, &errors);

	/* 7: ping-pong again, now with a robust mutex, and a timeout with
	 * it (the relock after a wait is the robust mutex's own).  */
	pthread_mutex_lock(&s->mr);
	for (long i = 0; i < rounds; i++) {
		while (s->turn != me)
			if (pthread_cond_wait(&s->tok, &s->mr))
				ci_error(s, &errors);
		s->turn = !me;
		pthread_cond_signal(&s->tok);
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec = (ts.tv_nsec + 1000000) % 1000000000L;
	ts.tv_sec += ts.tv_nsec < 1000000;
	if (pthread_cond_timedwait(&s->quiet, &s->mr, &ts) != ETIMEDOUT)
		ci_error(s, &errors);
	if (pthread_mutex_unlock(&s->mr) != 0)
		ci_error(s, &errors);
	pthread_barrier_wait(&s->bar);
	return errors;
}
