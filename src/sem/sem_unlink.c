// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Named semaphores are files in /dev/shm called "sem.<name>", as in glibc,
 * so that processes on glibc and on libnptl open the same object.
 */
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <string.h>
#include <unistd.h>
#include "nptl.h"

int __nptl_sem_path(char path[NPTL_SEM_PATH_SIZE], const char *name)
{
	static const char prefix[] = "/dev/shm/sem.";
	_Static_assert(NPTL_SEM_PATH_SIZE == sizeof(prefix) + NAME_MAX, "path");
	while (*name == '/')
		name++;
	size_t n = strlen(name);
	if (n == 0 || memchr(name, '/', n))
		return EINVAL;
	if (n > NAME_MAX)
		return ENAMETOOLONG;
	memcpy(path, prefix, sizeof(prefix) - 1);
	memcpy(path + sizeof(prefix) - 1, name, n + 1);
	return 0;
}

NPTL_API int __nptl_sem_unlink(const char *name)
{
	char path[NPTL_SEM_PATH_SIZE];
	if (__nptl_sem_path(path, name) != 0) {
		errno = ENOENT;
		return -1;
	}
	long r = nptl_sys3(SYS_unlinkat, AT_FDCWD, path, 0);
	if (r < 0) {
		/* unlink's EPERM (sticky /dev/shm, not the owner) is POSIX's
		 * EACCES for sem_unlink.  */
		errno = r == -EPERM ? EACCES : (int)-r;
		return -1;
	}
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_sem_unlink, sem_unlink, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_unlink, sem_unlink, GLIBC_2.2.5);
