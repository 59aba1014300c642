// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutexattr_setprotocol / getprotocol and the attribute's
 * priority ceiling, in glibc's attribute word.  The ceiling is stored and
 * validated as glibc does (SCHED_FIFO's range, EINVAL outside it; an unset
 * ceiling, 0, reads as SCHED_FIFO's minimum), whatever the protocol.
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int protocol)
{
	int *k = (int *)a;

	if (protocol != PTHREAD_PRIO_NONE && protocol != PTHREAD_PRIO_INHERIT &&
	    protocol != PTHREAD_PRIO_PROTECT)
		return EINVAL;
	*k = (*k & ~NPTL_MUTEXATTR_PROTOCOL_MASK)
	     | (protocol << NPTL_MUTEXATTR_PROTOCOL_SHIFT);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_setprotocol, pthread_mutexattr_setprotocol, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_setprotocol, pthread_mutexattr_setprotocol, GLIBC_2.4);

NPTL_API int __nptl_pthread_mutexattr_getprotocol(const pthread_mutexattr_t *a, int *protocol)
{
	*protocol = (*(const int *)a & NPTL_MUTEXATTR_PROTOCOL_MASK)
		    >> NPTL_MUTEXATTR_PROTOCOL_SHIFT;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_getprotocol, pthread_mutexattr_getprotocol, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_getprotocol, pthread_mutexattr_getprotocol, GLIBC_2.4);

NPTL_API int __nptl_pthread_mutexattr_setprioceiling(pthread_mutexattr_t *a, int ceiling)
{
	int *k = (int *)a;
	int max_field = NPTL_MUTEXATTR_CEILING_MASK >> NPTL_MUTEXATTR_CEILING_SHIFT;

	if (ceiling < __nptl_fifo_min() || ceiling > __nptl_fifo_max() ||
	    (ceiling & max_field) != ceiling)
		return EINVAL;
	*k = (*k & ~NPTL_MUTEXATTR_CEILING_MASK)
	     | (ceiling << NPTL_MUTEXATTR_CEILING_SHIFT);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_setprioceiling, pthread_mutexattr_setprioceiling, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_setprioceiling, pthread_mutexattr_setprioceiling, GLIBC_2.4);

NPTL_API int __nptl_pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *a, int *ceiling)
{
	int c = (*(const int *)a & NPTL_MUTEXATTR_CEILING_MASK)
		>> NPTL_MUTEXATTR_CEILING_SHIFT;
	int min = __nptl_fifo_min();

	*ceiling = c ? c : (min > 0 ? min : 0);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_getprioceiling, pthread_mutexattr_getprioceiling, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_getprioceiling, pthread_mutexattr_getprioceiling, GLIBC_2.4);
