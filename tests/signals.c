// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * POSIX process signal semantics with threads: pthread_kill targets one
 * thread, a process-directed signal is handled by exactly one thread that
 * has it unblocked, masks are per thread, sigwait takes a process signal,
 * SIGSTOP/SIGCONT stop and continue every thread, glibc's internal signals
 * can never be blocked, and pthread_kill of an exited thread follows each
 * symbol version (0 today, ESRCH for the LinuxThreads-era binding).
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

extern int old_pthread_kill(pthread_t, int);
__asm__(".symver old_pthread_kill, pthread_kill@GLIBC_2.2.5");

static volatile pid_t handled_by;
static volatile int handled, queued_value, queued_code;

static void on_usr1(int sig)
{
	(void)sig;
	handled_by = (pid_t)syscall(SYS_gettid);
	__atomic_fetch_add(&handled, 1, __ATOMIC_SEQ_CST);
}

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	queued_value = si->si_value.sival_int;
	queued_code = si->si_code;
}

static pid_t tids[8];
static volatile int stop;

static void *spin_tid(void *arg)
{
	tids[(intptr_t)arg] = (pid_t)syscall(SYS_gettid);
	while (!stop)
		usleep(1000);
	return NULL;
}

static void *quick(void *arg)
{
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	return NULL;
}

static int task_exists(pid_t tid)
{
	char p[64];
	snprintf(p, sizeof(p), "/proc/self/task/%d", (int)tid);
	return access(p, F_OK) == 0;
}

static void *waiter(void *arg)
{
	sigset_t s;
	int sig = 0;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	sigwait(&s, &sig);
	*(int *)arg = sig;
	return NULL;
}

static volatile unsigned long *ctr;

static void *count(void *arg)
{
	for (;;)
		ctr[(intptr_t)arg]++;
	return NULL;
}

static unsigned long sum(int n)
{
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s += ctr[i];
	return s;
}

static int all_stopped(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0, stopped = 0;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char sp[400];
		snprintf(sp, sizeof(sp), "%s/%s/stat", path, e->d_name);
		char st = t_proc_state(sp);
		if (!st)
			continue;
		n++;
		if (st == 'T' || st == 't')
			stopped++;
	}
	if (d)
		closedir(d);
	return n == 4 && stopped == n;
}

/* SIGSTOP stops the whole process, SIGCONT continues every thread.  */
static void stop_cont(void)
{
	ctr = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		   -1, 0);
	CHECK(ctr != MAP_FAILED);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t t;
		for (intptr_t i = 1; i < 4; i++)
			pthread_create(&t, NULL, count, (void *)i);
		count((void *)0);
	}
	for (int i = 0; i < 1000 && !(ctr[0] && ctr[1] && ctr[2] && ctr[3]); i++)
		usleep(1000);
	CHECK(ctr[0] && ctr[1] && ctr[2] && ctr[3]);
	kill(pid, SIGSTOP);
	int ok = 0;
	for (int i = 0; i < 2000 && !(ok = all_stopped(pid)); i++)
		usleep(1000);
	CHECK(ok);
	unsigned long s1 = sum(4);
	usleep(50000);
	CHECK(sum(4) == s1);
	unsigned long before[4];
	for (int i = 0; i < 4; i++)
		before[i] = ctr[i];
	kill(pid, SIGCONT);
	usleep(50000);
	for (int i = 0; i < 4; i++)
		CHECK(ctr[i] > before[i]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int main(void)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_sigaction = on_rt;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGRTMIN + 1, &sa, NULL);
	sigset_t w;
	sigemptyset(&w);
	sigaddset(&w, SIGUSR2);
	CHECK0(pthread_sigmask(SIG_BLOCK, &w, NULL));

	pthread_t t[4];
	for (intptr_t i = 0; i < 4; i++)
		CHECK0(pthread_create(&t[i], NULL, spin_tid, (void *)i));
	while (!tids[0] || !tids[1] || !tids[2] || !tids[3])
		usleep(1000);

	/* pthread_kill reaches the thread named, and only it.  */
	for (int i = 0; i < 4; i++) {
		int before = handled;
		CHECK0(pthread_kill(t[i], SIGUSR1));
		while (handled == before)
			usleep(100);
		CHECK(handled_by == tids[i]);
	}
	CHECK0(pthread_kill(t[0], 0));
	CHECK_ERR(pthread_kill(t[0], 32), EINVAL);
	CHECK_ERR(pthread_kill(t[0], 33), EINVAL);
	CHECK_ERR(pthread_kill(t[0], 65), EINVAL);
	CHECK_ERR(pthread_kill(t[0], -1), EINVAL);

	/* pthread_sigqueue carries its value.  */
	union sigval v = { .sival_int = 4242 };
	CHECK0(pthread_sigqueue(t[1], SIGRTMIN + 1, v));
	for (int i = 0; i < 1000 && queued_value != 4242; i++)
		usleep(1000);
	CHECK(queued_value == 4242 && queued_code == SI_QUEUE);
	CHECK_ERR(pthread_sigqueue(t[1], 32, v), EINVAL);
	CHECK_ERR(pthread_sigqueue(t[1], 33, v), EINVAL);

	/* A process-directed signal is handled once, by a thread that has it
	 * unblocked: block it everywhere but in thread 2.  */
	sigset_t u;
	sigemptyset(&u);
	sigaddset(&u, SIGUSR1);
	CHECK0(pthread_sigmask(SIG_BLOCK, &u, NULL));
	stop = 1;
	for (int i = 0; i < 4; i++)
		CHECK0(pthread_join(t[i], NULL));
	stop = 0;
	memset(tids, 0, sizeof(tids));
	for (intptr_t i = 0; i < 4; i++) {
		if (i == 2)
			CHECK0(pthread_sigmask(SIG_UNBLOCK, &u, NULL));
		CHECK0(pthread_create(&t[i], NULL, spin_tid, (void *)i));
		if (i == 2)
			CHECK0(pthread_sigmask(SIG_BLOCK, &u, NULL));
	}
	while (!tids[0] || !tids[1] || !tids[2] || !tids[3])
		usleep(1000);
	for (int k = 0; k < 20; k++) {
		int before = handled;
		kill(getpid(), SIGUSR1);
		for (int i = 0; i < 2000 && handled == before; i++)
			usleep(500);
		CHECK(handled == before + 1);
		CHECK(handled_by == tids[2]);
	}

	/* sigwait takes a signal sent to the process (SIGUSR2 is blocked in
	 * every thread from the start).  */
	int got = 0;
	pthread_t wt;
	CHECK0(pthread_create(&wt, NULL, waiter, &got));
	usleep(20000);
	kill(getpid(), SIGUSR2);
	CHECK0(pthread_join(wt, NULL));
	CHECK(got == SIGUSR2);

	stop = 1;
	for (int i = 0; i < 4; i++)
		CHECK0(pthread_join(t[i], NULL));

	/* glibc's internal signals stay deliverable whatever is blocked.  */
	sigset_t all, cur;
	sigfillset(&all);
	CHECK0(pthread_sigmask(SIG_BLOCK, &all, NULL));
	unsigned long raw[2] = { 0, 0 };
	CHECK(syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, raw, 8) == 0);
	CHECK(!(raw[0] & (1UL << 31)) && !(raw[0] & (1UL << 32)));
	CHECK(raw[0] & (1UL << (SIGUSR1 - 1)));
	sigemptyset(&cur);
	CHECK0(pthread_sigmask(SIG_SETMASK, &cur, NULL));
	CHECK_ERR(pthread_sigmask(12345, &cur, NULL), EINVAL);

	/* An exited, unjoined thread: 0 from the current pthread_kill,
	 * ESRCH from the LinuxThreads-era binding; never a signal.  */
	pid_t qt = 0;
	pthread_t q;
	CHECK0(pthread_create(&q, NULL, quick, &qt));
	while (!qt || task_exists(qt))
		usleep(1000);
	CHECK0(pthread_kill(q, SIGUSR1));
	CHECK_ERR(old_pthread_kill(q, SIGUSR1), ESRCH);
	CHECK0(pthread_join(q, NULL));

	stop_cont();
	return t_done();
}
