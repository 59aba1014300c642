// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Waiting for children: wait, waitpid, waitid.  A child's status is never
 * lost to a cancellation: the call reaps it and returns, or is cancelled
 * before it reaped anything (cancellation.c).  glibc 2.36 makes the same
 * system calls.
 */
#include <sys/wait.h>
#include "nptl.h"

NPTL_API pid_t __nptl_waitpid(pid_t pid, int *status, int options)
{
	return (pid_t)nptl_cp_errno(SYS_wait4, pid, status, options, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_waitpid, waitpid, GLIBC_2.2.5);

NPTL_API pid_t __nptl_wait(int *status)
{
	return __nptl_waitpid(-1, status, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_wait, wait, GLIBC_2.2.5);

NPTL_API int __nptl_waitid(idtype_t type, id_t id, siginfo_t *info, int options)
{
	return (int)nptl_cp_errno(SYS_waitid, type, id, info, options, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_waitid, waitid, GLIBC_2.2.5);
