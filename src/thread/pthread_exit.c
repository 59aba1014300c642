// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Thread exit.
 *
 * pthread_exit unwinds the calling thread's stack with a forced unwind, as
 * glibc does: C++ destructors and -fexceptions cleanups run, the handlers of
 * <pthread.h>'s pthread_cleanup_push macros run through glibc's
 * cleanup_jmp_buf chain, and the unwind ends with a longjmp into the buffer
 * at the head of that chain.  For a libnptl thread that buffer is in
 * start() (pthread_create.c), which then runs the exit path below; for a
 * thread glibc made (the main thread) it is glibc's, and glibc's own code
 * finishes the thread -- the protocol is the same, so either library's
 * pthread_exit and cancellation work on either kind of thread.
 *
 * The exit path keeps glibc's order and handshakes: C++ thread_local
 * destructors, key destructors, then EXITING in cancelhandling (from here
 * glibc's setuid broadcast skips us), the global thread count (the last
 * thread out exits the process, as when the main thread called
 * pthread_exit), the setuid handshake if one is under way, the exiting flag
 * pthread_kill reads, and finally the one atomic step on joinid that says
 * whether we are detached and, if not, that we are gone (pthread_detach.c);
 * a detached thread then releases its own descriptor into the cache -- safe
 * while we still run on it, because the cache reuses nothing until the
 * kernel has cleared our tid.
 */
#include <dlfcn.h>
#include <locale.h>
#include <stdlib.h>
#include "nptl.h"

static void unwind_cleanup(_Unwind_Reason_Code r, struct _Unwind_Exception *e)
{
	(void)r;
	(void)e;
	__nptl_fatal("thread exit or cancellation was caught and not rethrown "
		     "(a catch (...) block must rethrow abi::__forced_unwind)");
}

/* Stack addresses are compared as distances below the top of the thread's
 * stack block, so that a stack mapped above another cannot confuse us.  */
static bool frame_left(uintptr_t cfa, const void *p, uintptr_t adj)
{
	return cfa - adj >= (uintptr_t)p - adj;
}

static _Unwind_Reason_Code stop(int version, _Unwind_Action actions,
				_Unwind_Exception_Class cls,
				struct _Unwind_Exception *exc,
				struct _Unwind_Context *ctx, void *param)
{
	(void)version;
	(void)cls;
	(void)exc;
	struct glibc_unwind_buf *buf = param;
	struct pthread *self = nptl_self();
	uintptr_t adj = (uintptr_t)self->stackblock + self->stackblock_size;
	uintptr_t cfa = __nptl_unwind_get_cfa(ctx);
	/* The frame holding the buffer has been reached once a frame's CFA
	 * lies above the buffer (or there is no more unwind information).  */
	bool jump = (actions & _UA_END_OF_STACK) || frame_left(cfa, buf, adj);

	/* Handlers of the old _pthread_cleanup_push interface live in frames;
	 * run those the unwind leaves, down to where the target buffer was
	 * registered.  */
	struct _pthread_cleanup_buffer *cur = self->cleanup;
	struct _pthread_cleanup_buffer *until = buf->priv.data.cleanup;
	if (cur && cur != until && (jump || frame_left(cfa, cur, adj))) {
		do {
			struct _pthread_cleanup_buffer *prev = cur->__prev;
			cur->__routine(cur->__arg);
			cur = prev;
		} while (cur != until && (jump || frame_left(cfa, cur, adj)));
		self->cleanup = cur;
	}
	if (jump) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
		_longjmp((struct __jmp_buf_tag *)(void *)buf->cancel_jmp_buf, 1);
#pragma GCC diagnostic pop
	}
	return _URC_NO_REASON;
}

void __nptl_unwind(struct glibc_unwind_buf *buf)
{
	struct pthread *self = nptl_self();
	if (!buf)
		__nptl_fatal("pthread_exit: no cleanup buffer on this thread");
	self->exc.exception_class = 0;
	self->exc.exception_cleanup = unwind_cleanup;
	__nptl_forced_unwind(&self->exc, stop, buf);
	__nptl_fatal("pthread_exit: forced unwinding failed");
}

NPTL_API void __nptl_pthread_exit(void *value)
{
	struct pthread *self = nptl_self();
	/* Before anything changes: a thread that cannot unwind stops the
	 * process here, as in glibc.  */
	__nptl_unwind_link_or_die(false);
	self->result = value;
	/* No cancellation may start a second unwind on top of this one.  */
	__atomic_fetch_or(&self->cancelhandling, CANCELSTATE_BITMASK, __ATOMIC_RELAXED);
	__nptl_unwind(self->cleanup_jmp_buf);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_exit, pthread_exit, GLIBC_2.2.5);

void __nptl_thread_exit(struct pthread *pd)
{
	__call_tls_dtors();
	__nptl_deallocate_tsd(pd);
	/* Its priority-protection counts (the ceilings of PP mutexes it
	 * still holds no longer raise anybody).  */
	__nptl_tpp_free(pd);
	/* State the next thread on this descriptor must not inherit.  */
	uselocale(LC_GLOBAL_LOCALE);
	(void)dlerror();

	__atomic_fetch_or(&pd->cancelhandling, EXITING_BITMASK, __ATOMIC_SEQ_CST);
	if (__atomic_sub_fetch(&__nptl_nthreads, 1, __ATOMIC_SEQ_CST) == 0)
		exit(0);

	if (__atomic_load_n(&pd->cancelhandling, __ATOMIC_ACQUIRE) & SETXID_BITMASK) {
		do
			nptl_futex_wait(&pd->setxid_futex, 0, true);
		while (__atomic_load_n(&pd->cancelhandling, __ATOMIC_ACQUIRE) &
		       SETXID_BITMASK);
		pd->setxid_futex = 0;
	}

	__nptl_stack_release_unused(pd);

	nptl_lll_lock(&pd->exit_lock);
	pd->exiting = true;
	nptl_lll_unlock(&pd->exit_lock);

	/* Detached: we free ourselves.  Otherwise the mark tells a later
	 * pthread_detach that the descriptor is its to free.  After this
	 * step a detached thread's descriptor may be reused as soon as the
	 * kernel clears our tid; we touch nothing of it but our own stack.  */
	if (__atomic_fetch_or(nptl_joinid_word(pd), JOINID_EXITED,
			      __ATOMIC_ACQ_REL) == (uintptr_t)pd)
		__nptl_free_tcb(pd);
	nptl_arch_exit_thread();
}
