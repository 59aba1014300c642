// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_mutexattr_init / destroy.  The attribute is glibc's one int
 * (`mutexkind`): the type in the low bits, protocol, ceiling, robust and
 * pshared flags above (nptl.h, NPTL_MUTEXATTR_*).
 */
#include <string.h>
#include "nptl.h"

int __nptl_pthread_mutexattr_init(pthread_mutexattr_t *a)
{
	memset(a, 0, sizeof *a);
	*(int *)a = PTHREAD_MUTEX_NORMAL;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_init, pthread_mutexattr_init, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_init, pthread_mutexattr_init, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutexattr_init) __nptl___pthread_mutexattr_init
	__attribute__((alias("__nptl_pthread_mutexattr_init"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_mutexattr_init, __pthread_mutexattr_init, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_mutexattr_destroy(pthread_mutexattr_t *a)
{
	(void)a;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_mutexattr_destroy, pthread_mutexattr_destroy, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_mutexattr_destroy, pthread_mutexattr_destroy, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_mutexattr_destroy) __nptl___pthread_mutexattr_destroy
	__attribute__((alias("__nptl_pthread_mutexattr_destroy"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_mutexattr_destroy, __pthread_mutexattr_destroy, GLIBC_2.2.5);
