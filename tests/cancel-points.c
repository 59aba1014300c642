// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The POSIX cancellation points, and glibc's accept4 and epoll waits: each
 * one that blocks is cancelled while a thread is blocked in it; each is
 * also called with a cancellation already pending (deferred, enabled),
 * where it must act before doing anything --
 * close leaves the descriptor open then, as glibc's does.  In every case
 * the thread ends with PTHREAD_CANCELED, its cleanup handler ran, and the
 * call never returned.  creat, called without a cancellation, keeps its
 * meaning: it truncates an existing file and opens it write-only, and a
 * new file gets the mode asked for (less the umask).
 */
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

static int empty_pipe[2], full_pipe[2], sock[2], listener = -1, lockfd = -1;
static int msqid = -1, epfd = -1;
static mqd_t mq = (mqd_t)-1;
static pid_t child;
static char fifo[64], tmpfile_path[64], mq_name[64];
static sem_t sem;
static void *map;
static sigset_t usr1;

static volatile int returned, cleaned, stage;
static volatile pid_t blocker;   /* blocked_thread's tid (t_wait_asleep) */

static void cleanup(void *arg)
{
	(void)arg;
	cleaned = 1;
}

struct point {
	const char *name;
	void (*call)(void);
	bool blocks;   /* also tested with a thread blocked in it */
	bool *skip;
};

static char c1;
static struct timespec long_ts = { 1000, 0 };
static bool no_msg, no_mq, no_pwait2;

static void p_read(void) { (void)!read(empty_pipe[0], &c1, 1); }
static void p_readv(void) { struct iovec v = { &c1, 1 }; (void)!readv(empty_pipe[0], &v, 1); }
static void p_pread(void) { (void)!pread(lockfd, &c1, 1, 0); }
static void p_write(void) { (void)!write(full_pipe[1], "x", 1); }
static void p_writev(void) { struct iovec v = { "x", 1 }; (void)!writev(full_pipe[1], &v, 1); }
static void p_pwrite(void) { (void)!pwrite(lockfd, "x", 1, 0); }
static void p_recv(void) { recv(sock[0], &c1, 1, 0); }
static void p_recvfrom(void) { recvfrom(sock[0], &c1, 1, 0, NULL, NULL); }
static void p_recvmsg(void)
{
	struct iovec v = { &c1, 1 };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
	recvmsg(sock[0], &m, 0);
}
static void p_send(void) { send(sock[1], "x", 1, 0); }
static void p_sendto(void) { sendto(sock[1], "x", 1, 0, NULL, 0); }
static void p_sendmsg(void)
{
	struct iovec v = { "x", 1 };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
	sendmsg(sock[1], &m, 0);
}
static void p_accept(void) { accept(listener, NULL, NULL); }
static void p_accept4(void) { accept4(listener, NULL, NULL, SOCK_CLOEXEC); }
static void p_epoll_wait(void) { struct epoll_event e; epoll_wait(epfd, &e, 1, -1); }
static void p_epoll_pwait(void) { struct epoll_event e; epoll_pwait(epfd, &e, 1, -1, NULL); }
static void p_epoll_pwait2(void) { struct epoll_event e; epoll_pwait2(epfd, &e, 1, NULL, NULL); }
static void p_connect(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(s, (struct sockaddr *)&a, sizeof(a));
}
static void p_poll(void) { struct pollfd p = { empty_pipe[0], POLLIN, 0 }; poll(&p, 1, -1); }
static void p_ppoll(void) { struct pollfd p = { empty_pipe[0], POLLIN, 0 }; ppoll(&p, 1, NULL, NULL); }
static void p_select(void)
{
	fd_set r;
	FD_ZERO(&r);
	FD_SET(empty_pipe[0], &r);
	select(empty_pipe[0] + 1, &r, NULL, NULL, NULL);
}
static void p_pselect(void)
{
	fd_set r;
	FD_ZERO(&r);
	FD_SET(empty_pipe[0], &r);
	pselect(empty_pipe[0] + 1, &r, NULL, NULL, NULL, NULL);
}
static void p_nanosleep(void) { nanosleep(&long_ts, NULL); }
static void p_clock_nanosleep(void) { clock_nanosleep(CLOCK_MONOTONIC, 0, &long_ts, NULL); }
static void p_sleep(void) { sleep(1000); }
static void p_usleep(void) { usleep(999999); usleep(999999); }
static void p_sigwait(void) { int s; sigwait(&usr1, &s); }
static void p_sigwaitinfo(void) { sigwaitinfo(&usr1, NULL); }
static void p_sigtimedwait(void) { sigtimedwait(&usr1, NULL, &long_ts); }
static void p_sigsuspend(void) { sigset_t s; sigemptyset(&s); sigaddset(&s, SIGUSR1); sigsuspend(&s); }
static void p_pause(void) { pause(); }
static void p_waitpid(void) { waitpid(child, NULL, 0); }
static void p_wait(void) { wait(NULL); }
static void p_waitid(void) { siginfo_t si; waitid(P_PID, (id_t)child, &si, WEXITED); }
static void p_fcntl(void)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	fcntl(lockfd, F_SETLKW, &fl);
}
static void p_lockf(void) { lseek(lockfd, 0, SEEK_SET); lockf(lockfd, F_LOCK, 0); }
static void p_open(void) { open(fifo, O_RDONLY); }
static void p_openat(void) { openat(AT_FDCWD, fifo, O_RDONLY); }
static void p_creat(void) { creat(tmpfile_path, 0600); }
static void p_close(void) { close(lockfd); }
static void p_fsync(void) { fsync(lockfd); }
static void p_fdatasync(void) { fdatasync(lockfd); }
static void p_msync(void) { msync(map, 4096, MS_SYNC); }
static void p_tcdrain(void) { tcdrain(lockfd); }
static void p_msgrcv(void) { struct { long t; char c; } m; msgrcv(msqid, &m, 1, 0, 0); }
static void p_msgsnd(void) { struct { long t; char c; } m = { 1, 'x' }; msgsnd(msqid, &m, 1, 0); }
static void p_mq_receive(void) { char b[64]; mq_receive(mq, b, sizeof(b), NULL); }
static void p_mq_send(void) { mq_send(mq, "x", 1, 0); }
static void p_sem_wait(void) { sem_wait(&sem); }
static void p_testcancel(void) { pthread_testcancel(); }

static struct point points[] = {
	{ "read", p_read, true, NULL },
	{ "readv", p_readv, true, NULL },
	{ "pread", p_pread, false, NULL },
	{ "write", p_write, true, NULL },
	{ "writev", p_writev, true, NULL },
	{ "pwrite", p_pwrite, false, NULL },
	{ "recv", p_recv, true, NULL },
	{ "recvfrom", p_recvfrom, true, NULL },
	{ "recvmsg", p_recvmsg, true, NULL },
	{ "send", p_send, false, NULL },
	{ "sendto", p_sendto, false, NULL },
	{ "sendmsg", p_sendmsg, false, NULL },
	{ "accept", p_accept, true, NULL },
	{ "accept4", p_accept4, true, NULL },
	{ "epoll_wait", p_epoll_wait, true, NULL },
	{ "epoll_pwait", p_epoll_pwait, true, NULL },
	{ "epoll_pwait2", p_epoll_pwait2, true, &no_pwait2 },
	{ "connect", p_connect, false, NULL },
	{ "poll", p_poll, true, NULL },
	{ "ppoll", p_ppoll, true, NULL },
	{ "select", p_select, true, NULL },
	{ "pselect", p_pselect, true, NULL },
	{ "nanosleep", p_nanosleep, true, NULL },
	{ "clock_nanosleep", p_clock_nanosleep, true, NULL },
	{ "sleep", p_sleep, true, NULL },
	{ "usleep", p_usleep, true, NULL },
	{ "sigwait", p_sigwait, true, NULL },
	{ "sigwaitinfo", p_sigwaitinfo, true, NULL },
	{ "sigtimedwait", p_sigtimedwait, true, NULL },
	{ "sigsuspend", p_sigsuspend, true, NULL },
	{ "pause", p_pause, true, NULL },
	{ "waitpid", p_waitpid, true, NULL },
	{ "wait", p_wait, true, NULL },
	{ "waitid", p_waitid, true, NULL },
	{ "fcntl(F_SETLKW)", p_fcntl, true, NULL },
	{ "lockf(F_LOCK)", p_lockf, true, NULL },
	{ "open", p_open, true, NULL },
	{ "openat", p_openat, true, NULL },
	{ "creat", p_creat, false, NULL },
	{ "close", p_close, false, NULL },
	{ "fsync", p_fsync, false, NULL },
	{ "fdatasync", p_fdatasync, false, NULL },
	{ "msync", p_msync, false, NULL },
	{ "tcdrain", p_tcdrain, false, NULL },
	{ "msgrcv", p_msgrcv, true, &no_msg },
	{ "msgsnd", p_msgsnd, false, &no_msg },
	{ "mq_receive", p_mq_receive, true, &no_mq },
	{ "mq_send", p_mq_send, false, &no_mq },
	{ "sem_wait", p_sem_wait, true, NULL },
	{ "pthread_testcancel", p_testcancel, false, NULL },
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

static void setup(void)
{
	CHECK0(pipe(empty_pipe));
	CHECK0(pipe(full_pipe));
	fcntl(full_pipe[1], F_SETFL, O_NONBLOCK);
	char buf[4096] = { 0 };
	while (write(full_pipe[1], buf, sizeof(buf)) > 0)
		;
	while (write(full_pipe[1], buf, 1) > 0)
		;
	fcntl(full_pipe[1], F_SETFL, 0);
	CHECK0(socketpair(AF_UNIX, SOCK_STREAM, 0, sock));
	listener = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(listener >= 0 && listen(listener, 1) == 0);

	snprintf(tmpfile_path, sizeof(tmpfile_path), "/tmp/cancel-points-%d", getpid());
	snprintf(fifo, sizeof(fifo), "/tmp/cancel-points-fifo-%d", getpid());
	CHECK0(mkfifo(fifo, 0600));
	lockfd = open(tmpfile_path, O_RDWR | O_CREAT, 0600);
	CHECK(lockfd >= 0);
	CHECK(write(lockfd, buf, 4096) == 4096);
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, lockfd, 0);
	CHECK(map != MAP_FAILED);

	/* A child that holds a lock on the whole file and never exits.  */
	int ready[2];
	CHECK0(pipe(ready));
	child = fork();
	if (child == 0) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		fcntl(lockfd, F_SETLK, &fl);
		(void)!write(ready[1], "r", 1);
		for (;;)
			pause();
	}
	CHECK(read(ready[0], &c1, 1) == 1);
	close(ready[0]);
	close(ready[1]);

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	CHECK0(sem_init(&sem, 0, 0));

	epfd = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN };
	CHECK(epfd >= 0 && epoll_ctl(epfd, EPOLL_CTL_ADD, empty_pipe[0], &ev) == 0);
	struct timespec zero = { 0, 0 };
	no_pwait2 = epoll_pwait2(epfd, &ev, 1, &zero, NULL) < 0 && errno == ENOSYS;

	msqid = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	no_msg = msqid < 0;
	snprintf(mq_name, sizeof(mq_name), "/cancel-points-%d", getpid());
	struct mq_attr ma = { .mq_maxmsg = 1, .mq_msgsize = 8 };
	mq = mq_open(mq_name, O_RDWR | O_CREAT | O_EXCL, 0600, &ma);
	no_mq = mq == (mqd_t)-1;
	if (!no_mq) {
		mq_unlink(mq_name);
		CHECK0(mq_send(mq, "f", 1, 0));   /* full: mq_send would block */
	}
}

static void test_creat(void)
{
	int fd = open(tmpfile_path, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0 && write(fd, "data", 4) == 4);
	close(fd);
	fd = creat(tmpfile_path, 0600);
	struct stat st;
	CHECK(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 0);
	CHECK((fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY);
	close(fd);

	char fresh[80];
	snprintf(fresh, sizeof fresh, "%s.new", tmpfile_path);
	unlink(fresh);
	mode_t old = umask(022);
	fd = creat(fresh, 0666);
	umask(old);
	CHECK(fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 0777) == 0644);
	close(fd);
	unlink(fresh);
}

int main(void)
{
	setup();
	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
		struct point *p = &points[i];
		if (p->skip && *p->skip) {
			fprintf(stderr, "%s: not available here, skipped\n", p->name);
			continue;
		}
		if (p->blocks) {
			/* The queue is full for mq_send, empty for receive.  */
			if (p->call == p_mq_receive) {
				char b[8];
				mq_receive(mq, b, sizeof(b), NULL);
			}
			run(p, true);
			if (p->call == p_mq_receive)
				mq_send(mq, "f", 1, 0);
		}
		run(p, false);
	}
	/* A pending cancellation acts before close closes (glibc's order).  */
	CHECK(fcntl(lockfd, F_GETFD) >= 0);
	test_creat();

	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	unlink(fifo);
	unlink(tmpfile_path);
	if (msqid >= 0)
		msgctl(msqid, IPC_RMID, NULL);
	return t_done();
}
