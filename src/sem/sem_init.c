// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sem_init writes glibc 2.36's encoding (struct nptl_sem in nptl.h), so that
 * a process-shared semaphore set up here can be used by a glibc process and
 * the other way round.  On x86_64 glibc never had the 2.0 "old_sem" ABI:
 * GLIBC_2.2.5 and GLIBC_2.34 are the same function.
 */
#include <limits.h>
#include <semaphore.h>
#include "nptl.h"

NPTL_API int __nptl_sem_init(sem_t *sem, int pshared, unsigned int value)
{
	_Static_assert(sizeof(struct nptl_sem) <= sizeof(sem_t), "sem_t");
	if (value > SEM_VALUE_MAX) {
		errno = EINVAL;
		return -1;
	}
	struct nptl_sem *s = (struct nptl_sem *)sem;
	s->data = value;
	s->private = pshared ? NPTL_SEM_SHARED : NPTL_SEM_PRIVATE;
	s->pad = 0;	/* libnptl's spin budget (sem_wait.c) */
	s->woke_at = 0;
	s->waker_cpu = 0;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_sem_init, sem_init, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_init, sem_init, GLIBC_2.2.5);
