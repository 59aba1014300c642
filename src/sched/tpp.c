// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Priority protection, the thread's side: which PTHREAD_PRIO_PROTECT
 * ceilings the calling thread holds, and its priority kept at the highest.
 *
 * State: pd->tpp (glibc's field and layout, struct glibc_tpp), allocated
 * by the thread's first PP lock and freed when the thread exits.  It is in
 * glibc's part of the descriptor rather than in struct nptl_ext because
 * threads glibc made (the main thread above all) take PP mutexes too and
 * have no nptl_ext; glibc's own code reads it the same way.  priomap[] is
 * touched by the owning thread only.  priomax is written by the owner under
 * pd->lock and read under pd->lock by pthread_setschedparam and
 * pthread_setschedprio of any thread, which never set a priority below it.
 *
 * Protocol: a locker counts the ceiling in (and raises itself) *before* the
 * compare-and-swap that takes the mutex, and an unlocker counts it out
 * after the lock word is released, so a thread never holds a PP mutex
 * below its ceiling.  The priority asked of the kernel is the thread's own
 * (pd->schedparam, what pthread_setschedparam last set) raised to priomax,
 * with the thread's own policy: as in glibc, a SCHED_OTHER thread cannot be
 * raised (the kernel refuses a nonzero SCHED_OTHER priority: EINVAL).
 * Unlike glibc, a refused raise is undone (the counts and priomax are put
 * back), so a failed lock leaves no ceiling counted.
 */
#include <sched.h>
#include <stdlib.h>
#include "nptl.h"

/* Each set at least once to the same value: relaxed loads suffice.  */
static int fifo_min = -1, fifo_max = -1;

int __nptl_fifo_min(void)
{
	int v = __atomic_load_n(&fifo_min, __ATOMIC_RELAXED);
	if (v == -1) {
		v = sched_get_priority_min(SCHED_FIFO);
		__atomic_store_n(&fifo_min, v, __ATOMIC_RELAXED);
	}
	return v;
}

int __nptl_fifo_max(void)
{
	int v = __atomic_load_n(&fifo_max, __ATOMIC_RELAXED);
	if (v == -1) {
		v = sched_get_priority_max(SCHED_FIFO);
		__atomic_store_n(&fifo_max, v, __ATOMIC_RELAXED);
	}
	return v;
}

bool __nptl_valid_ceiling(int c)
{
	return c >= __nptl_fifo_min() && c <= __nptl_fifo_max() &&
	       (c & (int)(NPTL_MUTEX_CEILING_MASK >> NPTL_MUTEX_CEILING_SHIFT)) == c;
}

/* pd->schedparam and pd->schedpolicy filled in from the kernel if no
 * pthread_setschedparam or thread attribute has set them (pd->lock held).
 * 0 or an errno.  */
static int known_sched(struct pthread *pd)
{
	int err = 0;
	if (!(pd->flags & ATTR_FLAG_SCHED_SET)) {
		if (sched_getparam(pd->tid, &pd->schedparam) != 0)
			err = errno;
		else
			pd->flags |= ATTR_FLAG_SCHED_SET;
	}
	if (!(pd->flags & ATTR_FLAG_POLICY_SET)) {
		int p = sched_getscheduler(pd->tid);
		if (p == -1) {
			err = errno;
		} else {
			pd->schedpolicy = p;
			pd->flags |= ATTR_FLAG_POLICY_SET;
		}
	}
	return err;
}

int __nptl_current_priority(void)
{
	struct pthread *self = nptl_self();
	if ((self->flags & (ATTR_FLAG_SCHED_SET | ATTR_FLAG_POLICY_SET)) ==
	    (ATTR_FLAG_SCHED_SET | ATTR_FLAG_POLICY_SET))
		return self->schedparam.sched_priority;
	nptl_lll_lock(&self->lock);
	int r = known_sched(self) ? -1 : self->schedparam.sched_priority;
	nptl_lll_unlock(&self->lock);
	return r;
}

/* Make the kernel's priority of self match priomax `newmax` (was `oldmax`);
 * on failure, `undo` puts oldmax back.  0 or an errno.  */
static int apply(struct pthread *self, struct glibc_tpp *tpp, int oldmax,
		 int newmax, bool undo)
{
	nptl_lll_lock(&self->lock);
	tpp->priomax = newmax;
	int err = known_sched(self);
	if (!err) {
		struct sched_param sp = self->schedparam;
		/* Raised above its own priority before, or to be now.  */
		if (sp.sched_priority < newmax || sp.sched_priority < oldmax) {
			if (sp.sched_priority < newmax)
				sp.sched_priority = newmax;
			if (sched_setscheduler(self->tid, self->schedpolicy, &sp) != 0)
				err = errno;
		}
	}
	if (err && undo)
		tpp->priomax = oldmax;
	nptl_lll_unlock(&self->lock);
	return err;
}

int __nptl_tpp_change(int prev, int new)
{
	struct pthread *self = nptl_self();
	struct glibc_tpp *tpp = self->tpp;
	int min = __nptl_fifo_min();

	if (!tpp) {
		if (new == -1)
			return 0;       /* nothing counted: a foreign unlock */
		size_t n = (size_t)(__nptl_fifo_max() - min + 1);
		tpp = calloc(1, sizeof *tpp + n * sizeof tpp->priomap[0]);
		if (!tpp)
			return ENOMEM;
		tpp->priomax = min - 1;
		nptl_lll_lock(&self->lock);
		self->tpp = tpp;
		nptl_lll_unlock(&self->lock);
	}

	int oldmax = tpp->priomax, newmax = oldmax;
	if (new != -1) {
		if (tpp->priomap[new - min] + 1 == 0)
			return EAGAIN;
		tpp->priomap[new - min]++;
		if (new > newmax)
			newmax = new;
	}
	/* An unlock of a NORMAL PP mutex by a thread that did not lock it
	 * has nothing to count out.  */
	bool dropped = prev != -1 && tpp->priomap[prev - min] != 0;
	if (dropped && --tpp->priomap[prev - min] == 0 && oldmax == prev &&
	    prev > new) {
		int i = prev - 1;
		while (i >= min && tpp->priomap[i - min] == 0)
			i--;
		newmax = i;
	}
	if (newmax == oldmax)
		return 0;
	int err = apply(self, tpp, oldmax, newmax, new != -1);
	if (err && new != -1) {
		/* Refused while taking a mutex: the caller will not hold it.  */
		tpp->priomap[new - min]--;
		if (dropped)
			tpp->priomap[prev - min]++;
	}
	return err;
}

void __nptl_tpp_free(struct pthread *pd)
{
	nptl_lll_lock(&pd->lock);
	struct glibc_tpp *tpp = pd->tpp;
	pd->tpp = NULL;
	nptl_lll_unlock(&pd->lock);
	free(tpp);
}
