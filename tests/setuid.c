// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * setuid() and friends change the credentials of every thread of the
 * process (POSIX; glibc broadcasts the change with its SIGSETXID).  A thread
 * left with root after setuid(65534) is a security hole, so this is strict:
 *
 * Each round runs in a freshly forked root child (alarm() is the watchdog
 * against a hang).  4 threads create short-lived threads in a loop and join
 * or detach them, 6 threads sit blocked (read on a pipe, a condition
 * variable, sigwait), and the main thread toggles seteuid 0 <-> 65534 many
 * times, then drops everything with setresgid/setresuid(65534).
 *   - Every running thread checks its own credentials (getresuid/getresgid
 *     are plain system calls, so they read the calling task's own
 *     credentials) against what the main thread published, seqlock style:
 *     a thread that observed "the change has returned" before reading its
 *     credentials must see the new ones.
 *   - Right after the drop, while threads are still being made, every
 *     task in /proc/self/task must show 65534 everywhere; a task showing
 *     something else is excused only if it vanishes soon (a thread past its
 *     last instruction of user code, which glibc's broadcast skips).
 *   - After the churn stops and the task list has settled, every task left
 *     (main + the blocked threads) must show Uid and Gid 65534 four times,
 *     without excuse; then the blocked threads wake and check themselves.
 *
 * argv[1]: rounds (default 40), argv[2]: seteuid toggles per round (200).
 * Needs root (skips with 77 otherwise).
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "t.h"

#define NOBODY 65534
#define CHURNERS 4
#define PIPE_WAITERS 2
#define COND_WAITERS 2
#define SIG_WAITERS 2
#define BLOCKED (PIPE_WAITERS + COND_WAITERS + SIG_WAITERS)

/* Published by the main thread.  seq odd: a change is in progress.
 * want_euid: what every thread's effective uid is while seq is even.  */
static unsigned seq;
static uid_t want_euid;
static int dropped;              /* setresuid(65534) has returned */
static int stop_churn;
static int bad;                  /* failures seen by threads */
static char bad_msg[256];
static long checks;              /* self-checks done by threads */

static int wake_pipe[2];
static pthread_mutex_t mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int cv_go;

static void fail(const char *fmt, long a, long b, long c)
{
	if (__atomic_fetch_add(&bad, 1, __ATOMIC_SEQ_CST) == 0)
		snprintf(bad_msg, sizeof(bad_msg), fmt, a, b, c);
}

/* The calling task's own credentials.  */
static void own_creds(uid_t u[3], gid_t g[3])
{
	syscall(SYS_getresuid, &u[0], &u[1], &u[2]);
	syscall(SYS_getresgid, &g[0], &g[1], &g[2]);
}

static void self_check(void)
{
	uid_t u[3];
	gid_t g[3];
	if (__atomic_load_n(&dropped, __ATOMIC_SEQ_CST)) {
		own_creds(u, g);
		if (u[0] != NOBODY || u[1] != NOBODY || u[2] != NOBODY ||
		    g[0] != NOBODY || g[1] != NOBODY || g[2] != NOBODY)
			fail("thread %ld kept uid %ld gid %ld after setresuid/setresgid(65534)",
			     syscall(SYS_gettid), (long)u[0], (long)g[0]);
		__atomic_fetch_add(&checks, 1, __ATOMIC_RELAXED);
		return;
	}
	unsigned s1 = __atomic_load_n(&seq, __ATOMIC_SEQ_CST);
	if (s1 & 1)
		return;
	uid_t want = __atomic_load_n(&want_euid, __ATOMIC_SEQ_CST);
	own_creds(u, g);
	if (__atomic_load_n(&seq, __ATOMIC_SEQ_CST) != s1)
		return;
	if (u[1] != want)
		fail("thread %ld has euid %ld, want %ld after seteuid returned",
		     syscall(SYS_gettid), (long)u[1], (long)want);
	__atomic_fetch_add(&checks, 1, __ATOMIC_RELAXED);
}

static void *short_lived(void *arg)
{
	self_check();
	return arg;
}

static void *churner(void *arg)
{
	unsigned long n = 0;
	(void)arg;
	while (!__atomic_load_n(&stop_churn, __ATOMIC_ACQUIRE)) {
		pthread_t t;
		int r = pthread_create(&t, NULL, short_lived, NULL);
		if (r == EAGAIN)
			continue;
		if (r) {
			fail("pthread_create: %ld", r, 0, 0);
			break;
		}
		if (n++ & 1) {
			r = pthread_detach(t);
			if (r)
				fail("pthread_detach: %ld", r, 0, 0);
		} else {
			r = pthread_join(t, NULL);
			if (r)
				fail("pthread_join: %ld", r, 0, 0);
		}
		self_check();
	}
	return (void *)n;
}

static void *pipe_waiter(void *arg)
{
	char c;
	(void)arg;
	while (read(wake_pipe[0], &c, 1) < 0 && errno == EINTR)
		;
	self_check();
	return NULL;
}

static void *cond_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mx);
	while (!cv_go)
		pthread_cond_wait(&cv, &mx);
	pthread_mutex_unlock(&mx);
	self_check();
	return NULL;
}

static void *sig_waiter(void *arg)
{
	sigset_t s;
	int sig;
	(void)arg;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigwait(&s, &sig);
	self_check();
	return NULL;
}

static int count_tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	struct dirent *de;
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Reads Uid/Gid of /proc/self/task/<tid>/status.  0: read, -1: gone.  */
static int task_creds(const char *tid, long u[4], long g[4])
{
	char path[300], line[256];
	snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
	FILE *f = fopen(path, "re");
	int got = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %ld %ld %ld %ld", &u[0], &u[1], &u[2], &u[3]) == 4)
			got |= 1;
		else if (sscanf(line, "Gid: %ld %ld %ld %ld", &g[0], &g[1], &g[2], &g[3]) == 4)
			got |= 2;
	}
	fclose(f);
	return got == 3 ? 0 : -1;
}

static int all_nobody(const long u[4], const long g[4])
{
	for (int i = 0; i < 4; i++)
		if (u[i] != NOBODY || g[i] != NOBODY)
			return 0;
	return 1;
}

static int task_gone(const char *tid)
{
	char path[300];
	snprintf(path, sizeof(path), "/proc/self/task/%s", tid);
	return access(path, F_OK) != 0;
}

/* Every task shows 65534 everywhere.  excuse_vanishing: a task that does
 * not is excused if it is gone within 2 s.  Returns the number of bad
 * tasks, printing each.  */
static int scan_tasks(int excuse_vanishing, int *ntasks)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int nbad = 0;
	*ntasks = 0;
	if (!d) {
		fprintf(stderr, "opendir /proc/self/task: %s\n", strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		long u[4], g[4];
		if (de->d_name[0] == '.')
			continue;
		if (task_creds(de->d_name, u, g) != 0)
			continue;   /* gone meanwhile */
		++*ntasks;
		if (all_nobody(u, g))
			continue;
		if (excuse_vanishing) {
			int gone = 0;
			for (int i = 0; i < 2000 && !gone; i++) {
				gone = task_gone(de->d_name);
				if (!gone)
					usleep(1000);
			}
			if (gone)
				continue;
			/* still there: read it again, it may have been
			 * changed late (still a failure: setresuid had
			 * returned) */
		}
		fprintf(stderr, "task %s: Uid %ld %ld %ld %ld Gid %ld %ld %ld %ld "
			"after setresgid/setresuid(65534) returned\n", de->d_name,
			u[0], u[1], u[2], u[3], g[0], g[1], g[2], g[3]);
		nbad++;
	}
	closedir(d);
	return nbad;
}

static int round_child(int toggles)
{
	pthread_t churn[CHURNERS], blocked[BLOCKED];
	int nb = 0;
	sigset_t s;

	alarm(60);
	/* SIGUSR1 stays blocked everywhere: the sigwait threads take it.  */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	CHECK0(pthread_sigmask(SIG_BLOCK, &s, NULL));
	if (pipe(wake_pipe) != 0)
		FATAL("pipe: %s", strerror(errno));
	want_euid = 0;

	for (int i = 0; i < PIPE_WAITERS; i++)
		CHECK0(pthread_create(&blocked[nb++], NULL, pipe_waiter, NULL));
	for (int i = 0; i < COND_WAITERS; i++)
		CHECK0(pthread_create(&blocked[nb++], NULL, cond_waiter, NULL));
	for (int i = 0; i < SIG_WAITERS; i++)
		CHECK0(pthread_create(&blocked[nb++], NULL, sig_waiter, NULL));
	for (int i = 0; i < CHURNERS; i++)
		CHECK0(pthread_create(&churn[i], NULL, churner, NULL));
	if (t_failures)
		return 1;

	/* Hammer the broadcast.  */
	for (int i = 0; i < toggles; i++) {
		uid_t to = (i & 1) ? 0 : NOBODY;
		__atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);   /* odd */
		if (seteuid(to) != 0) {
			fprintf(stderr, "seteuid(%d): %s\n", (int)to, strerror(errno));
			return 1;
		}
		__atomic_store_n(&want_euid, to, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);   /* even */
		uid_t u[3];
		gid_t g[3];
		own_creds(u, g);
		CHECK(u[1] == to);
	}
	__atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);
	if (seteuid(0) != 0) {
		fprintf(stderr, "seteuid(0): %s\n", strerror(errno));
		return 1;
	}

	/* The drop, with threads being made all around.  */
	if (setresgid(NOBODY, NOBODY, NOBODY) != 0 ||
	    setresuid(NOBODY, NOBODY, NOBODY) != 0) {
		fprintf(stderr, "setresgid/setresuid: %s\n", strerror(errno));
		return 1;
	}
	__atomic_store_n(&dropped, 1, __ATOMIC_SEQ_CST);
	int ntasks;
	int nbad = scan_tasks(1, &ntasks);
	CHECK(nbad == 0);
	CHECK(ntasks >= 1 + BLOCKED + CHURNERS);
	usleep(20000);   /* more threads made after the drop */

	__atomic_store_n(&stop_churn, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < CHURNERS; i++) {
		void *n = NULL;
		CHECK0(pthread_join(churn[i], &n));
		CHECK((uintptr_t)n > 0);
	}
	/* Detached threads may still be on their way out.  */
	int settled = 0;
	for (int i = 0; i < 5000 && !settled; i++) {
		settled = count_tasks() == 1 + BLOCKED;
		if (!settled)
			usleep(1000);
	}
	CHECK(settled);
	nbad = scan_tasks(0, &ntasks);
	CHECK(nbad == 0);
	CHECK(ntasks == 1 + BLOCKED);

	/* Wake the blocked threads: they check themselves.  */
	if (write(wake_pipe[1], "xx", 2) != 2)
		FATAL("write: %s", strerror(errno));
	pthread_mutex_lock(&mx);
	cv_go = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mx);
	for (int i = 0; i < nb; i++) {
		if (i >= PIPE_WAITERS + COND_WAITERS)
			CHECK0(pthread_kill(blocked[i], SIGUSR1));
		CHECK0(pthread_join(blocked[i], NULL));
	}
	uid_t u[3];
	gid_t g[3];
	own_creds(u, g);
	CHECK(u[0] == NOBODY && u[1] == NOBODY && u[2] == NOBODY);
	CHECK(g[0] == NOBODY && g[1] == NOBODY && g[2] == NOBODY);
	/* No way back.  */
	CHECK(setuid(0) != 0);

	if (bad) {
		fprintf(stderr, "%d thread failure(s); first: %s\n", bad, bad_msg);
		t_failures++;
	}
	CHECK(checks > BLOCKED);
	return t_done();
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	int toggles = argc > 2 ? atoi(argv[2]) : 200;

	if (geteuid() != 0)
		SKIP("setuid needs root");
	for (int r = 0; r < rounds; r++) {
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0)
			FATAL("fork: %s", strerror(errno));
		if (pid == 0)
			_exit(round_child(toggles));
		int st;
		if (waitpid(pid, &st, 0) != pid)
			FATAL("waitpid: %s", strerror(errno));
		if (WIFSIGNALED(st)) {
			fprintf(stderr, "round %d: child killed by signal %d%s\n", r,
				WTERMSIG(st), WTERMSIG(st) == SIGALRM ? " (hang)" : "");
			t_failures++;
			break;
		}
		if (WEXITSTATUS(st) != 0) {
			fprintf(stderr, "round %d: child failed (exit %d)\n", r,
				WEXITSTATUS(st));
			t_failures++;
			break;
		}
	}
	if (!t_failures)
		printf("%d rounds of %d seteuid toggles and a setresuid(65534) "
		       "beside thread churn: every thread changed\n", rounds, toggles);
	/* The parent never made a thread: its own credentials are untouched.  */
	CHECK(geteuid() == 0);
	return t_done();
}
