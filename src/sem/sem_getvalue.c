// SPDX-License-Identifier: LGPL-2.1-or-later
#include <semaphore.h>
#include "nptl.h"

/* The value only, never a negative count of waiters (POSIX allows either;
 * glibc reports the value).  */
NPTL_API int __nptl_sem_getvalue(sem_t *sem, int *sval)
{
	struct nptl_sem *s = (struct nptl_sem *)sem;
	*sval = (int)(__atomic_load_n(&s->data, __ATOMIC_RELAXED) &
		      NPTL_SEM_VALUE_MASK);
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_sem_getvalue, sem_getvalue, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_getvalue, sem_getvalue, GLIBC_2.2.5);
