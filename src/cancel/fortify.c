// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fortify variants of the cancellation points libnptl serves.  With
 * _FORTIFY_SOURCE, glibc's headers turn read(fd, buf, n) into
 * __read_chk(fd, buf, n, size of buf) when the compiler knows the buffer's
 * size, and open(path, flags) without a mode into __open_2(path, flags);
 * a program built that way calls these names, not read and open, so they
 * must be libnptl's too or its calls miss the race-free points.
 *
 * Each performs glibc's check first and fails as glibc's does: __chk_fail
 * ("buffer overflow detected") when the length exceeds the buffer, or the
 * pollfd array holds fewer than nfds entries; __fortify_fail with glibc's
 * message when __open_2 and friends get flags that need a mode (O_CREAT, or
 * O_TMPFILE).  Both are glibc's own (they print and abort), so the report
 * is the one the program would give under glibc.  The check never blocks
 * and is not a cancellation point of its own; then the call is the plain
 * point, pending cancellation and all.
 */
#include <fcntl.h>
#include "nptl.h"

NPTL_API ssize_t __nptl___read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	if (n > buflen)
		__chk_fail();
	return __nptl_read(fd, buf, n);
}
NPTL_SYMVER_DEFAULT(__nptl___read_chk, __read_chk, GLIBC_2.4);

NPTL_API ssize_t __nptl___pread_chk(int fd, void *buf, size_t n, off_t off,
				    size_t buflen)
{
	if (n > buflen)
		__chk_fail();
	return __nptl_pread(fd, buf, n, off);
}
NPTL_SYMVER_DEFAULT(__nptl___pread_chk, __pread_chk, GLIBC_2.4);
/* off_t is off64_t here: one function, as in glibc.  */
NPTL_API ssize_t __nptl___pread64_chk(int fd, void *buf, size_t n, off_t off,
				      size_t buflen)
	__attribute__((alias("__nptl___pread_chk")));
NPTL_SYMVER_DEFAULT(__nptl___pread64_chk, __pread64_chk, GLIBC_2.4);

NPTL_API ssize_t __nptl___recv_chk(int fd, void *buf, size_t n, size_t buflen,
				   int flags)
{
	if (n > buflen)
		__chk_fail();
	return __nptl_recv(fd, buf, n, flags);
}
NPTL_SYMVER_DEFAULT(__nptl___recv_chk, __recv_chk, GLIBC_2.4);

NPTL_API ssize_t __nptl___recvfrom_chk(int fd, void *buf, size_t n,
				       size_t buflen, int flags,
				       struct sockaddr *addr, socklen_t *len)
{
	if (n > buflen)
		__chk_fail();
	return __nptl_recvfrom(fd, buf, n, flags, addr, len);
}
NPTL_SYMVER_DEFAULT(__nptl___recvfrom_chk, __recvfrom_chk, GLIBC_2.4);

/* fdslen is the array's size in bytes: it must hold nfds entries.  */
NPTL_API int __nptl___poll_chk(struct pollfd *fds, nfds_t n, int timeout,
			       size_t fdslen)
{
	if (fdslen / sizeof(*fds) < n)
		__chk_fail();
	return __nptl_poll(fds, n, timeout);
}
NPTL_SYMVER_DEFAULT(__nptl___poll_chk, __poll_chk, GLIBC_2.16);

NPTL_API int __nptl___ppoll_chk(struct pollfd *fds, nfds_t n,
				const struct timespec *timeout,
				const sigset_t *mask, size_t fdslen)
{
	if (fdslen / sizeof(*fds) < n)
		__chk_fail();
	return __nptl_ppoll(fds, n, timeout, mask);
}
NPTL_SYMVER_DEFAULT(__nptl___ppoll_chk, __ppoll_chk, GLIBC_2.16);

/* The two-argument opens exist for calls without a mode: flags that would
 * create a file need one, and its absence is the bug the check reports
 * (glibc's messages, one per name).  */
static bool needs_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

NPTL_API int __nptl___open_2(const char *path, int flags)
{
	if (needs_mode(flags))
		__fortify_fail("invalid open call: O_CREAT or O_TMPFILE without mode");
	return __nptl_open(path, flags);
}
NPTL_SYMVER_DEFAULT(__nptl___open_2, __open_2, GLIBC_2.7);

NPTL_API int __nptl___open64_2(const char *path, int flags)
{
	if (needs_mode(flags))
		__fortify_fail("invalid open64 call: O_CREAT or O_TMPFILE without mode");
	return __nptl_open(path, flags);
}
NPTL_SYMVER_DEFAULT(__nptl___open64_2, __open64_2, GLIBC_2.7);

NPTL_API int __nptl___openat_2(int dirfd, const char *path, int flags)
{
	if (needs_mode(flags))
		__fortify_fail("invalid openat call: O_CREAT or O_TMPFILE without mode");
	return __nptl_openat(dirfd, path, flags);
}
NPTL_SYMVER_DEFAULT(__nptl___openat_2, __openat_2, GLIBC_2.7);

NPTL_API int __nptl___openat64_2(int dirfd, const char *path, int flags)
{
	if (needs_mode(flags))
		__fortify_fail("invalid openat64 call: O_CREAT or O_TMPFILE without mode");
	return __nptl_openat(dirfd, path, flags);
}
NPTL_SYMVER_DEFAULT(__nptl___openat64_2, __openat64_2, GLIBC_2.7);
