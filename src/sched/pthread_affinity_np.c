// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A thread's CPU affinity is the kernel's, by tid.  The GLIBC_2.3.3
 * versions predate the size argument and always meant a cpu_set_t of 1024
 * CPUs.
 */
#include <string.h>
#include "nptl.h"

NPTL_API int __nptl_pthread_setaffinity_np(pthread_t t, size_t size,
					   const cpu_set_t *set)
{
	struct pthread *pd = (struct pthread *)t;
	long r = nptl_sys3(SYS_sched_setaffinity, pd->tid, size, set);
	return r < 0 ? (int)-r : 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_setaffinity_np, pthread_setaffinity_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_setaffinity_np, pthread_setaffinity_np, GLIBC_2.3.4);

NPTL_API int __nptl_pthread_setaffinity_old(pthread_t t, cpu_set_t *set)
{
	return __nptl_pthread_setaffinity_np(t, sizeof(cpu_set_t), set);
}
NPTL_SYMVER_COMPAT(__nptl_pthread_setaffinity_old, pthread_setaffinity_np, GLIBC_2.3.3);

NPTL_API int __nptl_pthread_getaffinity_np(pthread_t t, size_t size,
					   cpu_set_t *set)
{
	struct pthread *pd = (struct pthread *)t;
	long n = nptl_sys3(SYS_sched_getaffinity, pd->tid, size, set);
	if (n < 0)
		return (int)-n;
	/* The kernel fills only its own mask size; the rest reads as 0.  */
	memset((char *)set + n, 0, size - (size_t)n);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_getaffinity_np, pthread_getaffinity_np, GLIBC_2.32);
NPTL_SYMVER_COMPAT(__nptl_pthread_getaffinity_np, pthread_getaffinity_np, GLIBC_2.3.4);

NPTL_API int __nptl_pthread_getaffinity_old(pthread_t t, cpu_set_t *set)
{
	return __nptl_pthread_getaffinity_np(t, sizeof(cpu_set_t), set);
}
NPTL_SYMVER_COMPAT(__nptl_pthread_getaffinity_old, pthread_getaffinity_np, GLIBC_2.3.3);
