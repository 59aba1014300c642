// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The robust list: every thread's descriptor holds glibc's
 * robust_list_head (robust_head), set up by glibc for its threads and by
 * pthread_create for ours.  When a thread dies, the kernel walks that list
 * and, for every futex word still holding the dead tid, sets
 * FUTEX_OWNER_DIED and wakes a waiter.
 *
 * When it is registered.  glibc registers every thread's head at its
 * start; a libnptl thread registers its own at its first robust-list
 * operation (nptl_robust_pending with an entry, before the lock word is
 * touched), so the thousands of threads that never lock a robust mutex
 * save a system call each (about 1 us here, a tenth of a bare clone).
 * Nothing is lost: the kernel reads the head only when the thread dies,
 * and a thread that never announced an entry owns no robust mutex, so
 * its list is empty and there is nothing to walk.  The registration is
 * the task's (a new task starts with none), so the flag lives in the
 * descriptor and is cleared for each thread that gets it.  In a fork
 * child glibc's _Fork registers the head again; a stale false there only
 * costs one more, harmless, registration.  A glibc thread and a libnptl thread
 * must build the list the same way because the entries live in the
 * (possibly shared) mutexes themselves.
 *
 * Protocol (glibc's): the list is doubly linked through each mutex's
 * __list.{__prev,__next}; the links point at the __next field of the
 * neighbour (what the kernel walks), the head's own "node" being
 * robust_prev/robust_head.list.  Bit 0 of a link marks a PI mutex.  Before
 * touching the list or the lock word, the locker stores the entry in
 * list_op_pending, so that dying between the lock-word change and the list
 * change still lets the kernel find the mutex.  Only the owning thread
 * changes its list, so plain stores suffice; compiler barriers keep the
 * entry fully linked before the head points at it, because the kernel may
 * read the list at any instant (the thread may be killed).
 */
#include "nptl.h"

/* Mutex list node as glibc lays it out in pthread_mutex_t.  */
typedef struct glibc_mlist {
	struct glibc_mlist *prev, *next;
} mlist;

/* A link points at a node's `next` field; step back to the node.  */
static inline mlist *node_of(void *link)
{
	return (mlist *)(((uintptr_t)link & ~(uintptr_t)1) - offsetof(mlist, next));
}

void __nptl_robust_register(struct pthread *self)
{
	nptl_sys2(SYS_set_robust_list, &self->robust_head, sizeof(self->robust_head));
	nptl_ext(self)->robust_set = true;
}

void __nptl_robust_enqueue(pthread_mutex_t *m, bool pi)
{
	struct pthread *self = nptl_self();
	mlist *first = node_of(self->robust_head.list);

	first->prev = (void *)&m->__data.__list.__next;
	m->__data.__list.__next = self->robust_head.list;
	m->__data.__list.__prev = (void *)&self->robust_head;
	__asm__ __volatile__("" ::: "memory");
	self->robust_head.list =
		(void *)((uintptr_t)&m->__data.__list.__next | (pi ? 1 : 0));
}

void __nptl_robust_dequeue(pthread_mutex_t *m)
{
	mlist *next = node_of(m->__data.__list.__next);
	mlist *prev = node_of(m->__data.__list.__prev);

	next->prev = (void *)m->__data.__list.__prev;
	prev->next = (void *)m->__data.__list.__next;
	/* Unlinked before the entry's own link is cleared: the kernel may be
	 * walking the list through it.  */
	__asm__ __volatile__("" ::: "memory");
	m->__data.__list.__prev = NULL;
	m->__data.__list.__next = NULL;
}
