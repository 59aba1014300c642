// SPDX-License-Identifier: LGPL-2.1-or-later
/* pthread_once: one run among racing threads, callers return only after it
 * finished, a cancelled or exited init routine can be run again, and a
 * fork child does not wait for a routine its parent's thread was running. */
#include <pthread.h>
#include <semaphore.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

#define NTHREADS 16
#define ROUNDS 200

/* ---- racing callers ---------------------------------------------------- */

static pthread_once_t race_once;
static int race_runs, race_done;
static pthread_barrier_t race_bar;

static void race_init(void)
{
	__atomic_fetch_add(&race_runs, 1, __ATOMIC_RELAXED);
	/* Give the others time to pile up behind us in the slow path.  */
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	race_done = 1;    /* plain store: pthread_once must publish it */
}

static void *race(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&race_bar);
	CHECK0(pthread_once(&race_once, race_init));
	CHECK(race_done == 1);
	return NULL;
}

/* Many short rounds, to catch lost wake-ups and double runs.  */
static pthread_once_t many_once[ROUNDS];
static int many_runs[ROUNDS];
static int many_seen[ROUNDS];
static int round_no;

static void many_init(void)
{
	int r = __atomic_load_n(&round_no, __ATOMIC_RELAXED);
	many_runs[r]++;
	many_seen[r] = 1;
}

static void *many(void *arg)
{
	int bad = 0;
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&race_bar);
		if (arg == NULL)
			__atomic_store_n(&round_no, r, __ATOMIC_RELAXED);
		pthread_barrier_wait(&race_bar);
		CHECK0(pthread_once(&many_once[r], many_init));
		bad += many_seen[r] != 1;
	}
	CHECK(bad == 0);
	return NULL;
}

/* ---- an init routine that does not return ------------------------------ */

static pthread_once_t cancel_once = PTHREAD_ONCE_INIT;
static int cancel_tries, cancel_done;
static sem_t in_init;
static int leave_by_exit;
static volatile pid_t second_tid;       /* b, about to wait in pthread_once */

static void cancel_init(void)
{
	if (__atomic_add_fetch(&cancel_tries, 1, __ATOMIC_RELAXED) == 1) {
		sem_post(&in_init);
		if (leave_by_exit) {
			t_wait_asleep(&second_tid);     /* leave b waiting */
			pthread_exit(NULL);
		}
		for (;;) {
			struct timespec ts = { 10, 0 };
			nanosleep(&ts, NULL);   /* the cancellation point */
		}
	}
	cancel_done = 1;
}

/* arg: where to store the caller's tid first, or NULL.  */
static void *call_cancel_once(void *arg)
{
	if (arg)
		*(volatile pid_t *)arg = t_tid();
	CHECK0(pthread_once(&cancel_once, cancel_init));
	CHECK(cancel_done == 1);
	return NULL;
}

static void test_abandoned(int by_exit)
{
	pthread_t a, b;
	void *res;

	cancel_once = PTHREAD_ONCE_INIT;
	cancel_tries = cancel_done = 0;
	leave_by_exit = by_exit;
	second_tid = 0;
	CHECK0(pthread_create(&a, NULL, call_cancel_once, NULL));
	while (sem_wait(&in_init) != 0)
		;
	/* b waits for a's run, then must run the routine itself.  */
	CHECK0(pthread_create(&b, NULL, call_cancel_once, (void *)&second_tid));
	if (!by_exit) {
		t_wait_asleep(&second_tid);
		CHECK0(pthread_cancel(a));
	}
	CHECK0(pthread_join(a, &res));
	CHECK(res == (by_exit ? NULL : PTHREAD_CANCELED));
	CHECK0(pthread_join(b, NULL));
	CHECK(cancel_tries == 2);
	CHECK(cancel_done == 1);
	CHECK0(pthread_once(&cancel_once, cancel_init));
	CHECK(cancel_tries == 2);
}

/* ---- fork while a thread runs an init routine -------------------------- */

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static sem_t fork_release;
static int child_ran;

static void fork_parent_init(void)
{
	sem_post(&in_init);
	while (sem_wait(&fork_release) != 0)
		;
}

static void fork_child_init(void)
{
	child_ran = 1;
}

static void *call_fork_once(void *arg)
{
	(void)arg;
	CHECK0(pthread_once(&fork_once, fork_parent_init));
	return NULL;
}

static void test_fork(void)
{
	pthread_t a;
	CHECK0(sem_init(&fork_release, 0, 0));
	CHECK0(pthread_create(&a, NULL, call_fork_once, NULL));
	while (sem_wait(&in_init) != 0)
		;
	pid_t pid = fork();
	if (pid == 0) {
		alarm(10);
		pthread_once(&fork_once, fork_child_init);
		_exit(child_ran ? 0 : 1);
	}
	CHECK(pid > 0);
	int st = 0;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* The parent's run is still in progress and must finish normally.  */
	sem_post(&fork_release);
	CHECK0(pthread_join(a, NULL));
	CHECK0(pthread_once(&fork_once, fork_child_init));
	CHECK(child_ran == 0);
}

int main(void)
{
	pthread_t t[NTHREADS];

	alarm(60);
	CHECK(race_once == PTHREAD_ONCE_INIT);
	CHECK0(pthread_barrier_init(&race_bar, NULL, NTHREADS));
	for (int i = 0; i < NTHREADS; i++)
		CHECK0(pthread_create(&t[i], NULL, race, NULL));
	for (int i = 0; i < NTHREADS; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK(race_runs == 1);
	CHECK0(pthread_once(&race_once, race_init));
	CHECK(race_runs == 1);

	for (int i = 0; i < NTHREADS; i++)
		CHECK0(pthread_create(&t[i], NULL, many, i ? &t[i] : NULL));
	for (int i = 0; i < NTHREADS; i++)
		CHECK0(pthread_join(t[i], NULL));
	int bad = 0;
	for (int r = 0; r < ROUNDS; r++)
		bad += many_runs[r] != 1;
	CHECK(bad == 0);

	CHECK0(sem_init(&in_init, 0, 0));
	test_abandoned(0);
	test_abandoned(1);
	test_fork();
	return t_done();
}
