/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A thread library may not touch malloc's heap before main: a
 * single-threaded program that fills its address space and blocks the
 * program break must see malloc fail (musl libc-test's
 * regression/malloc-brk-fail shape).  A malloc'd-and-freed block from
 * start-up would leave a heap whose free space serves the request.
 * Checked two ways: no arena exists when main starts, and, in a child
 * under RLIMIT_AS with every mapping refused and the break blocked by a
 * mapping, malloc(10000) returns NULL.
 */
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

static int brk_fail_child(void)
{
	struct rlimit rl = { 256 << 20, 256 << 20 };
	char *brk0 = sbrk(0);
	/* Block the break first: a mapping right above it.  */
	long pg = sysconf(_SC_PAGESIZE);
	char *at = (char *)(((uintptr_t)brk0 + pg - 1) & ~(uintptr_t)(pg - 1));
	if (mmap(at, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		 -1, 0) != at)
		return 3;
	if (setrlimit(RLIMIT_AS, &rl) != 0)
		return 4;
	/* Fill: the largest mapping that still succeeds, down to one page.  */
	for (size_t n = (size_t)1 << 30; n >= (size_t)pg; )
		if (mmap(NULL, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
			n /= 2;
	void *p = malloc(10000);
	return p == NULL ? 0 : 1;
}

int main(void)
{
	struct mallinfo2 mi = mallinfo2();
	CHECK(mi.arena == 0);
	if (mi.arena)
		fprintf(stderr, "heap before main: %zu bytes, %zu in use\n",
			mi.arena, mi.uordblks);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		FATAL("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(brk_fail_child());
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st));
	if (WIFEXITED(st) && WEXITSTATUS(st))
		fprintf(stderr, "child: %s\n",
			WEXITSTATUS(st) == 1 ? "malloc succeeded with memory full" :
			"could not set up the full address space");
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return t_done();
}
