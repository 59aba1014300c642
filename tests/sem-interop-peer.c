// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The glibc side of sem-interop: built without libnptl, run by the test
 * with the shared memory's descriptor as argv[1].
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sem-interop.h"

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (dlsym(RTLD_DEFAULT, "nptl_version") != NULL) {
		fprintf(stderr, "peer: libnptl is loaded, want plain glibc\n");
		return 3;
	}
	struct iop *m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE,
			     MAP_SHARED, atoi(argv[1]), 0);
	if (m == MAP_FAILED)
		return 4;
	/* glibc initializes `pong` over the garbage the test left there.  */
	if (sem_init(&m->pong, 1, 0))
		return 5;
	sem_post(&m->start);

	for (int i = 0; i < IOP_ROUNDS; i++)
		if (sem_wait(&m->ping) || sem_post(&m->pong))
			return 6;

	if (sem_wait(&m->start))
		return 7;
	iop_stress(m);
	sem_post(&m->finished);
	return 0;
}
