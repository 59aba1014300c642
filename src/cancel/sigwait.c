// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Waiting for signals: sigsuspend, sigpause, sigtimedwait, sigwaitinfo,
 * sigwait.  A signal taken by sigwait is never lost to a cancellation: the
 * call returns it, or is cancelled before it took one (cancellation.c).
 * As in glibc 2.36, a signal sent with tkill is reported as SI_USER, and
 * sigwait retries when a handler interrupts it (it has no EINTR) -- each
 * retry is again a cancellation point.
 */
#include <signal.h>
#include "nptl.h"

/* The kernel's sigset_t size.  */
#define KSIGSET 8

NPTL_API int __nptl_sigsuspend(const sigset_t *set)
{
	return (int)nptl_cp_errno(SYS_rt_sigsuspend, set, KSIGSET, 0, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_sigsuspend, sigsuspend, GLIBC_2.2.5);

/* sigpause(sig) (X/Open, __xpg_sigpause) waits with sig unblocked; the
 * BSD sigpause(mask) waits with exactly the old-style int mask.  */
static int do_sigpause(int sig_or_mask, bool is_sig)
{
	sigset_t set;
	long r = nptl_sys4(SYS_rt_sigprocmask, SIG_BLOCK, 0, &set, KSIGSET);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	if (is_sig) {
		if (sigdelset(&set, sig_or_mask) < 0)
			return -1;
	} else {
		sigemptyset(&set);
		((unsigned long *)(void *)&set)[0] = (unsigned int)sig_or_mask;
	}
	return __nptl_sigsuspend(&set);
}

NPTL_API int __nptl___sigpause(int sig_or_mask, int is_sig)
{
	return do_sigpause(sig_or_mask, is_sig != 0);
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl___sigpause, __sigpause, GLIBC_2.2.5);

NPTL_API int __nptl_sigpause(int mask)
{
	return do_sigpause(mask, false);
}
NPTL_SYMVER_DEFAULT(__nptl_sigpause, sigpause, GLIBC_2.2.5);

NPTL_API int __nptl___xpg_sigpause(int sig)
{
	return do_sigpause(sig, true);
}
NPTL_SYMVER_DEFAULT_NOHDR(__nptl___xpg_sigpause, __xpg_sigpause, GLIBC_2.2.5);

NPTL_API int __nptl_sigtimedwait(const sigset_t *set, siginfo_t *info,
				 const struct timespec *timeout)
{
	int r = (int)nptl_cp_errno(SYS_rt_sigtimedwait, set, info, timeout,
				   KSIGSET, 0, 0);
	if (r != -1 && info && info->si_code == SI_TKILL)
		info->si_code = SI_USER;
	return r;
}
NPTL_SYMVER_DEFAULT(__nptl_sigtimedwait, sigtimedwait, GLIBC_2.2.5);

NPTL_API int __nptl_sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	return __nptl_sigtimedwait(set, info, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_sigwaitinfo, sigwaitinfo, GLIBC_2.2.5);

NPTL_API int __nptl_sigwait(const sigset_t *set, int *sig)
{
	siginfo_t si;
	int r;
	do
		r = __nptl_sigtimedwait(set, &si, NULL);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return errno;
	*sig = si.si_signo;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_sigwait, sigwait, GLIBC_2.2.5);
