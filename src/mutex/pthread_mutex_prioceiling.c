// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutex_getprioceiling / pthread_mutex_setprioceiling.  Only a
 * PRIO_PROTECT mutex has a ceiling (EINVAL otherwise, as glibc; also for
 * a destroyed mutex, whose __kind of -1 glibc takes for a ceiling one).  libnptl
 * does not make PRIO_PROTECT mutexes; one made by a glibc process in
 * shared memory can be read, but changing its ceiling needs the
 * priority-protection machinery we lack: ENOTSUP.
 */
#include <sched.h>
#include "nptl.h"

NPTL_API int __nptl_pthread_mutex_getprioceiling(const pthread_mutex_t *m,
						 int *ceiling)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	if (!(kind & NPTL_MUTEX_PP) || kind == -1)      /* -1: destroyed */
		return EINVAL;
	*ceiling = (int)(((unsigned)m->__data.__lock & NPTL_MUTEX_CEILING_MASK)
			 >> NPTL_MUTEX_CEILING_SHIFT);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_getprioceiling, pthread_mutex_getprioceiling, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutex_getprioceiling, pthread_mutex_getprioceiling, GLIBC_2.4);

NPTL_API int __nptl_pthread_mutex_setprioceiling(pthread_mutex_t *m, int ceiling,
						 int *old)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	if (!(kind & NPTL_MUTEX_PP) || kind == -1)      /* -1: destroyed */
		return EINVAL;
	if (ceiling < sched_get_priority_min(SCHED_FIFO) ||
	    ceiling > sched_get_priority_max(SCHED_FIFO))
		return EINVAL;
	(void)old;
	return ENOTSUP;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutex_setprioceiling, pthread_mutex_setprioceiling, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutex_setprioceiling, pthread_mutex_setprioceiling, GLIBC_2.4);
