// SPDX-License-Identifier: LGPL-2.1-or-later
/* With 1:1 threads the concurrency level is only a hint nobody uses; POSIX
 * asks that the value set be the value read back.  */
#include "nptl.h"

static int level;

NPTL_API int __nptl_pthread_setconcurrency(int new_level)
{
	if (new_level < 0)
		return EINVAL;
	__atomic_store_n(&level, new_level, __ATOMIC_RELAXED);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_setconcurrency, pthread_setconcurrency, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_setconcurrency, pthread_setconcurrency, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_getconcurrency(void)
{
	return __atomic_load_n(&level, __ATOMIC_RELAXED);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_getconcurrency, pthread_getconcurrency, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_getconcurrency, pthread_getconcurrency, GLIBC_2.2.5);
