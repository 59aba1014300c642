// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * __pthread_get_minstack (GLIBC_PRIVATE): the smallest stack size an
 * attribute must ask for so that the thread has PTHREAD_STACK_MIN bytes of
 * stack it can use.  glibc carves the static TLS blocks and the descriptor
 * out of the requested stack (its bug 11787), so its answer is a page
 * (guard) + the static TLS size + PTHREAD_STACK_MIN, and programs read it
 * to learn how much of a request glibc takes for itself: OpenJDK looks the
 * name up with dlsym and adds (answer - page - PTHREAD_STACK_MIN) to every
 * thread's stack as "static TLS on the stack".
 *
 * libnptl takes nothing out of the request (src/thread/stack.c): a stack
 * libnptl maps gets the requested size, rounded up to pages, all usable,
 * with the guard below it and a signal frame's room, the TLS blocks and
 * the descriptor above it in the same mapping; a stack the caller supplies
 * (pthread_attr_setstack) is all usable too, the TLS and descriptor living
 * in a mapping of their own.  So PTHREAD_STACK_MIN asked is PTHREAD_STACK_MIN
 * usable, whatever the attribute says, and the answer is glibc's
 * compile-time PTHREAD_STACK_MIN, 16384, the smallest size
 * pthread_attr_setstacksize accepts.  OpenJDK then adds nothing; glibc's
 * answer under libnptl would have made it reserve static TLS room twice.
 *
 * Except under a finite RLIMIT_AS: there libnptl maps new threads in
 * glibc's compact layout (src/thread/stack.c), the TLS, the descriptor and
 * libnptl's own part taken out of the request, and the answer is glibc's
 * shape with what libnptl takes: a page + that + PTHREAD_STACK_MIN.
 */
#include "nptl.h"

NPTL_API size_t __nptl___pthread_get_minstack(const pthread_attr_t *attr)
{
	(void)attr;
	if (__nptl_stack_compact_now())
		return __nptl_page_size + __nptl_stack_compact_room() +
		       GLIBC_PTHREAD_STACK_MIN;
	return GLIBC_PTHREAD_STACK_MIN;
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl___pthread_get_minstack,
			  __pthread_get_minstack, GLIBC_PRIVATE);
