/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The glibc side of tests/cond-interop: built without libnptl, it maps
 * the shared objects from the inherited memfd and plays party 1 of
 * cond-interop.h.  Usage: peer FD ROUNDS  */
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>
#include "t.h"
#include "cond-interop.h"

int main(int argc, char **argv)
{
	alarm(120);     /* a lost wake-up fails instead of hanging */
	if (argc != 3)
		FATAL("usage: %s fd rounds", argv[0]);
	if (t_on_libnptl())
		FATAL("peer: runs on libnptl, not on plain glibc");
	struct cinterop *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
				  MAP_SHARED, atoi(argv[1]), 0);
	if (s == MAP_FAILED)
		FATAL("peer: mmap");
	int errors = ci_run(s, 1, atol(argv[2]));
	return errors ? 1 : 0;
}
