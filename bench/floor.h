// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel floor: a thread made by a bare clone(2) with none of a thread
 * library's set-up.  Both benchmarks measure it beside libnptl and glibc so
 * that the library's own cost (floor -> library) can be read off as a ratio.
 */
#ifndef BENCH_FLOOR_H
#define BENCH_FLOOR_H

#include <sched.h>

/* The flags glibc and libnptl use for a thread, so the kernel does the same
 * work for all three rows. */
#define FLOOR_CLONE_FLAGS \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
	 CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | \
	 CLONE_CHILD_CLEARTID)

/*
 * What a waiting floor child does (many-threads): add one to count; if that
 * made count == target, set started and wake its futex; then sleep on stop
 * until it is non-zero, and exit.  It is the same protocol the pthread
 * children of many-threads.c follow in C.  floor.S uses these offsets.
 */
struct floor_ctl {
	int count;	/* 0: children that have started */
	int target;	/* 4: count at which the last child sets started */
	int stop;	/* 8: set non-zero (and futex-woken) to let them exit */
	int started;	/* 12: futex the starter sleeps on */
	int touch;	/* 16: non-zero: first write one word to each of the two
			 * pages below the stack top (see many-threads.c) */
};

/*
 * clone(flags, stack_top, ptid, ctid, tls).  Returns the child's tid or a
 * negative errno.  The child runs no C code: with ctl == NULL it calls
 * exit(2) at once; otherwise it does the floor_ctl protocol above.  It
 * never touches its stack or %fs, so stack_top and tls need only be
 * addresses the kernel accepts.
 */
long floor_clone(unsigned long flags, void *stack_top, int *ptid, int *ctid,
		 void *tls, struct floor_ctl *ctl);

/* Wait until the kernel has cleared *ctid (the child has exited). */
void floor_join(int *ctid);

#endif
