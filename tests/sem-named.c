// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Named semaphores: sem_open/sem_close/sem_unlink semantics and errors as
 * glibc has them (the file /dev/shm/sem.<name>, one address per name with
 * a reference count, the mode under the umask), and one semaphore shared
 * with an unrelated process: the test re-executes itself as the peer.
 * Conformance: passes on glibc too.
 */
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

#define CHECK_ERRNO(call, e)                                                 \
	do {                                                                 \
		errno = 0;                                                   \
		long t_r_ = (long)(call);                                    \
		int t_e_ = errno;                                            \
		if (t_r_ != -1 || t_e_ != (e)) {                             \
			fprintf(stderr, "%s:%d: %s returned %ld errno %d (%s), want errno %d (%s)\n", \
				__FILE__, __LINE__, #call, t_r_, t_e_,       \
				strerror(t_e_), (e), strerror(e));           \
			t_failures++;                                        \
		}                                                            \
	} while (0)
#define FAILED(call) ((call) == SEM_FAILED ? -1L : 0L)

#define ROUNDS 2000

static int value(sem_t *s)
{
	int v = -1;
	sem_getvalue(s, &v);
	return v;
}

/* The exec'd peer: ping-pong on two named semaphores.  */
static int peer(const char *a, const char *b)
{
	sem_t *ping = sem_open(a, 0), *pong = sem_open(b, 0);
	if (ping == SEM_FAILED || pong == SEM_FAILED)
		return 2;
	for (int i = 0; i < ROUNDS; i++)
		if (sem_wait(ping) || sem_post(pong))
			return 3;
	return sem_close(ping) || sem_close(pong) ? 4 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "peer") == 0)
		return peer(argv[2], argv[3]);

	char name[64], name2[64], path[128];
	snprintf(name, sizeof(name), "/nptl-sem-named-%d", (int)getpid());
	snprintf(name2, sizeof(name2), "/nptl-sem-named2-%d", (int)getpid());
	snprintf(path, sizeof(path), "/dev/shm/sem.%s", name + 1);
	sem_unlink(name);
	sem_unlink(name2);

	/* Creation: the file, its size and mode (under the umask).  */
	mode_t old = umask(077);
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0666, 3);
	umask(old);
	CHECK(s != SEM_FAILED);
	if (s == SEM_FAILED)
		return t_done();
	struct stat st;
	CHECK(stat(path, &st) == 0);
	CHECK((st.st_mode & 0777) == 0600);
	CHECK(st.st_size == sizeof(sem_t));
	CHECK(value(s) == 3);
	CHECK(((int *)s)[2] == 128);	/* glibc's "shared" futex flag */

	/* Same name twice: the same address, reference counted.  */
	sem_t *s2 = sem_open(name, 0);
	CHECK(s2 == s);
	sem_t *s3 = sem_open(name, O_CREAT, 0600, 99);	/* exists: value kept */
	CHECK(s3 == s);
	CHECK(value(s) == 3);
	CHECK_ERRNO(FAILED(sem_open(name, O_CREAT | O_EXCL, 0600, 0)), EEXIST);
	CHECK(sem_wait(s) == 0);
	CHECK(sem_close(s3) == 0);
	CHECK(sem_close(s2) == 0);
	CHECK(value(s) == 2);	/* still mapped: one reference left */
	/* A name spelled differently is another mapping of the same file.  */
	char slashes[72];
	snprintf(slashes, sizeof(slashes), "/%s", name);
	sem_t *s4 = sem_open(slashes, 0);
	CHECK(s4 != SEM_FAILED && s4 != s);
	if (s4 != SEM_FAILED) {
		CHECK(sem_post(s4) == 0);
		CHECK(value(s) == 3);
		CHECK(sem_close(s4) == 0);
	}

	/* Errors.  */
	sem_t local;
	CHECK_ERRNO(sem_close(&local), EINVAL);
	CHECK_ERRNO(FAILED(sem_open(name2, 0)), ENOENT);
	CHECK_ERRNO(FAILED(sem_open(name2, O_CREAT, 0600, (unsigned)SEM_VALUE_MAX + 1)), EINVAL);
	CHECK_ERRNO(FAILED(sem_open(name2, O_CREAT | O_EXCL, 0600, (unsigned)SEM_VALUE_MAX + 1)), EINVAL);
	CHECK_ERRNO(FAILED(sem_open("", O_CREAT, 0600, 0)), EINVAL);
	CHECK_ERRNO(FAILED(sem_open("/", O_CREAT, 0600, 0)), EINVAL);
	CHECK_ERRNO(FAILED(sem_open("/a/b", O_CREAT, 0600, 0)), EINVAL);
	char longname[NAME_MAX + 3];
	longname[0] = '/';
	memset(longname + 1, 'n', NAME_MAX);	/* "sem." + 255: too long a file */
	longname[NAME_MAX + 1] = '\0';
	CHECK_ERRNO(FAILED(sem_open(longname, O_CREAT, 0600, 0)), ENAMETOOLONG);
	CHECK_ERRNO(sem_unlink(longname), ENAMETOOLONG);
	longname[NAME_MAX + 1] = 'n';	/* longer than NAME_MAX itself */
	longname[NAME_MAX + 2] = '\0';
	/* glibc 2.36 says EINVAL, 2.41 ENAMETOOLONG (its __shm_get_name).  */
	CHECK_ERRNO(FAILED(sem_open(longname, O_CREAT, 0600, 0)),
		    __GLIBC_MINOR__ >= 41 ? ENAMETOOLONG : EINVAL);
	CHECK_ERRNO(sem_unlink(longname), ENOENT);
	CHECK_ERRNO(sem_unlink(name2), ENOENT);
	CHECK_ERRNO(sem_unlink("/"), ENOENT);
	CHECK_ERRNO(sem_unlink("/a/b"), ENOENT);

	/* EACCES, as another user (root runs this as the "nobody" user).  */
	if (geteuid() == 0) {
		pid_t pid = fork();
		if (pid == 0) {
			if (setgid(65534) || setuid(65534))
				_exit(77);
			errno = 0;
			int bad = 0;
			if (sem_open(name, 0) != SEM_FAILED || errno != EACCES)
				bad |= 1;
			errno = 0;
			if (sem_unlink(name) != -1 || errno != EACCES)
				bad |= 2;
			_exit(bad);
		}
		int wst;
		CHECK(waitpid(pid, &wst, 0) == pid);
		CHECK(WIFEXITED(wst) && (WEXITSTATUS(wst) == 0 || WEXITSTATUS(wst) == 77));
		if (WIFEXITED(wst) && WEXITSTATUS(wst) != 0 && WEXITSTATUS(wst) != 77)
			fprintf(stderr, "EACCES checks failed: %d\n", WEXITSTATUS(wst));
	}

	/* A forked child shares the mapping.  */
	pid_t pid = fork();
	if (pid == 0)
		_exit(sem_post(s) == 0 && sem_close(s) == 0 ? 0 : 1);
	int wst;
	CHECK(waitpid(pid, &wst, 0) == pid && WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
	CHECK(value(s) == 4);

	/* An unrelated process (fork + exec) on the same names.  */
	sem_t *pong = sem_open(name2, O_CREAT | O_EXCL, 0600, 0);
	CHECK(pong != SEM_FAILED);
	while (value(s) > 0)
		sem_trywait(s);
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "peer", name, name2, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < ROUNDS; i++) {
		CHECK(sem_post(s) == 0);
		struct timespec dl;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += 10;
		if (sem_timedwait(pong, &dl) != 0) {
			CHECK(!"peer did not answer");
			break;
		}
	}
	CHECK(waitpid(pid, &wst, 0) == pid && WIFEXITED(wst) && WEXITSTATUS(wst) == 0);

	/* Unlink: the name goes, the open semaphores stay usable.  */
	CHECK(sem_unlink(name) == 0);
	CHECK(sem_unlink(name2) == 0);
	CHECK(access(path, F_OK) == -1);
	CHECK_ERRNO(FAILED(sem_open(name, 0)), ENOENT);
	CHECK(sem_post(s) == 0 && sem_wait(s) == 0);
	CHECK(sem_close(pong) == 0);
	CHECK(sem_close(s) == 0);
	CHECK_ERRNO(sem_close(s), EINVAL);
	return t_done();
}
