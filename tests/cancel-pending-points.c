// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A cancellation point acts on a pending request even when the call would
 * not block: a thread with cancellation pending (deferred, enabled) calls
 * each point in a shape where it returns at once -- a target that has
 * already finished for the join family, a posted semaphore, a deadline in
 * the past, data waiting, a connection queued, a child already exited, a
 * signal pending -- and must end with PTHREAD_CANCELED, its cleanup run,
 * the call never having returned and nothing consumed: the target is
 * still joinable, the token, the byte, the connection, the child, the
 * message are still there.  pthread_tryjoin_np, not a cancellation point,
 * joins and returns.
 *
 * glibc (2.36 and 2.41 alike) acts in its join family and in sem_clockwait
 * only when it is about to sleep, and in a condition wait only in the
 * futex wait, which a deadline already past still enters but one before
 * 1970 does not: those shapes are checked on libnptl only (musl's
 * libc-test checks the join one: "non-blocking pthread_join").
 */
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/msg.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

static volatile int returned, cleaned, stage;
static int rd_pipe[2], sock[2], listener = -1, epfd = -1, lockfd = -1;
static int msqid = -1;
static mqd_t mq = (mqd_t)-1;
static pid_t zombie;
static sem_t sem;
static pthread_t target;
static pthread_mutex_t mtx;
static pthread_cond_t cond;
static mtx_t cmtx;
static cnd_t ccond;
static int unlock_in_cleanup = -1;   /* 0: the mutex was held in cleanup */
static int mutex_kind;               /* 1 pthread, 2 C11 */
static char path[64], sockpath[108];
static struct timespec zero_ts, past_ts = { 0, 0 }, neg_ts = { -1, 0 };
static bool no_msg, no_mq, no_pwait2;

static void cleanup(void *arg)
{
	(void)arg;
	if (mutex_kind == 1)
		unlock_in_cleanup = pthread_mutex_unlock(&mtx);
	else if (mutex_kind == 2)
		unlock_in_cleanup = mtx_unlock(&cmtx) == thrd_success ? 0 : -1;
	cleaned = 1;
}

/* A thread that has finished: its task is gone from /proc, which happens
 * after the kernel cleared its tid (what a join waits for).  */
static pid_t target_tid;
static void *finish_tid(void *arg)
{
	__atomic_store_n(&target_tid, gettid(), __ATOMIC_SEQ_CST);
	return arg;
}

static void make_finished_target(void)
{
	target_tid = 0;
	CHECK0(pthread_create(&target, NULL, finish_tid, (void *)42));
	while (!__atomic_load_n(&target_tid, __ATOMIC_SEQ_CST))
		usleep(1000);
	char p[64];
	snprintf(p, sizeof(p), "/proc/self/task/%d", (int)target_tid);
	for (int i = 0; i < 10000 && access(p, F_OK) == 0; i++)
		usleep(1000);
	CHECK(access(p, F_OK) != 0);
}

static void check_target_joinable(void)
{
	void *r = NULL;
	CHECK0(pthread_join(target, &r));
	CHECK(r == (void *)42);
}

static void s_sem(void) { CHECK(sem_post(&sem) == 0); }
static void c_sem(void)
{
	int v = -1;
	sem_getvalue(&sem, &v);
	CHECK(v == 1);
	CHECK(sem_trywait(&sem) == 0);
}

static void s_byte(void) { CHECK(write(rd_pipe[1], "b", 1) == 1); }
static void c_byte(void)
{
	char c = 0;
	CHECK(read(rd_pipe[0], &c, 1) == 1 && c == 'b');
}
static void s_sock(void) { CHECK(send(sock[1], "s", 1, 0) == 1); }
static void c_sock(void)
{
	char c = 0;
	CHECK(recv(sock[0], &c, 1, MSG_DONTWAIT) == 1 && c == 's');
}
static int conn = -1;
static void s_conn(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	memcpy(a.sun_path, sockpath, strlen(sockpath) + 1);
	conn = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(conn >= 0 && connect(conn, (struct sockaddr *)&a, sizeof(a)) == 0);
}
static void c_conn(void)
{
	int s = accept4(listener, NULL, NULL, SOCK_NONBLOCK);
	CHECK(s >= 0);
	close(s);
	close(conn);
}
static void s_zombie(void)
{
	zombie = fork();
	if (zombie == 0)
		_exit(7);
	siginfo_t si;
	CHECK(waitid(P_PID, (id_t)zombie, &si, WEXITED | WNOWAIT) == 0);
}
static void c_zombie(void)
{
	int st = 0;
	CHECK(waitpid(zombie, &st, WNOHANG) == zombie);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 7);
}
static void s_msg(void)
{
	struct { long t; char c; } m = { 1, 'm' };
	CHECK(msgsnd(msqid, &m, 1, 0) == 0);
}
static void c_msg(void)
{
	struct { long t; char c; } m;
	CHECK(msgrcv(msqid, &m, 1, 0, IPC_NOWAIT) == 1 && m.c == 'm');
}
static void s_mq(void) { CHECK(mq_send(mq, "q", 1, 0) == 0); }
static void c_mq(void)
{
	char b[8];
	struct timespec ts = { 0, 0 };
	CHECK(mq_timedreceive(mq, b, sizeof(b), NULL, &ts) == 1 && b[0] == 'q');
}

static void p_join(void) { pthread_join(target, NULL); }
static void p_timedjoin(void)
{
	struct timespec ts = t_soon(CLOCK_REALTIME, 500000);
	ts.tv_sec += 30;
	pthread_timedjoin_np(target, NULL, &ts);
}
static void p_clockjoin(void)
{
	struct timespec ts = t_soon(CLOCK_MONOTONIC, 500000);
	ts.tv_sec += 30;
	pthread_clockjoin_np(target, NULL, CLOCK_MONOTONIC, &ts);
}
static void p_thrd_join(void) { int r; thrd_join((thrd_t)target, &r); }
static void *tryjoin_result;
static void p_tryjoin(void) { CHECK0(pthread_tryjoin_np(target, &tryjoin_result)); }
static void c_tryjoin(void) { CHECK(tryjoin_result == (void *)42); }
static void p_sem_wait(void) { sem_wait(&sem); }
static void p_sem_timedwait(void)
{
	struct timespec ts = t_soon(CLOCK_REALTIME, 0);
	ts.tv_sec += 30;
	sem_timedwait(&sem, &ts);
}
static void p_sem_clockwait(void)
{
	struct timespec ts = t_soon(CLOCK_MONOTONIC, 0);
	ts.tv_sec += 30;
	sem_clockwait(&sem, CLOCK_MONOTONIC, &ts);
}
static void p_cond_timedwait(void)
{
	mutex_kind = 1;
	pthread_mutex_lock(&mtx);
	pthread_cond_timedwait(&cond, &mtx, &past_ts);
	pthread_mutex_unlock(&mtx);
}
static void p_cond_timedwait_neg(void)
{
	mutex_kind = 1;
	pthread_mutex_lock(&mtx);
	pthread_cond_timedwait(&cond, &mtx, &neg_ts);
	pthread_mutex_unlock(&mtx);
}
static void p_cond_clockwait(void)
{
	mutex_kind = 1;
	pthread_mutex_lock(&mtx);
	pthread_cond_clockwait(&cond, &mtx, CLOCK_MONOTONIC, &past_ts);
	pthread_mutex_unlock(&mtx);
}
static void p_cond_wait(void)
{
	mutex_kind = 1;
	pthread_mutex_lock(&mtx);
	pthread_cond_wait(&cond, &mtx);
	pthread_mutex_unlock(&mtx);
}
static void p_cnd_timedwait(void)
{
	mutex_kind = 2;
	mtx_lock(&cmtx);
	cnd_timedwait(&ccond, &cmtx, &past_ts);
	mtx_unlock(&cmtx);
}
static void p_read(void) { char c; (void)!read(rd_pipe[0], &c, 1); }
static void p_recv(void) { char c; recv(sock[0], &c, 1, 0); }
static void p_accept(void) { close(accept(listener, NULL, NULL)); }
static void p_accept4(void) { close(accept4(listener, NULL, NULL, SOCK_CLOEXEC)); }
static void p_poll(void) { struct pollfd p = { rd_pipe[0], POLLIN, 0 }; poll(&p, 1, -1); }
static void p_poll0(void) { struct pollfd p = { rd_pipe[0], POLLIN, 0 }; poll(&p, 1, 0); }
static void p_ppoll0(void) { ppoll(NULL, 0, &zero_ts, NULL); }
static void p_select0(void)
{
	struct timeval tv = { 0, 0 };
	select(0, NULL, NULL, NULL, &tv);
}
static void p_pselect0(void) { pselect(0, NULL, NULL, NULL, &zero_ts, NULL); }
static void p_epoll_wait(void) { struct epoll_event e; epoll_wait(epfd, &e, 1, 0); }
static void p_epoll_pwait(void) { struct epoll_event e; epoll_pwait(epfd, &e, 1, 0, NULL); }
static void p_epoll_pwait2(void)
{
	struct epoll_event e;
	epoll_pwait2(epfd, &e, 1, &zero_ts, NULL);
}
static void p_nanosleep0(void) { nanosleep(&zero_ts, NULL); }
static void p_clock_nanosleep0(void) { clock_nanosleep(CLOCK_MONOTONIC, 0, &zero_ts, NULL); }
static void p_clock_nanosleep_abs(void)
{
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &zero_ts, NULL);
}
static void p_sleep0(void) { sleep(0); }
static void p_usleep0(void) { usleep(0); }
static void p_thrd_sleep0(void) { thrd_sleep(&zero_ts, NULL); }
static sigset_t usr1;
static void p_sigwait(void)
{
	pthread_kill(pthread_self(), SIGUSR1);
	int s;
	sigwait(&usr1, &s);
}
static void p_sigwaitinfo(void)
{
	pthread_kill(pthread_self(), SIGUSR1);
	sigwaitinfo(&usr1, NULL);
}
static void p_sigtimedwait0(void) { sigtimedwait(&usr1, NULL, &zero_ts); }
static void p_waitpid(void) { waitpid(zombie, NULL, 0); }
static void p_waitid(void) { siginfo_t si; waitid(P_PID, (id_t)zombie, &si, WEXITED); }
static void p_fcntl(void)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	fcntl(lockfd, F_SETLKW, &fl);
}
static void p_lockf(void) { lockf(lockfd, F_LOCK, 0); }
static void p_open(void) { close(open(path, O_RDONLY)); }
static void p_openat(void) { close(openat(AT_FDCWD, path, O_RDONLY)); }
static void p_msgrcv(void) { struct { long t; char c; } m; msgrcv(msqid, &m, 1, 0, 0); }
static void p_mq_receive(void) { char b[8]; mq_receive(mq, b, sizeof(b), NULL); }
static void p_testcancel(void) { pthread_testcancel(); }

struct point {
	const char *name;
	void (*call)(void);       /* in the thread, cancellation pending */
	void (*setup)(void);      /* before: the shape that does not block */
	void (*after)(void);      /* after: nothing was consumed */
	bool glibc_acts;          /* glibc acts on the request here too */
	bool cancels;             /* a cancellation point (tryjoin is not) */
	bool *skip;
	bool join_target;         /* needs a finished thread */
};

static struct point points[] = {
	{ "pthread_join", p_join, NULL, check_target_joinable, false, true, NULL, true },
	{ "pthread_timedjoin_np", p_timedjoin, NULL, check_target_joinable, false, true, NULL, true },
	{ "pthread_clockjoin_np", p_clockjoin, NULL, check_target_joinable, false, true, NULL, true },
	{ "thrd_join", p_thrd_join, NULL, check_target_joinable, false, true, NULL, true },
	{ "pthread_tryjoin_np", p_tryjoin, NULL, c_tryjoin, true, false, NULL, true },
	{ "sem_wait", p_sem_wait, s_sem, c_sem, true, true, NULL, false },
	{ "sem_timedwait", p_sem_timedwait, s_sem, c_sem, true, true, NULL, false },
	{ "sem_clockwait", p_sem_clockwait, s_sem, c_sem, false, true, NULL, false },
	{ "pthread_cond_wait", p_cond_wait, NULL, NULL, true, true, NULL, false },
	{ "pthread_cond_timedwait", p_cond_timedwait, NULL, NULL, true, true, NULL, false },
	{ "pthread_cond_timedwait(<1970)", p_cond_timedwait_neg, NULL, NULL, false, true, NULL, false },
	{ "pthread_cond_clockwait", p_cond_clockwait, NULL, NULL, true, true, NULL, false },
	{ "cnd_timedwait", p_cnd_timedwait, NULL, NULL, true, true, NULL, false },
	{ "read", p_read, s_byte, c_byte, true, true, NULL, false },
	{ "poll", p_poll, s_byte, c_byte, true, true, NULL, false },
	{ "poll(0)", p_poll0, NULL, NULL, true, true, NULL, false },
	{ "ppoll(0)", p_ppoll0, NULL, NULL, true, true, NULL, false },
	{ "select(0)", p_select0, NULL, NULL, true, true, NULL, false },
	{ "pselect(0)", p_pselect0, NULL, NULL, true, true, NULL, false },
	{ "epoll_wait(0)", p_epoll_wait, s_byte, c_byte, true, true, NULL, false },
	{ "epoll_pwait(0)", p_epoll_pwait, s_byte, c_byte, true, true, NULL, false },
	{ "epoll_pwait2(0)", p_epoll_pwait2, s_byte, c_byte, true, true, &no_pwait2, false },
	{ "recv", p_recv, s_sock, c_sock, true, true, NULL, false },
	{ "accept", p_accept, s_conn, c_conn, true, true, NULL, false },
	{ "accept4", p_accept4, s_conn, c_conn, true, true, NULL, false },
	{ "nanosleep(0)", p_nanosleep0, NULL, NULL, true, true, NULL, false },
	{ "clock_nanosleep(0)", p_clock_nanosleep0, NULL, NULL, true, true, NULL, false },
	{ "clock_nanosleep(past)", p_clock_nanosleep_abs, NULL, NULL, true, true, NULL, false },
	{ "sleep(0)", p_sleep0, NULL, NULL, true, true, NULL, false },
	{ "usleep(0)", p_usleep0, NULL, NULL, true, true, NULL, false },
	{ "thrd_sleep(0)", p_thrd_sleep0, NULL, NULL, true, true, NULL, false },
	{ "sigwait", p_sigwait, NULL, NULL, true, true, NULL, false },
	{ "sigwaitinfo", p_sigwaitinfo, NULL, NULL, true, true, NULL, false },
	{ "sigtimedwait(0)", p_sigtimedwait0, NULL, NULL, true, true, NULL, false },
	{ "waitpid", p_waitpid, s_zombie, c_zombie, true, true, NULL, false },
	{ "waitid", p_waitid, s_zombie, c_zombie, true, true, NULL, false },
	{ "fcntl(F_SETLKW)", p_fcntl, NULL, NULL, true, true, NULL, false },
	{ "lockf(F_LOCK)", p_lockf, NULL, NULL, true, true, NULL, false },
	{ "open", p_open, NULL, NULL, true, true, NULL, false },
	{ "openat", p_openat, NULL, NULL, true, true, NULL, false },
	{ "msgrcv", p_msgrcv, s_msg, c_msg, true, true, &no_msg, false },
	{ "mq_receive", p_mq_receive, s_mq, c_mq, true, true, &no_mq, false },
	{ "pthread_testcancel", p_testcancel, NULL, NULL, true, true, NULL, false },
};

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
	return (void *)7;
}

static void run(struct point *p)
{
	pthread_t t;
	void *res = NULL;
	returned = cleaned = stage = 0;
	mutex_kind = 0;
	unlock_in_cleanup = -1;
	if (p->join_target)
		make_finished_target();
	if (p->setup)
		p->setup();
	CHECK0(pthread_create(&t, NULL, pending_thread, p));
	while (stage != 1)
		usleep(1000);
	CHECK0(pthread_cancel(t));
	stage = 2;
	CHECK0(pthread_join(t, &res));
	if (p->cancels) {
		if (res != PTHREAD_CANCELED || returned || !cleaned) {
			fprintf(stderr, "%s: result %p, returned %d, cleanup %d\n",
				p->name, res, returned, cleaned);
			t_failures++;
		}
		if (mutex_kind && unlock_in_cleanup != 0) {
			fprintf(stderr, "%s: mutex not held in the cleanup handler\n",
				p->name);
			t_failures++;
		}
	} else if (res != (void *)7 || !returned || cleaned) {
		fprintf(stderr, "%s: not a cancellation point, but result %p, "
			"returned %d, cleanup %d\n", p->name, res, returned, cleaned);
		t_failures++;
	}
	if (p->after)
		p->after();
}

static void setup(void)
{
	CHECK0(pipe(rd_pipe));
	CHECK0(socketpair(AF_UNIX, SOCK_STREAM, 0, sock));
	snprintf(sockpath, sizeof(sockpath), "/tmp/cancel-pending-%d.sock", getpid());
	unlink(sockpath);
	listener = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	memcpy(a.sun_path, sockpath, strlen(sockpath) + 1);
	CHECK(listener >= 0 && bind(listener, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	      listen(listener, 4) == 0);
	epfd = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN };
	CHECK(epfd >= 0 && epoll_ctl(epfd, EPOLL_CTL_ADD, rd_pipe[0], &ev) == 0);
	struct epoll_event e;
	no_pwait2 = epoll_pwait2(epfd, &e, 1, &zero_ts, NULL) < 0 && errno == ENOSYS;

	snprintf(path, sizeof(path), "/tmp/cancel-pending-%d", getpid());
	lockfd = open(path, O_RDWR | O_CREAT, 0600);
	CHECK(lockfd >= 0);

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	CHECK0(-sem_init(&sem, 0, 0));
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
	CHECK0(pthread_mutex_init(&mtx, &ma));
	CHECK0(pthread_cond_init(&cond, NULL));
	CHECK(mtx_init(&cmtx, mtx_plain) == thrd_success);
	CHECK(cnd_init(&ccond) == thrd_success);

	msqid = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	no_msg = msqid < 0;
	char mq_name[64];
	snprintf(mq_name, sizeof(mq_name), "/cancel-pending-%d", getpid());
	struct mq_attr qa = { .mq_maxmsg = 1, .mq_msgsize = 8 };
	mq = mq_open(mq_name, O_RDWR | O_CREAT | O_EXCL, 0600, &qa);
	no_mq = mq == (mqd_t)-1;
	if (!no_mq)
		mq_unlink(mq_name);
}

int main(void)
{
	setup();
	bool nptl = t_on_libnptl();
	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
		struct point *p = &points[i];
		if (p->skip && *p->skip) {
			fprintf(stderr, "%s: not available here, skipped\n", p->name);
			continue;
		}
		if (!p->glibc_acts && !nptl)
			continue;
		run(p);
	}
	/* The thread that got the pending signals is gone with them; none
	 * reached the process.  */
	sigset_t pend;
	sigpending(&pend);
	CHECK(!sigismember(&pend, SIGUSR1));

	close(lockfd);
	unlink(path);
	unlink(sockpath);
	if (msqid >= 0)
		msgctl(msqid, IPC_RMID, NULL);
	return t_done();
}
