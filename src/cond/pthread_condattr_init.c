// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glibc's pthread_condattr_t is one int: bit 0 process-shared, the clock
 * id from bit 1 (one bit: CLOCK_REALTIME 0 or CLOCK_MONOTONIC 1).  ABI:
 * pthread_cond_init (ours and glibc's) reads it.
 */
#include "nptl.h"

NPTL_API int __nptl_pthread_condattr_init(pthread_condattr_t *a)
{
	*(int *)a = CLOCK_REALTIME << 1;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_condattr_init, pthread_condattr_init,
		    GLIBC_2.2.5);

NPTL_API int __nptl_pthread_condattr_destroy(pthread_condattr_t *a)
{
	(void)a;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_condattr_destroy, pthread_condattr_destroy,
		    GLIBC_2.2.5);
