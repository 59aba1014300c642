// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgcc_s, loaded when the first unwind needs it, as glibc does.
 *
 * pthread_exit and cancellation unwind with libgcc_s's forced unwinder, and
 * libnptl's own -fexceptions code needs libgcc_s's personality routine and
 * _Unwind_Resume when an exception or a forced unwind crosses it.  Linking
 * libgcc_s would map it into every program that links libnptl (about 128
 * KiB of address space, which RLIMIT_AS counts, and a library to load at
 * start-up) although most threads never unwind; glibc never maps it before
 * the first pthread_exit or pthread_cancel either.  So:
 *  - the first pthread_exit loads it in the exiting thread, before it
 *    unwinds (an ordinary call, not in a signal handler);
 *  - pthread_cancel loads it in the canceller, before the target can
 *    act, so that the SIGCANCEL handler of an asynchronously cancelled
 *    thread only reads pointers that are already there -- dlopen is not
 *    async-signal-safe;
 *  - the personality routine and _Unwind_Resume below run only while an
 *    unwind is under way, which someone that had libgcc_s started (a C++
 *    throw: libstdc++ links it), so loading there only finds it loaded.
 * If it cannot be loaded the caller stops the process with glibc's message
 * (a thread cannot exit without unwinding its cleanups).
 *
 * Publication: the pointers are stored (relaxed) and then `ready` with
 * release; readers load `ready` with acquire.  Two threads that load at the
 * same time both dlopen (the second only takes a reference) and store the
 * same values.
 */
#include <dlfcn.h>
#include <unwind.h>
#include "nptl.h"

#define LIBGCC_S "libgcc_s.so.1"

typedef _Unwind_Reason_Code forced_unwind_fn(struct _Unwind_Exception *,
					     _Unwind_Stop_Fn, void *);
typedef _Unwind_Word get_cfa_fn(struct _Unwind_Context *);
typedef void resume_fn(struct _Unwind_Exception *);
typedef _Unwind_Reason_Code personality_fn(int, _Unwind_Action,
					   _Unwind_Exception_Class,
					   struct _Unwind_Exception *,
					   struct _Unwind_Context *);

static struct {
	forced_unwind_fn *forced_unwind;
	get_cfa_fn *get_cfa;
	resume_fn *resume;
	personality_fn *personality;
} fn;
static int ready;

#define SET(f, v) __atomic_store_n(&fn.f, (v), __ATOMIC_RELAXED)
#define GET(f) __atomic_load_n(&fn.f, __ATOMIC_RELAXED)

bool __nptl_unwind_link(void)
{
	if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		return true;
	void *h = dlopen(LIBGCC_S, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return false;
	void *f = dlsym(h, "_Unwind_ForcedUnwind");
	void *c = dlsym(h, "_Unwind_GetCFA");
	void *r = dlsym(h, "_Unwind_Resume");
	void *p = dlsym(h, "__gcc_personality_v0");
	if (!f || !c || !r || !p) {
		dlclose(h);
		return false;
	}
	/* The library stays: libnptl is never unloaded (-z nodelete) and
	 * the pointers are read without a lock from here on.  */
	SET(forced_unwind, (forced_unwind_fn *)f);
	SET(get_cfa, (get_cfa_fn *)c);
	SET(resume, (resume_fn *)r);
	SET(personality, (personality_fn *)p);
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	return true;
}

void __nptl_unwind_link_or_die(bool cancel)
{
	if (__nptl_unwind_link())
		return;
	/* glibc's wording, so that the fix is found the same way.  */
	__nptl_fatal(cancel ? LIBGCC_S " must be installed for pthread_cancel to work"
			    : LIBGCC_S " must be installed for pthread_exit to work");
}

/* In a SIGCANCEL handler `ready` is always set already: the canceller
 * loaded the library before it marked us.  */
_Unwind_Reason_Code __nptl_forced_unwind(struct _Unwind_Exception *e,
					 _Unwind_Stop_Fn stop, void *arg)
{
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		__nptl_unwind_link_or_die(false);
	return GET(forced_unwind)(e, stop, arg);
}

_Unwind_Word __nptl_unwind_get_cfa(struct _Unwind_Context *ctx)
{
	return GET(get_cfa)(ctx);
}

/* libnptl's landing pads and unwind tables name these two; with no
 * libgcc_s linked they are ours, and forward.  symbols.map keeps them
 * local (<unwind.h> declares _Unwind_Resume with default visibility).  */
void _Unwind_Resume(struct _Unwind_Exception *e)
{
	__nptl_unwind_link_or_die(false);
	GET(resume)(e);
	__builtin_unreachable();
}

NPTL_HIDDEN _Unwind_Reason_Code
__gcc_personality_v0(int version, _Unwind_Action actions,
		     _Unwind_Exception_Class cls, struct _Unwind_Exception *e,
		     struct _Unwind_Context *ctx)
{
	__nptl_unwind_link_or_die(false);
	return GET(personality)(version, actions, cls, e, ctx);
}
