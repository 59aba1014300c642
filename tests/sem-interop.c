// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A libnptl process and a glibc process (sem-interop-peer, built without
 * libnptl) on the same process-shared semaphores: ping-pong where each
 * side sleeps on the other's post, a glibc-initialized semaphore used by
 * libnptl, then both processes' threads contending on a pool of tokens and
 * on a producer/consumer semaphore.  Every count must come out exact and
 * no waiter may stay registered.  libnptl only.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"
#include "sem-interop.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static uint64_t data(sem_t *s)
{
	return __atomic_load_n((uint64_t *)s, __ATOMIC_SEQ_CST);
}

int main(void)
{
	if (!t_on_libnptl())
		SKIP("libnptl is not loaded");
	const char *dir = getenv("NPTL_TEST_BUILDDIR");
	if (!dir)
		SKIP("NPTL_TEST_BUILDDIR is not set");
	char peer[4096];
	snprintf(peer, sizeof(peer), "%s/tests/sem-interop-peer-glibc", dir);

	int fd = memfd_create("sem-interop", 0);
	if (fd < 0 || ftruncate(fd, sizeof(struct iop)))
		FATAL("memfd");
	struct iop *m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE,
			     MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		FATAL("mmap");
	CHECK(sem_init(&m->ping, 1, 0) == 0);
	memset(&m->pong, 0xaa, sizeof(m->pong));
	CHECK(sem_init(&m->pool, 1, IOP_K) == 0);
	CHECK(sem_init(&m->items, 1, 0) == 0);
	CHECK(sem_init(&m->start, 1, 0) == 0);
	CHECK(sem_init(&m->finished, 1, 0) == 0);

	pid_t pid = fork();
	if (pid == 0) {
		char a[16];
		snprintf(a, sizeof(a), "%d", fd);
		execl(peer, peer, a, (char *)NULL);
		_exit(127);
	}
	struct timespec dl = iop_in_ms(CLOCK_REALTIME, 10000);
	if (sem_timedwait(&m->start, &dl) != 0) {
		kill(pid, SIGKILL);
		FATAL("peer did not start (%s)", peer);
	}
	CHECK(((int *)&m->pong)[2] == 128);

	double t0 = now();
	for (int i = 0; i < IOP_ROUNDS; i++) {
		CHECK(sem_post(&m->ping) == 0);
		dl = iop_in_ms(CLOCK_REALTIME, 10000);
		if (sem_timedwait(&m->pong, &dl) != 0) {
			CHECK(!"peer stopped answering");
			kill(pid, SIGKILL);
			break;
		}
	}
	double pp = now() - t0;
	CHECK(data(&m->ping) == 0);
	CHECK(data(&m->pong) == 0);

	t0 = now();
	CHECK(sem_post(&m->start) == 0);
	/* Our half of the stress; the pool users stop after the items are
	 * all consumed and a little more time has passed.  */
	pthread_t pt[IOP_THREADS], ct[IOP_THREADS];
	for (int i = 0; i < IOP_THREADS; i++) {
		CHECK0(pthread_create(&pt[i], NULL, iop_pool_user, m));
		CHECK0(pthread_create(&ct[i], NULL, iop_consumer, m));
	}
	iop_produce(m);
	for (int i = 0; i < IOP_THREADS; i++)
		CHECK0(pthread_join(ct[i], NULL));
	usleep(200000);
	__atomic_store_n(&m->stop, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < IOP_THREADS; i++)
		CHECK0(pthread_join(pt[i], NULL));
	dl = iop_in_ms(CLOCK_REALTIME, 20000);
	CHECK(sem_timedwait(&m->finished, &dl) == 0);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(stderr, "peer status %#x\n", st);

	CHECK(m->errors == 0);
	CHECK(m->produced == IOP_ITEMS);
	CHECK(m->consumed == IOP_ITEMS);
	CHECK(m->max_holders >= 1 && m->max_holders <= IOP_K);
	CHECK(data(&m->items) == 0);
	CHECK(data(&m->pool) == IOP_K);
	printf("sem-interop: ping-pong with glibc %.0f ns/round-trip; stress %.2fs, "
	       "%ld pool uses, %d items\n", pp / IOP_ROUNDS * 1e9, now() - t0,
	       m->pool_uses, IOP_ITEMS);
	return t_done();
}
