// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GLIBC_2.2.5 condition variable entry points, for binaries built
 * against the LinuxThreads-era ABI whose pthread_cond_t was too small for
 * today's condvar.  As in glibc, the old object's first word holds a
 * pointer to a real condvar, allocated (zeroed, i.e. default attributes)
 * on first use; concurrent first users race with a CAS and the loser frees
 * its copy.  The old ABI had no process-shared condvars and no clocks, so
 * init refuses any non-default attribute.
 */
#include <stdlib.h>
#include "nptl.h"

struct old_cond {
	pthread_cond_t *cond;
};

static pthread_cond_t *real(struct old_cond *o)
{
	pthread_cond_t *c = __atomic_load_n(&o->cond, __ATOMIC_ACQUIRE);
	if (c)
		return c;
	pthread_cond_t *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	if (__atomic_compare_exchange_n(&o->cond, &c, n, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return n;
	free(n);
	return c;
}

NPTL_API int __nptl_pthread_cond_init_2_0(struct old_cond *o,
					  const pthread_condattr_t *a)
{
	o->cond = NULL;
	if (a && *(const int *)a != 0)
		return EINVAL;
	return 0;
}
NPTL_SYMVER_COMPAT(__nptl_pthread_cond_init_2_0, pthread_cond_init, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_cond_destroy_2_0(struct old_cond *o)
{
	free(o->cond);
	return 0;
}
NPTL_SYMVER_COMPAT(__nptl_pthread_cond_destroy_2_0, pthread_cond_destroy,
		   GLIBC_2.2.5);

NPTL_API int __nptl_pthread_cond_wait_2_0(struct old_cond *o, pthread_mutex_t *m)
{
	pthread_cond_t *c = real(o);
	return c ? __nptl_pthread_cond_wait(c, m) : ENOMEM;
}
NPTL_SYMVER_COMPAT(__nptl_pthread_cond_wait_2_0, pthread_cond_wait, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_cond_timedwait_2_0(struct old_cond *o,
					       pthread_mutex_t *m,
					       const struct timespec *abs)
{
	pthread_cond_t *c = real(o);
	return c ? __nptl_pthread_cond_timedwait(c, m, abs) : ENOMEM;
}
NPTL_SYMVER_COMPAT(__nptl_pthread_cond_timedwait_2_0, pthread_cond_timedwait,
		   GLIBC_2.2.5);

NPTL_API int __nptl_pthread_cond_signal_2_0(struct old_cond *o)
{
	pthread_cond_t *c = real(o);
	return c ? __nptl_pthread_cond_signal(c) : ENOMEM;
}
NPTL_SYMVER_COMPAT(__nptl_pthread_cond_signal_2_0, pthread_cond_signal,
		   GLIBC_2.2.5);

NPTL_API int __nptl_pthread_cond_broadcast_2_0(struct old_cond *o)
{
	pthread_cond_t *c = real(o);
	return c ? __nptl_pthread_cond_broadcast(c) : ENOMEM;
}
NPTL_SYMVER_COMPAT(__nptl_pthread_cond_broadcast_2_0, pthread_cond_broadcast,
		   GLIBC_2.2.5);
