// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The LinuxThreads-era cleanup interface: struct _pthread_cleanup_buffer
 * records chained through the descriptor's `cleanup` field.  Nothing
 * longjmps to them; the forced unwind (pthread_exit.c) calls the handlers
 * of the records that live in the frames it leaves, innermost first.  The
 * _defer/_restore pair (compatibility only, as in glibc) also switches the
 * thread to deferred cancellation for the duration, keeping the old type
 * in the record.
 */
#include "nptl.h"

NPTL_API void __nptl_pthread_cleanup_push(struct _pthread_cleanup_buffer *b,
					  void (*routine)(void *), void *arg)
{
	struct pthread *self = nptl_self();
	b->__routine = routine;
	b->__arg = arg;
	b->__prev = self->cleanup;
	self->cleanup = b;
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl_pthread_cleanup_push,
			  _pthread_cleanup_push, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_cleanup_push, _pthread_cleanup_push,
		   GLIBC_2.2.5);

NPTL_API void __nptl_pthread_cleanup_pop(struct _pthread_cleanup_buffer *b,
					 int execute)
{
	/* Unlinked first: the handler may itself be cancelled or exit.  */
	nptl_self()->cleanup = b->__prev;
	if (execute)
		b->__routine(b->__arg);
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl_pthread_cleanup_pop,
			  _pthread_cleanup_pop, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_cleanup_pop, _pthread_cleanup_pop,
		   GLIBC_2.2.5);

NPTL_API void __nptl_pthread_cleanup_push_defer(struct _pthread_cleanup_buffer *b,
						void (*routine)(void *),
						void *arg)
{
	struct pthread *self = nptl_self();
	b->__routine = routine;
	b->__arg = arg;
	b->__prev = self->cleanup;
	b->__canceltype = __nptl_cancel_defer();
	self->cleanup = b;
}
NPTL_SYMVER_COMPAT(__nptl_pthread_cleanup_push_defer,
		   _pthread_cleanup_push_defer, GLIBC_2.2.5);

NPTL_API void __nptl_pthread_cleanup_pop_restore(struct _pthread_cleanup_buffer *b,
						 int execute)
{
	nptl_self()->cleanup = b->__prev;
	__nptl_cancel_restore(b->__canceltype);
	if (execute)
		b->__routine(b->__arg);
}
NPTL_SYMVER_COMPAT(__nptl_pthread_cleanup_pop_restore,
		   _pthread_cleanup_pop_restore, GLIBC_2.2.5);
