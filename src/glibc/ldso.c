// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ld.so's thread lists.  glibc keeps every thread on GL(dl_stack_used)
 * (stacks it allocated) or GL(dl_stack_user) (all others), guarded by
 * GL(dl_stack_cache_lock) with the 0/1/2 low-level lock protocol.  The
 * setuid broadcast walks both lists to signal every thread, and fork's child
 * rebuilds them.  libnptl threads go on dl_stack_user: glibc never puts a
 * thread from that list into its own stack cache.  Each change is bracketed
 * by GL(dl_in_flight_stack), which lets fork's child repair a list that a
 * fork interrupted half-way.
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

void __nptl_dl_user_add(struct pthread *pd)
{
	struct glibc_list *head = GL(off_dl_stack_user, struct glibc_list *);
	struct glibc_list *e = &pd->list;
	in_flight((uintptr_t)e | 1);
	e->next = head->next;
	e->prev = head;
	head->next->prev = e;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	head->next = e;
	in_flight(0);
}

void __nptl_dl_user_del(struct pthread *pd)
{
	struct glibc_list *e = &pd->list;
	in_flight((uintptr_t)e);
	e->next->prev = e->prev;
	e->prev->next = e->next;
	in_flight(0);
}

int __nptl_dl_stack_prot(void)
{
	unsigned int flags = *GL(off_dl_stack_flags, unsigned int *);
	return PROT_READ | PROT_WRITE | ((flags & PF_X) ? PROT_EXEC : 0);
}
