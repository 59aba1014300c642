// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Cancellation points on sockets: accept, accept4, connect, recv*, send*.  Race-free
 * (cancellation.c): a cancellation never unwinds a call that has accepted
 * a connection or moved data; it acts before, or at the next point.
 * glibc 2.36 makes the same system calls.
 */
#include <sys/socket.h>
#include "nptl.h"

NPTL_API int __nptl_accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	return (int)nptl_cp_errno(SYS_accept, fd, addr, len, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_accept, accept, GLIBC_2.2.5);

NPTL_API int __nptl_accept4(int fd, struct sockaddr *addr, socklen_t *len,
			    int flags)
{
	return (int)nptl_cp_errno(SYS_accept4, fd, addr, len, flags, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_accept4, accept4, GLIBC_2.10);

NPTL_API int __nptl_connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	return (int)nptl_cp_errno(SYS_connect, fd, addr, len, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_connect, connect, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_recvfrom(int fd, void *buf, size_t n, int flags,
				 struct sockaddr *addr, socklen_t *len)
{
	return nptl_cp_errno(SYS_recvfrom, fd, buf, n, flags, addr, len);
}
NPTL_SYMVER_DEFAULT(__nptl_recvfrom, recvfrom, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_recv(int fd, void *buf, size_t n, int flags)
{
	return nptl_cp_errno(SYS_recvfrom, fd, buf, n, flags, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_recv, recv, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_recvmsg(int fd, struct msghdr *msg, int flags)
{
	return nptl_cp_errno(SYS_recvmsg, fd, msg, flags, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_recvmsg, recvmsg, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_sendto(int fd, const void *buf, size_t n, int flags,
			       const struct sockaddr *addr, socklen_t len)
{
	return nptl_cp_errno(SYS_sendto, fd, buf, n, flags, addr, len);
}
NPTL_SYMVER_DEFAULT(__nptl_sendto, sendto, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_send(int fd, const void *buf, size_t n, int flags)
{
	return nptl_cp_errno(SYS_sendto, fd, buf, n, flags, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_send, send, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	return nptl_cp_errno(SYS_sendmsg, fd, msg, flags, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_sendmsg, sendmsg, GLIBC_2.2.5);
