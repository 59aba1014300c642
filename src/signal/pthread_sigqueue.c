// SPDX-License-Identifier: LGPL-2.1-or-later
#include <string.h>
#include <unistd.h>
#include "nptl.h"

NPTL_API int __nptl_pthread_sigqueue(pthread_t t, int sig, const union sigval value)
{
	struct pthread *pd = (struct pthread *)t;
	/* One load: the kernel may clear the tid at any moment.  */
	pid_t tid = __atomic_load_n(&pd->tid, __ATOMIC_RELAXED);
	if (tid <= 0)
		return ESRCH;
	/* 32 is also glibc's SIGTIMER.  */
	if (sig == GLIBC_SIGCANCEL || sig == GLIBC_SIGSETXID)
		return EINVAL;
	pid_t pid = (pid_t)nptl_sys0(SYS_getpid);
	siginfo_t info;
	memset(&info, 0, sizeof(info));
	info.si_signo = sig;
	info.si_code = SI_QUEUE;
	info.si_pid = pid;
	info.si_uid = getuid();
	info.si_value = value;
	long r = nptl_sys4(SYS_rt_tgsigqueueinfo, pid, tid, sig, &info);
	return r < 0 ? (int)-r : 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_sigqueue, pthread_sigqueue, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_sigqueue, pthread_sigqueue, GLIBC_2.11);
