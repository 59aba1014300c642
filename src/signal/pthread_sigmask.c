// SPDX-License-Identifier: LGPL-2.1-or-later
/* SIGCANCEL and SIGSETXID can never be blocked through this interface:
 * cancellation and the setuid broadcast depend on them.  */
#include "nptl.h"

NPTL_API int __nptl_pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	/* glibc's sigdelset refuses its internal signals: work on the bits.  */
	const unsigned long internal = (1UL << (GLIBC_SIGCANCEL - 1)) |
				       (1UL << (GLIBC_SIGSETXID - 1));
	sigset_t local;
	if (set && (((const unsigned long *)set)[0] & internal)) {
		local = *set;
		((unsigned long *)&local)[0] &= ~internal;
		set = &local;
	}
	long r = nptl_sys4(SYS_rt_sigprocmask, how, set, old, 8);
	return r < 0 ? (int)-r : 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_sigmask, pthread_sigmask, GLIBC_2.32);
NPTL_SYMVER_COMPAT(__nptl_pthread_sigmask, pthread_sigmask, GLIBC_2.2.5);
