// SPDX-License-Identifier: LGPL-2.1-or-later
#include <semaphore.h>
#include "nptl.h"

/* A semaphore owns nothing but its bytes, and POSIX makes destroying one
 * that has waiters undefined; glibc does not look either.  */
NPTL_API int __nptl_sem_destroy(sem_t *sem)
{
	(void)sem;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_sem_destroy, sem_destroy, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_destroy, sem_destroy, GLIBC_2.2.5);
