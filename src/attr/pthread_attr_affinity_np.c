// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The affinity an attribute gives new threads.  The set is stored at the
 * caller's size and checked against the kernel only by pthread_create.
 * GLIBC_2.3.3 had these without a size argument, for a 1024-CPU set.
 */
#include <stdlib.h>
#include <string.h>
#include "nptl.h"

int __nptl_pthread_attr_setaffinity_np(pthread_attr_t *a, size_t size,
				       const cpu_set_t *set)
{
	struct glibc_attr *ia = (struct glibc_attr *)a;
	struct glibc_attr_ext *e = ia->extension;
	if (!set || !size) {
		if (e) {
			free(e->cpuset);
			e->cpuset = NULL;
			e->cpusetsize = 0;
		}
		return 0;
	}
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return ENOMEM;
		ia->extension = e;
	}
	if (e->cpusetsize != size) {
		void *p = realloc(e->cpuset, size);
		if (!p)
			return ENOMEM;
		e->cpuset = p;
		e->cpusetsize = size;
	}
	memcpy(e->cpuset, set, size);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_setaffinity_np, pthread_attr_setaffinity_np, GLIBC_2.32);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_setaffinity_np, pthread_attr_setaffinity_np, GLIBC_2.3.4);

NPTL_API int __nptl_pthread_attr_getaffinity_np(const pthread_attr_t *a, size_t size,
						cpu_set_t *set)
{
	const struct glibc_attr_ext *e = ((const struct glibc_attr *)a)->extension;
	if (!e || !e->cpuset) {
		/* No affinity set: any CPU.  */
		memset(set, 0xff, size);
		return 0;
	}
	/* A smaller buffer is fine as long as nothing set is cut off.  */
	for (size_t i = size; i < e->cpusetsize; i++)
		if (((const char *)e->cpuset)[i])
			return EINVAL;
	size_t n = size < e->cpusetsize ? size : e->cpusetsize;
	memcpy(set, e->cpuset, n);
	memset((char *)set + n, 0, size - n);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_attr_getaffinity_np, pthread_attr_getaffinity_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_getaffinity_np, pthread_attr_getaffinity_np, GLIBC_2.3.4);

NPTL_API int __nptl_pthread_attr_setaffinity_old(pthread_attr_t *a, cpu_set_t *set)
{
	return __nptl_pthread_attr_setaffinity_np(a, sizeof(cpu_set_t), set);
}
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_setaffinity_old, pthread_attr_setaffinity_np, GLIBC_2.3.3);

NPTL_API int __nptl_pthread_attr_getaffinity_old(const pthread_attr_t *a, cpu_set_t *set)
{
	return __nptl_pthread_attr_getaffinity_np(a, sizeof(cpu_set_t), set);
}
NPTL_SYMVER_COMPAT(__nptl_pthread_attr_getaffinity_old, pthread_attr_getaffinity_np, GLIBC_2.3.3);
