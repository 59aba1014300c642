// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A plain C program (built without libnptl) for tests/programs.sh: POSIX
 * semaphores and cancellation.  A ring buffer guarded by two unnamed
 * semaphores carries numbers from 3 producers to 3 consumers; a named
 * semaphore (sem_open) counts finished consumers; a thread blocked in
 * sem_wait and one blocked in sem_timedwait are cancelled (their cleanup
 * handlers run), and a deferred cancellation at pthread_testcancel.  The
 * output does not depend on scheduling.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define RING 8
#define PER_PRODUCER 20000
#define NPROD 3
#define NCONS 3

static unsigned ring[RING];
static unsigned head, tail;
static sem_t slots, items, lock;
static sem_t *finished;
static unsigned long long sums[NCONS];
static int cleanups;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void *producer(void *arg)
{
	unsigned base = (unsigned)(uintptr_t)arg * 1000000u;
	for (unsigned i = 1; i <= PER_PRODUCER; i++) {
		while (sem_wait(&slots) != 0)
			if (errno != EINTR)
				die("sem_wait");
		sem_wait(&lock);
		ring[head++ % RING] = base + i;
		sem_post(&lock);
		sem_post(&items);
	}
	return NULL;
}

/* A consumer takes items until it takes a 0 (the end marker). */
static void *consumer(void *arg)
{
	unsigned long long *sum = arg;
	for (;;) {
		while (sem_wait(&items) != 0)
			if (errno != EINTR)
				die("sem_wait");
		sem_wait(&lock);
		unsigned v = ring[tail++ % RING];
		sem_post(&lock);
		sem_post(&slots);
		if (v == 0)
			break;
		*sum += v;
	}
	sem_post(finished);
	return NULL;
}

static void cleanup(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&cleanups, 1, __ATOMIC_SEQ_CST);
}

static sem_t never;
static volatile pid_t blocked_tid[2];   /* stored right before the wait */

static void *blocked(void *arg)
{
	int timed = arg != NULL;
	pthread_cleanup_push(cleanup, NULL);
	if (timed) {
		struct timespec dl;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += 60;
		blocked_tid[1] = (pid_t)syscall(SYS_gettid);
		sem_timedwait(&never, &dl);
	} else {
		blocked_tid[0] = (pid_t)syscall(SYS_gettid);
		sem_wait(&never);
	}
	pthread_cleanup_pop(0);
	return (void *)1;
}

/* Wait until the thread whose tid is in *tid sleeps in the kernel (state
 * S or D in /proc/self/task/TID/stat): blocked in its wait, however slow
 * the machine.  */
static void wait_asleep(volatile pid_t *tid)
{
	for (int i = 0; i < 20000; i++) {       /* 20 s */
		if (*tid > 0) {
			char path[64], buf[512];
			snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)*tid);
			FILE *f = fopen(path, "r");
			size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
			if (f)
				fclose(f);
			buf[n] = 0;
			char *p = strrchr(buf, ')');    /* the name may hold anything */
			if (p && p[1] == ' ' && (p[2] == 'S' || p[2] == 'D'))
				return;
		}
		usleep(1000);
	}
	fprintf(stderr, "thread %d never blocked\n", (int)*tid);
	exit(2);
}

static volatile int spin_go;

static void *testcancel(void *arg)
{
	(void)arg;
	pthread_cleanup_push(cleanup, NULL);
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, NULL);
	while (!__atomic_load_n(&spin_go, __ATOMIC_SEQ_CST))
		pthread_testcancel();
	pthread_cleanup_pop(0);
	return (void *)1;
}

int main(void)
{
	pthread_t prod[NPROD], cons[NCONS], t[3];
	char name[64];
	int ok = 1;

	if (sem_init(&slots, 0, RING) || sem_init(&items, 0, 0) ||
	    sem_init(&lock, 0, 1) || sem_init(&never, 0, 0))
		die("sem_init");
	snprintf(name, sizeof name, "/programs-sem-%ld", (long)getpid());
	finished = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	if (finished == SEM_FAILED)
		die("sem_open");
	sem_unlink(name);

	for (int i = 0; i < NCONS; i++)
		if (pthread_create(&cons[i], NULL, consumer, &sums[i]))
			die("pthread_create");
	for (int i = 0; i < NPROD; i++)
		if (pthread_create(&prod[i], NULL, producer, (void *)(uintptr_t)(i + 1)))
			die("pthread_create");
	for (int i = 0; i < NPROD; i++)
		pthread_join(prod[i], NULL);
	/* One end marker per consumer. */
	for (int i = 0; i < NCONS; i++) {
		sem_wait(&slots);
		sem_wait(&lock);
		ring[head++ % RING] = 0;
		sem_post(&lock);
		sem_post(&items);
	}
	for (int i = 0; i < NCONS; i++)
		sem_wait(finished);
	for (int i = 0; i < NCONS; i++)
		pthread_join(cons[i], NULL);
	unsigned long long total = 0, want = 0;
	for (int i = 0; i < NCONS; i++)
		total += sums[i];
	for (unsigned p = 1; p <= NPROD; p++)
		want += (unsigned long long)p * 1000000u * PER_PRODUCER +
			(unsigned long long)PER_PRODUCER * (PER_PRODUCER + 1) / 2;
	int fv = -1;
	sem_getvalue(finished, &fv);
	sem_close(finished);
	printf("semaphores: %d items, sum %llu (%s), named semaphore value %d\n",
	       NPROD * PER_PRODUCER, total, total == want ? "matches" : "MISMATCH", fv);
	ok &= total == want && fv == 0;

	/* Cancellation: sem_wait, sem_timedwait, pthread_testcancel. */
	if (pthread_create(&t[0], NULL, blocked, NULL) ||
	    pthread_create(&t[1], NULL, blocked, (void *)1) ||
	    pthread_create(&t[2], NULL, testcancel, NULL))
		die("pthread_create");
	wait_asleep(&blocked_tid[0]);
	wait_asleep(&blocked_tid[1]);
	int canceled = 0;
	for (int i = 0; i < 3; i++) {
		void *r;
		pthread_cancel(t[i]);
		pthread_join(t[i], &r);
		canceled += r == PTHREAD_CANCELED;
	}
	int v = -1;
	sem_getvalue(&never, &v);
	printf("cancellation: %d of 3 threads canceled, %d cleanup handler(s) ran, value %d\n",
	       canceled, cleanups, v);
	ok &= canceled == 3 && cleanups == 3 && v == 0;

	printf("programs-sem: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
