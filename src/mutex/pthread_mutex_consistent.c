// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_consistent: the owner that got EOWNERDEAD declares the
 * protected state repaired; __owner goes from INCONSISTENT to its tid, so
 * that the next unlock is an ordinary one.
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_mutex_consistent(pthread_mutex_t *m)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	if (!(kind & NPTL_MUTEX_ROBUST) ||
	    m->__data.__owner != NPTL_MUTEX_INCONSISTENT)
		return EINVAL;
	m->__data.__owner = nptl_self()->tid;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_consistent, pthread_mutex_consistent, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutex_consistent, pthread_mutex_consistent, GLIBC_2.12);

extern __typeof(__nptl_pthread_mutex_consistent) __nptl_pthread_mutex_consistent_np
	__attribute__((alias("__nptl_pthread_mutex_consistent"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl_pthread_mutex_consistent_np, pthread_mutex_consistent_np, GLIBC_2.4);
