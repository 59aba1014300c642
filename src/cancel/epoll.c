// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Waiting for events on an epoll instance: epoll_wait, epoll_pwait,
 * epoll_pwait2.  They are cancellation points in glibc (not in POSIX,
 * which has no epoll).  An event report is never lost to a cancellation
 * (cancellation.c): the call either returns the events it took off the
 * ready list, or is cancelled before it looked.  Behaviour otherwise is
 * glibc 2.36's: the same system calls, the kernel's signal-set size for
 * the mask, epoll_pwait2's timeout passed as it is (the kernel reads it
 * and does not write it back), and ENOSYS where the kernel has no
 * epoll_pwait2 (before Linux 5.11).
 */
#include <sys/epoll.h>
#include "nptl.h"

/* The kernel's sigset_t size.  */
#define KSIGSET 8

NPTL_API int __nptl_epoll_wait(int epfd, struct epoll_event *ev, int max,
			       int timeout)
{
	return (int)nptl_cp_errno(SYS_epoll_wait, epfd, ev, max, timeout, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_epoll_wait, epoll_wait, GLIBC_2.3.2);

NPTL_API int __nptl_epoll_pwait(int epfd, struct epoll_event *ev, int max,
				int timeout, const sigset_t *mask)
{
	return (int)nptl_cp_errno(SYS_epoll_pwait, epfd, ev, max, timeout, mask,
				  KSIGSET);
}
NPTL_SYMVER_DEFAULT(__nptl_epoll_pwait, epoll_pwait, GLIBC_2.6);

NPTL_API int __nptl_epoll_pwait2(int epfd, struct epoll_event *ev, int max,
				 const struct timespec *timeout,
				 const sigset_t *mask)
{
	return (int)nptl_cp_errno(SYS_epoll_pwait2, epfd, ev, max, timeout, mask,
				  KSIGSET);
}
NPTL_SYMVER_DEFAULT(__nptl_epoll_pwait2, epoll_pwait2, GLIBC_2.35);
