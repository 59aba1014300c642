/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnptl and glibc 2.36 processes on one process-shared mutex in a file
 * mapping (what LMDB does): for NORMAL, RECURSIVE, ERRORCHECK, ADAPTIVE,
 * robust and PI mutexes, initialized by either side, both contend with a
 * shared counter invariant; a robust mutex whose glibc owner is SIGKILLed
 * gives EOWNERDEAD here, and the reverse.  PRIO_PROTECT mutexes of every
 * type (when SCHED_FIFO is permitted: a SCHED_OTHER thread cannot lock
 * one), with both processes at a low SCHED_FIFO priority: the same
 * contention, each side raised to the ceiling while it holds the mutex,
 * and the ceiling changed by glibc's pthread_mutex_setprioceiling while
 * libnptl holds the mutex.  The peer is tests/mutex-interop-peer-glibc,
 * built without libnptl.
 */
#include <sched.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"
#include "mutex-interop.h"

static char peer[4096], file[] = "/tmp/mutex-interop-XXXXXX";
static struct interop *s;

static pid_t spawn(char *const args[])
{
	pid_t p = fork();
	if (p == 0) {
		execv(peer, args);
		_exit(127);
	}
	return p;
}

static int run_peer(char *mode, char *a1, char *a2, char *a3)
{
	char *args[] = { peer, file, mode, a1, a2, a3, NULL };
	int st;
	waitpid(spawn(args), &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* pi: the protocol, as interop_init's proto.  */
static void contend(int type, int robust, int pi, int peer_inits)
{
	char t[8], r[8], p[8];
	snprintf(t, sizeof t, "%d", type);
	snprintf(r, sizeof r, "%d", robust);
	snprintf(p, sizeof p, "%d", pi);
	memset(s, 0, sizeof *s);
	s->type = type;
	if (peer_inits)
		CHECK0(run_peer("init", t, r, p));
	else
		CHECK0(interop_init(&s->m, type, robust, pi));

	char *args[] = { peer, file, "contend", "20000", NULL };
	pid_t k = spawn(args);
	CHECK0(interop_work(s, 20000));
	int st;
	waitpid(k, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(stderr, "type %d robust %d pi %d: peer status %#x\n",
			type, robust, pi, st);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(s->counter == 40000);
	CHECK(s->inside == 0);
}

static void ownerdead(int type, int pi)
{
	memset(s, 0, sizeof *s);
	CHECK0(interop_init(&s->m, type, 1, pi));

	/* glibc owner killed -> EOWNERDEAD here.  */
	char *args[] = { peer, file, "hold", NULL };
	pid_t k = spawn(args);
	while (!s->ready)
		usleep(1000);
	kill(k, SIGKILL);
	waitpid(k, NULL, 0);
	CHECK_ERR(pthread_mutex_lock(&s->m), EOWNERDEAD);
	CHECK0(pthread_mutex_consistent(&s->m));
	CHECK0(pthread_mutex_unlock(&s->m));

	/* libnptl owner killed -> EOWNERDEAD in glibc.  */
	s->ready = 0;
	pid_t c = fork();
	if (c == 0) {
		if (pthread_mutex_lock(&s->m))
			_exit(1);
		s->ready = 1;
		for (;;)
			pause();
	}
	while (!s->ready)
		usleep(1000);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	CHECK0(run_peer("ownerdead", NULL, NULL, NULL));
	CHECK0(pthread_mutex_lock(&s->m));
	CHECK0(pthread_mutex_unlock(&s->m));
}

/* Wait until the peer k waits for the PRIO_PROTECT mutex we hold: glibc's
 * setprioceiling marks the word contended (2 below the ceiling's bits)
 * right before its futex wait, then sleeps there (state S).  A peer that
 * ended instead (Z) is for the caller's checks to report.  */
static void wait_peer_waits(pid_t k)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)k);
	for (int i = 0; i < 20000; i++) {       /* 20 s */
		unsigned w = (unsigned)__atomic_load_n(&s->m.__data.__lock,
						       __ATOMIC_RELAXED);
		char st = t_proc_state(path);
		if (((w & 0x7ffffu) == 2 && st == 'S') || st == 'Z')
			return;
		usleep(1000);
	}
	FATAL("peer %d never waited for the mutex", (int)k);
}

static int kprio(void)
{
	struct sched_param sp;
	return sched_getparam(0, &sp) ? -1 : sp.sched_priority;
}

static void pp(int type)
{
	int v, st;
	char t[8];
	snprintf(t, sizeof t, "%d", type);

	/* Made by glibc: the ceiling is where libnptl reads it.  */
	memset(s, 0, sizeof *s);
	CHECK0(run_peer("init", t, "0", "2"));
	CHECK0(pthread_mutex_getprioceiling(&s->m, &v));
	CHECK(v == INTEROP_CEILING);
	CHECK0(pthread_mutex_lock(&s->m));
	CHECK(kprio() == INTEROP_CEILING);
	CHECK0(pthread_mutex_unlock(&s->m));
	CHECK(kprio() == 1);

	/* glibc changes the ceiling of a mutex libnptl holds: it waits for
	 * the unlock, then takes the word and stores the new ceiling.  */
	CHECK0(pthread_mutex_lock(&s->m));
	char *args[] = { peer, file, "ceiling", "9", NULL };
	pid_t k = spawn(args);
	wait_peer_waits(k);
	CHECK(waitpid(k, &st, WNOHANG) == 0);
	CHECK0(pthread_mutex_getprioceiling(&s->m, &v));
	CHECK(v == INTEROP_CEILING);
	CHECK0(pthread_mutex_unlock(&s->m));
	waitpid(k, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == INTEROP_CEILING);
	CHECK0(pthread_mutex_getprioceiling(&s->m, &v));
	CHECK(v == 9);
	CHECK0(pthread_mutex_lock(&s->m));
	CHECK(kprio() == 9);
	CHECK0(pthread_mutex_unlock(&s->m));
	CHECK(kprio() == 1);

	/* glibc holds it (raised), libnptl is refused, then waits.  */
	s->ready = 0;
	char *hargs[] = { peer, file, "handover", NULL };
	k = spawn(hargs);
	while (!s->ready)
		usleep(1000);
	CHECK_ERR(pthread_mutex_trylock(&s->m), EBUSY);
	CHECK(kprio() == 1);
	s->ready = 2;
	CHECK0(pthread_mutex_lock(&s->m));
	CHECK(kprio() == 9);
	CHECK0(pthread_mutex_unlock(&s->m));
	waitpid(k, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	/* Contention, the mutex made by either side.  */
	contend(type, 0, 2, 0);
	contend(type, 0, 2, 1);
	CHECK(kprio() == 1);
}

int main(void)
{
	if (!t_on_libnptl())
		SKIP("not on libnptl");
	const char *dir = getenv("NPTL_TEST_BUILDDIR");
	if (!dir)
		SKIP("NPTL_TEST_BUILDDIR not set");
	snprintf(peer, sizeof peer, "%s/tests/mutex-interop-peer-glibc", dir);
	if (access(peer, X_OK))
		FATAL("no peer %s", peer);
	int fd = mkstemp(file);
	if (fd < 0 || ftruncate(fd, 4096))
		FATAL("temp file");
	s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		FATAL("mmap");

	int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
			PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_ADAPTIVE_NP };
	for (int pi = 0; pi < 2; pi++)
		for (int robust = 0; robust < 2; robust++)
			for (int i = 0; i < 4; i++)
				contend(types[i], robust, pi, i & 1);
	for (int pi = 0; pi < 2; pi++) {
		ownerdead(PTHREAD_MUTEX_NORMAL, pi);
		ownerdead(PTHREAD_MUTEX_ERRORCHECK, pi);
	}
	struct sched_param sp = { .sched_priority = 1 };
	int r = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (r == EPERM) {
		fprintf(stderr, "SCHED_FIFO not permitted: PRIO_PROTECT mutexes "
			"(which a SCHED_OTHER thread cannot lock) not checked\n");
	} else {
		CHECK0(r);
		for (int i = 0; i < 4; i++)
			pp(types[i]);
		sp.sched_priority = 0;
		CHECK0(pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp));
	}
	unlink(file);
	return t_done();
}
