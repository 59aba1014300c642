// SPDX-License-Identifier: LGPL-2.1-or-later
/* See pthread_barrier_wait.c for the protocol and the field layout.  */
#include "nptl.h"

NPTL_API int __nptl_pthread_barrier_init(pthread_barrier_t *barrier,
					 const pthread_barrierattr_t *attr,
					 unsigned int count)
{
	struct nptl_barrier *b = (struct nptl_barrier *)barrier;
	/* Rounds must end below the reset threshold (glibc's limit, too).  */
	if (count == 0 || count >= NPTL_BARRIER_THRESHOLD)
		return EINVAL;
	bool shared = attr && ((const struct nptl_barrierattr *)attr)->pshared ==
				      PTHREAD_PROCESS_SHARED;
	b->in = 0;
	b->current_round = 0;
	b->count = count;
	b->shared = shared ? FUTEX_PRIVATE_FLAG : 0;     /* glibc's encoding */
	b->out = 0;
	b->sleepers = 0;
	b->spin = 0;
	b->woke_at = 0;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_barrier_init, pthread_barrier_init, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_barrier_init, pthread_barrier_init, GLIBC_2.2.5);
