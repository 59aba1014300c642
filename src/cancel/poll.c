// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Waiting for descriptors: poll, ppoll, select, pselect.  A readiness
 * report is never lost to a cancellation (cancellation.c): the call either
 * returns it or is cancelled before it looked.  Like glibc 2.36, ppoll and
 * pselect give the kernel a copy of the timeout (POSIX says they do not
 * modify it), and select is pselect6 with the remaining time written back
 * into the caller's timeval, as Linux's select does.
 */
#include <poll.h>
#include <sys/select.h>
#include "nptl.h"

NPTL_API int __nptl_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	return (int)nptl_cp_errno(SYS_poll, fds, n, timeout, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_poll, poll, GLIBC_2.2.5);

NPTL_API int __nptl_ppoll(struct pollfd *fds, nfds_t n,
			  const struct timespec *timeout, const sigset_t *mask)
{
	struct timespec copy, *t = NULL;
	if (timeout) {
		copy = *timeout;
		t = &copy;
	}
	return (int)nptl_cp_errno(SYS_ppoll, fds, n, t, mask, 8, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_ppoll, ppoll, GLIBC_2.4);

NPTL_API int __nptl_select(int n, fd_set *r, fd_set *w, fd_set *e,
			   struct timeval *tv)
{
	struct timespec ts, *t = NULL;
	if (tv) {
		time_t s = tv->tv_sec;
		suseconds_t us = tv->tv_usec;
		if (s < 0 || us < 0) {
			errno = EINVAL;
			return -1;
		}
		/* Normalise as the kernel's select would, saturating.  */
		if (us / 1000000 > INT64_MAX - s) {
			ts.tv_sec = INT64_MAX;
			ts.tv_nsec = 999999999;
		} else {
			ts.tv_sec = s + us / 1000000;
			ts.tv_nsec = (us % 1000000) * 1000;
		}
		t = &ts;
	}
	int ret = (int)nptl_cp_errno(SYS_pselect6, n, r, w, e, t, 0);
	if (tv) {
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = ts.tv_nsec / 1000;
	}
	return ret;
}
NPTL_SYMVER_DEFAULT(__nptl_select, select, GLIBC_2.2.5);

NPTL_API int __nptl_pselect(int n, fd_set *r, fd_set *w, fd_set *e,
			    const struct timespec *timeout, const sigset_t *mask)
{
	struct timespec copy, *t = NULL;
	if (timeout) {
		copy = *timeout;
		t = &copy;
	}
	/* pselect6's sixth argument: the mask and its size, together.  */
	unsigned long data[2] = { (unsigned long)(uintptr_t)mask, 8 };
	return (int)nptl_cp_errno(SYS_pselect6, n, r, w, e, t, data);
}
NPTL_SYMVER_DEFAULT(__nptl_pselect, pselect, GLIBC_2.2.5);
