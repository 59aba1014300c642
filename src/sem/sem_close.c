// SPDX-License-Identifier: LGPL-2.1-or-later
#include <semaphore.h>
#include "nptl.h"

/* Drops one sem_open's reference; the mapping goes with the last.  An
 * address sem_open did not return is EINVAL, as in glibc.  */
NPTL_API int __nptl_sem_close(sem_t *sem)
{
	if (!__nptl_sem_map_drop(sem)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_sem_close, sem_close, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_close, sem_close, GLIBC_2.2.5);
