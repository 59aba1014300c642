/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libnptl and glibc 2.36 processes share one process-shared barrier and
 * one spinlock (libnptl keeps glibc's layout and protocol for both): this
 * process and two peers built without libnptl (sync-interop-peer-glibc)
 * run barrier rounds and spinlock increments together.  Argument: rounds
 * (default 2000).  */
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"
#include "sync-interop.h"

int main(int argc, char **argv)
{
	alarm(120);     /* a lost wake-up fails instead of hanging */
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	if (!t_on_libnptl())
		FATAL("not running on libnptl");
	const char *dir = getenv("NPTL_TEST_BUILDDIR");
	if (!dir)
		SKIP("NPTL_TEST_BUILDDIR is not set");
	char peer[4096];
	snprintf(peer, sizeof peer, "%s/tests/sync-interop-peer-glibc", dir);

	int fd = memfd_create("sync-interop", 0);
	if (fd < 0 || ftruncate(fd, sizeof(struct interop)) != 0)
		FATAL("memfd");
	struct interop *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
				 MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		FATAL("mmap");
	pthread_barrierattr_t a;
	CHECK0(pthread_barrierattr_init(&a));
	CHECK0(pthread_barrierattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_barrier_init(&s->bar, &a, INTEROP_PARTIES));
	CHECK0(pthread_spin_init(&s->spin, PTHREAD_PROCESS_SHARED));

	pid_t pid[INTEROP_PARTIES - 1];
	for (int p = 1; p < INTEROP_PARTIES; p++) {
		pid[p - 1] = fork();
		if (pid[p - 1] < 0)
			FATAL("fork");
		if (pid[p - 1] == 0) {
			char fds[16], idx[16], n[16];
			snprintf(fds, sizeof fds, "%d", fd);
			snprintf(idx, sizeof idx, "%d", p);
			snprintf(n, sizeof n, "%d", rounds);
			/* The peer must not inherit libnptl by preload.  */
			unsetenv("LD_PRELOAD");
			execl(peer, peer, fds, idx, n, (char *)NULL);
			_exit(127);
		}
	}
	int errors = interop_run(s, 0, rounds);
	CHECK(errors == 0);
	for (int p = 0; p < INTEROP_PARTIES - 1; p++) {
		int st;
		CHECK(waitpid(pid[p], &st, 0) == pid[p]);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	CHECK(s->errors == 0);
	CHECK(s->serial == rounds);
	CHECK(s->counter == 10L * rounds * INTEROP_PARTIES);
	/* The barrier is idle and can be destroyed, by us.  */
	CHECK0(pthread_barrier_destroy(&s->bar));
	return t_done();
}
