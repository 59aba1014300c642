/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Peer of mutex-interop, built WITHOUT libnptl: plain glibc 2.36 acting
 * on a process-shared mutex in a file mapping that a libnptl process
 * uses at the same time.
 *   peer FILE init TYPE ROBUST PROTO initialize the mutex (glibc's encoding;
 *                                   PROTO 0 none, 1 inherit, 2 protect)
 *   peer FILE contend ITERS         lock/trylock loop, counter invariant
 *   peer FILE hold                  lock, say so, wait to be SIGKILLed
 *   peer FILE ownerdead             expect EOWNERDEAD, recover, unlock
 *   peer FILE ceiling C             pthread_mutex_setprioceiling(C): the
 *                                   exit status is the old ceiling
 *   peer FILE handover              lock, say so (ready 1), wait for ready
 *                                   2, check the raised priority, unlock
 */
#include <sched.h>
#include <pthread.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "t.h"
#include "mutex-interop.h"

int main(int argc, char **argv)
{
	if (dlsym(RTLD_DEFAULT, "nptl_version") != NULL)
		FATAL("peer: running on libnptl, not glibc");
	if (argc < 3)
		FATAL("usage: peer FILE MODE ...");
	int fd = open(argv[1], O_RDWR);
	if (fd < 0)
		FATAL("peer: open %s", argv[1]);
	struct interop *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
				 MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		FATAL("peer: mmap");
	const char *mode = argv[2];

	if (!strcmp(mode, "init") && argc == 6)
		return interop_init(&s->m, atoi(argv[3]), atoi(argv[4]),
				    atoi(argv[5]));
	if (!strcmp(mode, "contend") && argc == 4)
		return interop_work(s, atol(argv[3]));
	if (!strcmp(mode, "hold")) {
		if (pthread_mutex_lock(&s->m))
			return 1;
		s->ready = 1;
		for (;;)
			pause();
	}
	if (!strcmp(mode, "ownerdead")) {
		int r = pthread_mutex_lock(&s->m);
		if (r != EOWNERDEAD)
			return 10 + r;
		if (pthread_mutex_consistent(&s->m) || pthread_mutex_unlock(&s->m))
			return 2;
		return 0;
	}
	if (!strcmp(mode, "ceiling") && argc == 4) {
		int old;
		int r = pthread_mutex_setprioceiling(&s->m, atoi(argv[3]), &old);
		return r ? 100 + r : old;
	}
	if (!strcmp(mode, "handover")) {
		struct sched_param sp;
		int c;
		if (pthread_mutex_lock(&s->m) ||
		    pthread_mutex_getprioceiling(&s->m, &c))
			return 1;
		s->ready = 1;
		while (s->ready != 2)
			usleep(1000);
		if (sched_getparam(0, &sp) || sp.sched_priority != c)
			return 2;
		return pthread_mutex_unlock(&s->m) ? 3 : 0;
	}
	FATAL("peer: bad mode %s", mode);
}
