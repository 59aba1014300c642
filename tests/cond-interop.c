/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libnptl and plain-glibc processes share process-shared condition
 * variables (libnptl follows glibc's protocol for them, per release):
 * this process and a peer built without libnptl (cond-interop-peer-glibc)
 * run ping-pong signalling, signals to mixed waiters (plain and timed)
 * in both processes, broadcasts to a condvar barrier across both, timed
 * waits that time out on both clocks, destroy right after a broadcast to
 * a glibc waiter, and cancellation of a waiter next to waiters that must
 * still be woken (cond-interop.h).  Some condvars are initialised here,
 * some by the peer.  Argument: rounds (default 2000).  A lost wake-up
 * fails by alarm, not by hanging.  */
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"
#include "cond-interop.h"

int main(int argc, char **argv)
{
	alarm(120);
	long rounds = argc > 1 ? atol(argv[1]) : 2000;
	if (!t_on_libnptl())
		FATAL("not running on libnptl");
	const char *dir = getenv("NPTL_TEST_BUILDDIR");
	if (!dir)
		SKIP("NPTL_TEST_BUILDDIR is not set");
	char peer[4096];
	snprintf(peer, sizeof peer, "%s/tests/cond-interop-peer-glibc", dir);

	int fd = memfd_create("cond-interop", 0);
	if (fd < 0 || ftruncate(fd, sizeof(struct cinterop)) != 0)
		FATAL("memfd");
	struct cinterop *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		FATAL("mmap");
	ci_setup(s);

	pid_t pid = fork();
	if (pid < 0)
		FATAL("fork");
	if (pid == 0) {
		char fds[16], n[32];
		snprintf(fds, sizeof fds, "%d", fd);
		snprintf(n, sizeof n, "%ld", rounds);
		/* The peer must not inherit libnptl by preload.  */
		unsetenv("LD_PRELOAD");
		execl(peer, peer, fds, n, (char *)NULL);
		_exit(127);
	}
	int errors = ci_run(s, 0, rounds);
	CHECK(errors == 0);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(s->errors == 0);
	/* Idle now: destroying them returns at once.  */
	CHECK0(pthread_cond_destroy(&s->tok));
	CHECK0(pthread_cond_destroy(&s->gen_cv));
	CHECK0(pthread_cond_destroy(&s->mono));
	CHECK0(pthread_cond_destroy(&s->quiet));
	return t_done();
}
