// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ld.so's thread lists.  glibc keeps every thread on GL(dl_stack_used)
 * (stacks it allocated) or GL(dl_stack_user) (all others), guarded by
 * GL(dl_stack_cache_lock) with the 0/1/2 low-level lock protocol.  The
 * setuid broadcast, libthread_db and the static-TLS set-up of a dlopen'ed
 * module walk both lists alike.  Two walkers tell them apart:
 *
 *  - dlopen of a library that needs an executable stack makes every stack
 *    on dl_stack_used executable (and glibc's cache), under the lock, after
 *    setting PF_X in GL(dl_stack_flags).  libnptl threads on stacks of their
 *    own therefore go on dl_stack_used, so that ld.so changes them with
 *    glibc's, at the same moment.  A stack that joins the list after that
 *    walk sees PF_X, because it reads the flag under the same lock
 *    (__nptl_dl_stacks_exec); threads on user stacks stay on dl_stack_user,
 *    whose stacks ld.so leaves alone, for glibc's threads too.
 *  - fork's child moves everything on dl_stack_used except the forking
 *    thread into glibc's own stack cache, where glibc would hand our memory
 *    out again and trim it.  So for the length of a fork libnptl parks its
 *    threads on dl_stack_user, which the child simply forgets
 *    (__nptl_dl_park, called with both locks held from the fork handlers).
 *
 * Each change is bracketed by GL(dl_in_flight_stack), which lets fork's
 * child repair a list that a fork interrupted half-way.
 */
#include <elf.h>
#include <sys/mman.h>
#include "nptl.h"

const struct nptl_glibc_layout *__nptl_glibc;

#define GL(off, type) ((type)(_rtld_global + __nptl_glibc->off))

void __nptl_dl_lock(void)
{
	nptl_lll_lock(GL(off_dl_stack_cache_lock, int *));
}

void __nptl_dl_unlock(void)
{
	nptl_lll_unlock(GL(off_dl_stack_cache_lock, int *));
}

static void in_flight(uintptr_t v)
{
	__atomic_store_n(GL(off_dl_in_flight_stack, uintptr_t *), v,
			 __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void list_add(struct glibc_list *head, struct pthread *pd)
{
	struct glibc_list *e = &pd->list;
	in_flight((uintptr_t)e | 1);
	e->next = head->next;
	e->prev = head;
	head->next->prev = e;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	head->next = e;
	in_flight(0);
}

void __nptl_dl_del(struct pthread *pd)
{
	struct glibc_list *e = &pd->list;
	in_flight((uintptr_t)e);
	e->next->prev = e->prev;
	e->prev->next = e->next;
	in_flight(0);
}

void __nptl_dl_add(struct pthread *pd)
{
	list_add(pd->user_stack ? GL(off_dl_stack_user, struct glibc_list *)
				: GL(off_dl_stack_used, struct glibc_list *), pd);
}

void __nptl_dl_park(struct pthread *pd, bool parked)
{
	if (pd->user_stack)
		return;
	__nptl_dl_del(pd);
	if (parked)
		list_add(GL(off_dl_stack_user, struct glibc_list *), pd);
	else
		__nptl_dl_add(pd);
}

bool __nptl_dl_stacks_exec(void)
{
	return (*GL(off_dl_stack_flags, unsigned int *) & PF_X) != 0;
}

int __nptl_dl_stack_prot(void)
{
	return PROT_READ | PROT_WRITE | (__nptl_dl_stacks_exec() ? PROT_EXEC : 0);
}
