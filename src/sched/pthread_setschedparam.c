// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A thread's policy and priority, kept in its descriptor as glibc keeps them
 * (pthread_getattr_np and libthread_db read them there), under pd->lock.
 * A thread holding priority-protected mutexes (pd->tpp) never runs below
 * their ceiling, whatever is asked.
 */
#include <sched.h>
#include "nptl.h"

NPTL_API int __nptl_pthread_setschedparam(pthread_t t, int policy,
					  const struct sched_param *param)
{
	struct pthread *pd = (struct pthread *)t;
	if (pd->tid <= 0)
		return ESRCH;
	nptl_lll_lock(&pd->lock);
	struct sched_param p = *param;
	struct glibc_tpp *tpp = pd->tpp;
	if (tpp && tpp->priomax > p.sched_priority)
		p.sched_priority = tpp->priomax;
	int err = 0;
	if (sched_setscheduler(pd->tid, policy, &p) != 0) {
		err = errno;
	} else {
		pd->schedpolicy = policy;
		pd->schedparam = *param;
		pd->flags |= ATTR_FLAG_SCHED_SET | ATTR_FLAG_POLICY_SET;
	}
	nptl_lll_unlock(&pd->lock);
	return err;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_setschedparam, pthread_setschedparam, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_getschedparam(pthread_t t, int *policy,
					  struct sched_param *param)
{
	struct pthread *pd = (struct pthread *)t;
	if (pd->tid <= 0)
		return ESRCH;
	/* glibc's result when the kernel cannot tell is 1, not an errno.  */
	int err = 0;
	nptl_lll_lock(&pd->lock);
	if (!(pd->flags & ATTR_FLAG_SCHED_SET)) {
		if (sched_getparam(pd->tid, &pd->schedparam) != 0)
			err = 1;
		else
			pd->flags |= ATTR_FLAG_SCHED_SET;
	}
	if (!(pd->flags & ATTR_FLAG_POLICY_SET)) {
		pd->schedpolicy = sched_getscheduler(pd->tid);
		if (pd->schedpolicy == -1)
			err = 1;
		else
			pd->flags |= ATTR_FLAG_POLICY_SET;
	}
	if (!err) {
		*policy = pd->schedpolicy;
		*param = pd->schedparam;
	}
	nptl_lll_unlock(&pd->lock);
	return err;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_getschedparam, pthread_getschedparam, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_setschedprio(pthread_t t, int prio)
{
	struct pthread *pd = (struct pthread *)t;
	if (pd->tid <= 0)
		return ESRCH;
	nptl_lll_lock(&pd->lock);
	struct sched_param p = { .sched_priority = prio };
	struct glibc_tpp *tpp = pd->tpp;
	if (tpp && tpp->priomax > prio)
		p.sched_priority = tpp->priomax;
	int err = 0;
	if (sched_setparam(pd->tid, &p) != 0) {
		err = errno;
	} else {
		pd->schedparam.sched_priority = prio;
		pd->flags |= ATTR_FLAG_SCHED_SET;
	}
	nptl_lll_unlock(&pd->lock);
	return err;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_setschedprio, pthread_setschedprio, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_setschedprio, pthread_setschedprio, GLIBC_2.3.4);
