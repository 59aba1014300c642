// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The attributes a thread runs with.  A libnptl thread reports the stack
 * size it was created with, as glibc does (programs compare the two), ending
 * at the top of its stack, below its TLS; its real stack is larger (room for
 * a signal frame, page rounding: see stack.c), so the reported region is all
 * usable.  A thread on a user stack reports the user's stack.  glibc's own
 * threads, and libnptl threads in glibc's compact layout (under a finite
 * RLIMIT_AS, where the TLS comes out of the requested size), report their
 * stack block minus the guard, as glibc does.  The
 * main thread's stack is found, as in glibc, from the mapping that holds
 * __libc_stack_end and RLIMIT_STACK.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "nptl.h"

extern void *__libc_stack_end;

static int main_stack(struct glibc_attr *ia)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) != 0)
		return errno;
	FILE *f = fopen("/proc/self/maps", "rce");
	if (!f)
		return errno;
	uintptr_t pg = __nptl_page_size;
	uintptr_t end = ((uintptr_t)__libc_stack_end & -pg) + pg;
	uintptr_t prev_to = 0, from, to;
	char line[512];
	int err = ENOENT;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &from, &to) != 2)
			continue;
		if (from <= (uintptr_t)__libc_stack_end &&
		    (uintptr_t)__libc_stack_end < to) {
			/* The stack may grow to the limit, counted from the top
			 * of its mapping, but not into the mapping below.  */
			size_t size = (rl.rlim_cur - (to - end)) & -pg;
			if (size > end - prev_to)
				size = end - prev_to;
			ia->stackaddr = (void *)end;
			ia->stacksize = size;
			err = 0;
			break;
		}
		/* A line longer than the buffer: skip its tail.  */
		while (!strchr(line, '\n') && fgets(line, sizeof(line), f))
			;
		prev_to = to;
	}
	fclose(f);
	return err;
}

static int affinity(struct pthread *pd, pthread_attr_t *attr)
{
	int err;
	size_t size = 16;
	cpu_set_t *set = NULL;
	do {
		size <<= 1;
		void *p = realloc(set, size);
		if (!p) {
			free(set);
			return ENOMEM;
		}
		set = p;
		long n = nptl_sys3(SYS_sched_getaffinity, pd->tid, size, set);
		if (n >= 0) {
			memset((char *)set + n, 0, size - (size_t)n);
			err = 0;
		} else {
			err = (int)-n;
		}
	} while (err == EINVAL && size < 1024 * 1024);
	if (err == 0)
		err = __nptl_pthread_attr_setaffinity_np(attr, size, set);
	else if (err == ENOSYS)
		err = 0;
	free(set);
	return err;
}

NPTL_API int __nptl_pthread_getattr_np(pthread_t t, pthread_attr_t *attr)
{
	struct pthread *pd = (struct pthread *)t;
	int err = __nptl_pthread_attr_init(attr);
	if (err)
		return err;
	struct glibc_attr *ia = (struct glibc_attr *)attr;

	nptl_lll_lock(&pd->lock);
	ia->schedparam = pd->schedparam;
	ia->schedpolicy = pd->schedpolicy;
	ia->flags = pd->flags & ~NPTL_PD_OURS;
	if (nptl_joinid(pd) == pd)
		ia->flags |= ATTR_FLAG_DETACHSTATE;
	ia->guardsize = pd->reported_guardsize;
	struct nptl_ext *e = nptl_is_ours(pd) ? nptl_ext(pd) : NULL;
	if (e && e->compact && !e->user_stack_lo) {
		/* glibc's layout, reported as glibc reports it: the block above
		 * the guard, TLS and descriptor included.  The region below
		 * the TLS that ours reports would reach past the guard here.  */
		ia->stackaddr = (char *)e->map + e->map_size;
		ia->stacksize = e->map_size - e->guard_size;
	} else if (e) {
		ia->stackaddr = __nptl_stack_top(pd);
		ia->stacksize = e->user_stack_lo ? e->user_stack_size
						 : e->reported_size;
	} else if (pd->stackblock) {
		ia->stackaddr = (char *)pd->stackblock + pd->stackblock_size;
		ia->stacksize = pd->stackblock_size - pd->guardsize;
	} else {
		err = main_stack(ia);
	}
	ia->flags |= ATTR_FLAG_STACKADDR;
	if (err == 0)
		err = affinity(pd, attr);
	nptl_lll_unlock(&pd->lock);
	if (err)
		__nptl_pthread_attr_destroy(attr);
	return err;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_getattr_np, pthread_getattr_np, GLIBC_2.32);
NPTL_SYMVER_COMPAT(__nptl_pthread_getattr_np, pthread_getattr_np, GLIBC_2.2.5);
