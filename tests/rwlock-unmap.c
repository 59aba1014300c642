/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A rwlock may go away as soon as nobody holds it or waits on it, even
 * while the thread whose unlock let the last waiter in is still inside
 * pthread_rwlock_unlock: its unlock must not touch the lock after the
 * release.  Each round maps a page for a fresh lock; the main thread
 * holds it, a waiter blocks on it (write or read, both kinds), the main
 * thread unlocks, and the waiter, once it has had the lock, destroys it
 * and unmaps the page at once.  An unlock that reads the lock after its
 * release (to decide its futex wakes, say) dies of SIGSEGV here.  */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "t.h"

#define ROUNDS 1500

static pthread_rwlock_t *volatile cur;
static volatile int cur_read;           /* the waiter read-locks */
static sem_t go, done;
static long page;

static void *waiter(void *arg)
{
	(void)arg;
	for (;;) {
		while (sem_wait(&go) != 0)
			CHECK(errno == EINTR);
		pthread_rwlock_t *l = cur;
		if (!l)
			return NULL;
		if (cur_read)
			CHECK0(pthread_rwlock_rdlock(l));
		else
			CHECK0(pthread_rwlock_wrlock(l));
		CHECK0(pthread_rwlock_unlock(l));
		CHECK0(pthread_rwlock_destroy(l));
		CHECK(munmap(l, (size_t)page) == 0);
		CHECK0(sem_post(&done));
	}
}

static void round_(int kind, int read, int i)
{
	pthread_rwlock_t *l = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(l != MAP_FAILED);
	if (l == MAP_FAILED)
		exit(t_done());
	pthread_rwlockattr_t a;
	CHECK0(pthread_rwlockattr_init(&a));
	CHECK0(pthread_rwlockattr_setkind_np(&a, kind));
	CHECK0(pthread_rwlock_init(l, &a));
	CHECK0(pthread_rwlockattr_destroy(&a));
	CHECK0(pthread_rwlock_wrlock(l));
	cur = l;
	cur_read = read;
	CHECK0(sem_post(&go));
	/* Mostly let the waiter reach its sleep (the slow path); now and
	 * then unlock at once, while it may still be on its way.  */
	if (i % 4)
		usleep(200);
	CHECK0(pthread_rwlock_unlock(l));
	while (sem_wait(&done) != 0)
		CHECK(errno == EINTR);
}

int main(void)
{
	page = sysconf(_SC_PAGESIZE);
	CHECK0(sem_init(&go, 0, 0));
	CHECK0(sem_init(&done, 0, 0));
	pthread_t t;
	CHECK0(pthread_create(&t, NULL, waiter, NULL));
	static const int kinds[] = {
		PTHREAD_RWLOCK_PREFER_READER_NP,
		PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP,
	};
	for (int i = 0; i < ROUNDS; i++)
		round_(kinds[i % 2], (i / 2) % 2, i);
	cur = NULL;
	CHECK0(sem_post(&go));
	CHECK0(pthread_join(t, NULL));
	return t_done();
}
