/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The glibc side of tests/sync-interop: built without libnptl, it maps
 * the shared objects from the inherited memfd and takes part in the
 * barrier rounds and spinlock increments.  Usage: peer FD INDEX ROUNDS  */
#include <sys/mman.h>
#include <unistd.h>
#include "t.h"
#include "sync-interop.h"

int main(int argc, char **argv)
{
	alarm(120);     /* a lost wake-up fails instead of hanging */
	if (argc != 4)
		FATAL("usage: %s fd index rounds", argv[0]);
	if (t_on_libnptl())
		FATAL("peer: runs on libnptl, not on plain glibc");
	struct interop *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
				 MAP_SHARED, atoi(argv[1]), 0);
	if (s == MAP_FAILED)
		FATAL("peer: mmap");
	int errors = interop_run(s, atoi(argv[2]), atoi(argv[3]));
	__atomic_add_fetch(&s->errors, errors, __ATOMIC_RELAXED);
	return errors ? 1 : 0;
}
