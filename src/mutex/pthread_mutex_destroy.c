// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_destroy: EBUSY while a non-robust mutex has users (held,
 * or released by a condvar wait still in progress), as glibc; then
 * __kind = -1 so that later use fails with EINVAL rather than silently.
 */
#include "nptl.h"

int __nptl_pthread_mutex_destroy(pthread_mutex_t *m)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	if (!(kind & NPTL_MUTEX_ROBUST) && m->__data.__nusers != 0)
		return EBUSY;
	__atomic_store_n(&m->__data.__kind, -1, __ATOMIC_RELAXED);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_destroy, pthread_mutex_destroy, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutex_destroy) __nptl___pthread_mutex_destroy
	__attribute__((alias("__nptl_pthread_mutex_destroy"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_mutex_destroy, __pthread_mutex_destroy, GLIBC_2.2.5);
