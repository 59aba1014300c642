// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fortify variants of the cancellation points.  Built with
 * _FORTIFY_SOURCE=2 and optimisation, with lengths and flags the compiler
 * cannot see, so that read() is a call to __read_chk, open() without a mode
 * a call to __open_2, and so on (objdump -T of this binary lists them).
 *  1. Each is a cancellation point: a thread with a cancellation pending
 *     that calls it ends with PTHREAD_CANCELED, its cleanup run; a thread
 *     blocked in __read_chk, __recv_chk, __poll_chk and __ppoll_chk is
 *     cancelled.
 *  2. Each check fires as glibc's does: a length beyond the buffer, a
 *     pollfd array shorter than nfds, open/openat without a mode for
 *     O_CREAT or O_TMPFILE -- the child dies of SIGABRT after glibc's
 *     message ("*** buffer overflow detected ***: terminated", "*** invalid
 *     open call: O_CREAT or O_TMPFILE without mode ***: terminated").
 *     Lengths that fit pass the check and do the call.
 */
// test-cflags: -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2 -O2
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

/* Without optimisation glibc's headers call the plain functions.  */
#if defined(__OPTIMIZE__) && defined(_FORTIFY_SOURCE) && _FORTIFY_SOURCE >= 2
#define FORTIFIED 1
#else
#define FORTIFIED 0
#endif

/* Values the compiler must not fold: a known length within the buffer
 * makes glibc's headers call the unchecked function.  */
static volatile size_t one = 1, big = 64;
static volatile nfds_t n_one = 1, n_two = 2;
static volatile int rdonly = O_RDONLY, creat_flags = O_RDWR | O_CREAT,
		    tmpfile_flags = O_RDWR | O_TMPFILE;

static int empty_pipe[2], full_pipe[2], sock[2], filefd = -1;
static char path[64];
static volatile int returned, cleaned, stage;
static volatile pid_t blocker;   /* blocked_thread's tid (t_wait_asleep) */

static void cleanup(void *arg)
{
	(void)arg;
	cleaned = 1;
}

static void f_read(void) { char b[8]; (void)!read(empty_pipe[0], b, one); }
static void f_pread(void) { char b[8]; (void)!pread(filefd, b, one, 0); }
static void f_pread64(void) { char b[8]; (void)!pread64(filefd, b, one, 0); }
static void f_recv(void) { char b[8]; (void)!recv(sock[0], b, one, 0); }
static void f_recvfrom(void) { char b[8]; (void)!recvfrom(sock[0], b, one, 0, NULL, NULL); }
static void f_poll(void) { struct pollfd p[1] = { { empty_pipe[0], POLLIN, 0 } }; poll(p, n_one, -1); }
static void f_ppoll(void) { struct pollfd p[1] = { { empty_pipe[0], POLLIN, 0 } }; ppoll(p, n_one, NULL, NULL); }
static void f_open(void) { close(open(path, rdonly)); }
static void f_open64(void) { close(open64(path, rdonly)); }
static void f_openat(void) { close(openat(AT_FDCWD, path, rdonly)); }
static void f_openat64(void) { close(openat64(AT_FDCWD, path, rdonly)); }

struct point {
	const char *name;
	void (*call)(void);
	bool blocks;
};

static struct point points[] = {
	{ "__read_chk", f_read, true },
	{ "__pread_chk", f_pread, false },
	{ "__pread64_chk", f_pread64, false },
	{ "__recv_chk", f_recv, true },
	{ "__recvfrom_chk", f_recvfrom, true },
	{ "__poll_chk", f_poll, true },
	{ "__ppoll_chk", f_ppoll, true },
	{ "__open_2", f_open, false },
	{ "__open64_2", f_open64, false },
	{ "__openat_2", f_openat, false },
	{ "__openat64_2", f_openat64, false },
};

static void *blocked_thread(void *arg)
{
	struct point *p = arg;
	pthread_cleanup_push(cleanup, NULL);
	blocker = t_tid();
	stage = 1;
	p->call();
	returned = 1;
	pthread_cleanup_pop(0);
	return NULL;
}

static void *pending_thread(void *arg)
{
	struct point *p = arg;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	stage = 1;
	while (stage != 2)
		usleep(1000);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	pthread_cleanup_push(cleanup, NULL);
	p->call();
	returned = 1;
	pthread_cleanup_pop(0);
	return NULL;
}

static void run(struct point *p, bool blocked)
{
	pthread_t t;
	void *res = NULL;
	returned = cleaned = stage = 0;
	blocker = 0;
	CHECK0(pthread_create(&t, NULL, blocked ? blocked_thread : pending_thread, p));
	while (stage != 1)
		usleep(1000);
	if (blocked)
		t_wait_asleep(&blocker);
	CHECK0(pthread_cancel(t));
	stage = 2;
	CHECK0(pthread_join(t, &res));
	if (res != PTHREAD_CANCELED || returned || !cleaned) {
		fprintf(stderr, "%s (%s): result %p, returned %d, cleanup %d\n",
			p->name, blocked ? "blocked" : "pending", res, returned,
			cleaned);
		t_failures++;
	}
}

/* Run fn in a child with stderr captured: it must die of SIGABRT after
 * printing "*** <msg> ***: terminated".  */
static void expect_abort(const char *name, void (*fn)(void), const char *msg)
{
	int err[2];
	CHECK0(pipe(err));
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };
		setrlimit(RLIMIT_CORE, &no_core);
		dup2(err[1], 2);
		close(err[0]);
		fn();
		_exit(0);
	}
	close(err[1]);
	char out[512] = "";
	size_t len = 0;
	ssize_t r;
	while (len < sizeof(out) - 1 &&
	       (r = read(err[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)r;
	out[len] = 0;
	close(err[0]);
	int st = 0;
	CHECK(waitpid(pid, &st, 0) == pid);
	char want[256];
	snprintf(want, sizeof(want), "*** %s ***: terminated", msg);
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGABRT || !strstr(out, want)) {
		fprintf(stderr, "%s: status %#x, stderr \"%s\", want SIGABRT and \"%s\"\n",
			name, st, out, want);
		t_failures++;
	}
}

#define OVERFLOW "buffer overflow detected"
static void x_read(void) { char b[8]; (void)!read(filefd, b, big); }
static void x_pread(void) { char b[8]; (void)!pread(filefd, b, big, 0); }
static void x_pread64(void) { char b[8]; (void)!pread64(filefd, b, big, 0); }
static void x_recv(void) { char b[8]; (void)!recv(sock[0], b, big, MSG_DONTWAIT); }
static void x_recvfrom(void) { char b[8]; (void)!recvfrom(sock[0], b, big, MSG_DONTWAIT, NULL, NULL); }
static void x_poll(void) { struct pollfd p[1] = { { -1, 0, 0 } }; poll(p, n_two, 0); }
static void x_ppoll(void)
{
	struct pollfd p[1] = { { -1, 0, 0 } };
	struct timespec z = { 0, 0 };
	ppoll(p, n_two, &z, NULL);
}
static void x_open(void) { open(path, creat_flags); }
static void x_open_tmp(void) { open("/tmp", tmpfile_flags); }
static void x_open64(void) { open64(path, creat_flags); }
static void x_openat(void) { openat(AT_FDCWD, path, creat_flags); }
static void x_openat64(void) { openat64(AT_FDCWD, path, creat_flags); }

int main(void)
{
	if (!FORTIFIED)
		SKIP("built without -O2 -D_FORTIFY_SOURCE=2: no __*_chk calls");
	/* glibc 2.36 writes its fatal messages to /dev/tty unless told.  */
	setenv("LIBC_FATAL_STDERR_", "1", 1);
	CHECK0(pipe(empty_pipe));
	CHECK0(pipe(full_pipe));
	CHECK0(socketpair(AF_UNIX, SOCK_STREAM, 0, sock));
	snprintf(path, sizeof(path), "/tmp/cancel-fortify-%d", getpid());
	filefd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(filefd >= 0);
	CHECK(write(filefd, "0123456789abcdef", 16) == 16);

	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
		if (points[i].blocks)
			run(&points[i], true);
		run(&points[i], false);
	}

	/* Within bounds the checks pass and the calls are made.  */
	char b[8];
	CHECK(pread(filefd, b, one, 1) == 1 && b[0] == '1');
	CHECK(pread64(filefd, b, one, 2) == 1 && b[0] == '2');
	CHECK(lseek(filefd, 3, SEEK_SET) == 3);
	CHECK(read(filefd, b, one) == 1 && b[0] == '3');
	CHECK(send(sock[1], "xy", 2, 0) == 2);
	CHECK(recv(sock[0], b, one, 0) == 1 && b[0] == 'x');
	CHECK(recvfrom(sock[0], b, one, 0, NULL, NULL) == 1 && b[0] == 'y');
	struct pollfd p[1] = { { filefd, POLLIN, 0 } };
	CHECK(poll(p, n_one, 0) == 1);
	struct timespec z = { 0, 0 };
	CHECK(ppoll(p, n_one, &z, NULL) == 1);
	int fd;
	CHECK((fd = open(path, rdonly)) >= 0 && close(fd) == 0);
	CHECK((fd = open64(path, rdonly)) >= 0 && close(fd) == 0);
	CHECK((fd = openat(AT_FDCWD, path, rdonly)) >= 0 && close(fd) == 0);
	CHECK((fd = openat64(AT_FDCWD, path, rdonly)) >= 0 && close(fd) == 0);

	/* Beyond them, glibc's report and abort.  */
	expect_abort("__read_chk", x_read, OVERFLOW);
	expect_abort("__pread_chk", x_pread, OVERFLOW);
	expect_abort("__pread64_chk", x_pread64, OVERFLOW);
	expect_abort("__recv_chk", x_recv, OVERFLOW);
	expect_abort("__recvfrom_chk", x_recvfrom, OVERFLOW);
	expect_abort("__poll_chk", x_poll, OVERFLOW);
	expect_abort("__ppoll_chk", x_ppoll, OVERFLOW);
	expect_abort("__open_2", x_open,
		     "invalid open call: O_CREAT or O_TMPFILE without mode");
	expect_abort("__open_2 (O_TMPFILE)", x_open_tmp,
		     "invalid open call: O_CREAT or O_TMPFILE without mode");
	expect_abort("__open64_2", x_open64,
		     "invalid open64 call: O_CREAT or O_TMPFILE without mode");
	expect_abort("__openat_2", x_openat,
		     "invalid openat call: O_CREAT or O_TMPFILE without mode");
	expect_abort("__openat64_2", x_openat64,
		     "invalid openat64 call: O_CREAT or O_TMPFILE without mode");

	close(filefd);
	unlink(path);
	return t_done();
}
