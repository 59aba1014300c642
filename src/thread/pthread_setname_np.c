// SPDX-License-Identifier: LGPL-2.1-or-later
/* Thread names live in the kernel (comm, 16 bytes with the NUL): prctl for
 * the calling thread, /proc/self/task/TID/comm for another.  */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include "nptl.h"

#define TASK_COMM_LEN 16

static int comm_open(struct pthread *pd, int flags)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)pd->tid);
	return open(path, flags | O_CLOEXEC);
}

NPTL_API int __nptl_pthread_setname_np(pthread_t t, const char *name)
{
	struct pthread *pd = (struct pthread *)t;
	size_t len = strlen(name);
	if (len >= TASK_COMM_LEN)
		return ERANGE;
	if (pd == nptl_self())
		return prctl(PR_SET_NAME, name) == 0 ? 0 : errno;
	int fd = comm_open(pd, O_RDWR);
	if (fd < 0)
		return errno;
	ssize_t n;
	do
		n = write(fd, name, len);
	while (n < 0 && errno == EINTR);
	int err = n < 0 ? errno : (size_t)n != len ? EIO : 0;
	close(fd);
	return err;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_setname_np, pthread_setname_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_setname_np, pthread_setname_np, GLIBC_2.12);

NPTL_API int __nptl_pthread_getname_np(pthread_t t, char *buf, size_t len)
{
	struct pthread *pd = (struct pthread *)t;
	if (len < TASK_COMM_LEN)
		return ERANGE;
	if (pd == nptl_self())
		return prctl(PR_GET_NAME, buf) == 0 ? 0 : errno;
	int fd = comm_open(pd, O_RDONLY);
	if (fd < 0)
		return errno;
	ssize_t n;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	int err = 0;
	if (n < 0)
		err = errno;
	else if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	else if ((size_t)n == len)
		err = ERANGE;
	else
		buf[n] = '\0';
	close(fd);
	return err;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_getname_np, pthread_getname_np, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_getname_np, pthread_getname_np, GLIBC_2.12);
