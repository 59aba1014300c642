// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_kill never signals a recycled tid.  A thread sets pd->exiting
 * under pd->exit_lock on its way out (pthread_exit.c); we send only while
 * holding that lock and seeing exiting clear, so the tid we use still names
 * the thread.  Signals are blocked while we hold the lock so that a handler
 * running in this thread cannot try to take it again.  A thread that has
 * exited but not been joined is no error for the current version (glibc
 * 2.34's choice: its ID is still valid); the LinuxThreads-era version says
 * ESRCH, as it always did.  Signal to self is sent at once, unblocked, so
 * that it is delivered before pthread_kill returns.
 */
#include "nptl.h"

static bool internal_signal(int sig)
{
	return sig == GLIBC_SIGCANCEL || sig == GLIBC_SIGSETXID;
}

static int kill_impl(pthread_t t, int sig, int no_tid)
{
	struct pthread *pd = (struct pthread *)t;
	if (pd == nptl_self()) {
		long tid = nptl_sys0(SYS_gettid);
		long r = nptl_sys3(SYS_tgkill, nptl_sys0(SYS_getpid), tid, sig);
		return r < 0 ? (int)-r : 0;
	}
	uint64_t all = ~(uint64_t)0, old;
	nptl_sys4(SYS_rt_sigprocmask, SIG_BLOCK, &all, &old, 8);
	nptl_lll_lock(&pd->exit_lock);
	int ret;
	if (pd->exiting) {
		ret = no_tid;
	} else {
		long r = nptl_sys3(SYS_tgkill, nptl_sys0(SYS_getpid), pd->tid, sig);
		ret = r < 0 ? (int)-r : 0;
	}
	nptl_lll_unlock(&pd->exit_lock);
	nptl_sys4(SYS_rt_sigprocmask, SIG_SETMASK, &old, 0, 8);
	return ret;
}

NPTL_API int __nptl_pthread_kill(pthread_t t, int sig)
{
	if (internal_signal(sig))
		return EINVAL;
	return kill_impl(t, sig, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_kill, pthread_kill, GLIBC_2.34);

NPTL_API int __nptl_pthread_kill_esrch(pthread_t t, int sig)
{
	if (internal_signal(sig))
		return EINVAL;
	return kill_impl(t, sig, ESRCH);
}
NPTL_SYMVER_COMPAT(__nptl_pthread_kill_esrch, pthread_kill, GLIBC_2.2.5);
