// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Thread creation: one clone(2) in the common case.
 *
 * The creator prepares everything the new thread needs in its descriptor
 * (cached with its stack and TLS, see stack.c), puts it on the thread lists
 * and clones.  The child inherits the creator's signal mask from the kernel,
 * which is what POSIX asks, so no signal juggling is needed around clone;
 * its TLS is valid from its first instruction (CLONE_SETTLS), so a signal
 * handler may run in it at once.  The kernel stores the tid into pd->tid
 * (CLONE_PARENT_SETTID) before either side runs, and clears it and wakes
 * the tid futex when the thread is gone (CLONE_CHILD_CLEARTID): that is
 * what join waits on, and what says a descriptor may be reused.
 *
 * Once clone has returned, the creator must not touch the descriptor unless
 * the child is held stopped: a detached child may already have run, exited
 * and had its memory reused by another creator or unmapped by the cache
 * trim.  Everything the creator needs after clone lives in its own locals.
 *
 * When the attribute asks for explicit scheduling or an affinity, the child
 * is started stopped: it waits on pd->lock until the creator has applied
 * them to its tid, so it never runs user code with the wrong ones, and a
 * failure (EPERM) is the creator's pthread_create's result -- the child then
 * exits without running anything and the creator reclaims it.
 */
#include <locale.h>
#include <string.h>
#include <stdlib.h>
#include "nptl.h"

#define CLONE_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
		     CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |          \
		     CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)

static _Noreturn void start(void *arg)
{
	struct pthread *pd = arg;

	if (pd->stopped_start) {
		while (__atomic_load_n(&pd->lock, __ATOMIC_ACQUIRE) != 0)
			nptl_futex_wait(&pd->lock, 1, true);
		if (pd->setup_failed) {
			/* A setuid broadcast may be waiting for us to start.  */
			__atomic_store_n(&pd->setxid_futex, 0, __ATOMIC_RELEASE);
			nptl_futex_wake(&pd->setxid_futex, 1, true);
			nptl_arch_exit_thread();
		}
	}
	errno = 0;
	__resp = (struct __res_state *)(void *)pd->res;
	__ctype_init();
	__nptl_glibc_rseq_register(pd, pd->flags & ATTR_FLAG_DO_RSEQ);
	/* From here on glibc's setuid broadcast may signal this thread.  */
	if (__atomic_exchange_n(&pd->setxid_futex, 0, __ATOMIC_ACQ_REL) ==
	    SETXID_AWAITED)
		nptl_futex_wake(&pd->setxid_futex, 1, true);
	struct nptl_ext *e = nptl_ext(pd);
	if (e->set_mask)
		nptl_sys4(SYS_rt_sigprocmask, SIG_SETMASK, &e->start_mask, 0, 8);

	/* pthread_exit and cancellation (ours and glibc's) unwind to here.  */
	struct glibc_unwind_buf buf;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
	if (__sigsetjmp((struct __jmp_buf_tag *)(void *)buf.cancel_jmp_buf, 0) == 0) {
#pragma GCC diagnostic pop
		buf.priv.data.prev = NULL;
		buf.priv.data.cleanup = NULL;
		pd->cleanup_jmp_buf = &buf;
		void *r;
		if (pd->c11)
			r = (void *)(intptr_t)((int (*)(void *))(void (*)(void))
					       pd->start_routine)(pd->arg);
		else
			r = pd->start_routine(pd->arg);
		pd->result = r;
	}
	__nptl_thread_exit(nptl_self());
}

/* glibc's collect_default_sched: what an explicit-scheduling attribute
 * leaves unset comes from the creator.  */
static void own_sched(struct pthread *pd)
{
	if (!(pd->flags & ATTR_FLAG_POLICY_SET))
		pd->schedpolicy = sched_getscheduler(0);
	if (!(pd->flags & ATTR_FLAG_SCHED_SET))
		sched_getparam(0, &pd->schedparam);
	pd->flags |= ATTR_FLAG_POLICY_SET | ATTR_FLAG_SCHED_SET;
}

static void reset_specific(struct pthread *pd)
{
	/* Only a descriptor whose thread vanished in a fork child still has
	 * values: a thread that exits clears its own.  */
	memset(pd->specific_1stblock, 0, sizeof(pd->specific_1stblock));
	for (int i = 1; i < GLIBC_KEY_1STLEVEL; i++) {
		free(pd->specific[i]);
		pd->specific[i] = NULL;
	}
	pd->specific_used = false;
}

static void init_descriptor(struct pthread *pd, const struct glibc_attr *a,
			    void *(*fn)(void *), void *arg, bool c11)
{
	struct pthread *self = nptl_self();
	pd->header.multiple_threads = 1;
	pd->header.stack_guard = self->header.stack_guard;
	pd->header.pointer_guard = self->header.pointer_guard;
	pd->header.feature_1 = self->header.feature_1;
	pd->tid = 0;
	pd->robust_prev = &pd->robust_head;
	pd->robust_head.list = &pd->robust_head;
	pd->robust_head.futex_offset = GLIBC_ROBUST_FUTEX_OFFSET;
	pd->robust_head.list_op_pending = NULL;
	nptl_ext(pd)->robust_set = false;       /* until its first robust lock */
	pd->cleanup = NULL;
	pd->cleanup_jmp_buf = NULL;
	pd->cancelhandling = 0;
	pd->flags = (a->flags & ~(ATTR_FLAG_SCHED_SET | ATTR_FLAG_POLICY_SET)) |
		    (self->flags & (ATTR_FLAG_SCHED_SET | ATTR_FLAG_POLICY_SET)) |
		    NPTL_PD_OURS;
	if (__nptl_glibc_rseq_registered(self))
		pd->flags |= ATTR_FLAG_DO_RSEQ;
	__nptl_glibc_thread_reset(pd);
	pd->specific[0] = pd->specific_1stblock;
	if (pd->specific_used)
		reset_specific(pd);
	/* Only a thread that vanished in a fork child left one.  */
	free(pd->tpp);
	pd->tpp = NULL;
	pd->report_events = false;
	pd->stopped_start = false;
	pd->setup_failed = 0;
	pd->lock = 0;
	pd->setxid_futex = SETXID_NOT_STARTED;
	pd->joinid = (a->flags & ATTR_FLAG_DETACHSTATE) ? pd : NULL;
	pd->result = NULL;
	pd->schedpolicy = self->schedpolicy;
	pd->schedparam = self->schedparam;
	pd->start_routine = fn;
	pd->arg = arg;
	pd->c11 = c11;
	/* glibc reports the guard it really made: whole pages.  */
	pd->reported_guardsize = (a->guardsize + __nptl_page_size - 1) &
				 ~(__nptl_page_size - 1);
	pd->exiting = false;
	pd->exit_lock = 0;

	if ((a->flags & ATTR_FLAG_NOTINHERITSCHED) &&
	    (a->flags & (ATTR_FLAG_SCHED_SET | ATTR_FLAG_POLICY_SET))) {
		if (a->flags & ATTR_FLAG_POLICY_SET) {
			pd->schedpolicy = a->schedpolicy;
			pd->flags |= ATTR_FLAG_POLICY_SET;
		}
		if (a->flags & ATTR_FLAG_SCHED_SET) {
			pd->schedparam = a->schedparam;
			pd->flags |= ATTR_FLAG_SCHED_SET;
		}
		own_sched(pd);
	}

	struct nptl_ext *e = nptl_ext(pd);
	e->set_mask = a->extension && a->extension->sigmask_set;
	if (e->set_mask) {
		e->start_mask = a->extension->sigmask;
	} else if (__atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED) &
		   EXITING_BITMASK) {
		/* A cleanup handler may run inside our SIGCANCEL handler,
		 * where that signal is blocked: a thread it creates must not
		 * inherit the block, or it could never be cancelled (glibc
		 * takes the reserved signals out of every new thread's
		 * mask).  Nowhere else can the creator have them blocked
		 * (pthread_sigmask drops them), so only an exiting creator
		 * pays for the look.  */
		sigset_t cur, want;
		if (nptl_sys4(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &cur, 8) == 0) {
			want = cur;
			nptl_sigset_drop_reserved(&want);
			if (want.__val[0] != cur.__val[0]) {
				e->start_mask = want;
				e->set_mask = true;
			}
		}
	}
}

/* The attribute a NULL argument stands for.  Returns a copy the caller
 * releases with __nptl_attr_free when it has an extension.  */
static int default_attr(struct glibc_attr *out)
{
	int err = 0;
	nptl_lll_lock(&__nptl_default_attr_lock);
	if (__nptl_default_attr.extension)
		err = __nptl_attr_copy(out, &__nptl_default_attr);
	else
		*out = __nptl_default_attr;
	nptl_lll_unlock(&__nptl_default_attr_lock);
	return err;
}

int __nptl_thread_create(pthread_t *res, const pthread_attr_t *uattr,
			 void *(*fn)(void *), void *arg, bool c11)
{
	int init_kerr = 0;
	int init_err = __nptl_init_once(&init_kerr);
	if (__builtin_expect(init_err != 0, 0)) {
		struct nptl_create_why why = { NPTL_CREATE_INIT, init_kerr };
		__nptl_create_failed(c11, init_err, &why, 0, 0);
		return init_err;
	}

	struct glibc_attr dflt;
	const struct glibc_attr *a = (const struct glibc_attr *)uattr;
	if (!a) {
		int err = default_attr(&dflt);
		if (err) {
			struct nptl_create_why why = { NPTL_CREATE_ATTR, err };
			err = err == ENOMEM ? EAGAIN : err;
			__nptl_create_failed(c11, err, &why, 0, 0);
			return err;
		}
		a = &dflt;
	}
	int err = 0;
	/* For the report of a failure (create_error.c).  */
	struct nptl_create_why why = { NPTL_CREATE_STACK, 0 };
	size_t ss = 0, guard = 0;
	struct pthread *pd;
	if (a->flags & ATTR_FLAG_STACKADDR) {
		pd = __nptl_stack_get(0, 0, (char *)a->stackaddr - a->stacksize,
				      a->stacksize, &err, &why);
	} else {
		ss = a->stacksize ? a->stacksize : __nptl_default_stacksize();
		guard = a->guardsize;
		pd = __nptl_stack_get(ss, guard, NULL, 0, &err, &why);
	}
	if (!pd)
		goto out;
	init_descriptor(pd, a, fn, arg, c11);

	bool setaff = a->extension && a->extension->cpuset;
	bool setsched = (pd->flags & ATTR_FLAG_NOTINHERITSCHED) &&
			(a->flags & (ATTR_FLAG_SCHED_SET | ATTR_FLAG_POLICY_SET));
	bool stopped = setaff || setsched;
	if (stopped) {
		pd->stopped_start = true;
		pd->lock = 1;
	}

	err = __nptl_stack_live(pd, &why);
	if (err) {
		__nptl_stack_put(pd);
		goto out;
	}
	*res = (pthread_t)pd;
	__atomic_fetch_add(&__nptl_nthreads, 1, __ATOMIC_RELAXED);

	long tid = nptl_arch_clone(start, pd, CLONE_FLAGS, __nptl_stack_top(pd),
				   &pd->tid, &pd->tid, pd);
	if (tid < 0) {
		err = tid == -ENOMEM ? EAGAIN : (int)-tid;
		why.step = NPTL_CREATE_CLONE;
		why.kerr = (int)-tid;
		__atomic_fetch_sub(&__nptl_nthreads, 1, __ATOMIC_RELAXED);
		pd->tid = 0;
		__nptl_free_tcb(pd);
		goto out;
	}

	/* From here on pd is ours to read only while the child is held.  */
	if (stopped) {
		long r = 0;
		why.step = NPTL_CREATE_AFFINITY;
		if (setaff)
			r = nptl_sys3(SYS_sched_setaffinity, tid,
				      a->extension->cpusetsize, a->extension->cpuset);
		if (r == 0 && setsched) {
			why.step = NPTL_CREATE_SCHED;
			r = nptl_sys3(SYS_sched_setscheduler, tid, pd->schedpolicy,
				      &pd->schedparam);
		}
		if (r != 0) {
			pd->setup_failed = 1;
			err = (int)-r;
			why.kerr = (int)-r;
		}
		__atomic_store_n(&pd->lock, 0, __ATOMIC_RELEASE);
		nptl_futex_wake(&pd->lock, 1, true);
		if (err) {
			pid_t t;
			while ((t = __atomic_load_n(&pd->tid, __ATOMIC_ACQUIRE)) != 0)
				nptl_futex_wait(&pd->tid, t, false);
			__atomic_fetch_sub(&__nptl_nthreads, 1, __ATOMIC_RELAXED);
			__nptl_free_tcb(pd);
			goto out;
		}
	}
	nptl_self()->header.multiple_threads = 1;
	__atomic_fetch_add(&__nptl_created, 1, __ATOMIC_RELAXED);
out:
	if (a == &dflt && dflt.extension)
		__nptl_attr_free(&dflt);
	if (__builtin_expect(err != 0, 0))
		__nptl_create_failed(c11, err, &why, ss, guard);
	return err;
}

NPTL_API int __nptl_pthread_create(pthread_t *res, const pthread_attr_t *attr,
				   void *(*fn)(void *), void *arg)
{
	return __nptl_thread_create(res, attr, fn, arg, false);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_create, pthread_create, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_create, pthread_create, GLIBC_2.2.5);
