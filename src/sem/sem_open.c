// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sem_open, in glibc's way so that glibc and libnptl processes share named
 * semaphores: the object is the 32-byte sem_t in /dev/shm/sem.<name>.
 *
 * Creation must never expose a half-written semaphore under its name, so
 * the file is made under a temporary name, written, and only then link(2)ed
 * to its real name; link fails with EEXIST rather than replace anything,
 * which makes "create unless it exists" atomic between processes.  Losing
 * that race without O_EXCL means opening the winner's file instead.
 *
 * Each process keeps a list of what it has mapped, keyed by device, inode
 * and the name as given (glibc's key), so opening one semaphore twice
 * yields one address and sem_close counts references.
 *
 * The system calls are made directly: open, write and close would be
 * cancellation points, and glibc disables cancellation for all of
 * sem_open.
 */
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "nptl.h"

struct sem_map {
	struct sem_map *next;
	dev_t dev;
	ino_t ino;
	int refs;
	void *sem;
	char name[];
};

static struct sem_map *sem_maps;
static int sem_maps_lock;

void *__nptl_sem_map_add(const char *name, int fd, void *mapped)
{
	void *res = NULL;
	struct stat st;
	long r = nptl_sys2(SYS_fstat, fd, &st);
	if (r < 0) {
		errno = (int)-r;
	} else {
		size_t n = strlen(name) + 1;
		nptl_lll_lock(&sem_maps_lock);
		struct sem_map *m;
		for (m = sem_maps; m; m = m->next)
			if (m->dev == st.st_dev && m->ino == st.st_ino &&
			    strcmp(m->name, name) == 0)
				break;
		if (m) {
			m->refs++;
			res = m->sem;
		} else if ((m = malloc(sizeof(*m) + n))) {
			if (mapped == MAP_FAILED)
				mapped = mmap(NULL, sizeof(sem_t),
					      PROT_READ | PROT_WRITE, MAP_SHARED,
					      fd, 0);
			if (mapped != MAP_FAILED) {
				m->dev = st.st_dev;
				m->ino = st.st_ino;
				m->refs = 1;
				m->sem = res = mapped;
				memcpy(m->name, name, n);
				m->next = sem_maps;
				sem_maps = m;
			} else {
				free(m);
			}
		}
		nptl_lll_unlock(&sem_maps_lock);
	}
	if (mapped != MAP_FAILED && mapped != res) {
		int e = errno;
		munmap(mapped, sizeof(sem_t));
		errno = e;
	}
	return res;
}

bool __nptl_sem_map_drop(void *sem)
{
	bool ok = false;
	nptl_lll_lock(&sem_maps_lock);
	for (struct sem_map **p = &sem_maps; *p; p = &(*p)->next) {
		struct sem_map *m = *p;
		if (m->sem != sem)
			continue;
		ok = true;
		if (--m->refs == 0) {
			*p = m->next;
			ok = munmap(m->sem, sizeof(sem_t)) == 0;
			free(m);
		}
		break;
	}
	nptl_lll_unlock(&sem_maps_lock);
	return ok;
}

static int sys_ret(long r)
{
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return (int)r;
}

static int sys_open(const char *path, int flags, mode_t mode)
{
	return sys_ret(nptl_sys4(SYS_openat, AT_FDCWD, path, flags, mode));
}

static void sys_close(int fd)
{
	int e = errno;
	nptl_sys1(SYS_close, fd);
	errno = e;
}

/* The temporary name: /dev/shm/sem.XXXXXX with six characters made from
 * the clock, the thread and a counter; O_EXCL settles collisions.  */
static void tmp_name(char *p)
{
	static const char digits[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static unsigned long counter;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	unsigned long x = (unsigned long)ts.tv_nsec * 2654435761u ^
			  (unsigned long)ts.tv_sec ^
			  ((unsigned long)nptl_self()->tid << 16) ^
			  __atomic_add_fetch(&counter, 7919, __ATOMIC_RELAXED);
	memcpy(p, "/dev/shm/sem.", 13);
	for (int i = 0; i < 6; i++) {
		p[13 + i] = digits[x % 62];
		x /= 62;
	}
	p[19] = '\0';
}

static sem_t *sem_create(const char *name, const char *path, int oflag,
			 mode_t mode, unsigned int value, bool *exists)
{
	union {
		sem_t sem;
		struct nptl_sem s;
	} init;
	memset(&init, 0, sizeof(init));
	init.s.data = value;
	init.s.private = NPTL_SEM_SHARED;

	char tmp[20];
	int fd = -1;
	for (int tries = 0; fd < 0; tries++) {
		if (tries == 50) {
			errno = EAGAIN;
			return SEM_FAILED;
		}
		tmp_name(tmp);
		fd = sys_open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST)
			return SEM_FAILED;
	}

	sem_t *res = SEM_FAILED;
	long w = nptl_sys3(SYS_write, fd, &init, sizeof(init));
	if (w != sizeof(init)) {
		errno = w < 0 ? (int)-w : ENOSPC;
	} else {
		void *m = mmap(NULL, sizeof(sem_t), PROT_READ | PROT_WRITE,
			       MAP_SHARED, fd, 0);
		if (m != MAP_FAILED) {
			long l = nptl_syscall(SYS_linkat, AT_FDCWD, tmp, AT_FDCWD,
					      path, 0, 0);
			if (l < 0) {
				munmap(m, sizeof(sem_t));
				errno = (int)-l;
				*exists = l == -EEXIST && !(oflag & O_EXCL);
			} else {
				res = __nptl_sem_map_add(name, fd, m);
			}
		}
	}
	int e = errno;
	nptl_sys3(SYS_unlinkat, AT_FDCWD, tmp, 0);
	nptl_sys1(SYS_close, fd);
	errno = e;
	return res ? res : SEM_FAILED;
}

NPTL_API sem_t *__nptl_sem_open(const char *name, int oflag, ...)
{
	char path[NPTL_SEM_PATH_SIZE];
	int bad = __nptl_sem_path(path, name);
	if (bad) {
		errno = bad == ENAMETOOLONG ? __nptl_glibc->sem_long_name_errno
					    : EINVAL;
		return SEM_FAILED;
	}
	mode_t mode = 0;
	unsigned int value = 0;
	if (oflag & O_CREAT) {
		va_list ap;
		va_start(ap, oflag);
		mode = va_arg(ap, mode_t);
		value = va_arg(ap, unsigned int);
		va_end(ap);
	}

	for (;;) {
		/* Without O_EXCL an existing semaphore is opened first.  */
		if (!(oflag & O_CREAT) || !(oflag & O_EXCL)) {
			int keep = __nptl_glibc->sem_open_user_oflags
					   ? oflag & ~(O_CREAT | O_ACCMODE)
					   : oflag & O_EXCL;
			int fd = sys_open(path,
					  keep | O_NOFOLLOW | O_RDWR | O_CLOEXEC,
					  0);
			if (fd >= 0) {
				void *s = __nptl_sem_map_add(name, fd, MAP_FAILED);
				sys_close(fd);
				return s ? s : SEM_FAILED;
			}
			if (!(oflag & O_CREAT) || errno != ENOENT)
				return SEM_FAILED;
		}
		if (value > SEM_VALUE_MAX) {
			errno = EINVAL;
			return SEM_FAILED;
		}
		bool exists = false;
		sem_t *s = sem_create(name, path, oflag, mode, value, &exists);
		if (s != SEM_FAILED || !exists)
			return s;
		/* Someone else created it between our open and our link.  */
	}
}
NPTL_SYMVER_DEFAULT(__nptl_sem_open, sem_open, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_sem_open, sem_open, GLIBC_2.2.5);
