// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cleanup-buffer entry points <pthread.h>'s pthread_cleanup_push and
 * pthread_cleanup_pop macros call (C without -fexceptions).
 *
 * The macro puts a __pthread_unwind_buf_t on the caller's stack, sigsetjmps
 * into it and registers it: the descriptor's cleanup_jmp_buf is the head of
 * a chain through priv.data.prev.  A cancellation or pthread_exit is a
 * forced unwind that ends with a longjmp into the head buffer
 * (pthread_exit.c); the macro's code there runs the handler and calls
 * __pthread_unwind_next, which starts the unwind again towards the
 * previous buffer.  Handlers therefore run innermost first, interleaved in
 * stack order with C++ destructors and -fexceptions cleanups, and the
 * unwind ends in the thread's start buffer.  priv.data.cleanup records the
 * head of the old-style (_pthread_cleanup_push) chain at registration, so
 * the unwind knows which of those handlers belong to inner frames.
 *
 * Registration touches only the calling thread's descriptor, so no atomics
 * are needed except where cancelhandling (which other threads write) is
 * changed by the _defer/_restore variants.
 */
#include "nptl.h"

/* glibc's struct pthread_unwind_buf is what <pthread.h> calls
 * __pthread_unwind_buf_t.  */
_Static_assert(sizeof(struct glibc_unwind_buf) == sizeof(__pthread_unwind_buf_t),
	       "unwind buffer size");

static struct glibc_unwind_buf *ibuf(__pthread_unwind_buf_t *buf)
{
	return (struct glibc_unwind_buf *)(void *)buf;
}

int __nptl_cancel_defer(void)
{
	struct pthread *self = nptl_self();
	int old = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	while ((old & CANCELTYPE_BITMASK) &&
	       !__atomic_compare_exchange_n(&self->cancelhandling, &old,
					    old & ~CANCELTYPE_BITMASK, true,
					    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		;
	return (old & CANCELTYPE_BITMASK) ? PTHREAD_CANCEL_ASYNCHRONOUS
					  : PTHREAD_CANCEL_DEFERRED;
}

void __nptl_cancel_restore(int type)
{
	if (type == PTHREAD_CANCEL_DEFERRED)
		return;
	struct pthread *self = nptl_self();
	int old = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	if (old & CANCELTYPE_BITMASK)
		return;
	while (!__atomic_compare_exchange_n(&self->cancelhandling, &old,
					    old | CANCELTYPE_BITMASK, true,
					    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		;
	/* A cancellation that arrived while we were deferred did not act:
	 * now asynchronous, it must.  */
	if (nptl_cancel_pending(old))
		__nptl_cancel_now();
}

NPTL_API void __nptl_pthread_register_cancel(__pthread_unwind_buf_t *buf)
{
	struct pthread *self = nptl_self();
	struct glibc_unwind_buf *b = ibuf(buf);
	b->priv.data.prev = self->cleanup_jmp_buf;
	b->priv.data.cleanup = self->cleanup;
	self->cleanup_jmp_buf = b;
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl_pthread_register_cancel,
			  __pthread_register_cancel, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_register_cancel, __pthread_register_cancel,
		   GLIBC_2.3.3);

NPTL_API void __nptl_pthread_unregister_cancel(__pthread_unwind_buf_t *buf)
{
	nptl_self()->cleanup_jmp_buf = ibuf(buf)->priv.data.prev;
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl_pthread_unregister_cancel,
			  __pthread_unregister_cancel, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_unregister_cancel,
		   __pthread_unregister_cancel, GLIBC_2.3.3);

/* pthread_cleanup_push_defer_np: the handler is registered, and the
 * thread deferred, as one step: no asynchronous cancellation can act
 * between the two.  */
NPTL_API void __nptl_pthread_register_cancel_defer(__pthread_unwind_buf_t *buf)
{
	struct pthread *self = nptl_self();
	struct glibc_unwind_buf *b = ibuf(buf);
	b->priv.data.prev = self->cleanup_jmp_buf;
	b->priv.data.cleanup = self->cleanup;
	b->priv.data.canceltype = __nptl_cancel_defer();
	self->cleanup_jmp_buf = b;
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl_pthread_register_cancel_defer,
			  __pthread_register_cancel_defer, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_register_cancel_defer,
		   __pthread_register_cancel_defer, GLIBC_2.3.3);

NPTL_API void __nptl_pthread_unregister_cancel_restore(__pthread_unwind_buf_t *buf)
{
	struct glibc_unwind_buf *b = ibuf(buf);
	nptl_self()->cleanup_jmp_buf = b->priv.data.prev;
	__nptl_cancel_restore(b->priv.data.canceltype);
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl_pthread_unregister_cancel_restore,
			  __pthread_unregister_cancel_restore, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_unregister_cancel_restore,
		   __pthread_unregister_cancel_restore, GLIBC_2.3.3);

NPTL_API _Noreturn void __nptl_pthread_unwind_next(__pthread_unwind_buf_t *buf)
{
	__nptl_unwind(ibuf(buf)->priv.data.prev);
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl_pthread_unwind_next,
			  __pthread_unwind_next, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_unwind_next, __pthread_unwind_next,
		   GLIBC_2.3.3);

/* The -fexceptions form of the macros: a cleanup attribute calls this
 * whether the scope is left normally or by the unwind.  */
NPTL_API void __nptl_pthread_cleanup_routine(struct __pthread_cleanup_frame *f)
{
	if (f->__do_it)
		f->__cancel_routine(f->__cancel_arg);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cleanup_routine, __pthread_cleanup_routine,
		    GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_cleanup_routine, __pthread_cleanup_routine,
		   GLIBC_2.3.3);
