/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Process-shared rwlocks over MAP_SHARED between a parent and forked
 * children: mutual exclusion across processes, and waiters killed with
 * SIGKILL while blocked (POSIX rwlocks are not robust, so only waiters,
 * never holders, are killed) do not wedge the others.  Argument: rounds of
 * the cross-process stress (default 20000).  */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

struct shm {
	pthread_rwlock_t lock;
	int readers, writers, violations;
	int acquired[8];
	int calling[8];         /* a waiter is about to call the lock */
};
static struct shm *s;
static int tmo;                 /* seconds a blocked child waits at most */

static void init_lock(int kind)
{
	pthread_rwlockattr_t a;
	CHECK0(pthread_rwlockattr_init(&a));
	CHECK0(pthread_rwlockattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_rwlockattr_setkind_np(&a, kind));
	memset(s, 0, sizeof *s);
	CHECK0(pthread_rwlock_init(&s->lock, &a));
	CHECK0(pthread_rwlockattr_destroy(&a));
}

static void stress_child(long rounds, unsigned seed)
{
	for (long i = 0; i < rounds; i++) {
		seed = seed * 1103515245 + 12345;
		if ((seed >> 16) % 3 == 0) {
			pthread_rwlock_wrlock(&s->lock);
			if (__atomic_add_fetch(&s->writers, 1, __ATOMIC_SEQ_CST) != 1 ||
			    __atomic_load_n(&s->readers, __ATOMIC_SEQ_CST))
				__atomic_add_fetch(&s->violations, 1, __ATOMIC_SEQ_CST);
			__atomic_sub_fetch(&s->writers, 1, __ATOMIC_SEQ_CST);
		} else {
			pthread_rwlock_rdlock(&s->lock);
			__atomic_add_fetch(&s->readers, 1, __ATOMIC_SEQ_CST);
			if (__atomic_load_n(&s->writers, __ATOMIC_SEQ_CST))
				__atomic_add_fetch(&s->violations, 1, __ATOMIC_SEQ_CST);
			__atomic_sub_fetch(&s->readers, 1, __ATOMIC_SEQ_CST);
		}
		pthread_rwlock_unlock(&s->lock);
	}
}

static void stress(int kind, long rounds)
{
	init_lock(kind);
	pid_t pid[3];
	for (int i = 0; i < 3; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			FATAL("fork");
		if (pid[i] == 0) {
			stress_child(rounds, (unsigned)i * 7919 + 3);
			_exit(0);
		}
	}
	for (int i = 0; i < 3; i++) {
		int st;
		CHECK(waitpid(pid[i], &st, 0) == pid[i] && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 0);
	}
	CHECK(s->violations == 0);
	CHECK0(pthread_rwlock_trywrlock(&s->lock));
	CHECK0(pthread_rwlock_unlock(&s->lock));
}

/* Child: take the lock (write or read) and report it, then exit.  */
static pid_t waiter(int slot, int write)
{
	pid_t pid = fork();
	if (pid < 0)
		FATAL("fork");
	if (pid == 0) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += tmo;
		__atomic_store_n(&s->calling[slot], 1, __ATOMIC_SEQ_CST);
		int r = write ? pthread_rwlock_clockwrlock(&s->lock, CLOCK_MONOTONIC, &ts)
			      : pthread_rwlock_clockrdlock(&s->lock, CLOCK_MONOTONIC, &ts);
		if (r)
			_exit(r);
		__atomic_store_n(&s->acquired[slot], 1, __ATOMIC_SEQ_CST);
		pthread_rwlock_unlock(&s->lock);
		_exit(0);
	}
	return pid;
}

/* Wait until waiter `slot` (process pid) sleeps (state S) after it said
 * it calls the lock: it can sleep nowhere else, so it is blocked there.  */
static void wait_sleeping(pid_t pid, int slot)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 20000; i++) {       /* 20 s */
		if (__atomic_load_n(&s->calling[slot], __ATOMIC_SEQ_CST) &&
		    t_proc_state(path) == 'S')
			return;
		usleep(1000);
	}
	FATAL("process %d never blocked", (int)pid);
}

static int reap(pid_t pid)
{
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The parent write-locks; children block as readers and writers; some
 * are killed while blocked; the parent unlocks.  Everywhere, the surviving
 * reader gets the lock.  glibc counts a queued reader as a reader, so
 * there a killed queued reader (or a killed queued writer) leaves writers
 * waiting forever.  libnptl follows glibc's protocol for process-shared
 * rwlocks (so that glibc processes can share them), so it is no stricter
 * here; `strict` (every survivor gets the lock and the lock stays usable)
 * is for a protocol whose queue counts only make for spurious wake-ups,
 * which libnptl's process-private one is.  */
static void killed_waiters(int kind, int kill_reader, int kill_writer,
			   int strict)
{
	init_lock(kind);
	tmo = strict ? 10 : 1;
	CHECK0(pthread_rwlock_wrlock(&s->lock));
	pid_t r1 = waiter(0, 0);
	wait_sleeping(r1, 0);
	pid_t w1 = waiter(1, 1);
	wait_sleeping(w1, 1);
	pid_t r2 = waiter(2, 0);
	wait_sleeping(r2, 2);
	pid_t w2 = waiter(3, 1);
	wait_sleeping(w2, 3);
	if (kill_reader)
		kill(r1, SIGKILL);
	if (kill_writer)
		kill(w1, SIGKILL);
	if (kill_reader)
		CHECK(reap(r1) == 128 + SIGKILL);
	if (kill_writer)
		CHECK(reap(w1) == 128 + SIGKILL);
	CHECK0(pthread_rwlock_unlock(&s->lock));
	CHECK_ERR(reap(r2), 0);
	CHECK(s->acquired[2]);
	int rw1 = kill_writer ? 0 : reap(w1);
	int rw2 = reap(w2);
	int rr1 = kill_reader ? 0 : reap(r1);
	if (!strict)
		return;
	CHECK_ERR(rw1, 0);
	CHECK_ERR(rw2, 0);
	CHECK_ERR(rr1, 0);
	CHECK(s->acquired[0] == !kill_reader);
	CHECK(s->acquired[1] == !kill_writer);
	CHECK(s->acquired[3]);
	/* The lock still works both ways, across processes.  */
	CHECK0(pthread_rwlock_rdlock(&s->lock));
	pid_t r3 = waiter(4, 0);
	CHECK_ERR(reap(r3), 0);
	CHECK(s->acquired[4]);
	pid_t w3 = waiter(5, 1);
	wait_sleeping(w3, 5);
	CHECK0(pthread_rwlock_unlock(&s->lock));
	CHECK_ERR(reap(w3), 0);
	CHECK(s->acquired[5]);
	CHECK0(pthread_rwlock_trywrlock(&s->lock));
	CHECK0(pthread_rwlock_unlock(&s->lock));
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20000;
	s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		FATAL("mmap");
	stress(PTHREAD_RWLOCK_PREFER_READER_NP, rounds);
	stress(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP, rounds);
	int strict = 0;
	killed_waiters(PTHREAD_RWLOCK_PREFER_READER_NP, 1, 0, strict);
	killed_waiters(PTHREAD_RWLOCK_PREFER_READER_NP, 0, 1, strict);
	killed_waiters(PTHREAD_RWLOCK_PREFER_READER_NP, 1, 1, strict);
	/* With writer preference a killed queued writer holds readers back
	 * forever, in glibc and libnptl alike: kill only a reader there.  */
	killed_waiters(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP, 1, 0, strict);
	return t_done();
}
