/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libnptl and plain-glibc processes share process-shared rwlocks
 * (libnptl follows glibc's protocol for them): this process and a peer
 * built without libnptl (rwlock-interop-peer-glibc), two threads each,
 * read- and write-lock one lock of each kind every way (plain, timed,
 * clock, try), checking mutual exclusion with shared counters; then timed
 * and try locks against a holder in the other process, both ways; then a
 * writer of one process queued behind readers of the other, ahead of
 * later readers, on a writer-preferring lock (rwlock-interop.h).  Some locks are initialised here, one by the peer.
 * Argument: rounds per thread and kind (default 5000).  */
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"
#include "rwlock-interop.h"

int main(int argc, char **argv)
{
	alarm(120);     /* a lost wake-up fails instead of hanging */
	long rounds = argc > 1 ? atol(argv[1]) : 5000;
	if (!t_on_libnptl())
		FATAL("not running on libnptl");
	const char *dir = getenv("NPTL_TEST_BUILDDIR");
	if (!dir)
		SKIP("NPTL_TEST_BUILDDIR is not set");
	char peer[4096];
	snprintf(peer, sizeof peer, "%s/tests/rwlock-interop-peer-glibc", dir);

	int fd = memfd_create("rwlock-interop", 0);
	if (fd < 0 || ftruncate(fd, sizeof(struct rinterop)) != 0)
		FATAL("memfd");
	struct rinterop *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		FATAL("mmap");
	ri_setup(s);

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
	int errors = ri_run(s, 0, rounds);
	CHECK(errors == 0);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(s->errors == 0);
	CHECK(s->violations == 0);
	CHECK(s->counter == s->writes);
	for (int k = 0; k < RI_LOCKS; k++) {
		CHECK0(pthread_rwlock_trywrlock(&s->lock[k]));
		CHECK0(pthread_rwlock_unlock(&s->lock[k]));
		CHECK0(pthread_rwlock_destroy(&s->lock[k]));
	}
	return t_done();
}
