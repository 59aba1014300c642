// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sync: the synchronization benchmark.  One row per run:
 *
 *   sync -r ROW [-t MS]     run ROW for about MS milliseconds (default 500)
 *   sync -l                 list the rows
 *
 * and one line of key=value fields separated by tabs, e.g.
 *
 *   row=cond-pingpong  value=123456  unit=roundtrips/s  threads=2  ...
 *
 * Rows:
 *   mutex-uncontended    ns per lock+unlock, one thread (lower is better)
 *   mutex-2, -4, -8      lock+unlock/s, N threads on one mutex
 *   mutex-p99            microseconds (lower is better) that a thread
 *                        locking once every 200 us waits for the mutex,
 *                        99th percentile, while 4 threads take it back to
 *                        back (p50=, max=)
 *   mutex-spinpass, mutex-pipepass  mutex-spinpass/2 and mutex-pipepass/2
 *                        of the grid below: one pair
 *   cond-pingpong        round trips/s, 2 threads alternating on a predicate
 *   sem-pingpong         round trips/s, 2 threads and 2 semaphores
 *   rwlock-read-1, -2, -4  rdlock+unlock/s with N readers
 *   rwlock-read-4-writer total ops/s of 4 readers + 1 writer (writer=: its own)
 *   rwlock-reader-p99    microseconds (lower is better) that a thread
 *                        reading once every 200 us waits for its rdlock,
 *                        99th percentile, while 4 threads take the lock
 *                        back to back with 10 % writes (p50=, max=)
 *   barrier-2, -4        rounds/s of N threads on one barrier
 *   cond-pingpong-8pairs total round trips/s of 8 independent pairs
 *
 * and the many-core grid (bench/run-grid), each at any thread count T:
 *   mutex/T              lock+unlock/s, T threads on one mutex
 *   mutex-xW/T           the same with W steps of a generator between
 *                        operations, outside the lock
 *   mutex-spinpass/T     round trips/s of T/2 pairs that pass a turn by a
 *                        spinning wait on a flag and take their mutex
 *                        every move, passing the turn while they hold it
 *   mutex-pipepass/T     the same, the turn passed through a pipe
 *   cond-textbook/T      round trips/s of T/2 pairs written the way most
 *                        programs are: one condvar per pair, a predicate
 *                        loop, lock and unlock every round, signal under
 *                        the lock
 *   cond-pingpong/T      round trips/s of T/2 pairs of the shape above
 *                        (two condvars, mutex held across the loop)
 *   sem-pingpong/T       round trips/s of T/2 semaphore pairs
 *   rwlock-wP/T          ops/s of T threads on one rwlock, each operation a
 *                        write with probability P per million, else a read
 *                        (rwlock-w0/T: readers only)
 *   rwlock-wPxW/T        the same with W steps of the generator between
 *                        operations, outside the lock: a program's own
 *                        work, which the threads can do in parallel
 *   barrier/T            rounds/s of T threads on one barrier
 *   create-join/T        threads/s: T threads each creating and joining a
 *                        thread in a loop
 *
 * The same source is linked with libnptl and with glibc; it uses nothing
 * but <pthread.h> and <semaphore.h> from the thread library (the start
 * gate is a raw futex), so the two builds differ only in the primitives
 * measured.  Every row checks an invariant of what it measured (exit 1 if
 * broken): a fast wrong answer is not a result.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 256

static void usage(void)
{
	fprintf(stderr, "usage: sync -r ROW [-t MS] | sync -l | sync -g\n");
	exit(2);
}

/* One per thread, each on its own cache line so that counting does not
 * itself contend. */
struct worker {
	pthread_t thread;
	int id;
	void *arg;		/* the row's shared state (a pair, ...) */
	long ops;
	long bad;		/* invariant violations seen */
} __attribute__((aligned(64)));

static struct worker workers[MAX_THREADS];
static long opt_ms = 500;

/* The start gate and the stop flag.  They are futexes and atomics, not
 * the library's primitives, so that only the measured calls differ. */
static int ready;
static int go;
static int stop;

static void futex_wait(int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(int *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static void await_go(void)
{
	if (__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST) == 0)
		futex_wake(&ready, 1);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		futex_wait(&go, 0);
}

static int stopped(void)
{
	return __atomic_load_n(&stop, __ATOMIC_ACQUIRE);
}

static void die(const char *what, int err)
{
	fprintf(stderr, "sync: %s: %s\n", what, strerror(err));
	exit(1);
}

/* Wrap a pthread call that returns an error number.  The check costs the
 * same in both builds. */
#define MUST(call) do { int e_ = (call); if (e_) die(#call, e_); } while (0)

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000L };

	while (nanosleep(&t, &t) == -1 && errno == EINTR)
		;
}

/* Start n workers running fn, let them all go at once, stop them after
 * opt_ms and join them.  Returns the seconds from go to the last join. */
static double run_workers(int n, void *(*fn)(void *))
{
	double t0, t1;

	ready = -n;
	for (int i = 0; i < n; i++) {
		workers[i].id = i;
		MUST(pthread_create(&workers[i].thread, NULL, fn, &workers[i]));
	}
	for (int r; (r = __atomic_load_n(&ready, __ATOMIC_ACQUIRE)) != 0;)
		futex_wait(&ready, r);

	t0 = now();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	futex_wake(&go, INT_MAX);
	sleep_ms(opt_ms);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < n; i++)
		MUST(pthread_join(workers[i].thread, NULL));
	t1 = now();
	return t1 - t0;
}

static long sum(int from, int to, size_t field)
{
	long s = 0;

	for (int i = from; i < to; i++)
		s += *(long *)((char *)&workers[i] + field);
	return s;
}

#define SUM_OPS(from, to) sum(from, to, offsetof(struct worker, ops))
#define SUM_BAD(from, to) sum(from, to, offsetof(struct worker, bad))

static void report(const char *row, double value, const char *unit,
		   int threads, long ops, double secs, const char *extra)
{
	printf("row=%s\tvalue=%.*f\tunit=%s\tthreads=%d\tops=%ld\tsecs=%.3f%s\n",
	       row, value < 1000 ? 2 : 0, value, unit, threads, ops, secs,
	       extra ? extra : "");
}

/* ------------------------------------------------------------------ mutex */

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static long mutex_count;	/* protected by mutex */

/* Keeps the process multi-threaded while the uncontended row runs alone:
 * that is where locks are used, and a library may take shortcuts while it
 * has a single thread. */
static void *idle_thread(void *arg)
{
	(void)arg;
	while (!stopped())
		futex_wait(&stop, 0);
	return NULL;
}

static void mutex_uncontended(const char *row)
{
	pthread_t idle;
	long ops = 0;
	double t0, t1;

	MUST(pthread_create(&idle, NULL, idle_thread, NULL));
	t0 = now();
	do {
		for (int i = 0; i < 10000; i++) {
			MUST(pthread_mutex_lock(&mutex));
			mutex_count++;
			MUST(pthread_mutex_unlock(&mutex));
		}
		ops += 10000;
		t1 = now();
	} while (t1 - t0 < opt_ms / 1000.0);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	futex_wake(&stop, INT_MAX);
	MUST(pthread_join(idle, NULL));
	if (mutex_count != ops) {
		fprintf(stderr, "sync: %s: count %ld != %ld\n", row,
			mutex_count, ops);
		exit(1);
	}
	report(row, (t1 - t0) * 1e9 / ops, "ns/op", 1, ops, t1 - t0, NULL);
}

/* STEPS steps of a xorshift generator: the rows' per-thread randomness
 * and their work outside the lock; it costs the same in both builds. */
static uint64_t xorshift(uint64_t x, unsigned long steps)
{
	for (unsigned long i = 0; i < steps; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

static unsigned long mutex_work;	/* mutex-xW: W */

/* A tiny critical section: one increment of a shared counter; for
 * mutex-xW/T, W steps of a generator before it, outside the lock. */
static void *mutex_worker(void *arg)
{
	struct worker *w = arg;
	uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(w->id + 1);
	long ops = 0;

	await_go();
	while (!stopped()) {
		x = xorshift(x, mutex_work);
		MUST(pthread_mutex_lock(&mutex));
		mutex_count++;
		MUST(pthread_mutex_unlock(&mutex));
		ops++;
	}
	w->ops = ops;
	w->arg = (void *)(uintptr_t)x;	/* keeps the work from being dropped */
	return NULL;
}

/* The operations of workers [0, n), each of which incremented
 * mutex_count under the mutex once: exit 1 unless they add up, as the
 * unprotected increment does only under exclusion. */
static long mutex_ops_checked(const char *row, int n)
{
	long ops = SUM_OPS(0, n);

	if (mutex_count != ops) {
		fprintf(stderr, "sync: %s: count %ld != %ld ops: exclusion "
			"broken\n", row, mutex_count, ops);
		exit(1);
	}
	return ops;
}

static void mutex_contended(const char *row, int n)
{
	double secs = run_workers(n, mutex_worker);
	long ops = mutex_ops_checked(row, n);

	report(row, ops / secs, "ops/s", n, ops, secs, NULL);
}

/* Pairs that pass a turn back and forth by other means than the mutex,
 * a spinning wait on a flag (mutex-spinpass) or a pipe (mutex-pipepass),
 * and take the pair's mutex every turn: they pass the turn on while they
 * hold it and do some work before they unlock, so the other side's lock
 * finds it taken, round after round.  Two threads handing work to each
 * other, not a crowd of threads: a library that parks the loser for long
 * makes every round wait. */
struct pass_pair {
	pthread_mutex_t m;
	int turn;		/* spinpass: whose move, 0 or 1 */
	int done;		/* spinpass: side 0 ended the game */
	int fd[2][2];		/* pipepass: fd[i] carries the moves to side i */
	long moves[2];		/* under m */
} __attribute__((aligned(64)));

static struct pass_pair pass_pairs[MAX_THREADS / 2];
static int pass_by_pipe;
static unsigned long pass_work;	/* generator steps under the lock */

/* Wait for our move; false when the game is over. */
static int pass_await(struct pass_pair *p, int me)
{
	if (pass_by_pipe) {
		char c;
		ssize_t r;
		while ((r = read(p->fd[me][0], &c, 1)) == -1 && errno == EINTR)
			;
		if (r != 1)
			die("read", r ? errno : EPIPE);
		return c != 'q';
	}
	for (unsigned n = 1; __atomic_load_n(&p->turn, __ATOMIC_ACQUIRE) != me; n++)
		if (n % 128 == 0)
			sched_yield();	/* the pairs may outnumber the CPUs */
	return !__atomic_load_n(&p->done, __ATOMIC_RELAXED);
}

static void pass_give(struct pass_pair *p, int to, int quit)
{
	if (pass_by_pipe) {
		char c = quit ? 'q' : 'm';
		if (write(p->fd[to][1], &c, 1) != 1)
			die("write", errno);
		return;
	}
	if (quit)
		__atomic_store_n(&p->done, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&p->turn, to, __ATOMIC_RELEASE);
}

/* Workers 2i and 2i+1 are pair i; side 0 moves first and ends the game. */
static void *pass_worker(void *arg)
{
	struct worker *w = arg;
	struct pass_pair *p = &pass_pairs[w->id / 2];
	int me = w->id % 2;
	uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(w->id + 1);
	long moves = 0;

	await_go();
	while (pass_await(p, me)) {
		if (me == 0 && stopped()) {
			pass_give(p, 1, 1);
			break;
		}
		MUST(pthread_mutex_lock(&p->m));
		p->moves[me]++;
		pass_give(p, !me, 0);
		x = xorshift(x, pass_work);
		MUST(pthread_mutex_unlock(&p->m));
		moves++;
	}
	w->ops = moves;
	w->arg = (void *)(uintptr_t)x;
	return NULL;
}

static void mutex_pass(const char *row, int pairs, int by_pipe)
{
	long trips = 0;
	double secs;

	pass_by_pipe = by_pipe;
	/* A pipe wakes its reader in microseconds: the work under the lock
	 * has to outlast that for the reader's lock to find it taken. */
	pass_work = by_pipe ? 2000 : 50;
	for (int i = 0; i < pairs; i++) {
		struct pass_pair *p = &pass_pairs[i];
		MUST(pthread_mutex_init(&p->m, NULL));
		p->turn = p->done = 0;
		p->moves[0] = p->moves[1] = 0;
		if (by_pipe) {
			char c = 'm';
			if (pipe(p->fd[0]) || pipe(p->fd[1]))
				die("pipe", errno);
			if (write(p->fd[0][1], &c, 1) != 1)
				die("write", errno);
		}
	}
	secs = run_workers(2 * pairs, pass_worker);
	for (int i = 0; i < pairs; i++) {
		struct pass_pair *p = &pass_pairs[i];
		long a = workers[2 * i].ops, b = workers[2 * i + 1].ops;
		/* Strict alternation, side 0 first. */
		if (a != p->moves[0] || b != p->moves[1] || (a != b && a != b + 1)) {
			fprintf(stderr, "sync: %s: pair %d: %ld and %ld moves\n",
				row, i, a, b);
			exit(1);
		}
		trips += b;
		if (by_pipe)
			for (int k = 0; k < 4; k++)
				close(p->fd[k / 2][k % 2]);
	}
	report(row, trips / secs, "roundtrips/s", 2 * pairs, trips, secs,
	       NULL);
}

/* ---------------------------------------------------------------- condvar */

/* Strict alternation: A may run when turn is 0, B when it is 1; A ends
 * the game with 2.  Each side waits on its own condvar and signals the
 * other's while it holds the mutex, the common way to write it. */
struct cond_pair {
	pthread_mutex_t m;
	pthread_cond_t to_a, to_b;
	int turn;
} __attribute__((aligned(64)));

static struct cond_pair cond_pairs[MAX_THREADS / 2];

static void *cond_a(void *arg)
{
	struct worker *w = arg;
	struct cond_pair *p = w->arg;
	long trips = 0;

	await_go();
	MUST(pthread_mutex_lock(&p->m));
	for (;;) {
		while (p->turn != 0)
			MUST(pthread_cond_wait(&p->to_a, &p->m));
		if (stopped()) {
			p->turn = 2;
			MUST(pthread_cond_signal(&p->to_b));
			break;
		}
		p->turn = 1;
		MUST(pthread_cond_signal(&p->to_b));
		trips++;
	}
	MUST(pthread_mutex_unlock(&p->m));
	w->ops = trips;
	return NULL;
}

static void *cond_b(void *arg)
{
	struct worker *w = arg;
	struct cond_pair *p = w->arg;
	long turns = 0;

	await_go();
	MUST(pthread_mutex_lock(&p->m));
	for (;;) {
		while (p->turn == 0)
			MUST(pthread_cond_wait(&p->to_b, &p->m));
		if (p->turn == 2)
			break;
		p->turn = 0;
		MUST(pthread_cond_signal(&p->to_a));
		turns++;
	}
	MUST(pthread_mutex_unlock(&p->m));
	w->ops = turns;
	return NULL;
}

/* Workers 2i and 2i+1 are pair i. */
static void *cond_worker(void *arg)
{
	struct worker *w = arg;

	w->arg = &cond_pairs[w->id / 2];
	return w->id % 2 ? cond_b(w) : cond_a(w);
}

static void cond_pingpong(const char *row, int pairs)
{
	long trips = 0;
	double secs;

	for (int i = 0; i < pairs; i++) {
		MUST(pthread_mutex_init(&cond_pairs[i].m, NULL));
		MUST(pthread_cond_init(&cond_pairs[i].to_a, NULL));
		MUST(pthread_cond_init(&cond_pairs[i].to_b, NULL));
		cond_pairs[i].turn = 0;
	}
	secs = run_workers(2 * pairs, cond_worker);
	for (int i = 0; i < pairs; i++) {
		/* A started every trip it counts, B completed each. */
		if (workers[2 * i].ops != workers[2 * i + 1].ops) {
			fprintf(stderr, "sync: %s: pair %d: %ld trips out, "
				"%ld back\n", row, i, workers[2 * i].ops,
				workers[2 * i + 1].ops);
			exit(1);
		}
		trips += workers[2 * i].ops;
	}
	report(row, trips / secs, "roundtrips/s", 2 * pairs, trips, secs,
	       NULL);
}

/* The textbook shape: both sides of a pair wait on one condvar, each
 * round takes and drops the mutex and signals under it. */
struct textbook_pair {
	pthread_mutex_t m;
	pthread_cond_t c;
	int turn;		/* whose move: 0 or 1; 2 ends the game */
	long moves[2];
} __attribute__((aligned(64)));

static struct textbook_pair textbook_pairs[MAX_THREADS / 2];

static void *textbook_worker(void *arg)
{
	struct worker *w = arg;
	struct textbook_pair *p = &textbook_pairs[w->id / 2];
	int me = w->id % 2;
	long moves = 0;

	await_go();
	for (;;) {
		MUST(pthread_mutex_lock(&p->m));
		while (p->turn != me && p->turn != 2)
			MUST(pthread_cond_wait(&p->c, &p->m));
		if (p->turn == 2 || (me == 0 && stopped())) {
			p->turn = 2;
			MUST(pthread_cond_signal(&p->c));
			MUST(pthread_mutex_unlock(&p->m));
			break;
		}
		p->turn = !me;
		p->moves[me]++;
		MUST(pthread_cond_signal(&p->c));
		MUST(pthread_mutex_unlock(&p->m));
		moves++;
	}
	w->ops = moves;
	return NULL;
}

static void cond_textbook(const char *row, int pairs)
{
	long trips = 0;
	double secs;

	for (int i = 0; i < pairs; i++) {
		MUST(pthread_mutex_init(&textbook_pairs[i].m, NULL));
		MUST(pthread_cond_init(&textbook_pairs[i].c, NULL));
		textbook_pairs[i].turn = 0;
		textbook_pairs[i].moves[0] = textbook_pairs[i].moves[1] = 0;
	}
	secs = run_workers(2 * pairs, textbook_worker);
	for (int i = 0; i < pairs; i++) {
		long a = workers[2 * i].ops, b = workers[2 * i + 1].ops;
		/* Strict alternation, A first: A moved as often as B, or once
		 * more when it stopped the game after its own move. */
		if (a != textbook_pairs[i].moves[0] ||
		    b != textbook_pairs[i].moves[1] || (a != b && a != b + 1)) {
			fprintf(stderr, "sync: %s: pair %d: %ld and %ld moves\n",
				row, i, a, b);
			exit(1);
		}
		trips += b;
	}
	report(row, trips / secs, "roundtrips/s", 2 * pairs, trips, secs,
	       NULL);
}

/* -------------------------------------------------------------- semaphore */

struct sem_pair {
	sem_t ping, pong;
	int done;
} __attribute__((aligned(64)));

static struct sem_pair sem_pairs[MAX_THREADS / 2];

static void sem_wait_intr(sem_t *s)
{
	while (sem_wait(s) == -1)
		if (errno != EINTR)
			die("sem_wait", errno);
}

/* Workers 2i and 2i+1 are pair i. */
static void *sem_worker(void *arg)
{
	struct worker *w = arg;
	struct sem_pair *p = &sem_pairs[w->id / 2];
	long ops = 0;

	await_go();
	if (w->id % 2 == 0) {
		for (;;) {
			if (stopped()) {
				__atomic_store_n(&p->done, 1, __ATOMIC_RELAXED);
				if (sem_post(&p->ping))
					die("sem_post", errno);
				break;
			}
			if (sem_post(&p->ping))
				die("sem_post", errno);
			sem_wait_intr(&p->pong);
			ops++;
		}
	} else {
		for (;;) {
			sem_wait_intr(&p->ping);
			/* sem_post/sem_wait order the flag. */
			if (__atomic_load_n(&p->done, __ATOMIC_RELAXED))
				break;
			if (sem_post(&p->pong))
				die("sem_post", errno);
			ops++;
		}
	}
	w->ops = ops;
	return NULL;
}

static void sem_pingpong(const char *row, int pairs)
{
	double secs;
	long trips = 0;
	int v1, v2;

	for (int i = 0; i < pairs; i++) {
		if (sem_init(&sem_pairs[i].ping, 0, 0) ||
		    sem_init(&sem_pairs[i].pong, 0, 0))
			die("sem_init", errno);
		sem_pairs[i].done = 0;
	}
	secs = run_workers(2 * pairs, sem_worker);
	for (int i = 0; i < pairs; i++) {
		sem_getvalue(&sem_pairs[i].ping, &v1);
		sem_getvalue(&sem_pairs[i].pong, &v2);
		if (workers[2 * i].ops != workers[2 * i + 1].ops || v1 || v2) {
			fprintf(stderr, "sync: %s: pair %d: %ld trips out, "
				"%ld back, values %d %d\n", row, i,
				workers[2 * i].ops, workers[2 * i + 1].ops, v1, v2);
			exit(1);
		}
		trips += workers[2 * i].ops;
	}
	report(row, trips / secs, "roundtrips/s", 2 * pairs, trips, secs,
	       NULL);
}

/* ----------------------------------------------------------------- rwlock */

static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static long rw_a, rw_b;		/* equal whenever the lock is free */
static int rw_readers;		/* workers [0, rw_readers) read */
static unsigned long rw_write_ppm;	/* rwlock-wP: writes per million ops */
static unsigned long rw_work;		/* rwlock-wPxW: W */

static void *rwlock_worker(void *arg)
{
	struct worker *w = arg;
	long ops = 0, bad = 0;

	await_go();
	if (w->id < rw_readers) {
		while (!stopped()) {
			MUST(pthread_rwlock_rdlock(&rwlock));
			bad += rw_a != rw_b;
			MUST(pthread_rwlock_unlock(&rwlock));
			ops++;
		}
	} else {
		while (!stopped()) {
			MUST(pthread_rwlock_wrlock(&rwlock));
			rw_a++;
			rw_b++;
			MUST(pthread_rwlock_unlock(&rwlock));
			ops++;
		}
	}
	w->ops = ops;
	w->bad = bad;
	return NULL;
}

/* rwlock-wP/T: every worker mixes reads and writes; the choice comes from
 * a per-thread xorshift generator, so it costs the same in both builds. */
static void *rwlock_mixed_worker(void *arg)
{
	struct worker *w = arg;
	uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(w->id + 1);
	long ops = 0, bad = 0, writes = 0;

	await_go();
	while (!stopped()) {
		x = xorshift(x, 1 + rw_work);	/* the choice, then the work */
		if (x % 1000000 < rw_write_ppm) {
			MUST(pthread_rwlock_wrlock(&rwlock));
			rw_a++;
			rw_b++;
			MUST(pthread_rwlock_unlock(&rwlock));
			writes++;
		} else {
			MUST(pthread_rwlock_rdlock(&rwlock));
			bad += rw_a != rw_b;
			MUST(pthread_rwlock_unlock(&rwlock));
		}
		ops++;
	}
	w->ops = ops;
	w->bad = bad;
	w->arg = (void *)writes;
	return NULL;
}

/* After n rwlock_mixed_workers (or a row that runs some): the writes they
 * counted, exit 1 if a reader saw a half-done write or writes were lost. */
static long mixed_writes_checked(const char *row, int n)
{
	long writes = 0;

	for (int i = 0; i < n; i++)
		writes += (long)workers[i].arg;
	if (SUM_BAD(0, n) || rw_a != writes || rw_b != writes) {
		fprintf(stderr, "sync: %s: a reader saw a writer's half-done "
			"update (%ld times), or writes were lost\n", row,
			SUM_BAD(0, n));
		exit(1);
	}
	return writes;
}

static void rwlock_mixed(const char *row, int n, unsigned long ppm)
{
	rw_write_ppm = ppm;
	double secs = run_workers(n, rwlock_mixed_worker);
	long writes = mixed_writes_checked(row, n);
	char extra[64];
	snprintf(extra, sizeof extra, "\twrites=%ld", writes);
	report(row, SUM_OPS(0, n) / secs, "ops/s", n, SUM_OPS(0, n), secs, extra);
}

/* rwlock-reader-p99: workers 0-3 as rwlock-w100000/4, worker 4 reads
 * once every 200 us and times each rdlock. */
#define LAT_MAX 100000
static double lat_us[LAT_MAX];
static long lat_n;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The sampling thread of the p99 rows: once every 200 us, the wait for
 * the lock, from before visit(w) to the time visit returns, which it
 * reads as soon as it holds the lock.  */
static void lat_samples(struct worker *w, double (*visit)(struct worker *))
{
	await_go();
	while (!stopped() && lat_n < LAT_MAX) {
		struct timespec ts = { 0, 200000 };
		nanosleep(&ts, NULL);
		double t0 = now();
		lat_us[lat_n++] = (visit(w) - t0) * 1e6;
	}
	w->ops = lat_n;
}

static double rwlock_visit(struct worker *w)
{
	MUST(pthread_rwlock_rdlock(&rwlock));
	double t = now();
	w->bad += rw_a != rw_b;
	MUST(pthread_rwlock_unlock(&rwlock));
	return t;
}

static void *rwlock_lat_worker(void *arg)
{
	struct worker *w = arg;
	if (w->id < 4)
		return rwlock_mixed_worker(arg);
	lat_samples(w, rwlock_visit);
	w->arg = (void *)0L;	/* no writes */
	return NULL;
}

/* The 99th percentile of lat_us as the row's value, with p50 and max.  */
static void report_p99(const char *row, int threads, double secs)
{
	if (lat_n < 10) {
		fprintf(stderr, "sync: %s: %ld samples, under 10\n", row, lat_n);
		exit(1);
	}
	qsort(lat_us, (size_t)lat_n, sizeof lat_us[0], cmp_double);
	char extra[96];
	snprintf(extra, sizeof extra, "\tp50=%.1f\tmax=%.1f\tsamples=%ld",
		 lat_us[lat_n / 2], lat_us[lat_n - 1], lat_n);
	report(row, lat_us[lat_n * 99 / 100], "us", threads,
	       SUM_OPS(0, threads), secs, extra);
}

static void rwlock_reader_p99(const char *row)
{
	rw_write_ppm = 100000;
	double secs = run_workers(5, rwlock_lat_worker);
	mixed_writes_checked(row, 5);
	report_p99(row, 5, secs);
}

/* mutex-p99: the same shape on a mutex: 4 threads take it back to back,
 * the fifth once every 200 us.  */
static double mutex_visit(struct worker *w)
{
	(void)w;
	MUST(pthread_mutex_lock(&mutex));
	double t = now();
	mutex_count++;
	MUST(pthread_mutex_unlock(&mutex));
	return t;
}

static void *mutex_lat_worker(void *arg)
{
	struct worker *w = arg;
	if (w->id < 4)
		return mutex_worker(arg);
	lat_samples(w, mutex_visit);
	return NULL;
}

static void mutex_p99(const char *row)
{
	double secs = run_workers(5, mutex_lat_worker);
	mutex_ops_checked(row, 5);
	report_p99(row, 5, secs);
}

static void rwlock_read(const char *row, int readers, int writers)
{
	char extra[64] = "";
	double secs;
	long ops, wops;

	rw_readers = readers;
	secs = run_workers(readers + writers, rwlock_worker);
	ops = SUM_OPS(0, readers + writers);
	wops = SUM_OPS(readers, readers + writers);
	if (SUM_BAD(0, readers) || rw_a != wops || rw_b != wops) {
		fprintf(stderr, "sync: %s: a reader saw a writer's half-done "
			"update (%ld times), or writes were lost\n", row,
			SUM_BAD(0, readers));
		exit(1);
	}
	/* The default rwlock may prefer readers: whether the writer got
	 * through at all is part of the result. */
	if (writers)
		snprintf(extra, sizeof extra, "\twriter=%.0f", wops / secs);
	report(row, ops / secs, "ops/s", readers + writers, ops, secs, extra);
}

/* ---------------------------------------------------------------- barrier */

static pthread_barrier_t barrier;
static long barrier_end = LONG_MAX;	/* the first round nobody enters */
static int barrier_serial[MAX_THREADS];

/* Every thread must stop after the same round, or the others would wait
 * forever.  Thread 0 alone reads the stop flag and, before it enters round
 * r, ends the game after r; the barrier orders that store before anyone
 * leaves round r, and nobody can be past round r before thread 0 enters
 * it. */
static void *barrier_worker(void *arg)
{
	struct worker *w = arg;
	long r;
	int serial = 0;

	await_go();
	for (r = 0;; r++) {
		if (w->id == 0 && stopped() &&
		    __atomic_load_n(&barrier_end, __ATOMIC_RELAXED) == LONG_MAX)
			__atomic_store_n(&barrier_end, r + 1, __ATOMIC_RELAXED);
		if (r >= __atomic_load_n(&barrier_end, __ATOMIC_RELAXED))
			break;
		int rc = pthread_barrier_wait(&barrier);
		if (rc == PTHREAD_BARRIER_SERIAL_THREAD)
			serial++;
		else if (rc)
			die("pthread_barrier_wait", rc);
	}
	w->ops = r;
	barrier_serial[w->id] = serial;
	return NULL;
}

static void barrier_rounds(const char *row, int n)
{
	long serial = 0;
	double secs;

	MUST(pthread_barrier_init(&barrier, NULL, n));
	secs = run_workers(n, barrier_worker);
	for (int i = 0; i < n; i++)
		serial += barrier_serial[i];
	/* Lockstep: everyone saw every round, each with one serial thread. */
	for (int i = 1; i < n; i++)
		if (workers[i].ops != workers[0].ops)
			serial = -1;
	if (serial != workers[0].ops) {
		fprintf(stderr, "sync: %s: rounds or serial threads do not "
			"add up\n", row);
		exit(1);
	}
	MUST(pthread_barrier_destroy(&barrier));
	report(row, workers[0].ops / secs, "rounds/s", n, workers[0].ops,
	       secs, NULL);
}

/* ------------------------------------------------------------ create-join */

static void *nothing(void *arg)
{
	return arg;
}

static void *create_join_worker(void *arg)
{
	struct worker *w = arg;
	long ops = 0;

	await_go();
	while (!stopped()) {
		pthread_t t;
		void *r;
		MUST(pthread_create(&t, NULL, nothing, w));
		MUST(pthread_join(t, &r));
		if (r != w)
			w->bad++;
		ops++;
	}
	w->ops = ops;
	return NULL;
}

static void create_join(const char *row, int n)
{
	double secs = run_workers(n, create_join_worker);
	if (SUM_BAD(0, n)) {
		fprintf(stderr, "sync: %s: a join returned another thread's "
			"value\n", row);
		exit(1);
	}
	report(row, SUM_OPS(0, n) / secs, "threads/s", n, SUM_OPS(0, n), secs,
	       NULL);
}

/* ------------------------------------------------------------------- rows */

static const char *const grid_kinds[] = {
	"mutex", "mutex-x100", "mutex-spinpass", "cond-textbook",
	"cond-pingpong", "sem-pingpong",
	"rwlock-w0", "rwlock-w1000", "rwlock-w100000", "rwlock-w500000",
	"rwlock-w100000x100", "barrier", "create-join",
};

/* KIND/T: a grid row (bench/run-grid).  Returns 0 if ROW is not one. */
static int grid_row(const char *row)
{
	const char *slash = strrchr(row, '/');
	char *end;
	if (!slash)
		return 0;
	long t = strtol(slash + 1, &end, 10);
	if (!slash[1] || *end || t < 1 || t > MAX_THREADS)
		usage();
	size_t len = (size_t)(slash - row);
	int pairs = t / 2 > 0 ? (int)t / 2 : 1;
	if (!strncmp(row, "mutex", len) && len == 5)
		mutex_contended(row, (int)t);
	else if (!strncmp(row, "mutex-x", 7) && len > 7) {
		mutex_work = strtoul(row + 7, &end, 10);
		if (end != slash || mutex_work > 1000000)
			usage();
		mutex_contended(row, (int)t);
	}
	else if (!strncmp(row, "mutex-spinpass", len) && len == 14)
		mutex_pass(row, pairs, 0);
	else if (!strncmp(row, "mutex-pipepass", len) && len == 14)
		mutex_pass(row, pairs, 1);
	else if (!strncmp(row, "cond-textbook", len) && len == 13)
		cond_textbook(row, pairs);
	else if (!strncmp(row, "cond-pingpong", len) && len == 13)
		cond_pingpong(row, pairs);
	else if (!strncmp(row, "sem-pingpong", len) && len == 12)
		sem_pingpong(row, pairs);
	else if (!strncmp(row, "rwlock-w", 8) && len > 8) {
		unsigned long ppm = strtoul(row + 8, &end, 10);
		rw_work = 0;
		if (*end == 'x' && end[1] >= '0' && end[1] <= '9')
			rw_work = strtoul(end + 1, &end, 10);
		if (end != slash || ppm > 1000000 || rw_work > 1000000)
			usage();
		rwlock_mixed(row, (int)t, ppm);
	} else if (!strncmp(row, "barrier", len) && len == 7)
		barrier_rounds(row, (int)t);
	else if (!strncmp(row, "create-join", len) && len == 11)
		create_join(row, (int)t);
	else
		usage();
	return 1;
}

static const char *const rows[] = {
	"mutex-uncontended", "mutex-2", "mutex-4", "mutex-8", "mutex-p99",
	"mutex-spinpass", "mutex-pipepass",
	"cond-pingpong", "sem-pingpong",
	"rwlock-read-1", "rwlock-read-2", "rwlock-read-4",
	"rwlock-read-4-writer", "rwlock-reader-p99", "barrier-2", "barrier-4",
	"cond-pingpong-8pairs",
};


int main(int argc, char **argv)
{
	const char *row = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l")) {
			for (size_t k = 0; k < sizeof rows / sizeof *rows; k++)
				puts(rows[k]);
			return 0;
		} else if (!strcmp(argv[i], "-g")) {
			for (size_t k = 0; k < sizeof grid_kinds / sizeof *grid_kinds; k++)
				puts(grid_kinds[k]);
			return 0;
		} else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
			row = argv[++i];
		} else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
			char *end;
			opt_ms = strtol(argv[++i], &end, 10);
			if (!*argv[i] || *end || opt_ms < 1 || opt_ms > 600000)
				usage();
		} else {
			usage();
		}
	}
	if (!row)
		usage();

	if (grid_row(row))
		;
	else if (!strcmp(row, "mutex-uncontended"))
		mutex_uncontended(row);
	else if (!strcmp(row, "mutex-2"))
		mutex_contended(row, 2);
	else if (!strcmp(row, "mutex-4"))
		mutex_contended(row, 4);
	else if (!strcmp(row, "mutex-8"))
		mutex_contended(row, 8);
	else if (!strcmp(row, "cond-pingpong"))
		cond_pingpong(row, 1);
	else if (!strcmp(row, "cond-pingpong-8pairs"))
		cond_pingpong(row, 8);
	else if (!strcmp(row, "sem-pingpong"))
		sem_pingpong(row, 1);
	else if (!strcmp(row, "rwlock-read-1"))
		rwlock_read(row, 1, 0);
	else if (!strcmp(row, "rwlock-read-2"))
		rwlock_read(row, 2, 0);
	else if (!strcmp(row, "rwlock-read-4"))
		rwlock_read(row, 4, 0);
	else if (!strcmp(row, "rwlock-read-4-writer"))
		rwlock_read(row, 4, 1);
	else if (!strcmp(row, "rwlock-reader-p99"))
		rwlock_reader_p99(row);
	else if (!strcmp(row, "mutex-p99"))
		mutex_p99(row);
	else if (!strcmp(row, "mutex-spinpass"))
		mutex_pass(row, 1, 0);
	else if (!strcmp(row, "mutex-pipepass"))
		mutex_pass(row, 1, 1);
	else if (!strcmp(row, "barrier-2"))
		barrier_rounds(row, 2);
	else if (!strcmp(row, "barrier-4"))
		barrier_rounds(row, 4);
	else
		usage();
	return 0;
}
