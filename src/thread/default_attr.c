// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The attribute pthread_create uses when given NULL, changed by
 * pthread_setattr_default_np.  Its stacksize 0 means "the default",
 * computed as glibc does from RLIMIT_STACK, once, at start-up (init.c):
 * a later setrlimit does not change it, in glibc either.
 */
#include <sys/resource.h>
#include "nptl.h"

struct glibc_attr __nptl_default_attr;
int __nptl_default_attr_lock;

/* glibc: RLIMIT_STACK's soft limit, or 2 MiB (x86_64's
 * ARCH_STACK_DEFAULT_SIZE) when it is unlimited; at least
 * GLIBC_PTHREAD_STACK_MIN; page-rounded.  */
size_t __nptl_default_stacksize(void)
{
	static size_t cached;
	size_t s = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (s)
		return s;
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		s = 2 * 1024 * 1024;
	else
		s = rl.rlim_cur;
	if (s < GLIBC_PTHREAD_STACK_MIN)
		s = GLIBC_PTHREAD_STACK_MIN;
	s = (s + __nptl_page_size - 1) & ~(__nptl_page_size - 1);
	__atomic_store_n(&cached, s, __ATOMIC_RELAXED);
	return s;
}
