// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Cancellation points on file descriptors: read, write and friends, open,
 * creat, close, the syncs, fcntl(F_SETLKW), lockf(F_LOCK), tcdrain.  Each
 * is its system call issued through the race-free cancellable stub
 * (cancellation.c): a cancellation acts before the call has taken effect
 * or not at all, so no byte read or written is lost to it.  They interpose
 * glibc's functions of the same names and versions, as libpthread.so.0
 * once did.  Behaviour otherwise is glibc 2.36's: the same system calls,
 * the same argument handling.
 *
 * close with a cancellation already pending does not close (glibc acts
 * before its system call too); a close interrupted by a cancellation has
 * closed the descriptor whatever it returns, so it never acts afterwards.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <termios.h>
#include <unistd.h>
#include "nptl.h"

NPTL_API ssize_t __nptl_read(int fd, void *buf, size_t n)
{
	return nptl_cp_errno(SYS_read, fd, buf, n, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_read, read, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_write(int fd, const void *buf, size_t n)
{
	return nptl_cp_errno(SYS_write, fd, buf, n, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_write, write, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_readv(int fd, const struct iovec *iov, int n)
{
	return nptl_cp_errno(SYS_readv, fd, iov, n, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_readv, readv, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_writev(int fd, const struct iovec *iov, int n)
{
	return nptl_cp_errno(SYS_writev, fd, iov, n, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_writev, writev, GLIBC_2.2.5);

/* off_t is off64_t here: pread and pread64 are one function, as in glibc.  */
NPTL_API ssize_t __nptl_pread(int fd, void *buf, size_t n, off_t off)
{
	return nptl_cp_errno(SYS_pread64, fd, buf, n, off, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_pread, pread, GLIBC_2.2.5);
NPTL_API ssize_t __nptl_pread64(int fd, void *buf, size_t n, off_t off)
	__attribute__((alias("__nptl_pread")));
NPTL_SYMVER_DEFAULT(__nptl_pread64, pread64, GLIBC_2.2.5);

NPTL_API ssize_t __nptl_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return nptl_cp_errno(SYS_pwrite64, fd, buf, n, off, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_pwrite, pwrite, GLIBC_2.2.5);
NPTL_API ssize_t __nptl_pwrite64(int fd, const void *buf, size_t n, off_t off)
	__attribute__((alias("__nptl_pwrite")));
NPTL_SYMVER_DEFAULT(__nptl_pwrite64, pwrite64, GLIBC_2.2.5);

/* The mode argument exists only when the flags say a file may be made.  */
static bool needs_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

NPTL_API int __nptl_openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (needs_mode(flags)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return (int)nptl_cp_errno(SYS_openat, dirfd, path, flags | O_LARGEFILE,
				  mode, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_openat, openat, GLIBC_2.4);
NPTL_API int __nptl_openat64(int dirfd, const char *path, int flags, ...)
	__attribute__((alias("__nptl_openat")));
NPTL_SYMVER_DEFAULT(__nptl_openat64, openat64, GLIBC_2.4);

NPTL_API int __nptl_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (needs_mode(flags)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return (int)nptl_cp_errno(SYS_openat, AT_FDCWD, path,
				  flags | O_LARGEFILE, mode, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_open, open, GLIBC_2.2.5);
NPTL_API int __nptl_open64(const char *path, int flags, ...)
	__attribute__((alias("__nptl_open")));
NPTL_SYMVER_DEFAULT(__nptl_open64, open64, GLIBC_2.2.5);

/* creat(2) is open with these flags; not every architecture has the
 * system call.  */
NPTL_API int __nptl_creat(const char *path, mode_t mode)
{
	return (int)nptl_cp_errno(SYS_openat, AT_FDCWD, path,
				  O_CREAT | O_WRONLY | O_TRUNC | O_LARGEFILE,
				  mode, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_creat, creat, GLIBC_2.2.5);
NPTL_API int __nptl_creat64(const char *path, mode_t mode)
	__attribute__((alias("__nptl_creat")));
NPTL_SYMVER_DEFAULT(__nptl_creat64, creat64, GLIBC_2.2.5);

NPTL_API int __nptl_close(int fd)
{
	return (int)nptl_cp_errno(SYS_close, fd, 0, 0, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_close, close, GLIBC_2.2.5);

NPTL_API int __nptl_fsync(int fd)
{
	return (int)nptl_cp_errno(SYS_fsync, fd, 0, 0, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_fsync, fsync, GLIBC_2.2.5);

NPTL_API int __nptl_fdatasync(int fd)
{
	return (int)nptl_cp_errno(SYS_fdatasync, fd, 0, 0, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_fdatasync, fdatasync, GLIBC_2.2.5);

NPTL_API int __nptl_msync(void *addr, size_t len, int flags)
{
	return (int)nptl_cp_errno(SYS_msync, addr, len, flags, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_msync, msync, GLIBC_2.2.5);

NPTL_API int __nptl_tcdrain(int fd)
{
	/* TCSBRK with a non-zero argument waits for the output to drain.  */
	return (int)nptl_cp_errno(SYS_ioctl, fd, TCSBRK, 1, 0, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_tcdrain, tcdrain, GLIBC_2.2.5);

/* fcntl is a cancellation point only when it waits for a lock.  The rest
 * is glibc's fcntl64 on a 64-bit kernel: the plain system call, except
 * F_GETOWN, answered through F_GETOWN_EX so that a process group (a
 * negative owner) is not mistaken for an error.  */
static int do_fcntl(int fd, int cmd, void *arg)
{
	if (cmd == F_SETLKW || cmd == F_OFD_SETLKW)
		return (int)nptl_cp_errno(SYS_fcntl, fd, cmd, arg, 0, 0, 0);
	long r;
	if (cmd == F_GETOWN) {
		struct f_owner_ex ex;
		r = nptl_sys3(SYS_fcntl, fd, F_GETOWN_EX, &ex);
		if (r == 0)
			return ex.type == F_OWNER_PGRP ? -ex.pid : ex.pid;
	} else {
		r = nptl_sys3(SYS_fcntl, fd, cmd, arg);
	}
	if (nptl_sys_failed(r)) {
		errno = (int)-r;
		return -1;
	}
	return (int)r;
}

NPTL_API int __nptl_fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	return do_fcntl(fd, cmd, arg);
}
NPTL_SYMVER_DEFAULT(__nptl_fcntl, fcntl, GLIBC_2.2.5);
NPTL_API int __nptl_fcntl64(int fd, int cmd, ...)
	__attribute__((alias("__nptl_fcntl")));
NPTL_SYMVER_DEFAULT(__nptl_fcntl64, fcntl64, GLIBC_2.28);

/* lockf: a whole-file-from-here fcntl lock; F_LOCK waits (a cancellation
 * point), the others do not.  */
NPTL_API int __nptl_lockf(int fd, int cmd, off_t len)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_CUR, .l_len = len };
	switch (cmd) {
	case F_TEST:
		fl.l_type = F_RDLCK;
		if (do_fcntl(fd, F_GETLK, &fl) < 0)
			return -1;
		if (fl.l_type == F_UNLCK || fl.l_pid == nptl_sys0(SYS_getpid))
			return 0;
		errno = EACCES;
		return -1;
	case F_ULOCK:
		fl.l_type = F_UNLCK;
		return do_fcntl(fd, F_SETLK, &fl);
	case F_LOCK:
		return do_fcntl(fd, F_SETLKW, &fl);
	case F_TLOCK:
		return do_fcntl(fd, F_SETLK, &fl);
	}
	errno = EINVAL;
	return -1;
}
NPTL_SYMVER_DEFAULT(__nptl_lockf, lockf, GLIBC_2.2.5);
NPTL_API int __nptl_lockf64(int fd, int cmd, off_t len)
	__attribute__((alias("__nptl_lockf")));
NPTL_SYMVER_DEFAULT(__nptl_lockf64, lockf64, GLIBC_2.2.5);
