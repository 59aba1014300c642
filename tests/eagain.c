// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Running out of resources: pthread_create says EAGAIN (POSIX: "lacked the
 * necessary resources"), never crashes, never says ENOMEM, and leaks
 * nothing.  Each case runs in a forked child so that its limits die with it.
 *
 *  - RLIMIT_AS a little above current use: threads (default stacks, then
 *    64 KiB stacks) are made until pthread_create fails; it must fail with
 *    EAGAIN, the threads made must join, and a second time as many threads
 *    (or more) can be made again.
 *  - RLIMIT_AS so tight that only a small thread fits, before the process
 *    has made any thread: the first pthread_create returns 0 or EAGAIN; the
 *    process does not die.
 *  - RLIMIT_NPROC after dropping root (root ignores it) to an otherwise
 *    unused uid (not 65534: tests/setuid may run beside us as 65534, and
 *    the limit counts every task of the real uid): EAGAIN once the limit is
 *    reached, and creation works again once threads are joined.  Also with
 *    the limit already reached at the process's first pthread_create.
 *  - A handle that has been joined: glibc answers pthread_join and
 *    pthread_detach with ESRCH (its descriptor's tid is -1 until reused;
 *    POSIX leaves it undefined), tryjoin with EBUSY; no crash.
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "t.h"

#define MAXT 8192
#define NPROC_UID 65533

static pthread_t th[MAXT];
static int rel[2];

static void *wait_release(void *arg)
{
	char c;
	while (read(rel[0], &c, 1) < 0 && errno == EINTR)
		;
	return arg;
}

static void *ret_arg(void *arg)
{
	return arg;
}

static long status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	size_t len = strlen(key);
	long kb = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, len) == 0 && line[len] == ':') {
			kb = atol(line + len + 1);
			break;
		}
	fclose(f);
	return kb;
}

/* Make threads blocked on the release pipe until pthread_create fails.
 * Returns how many were made; *err: the failure.  */
static int fill(const pthread_attr_t *a, int *err)
{
	int n = 0;
	if (pipe(rel) != 0)
		FATAL("pipe: %s", strerror(errno));
	*err = 0;
	while (n < MAXT) {
		int r = pthread_create(&th[n], a, wait_release, (void *)(intptr_t)n);
		if (r) {
			*err = r;
			break;
		}
		n++;
	}
	return n;
}

/* Release and join the n threads fill() made.  */
static void drain(int n)
{
	close(rel[1]);
	for (int i = 0; i < n; i++) {
		void *ret = NULL;
		CHECK0(pthread_join(th[i], &ret));
		CHECK(ret == (void *)(intptr_t)i);
	}
	close(rel[0]);
}

static int run_child(int (*fn)(long), long arg, const char *what)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		FATAL("fork: %s", strerror(errno));
	if (pid == 0) {
		t_failures = 0;   /* the parent's count is not ours */
		alarm(60);
		_exit(fn(arg));
	}
	int st;
	if (waitpid(pid, &st, 0) != pid)
		FATAL("waitpid: %s", strerror(errno));
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "%s: child killed by signal %d (%s)\n", what,
			WTERMSIG(st), strsignal(WTERMSIG(st)));
		return 1;
	}
	if (WEXITSTATUS(st) == 77)
		printf("%s: skipped\n", what);
	else if (WEXITSTATUS(st) != 0)
		fprintf(stderr, "%s: child failed (exit %d)\n", what, WEXITSTATUS(st));
	return WEXITSTATUS(st) == 77 ? 0 : WEXITSTATUS(st) != 0;
}

/* arg: stack size (0: default).  */
static int as_child(long stack)
{
	pthread_attr_t attr, *a = NULL;
	if (stack) {
		CHECK0(pthread_attr_init(&attr));
		CHECK0(pthread_attr_setstacksize(&attr, (size_t)stack));
		a = &attr;
	}
	/* Whatever a first thread sets up once happens before we measure.  */
	pthread_t t;
	CHECK0(pthread_create(&t, a, ret_arg, NULL));
	CHECK0(pthread_join(t, NULL));

	long vm = status_kb("VmSize");
	long room = stack ? 16L << 20 : 100L << 20;
	struct rlimit rl = { (rlim_t)(vm * 1024 + room), (rlim_t)(vm * 1024 + room) };
	if (vm <= 0 || setrlimit(RLIMIT_AS, &rl) != 0)
		FATAL("VmSize %ld kB, setrlimit: %s", vm, strerror(errno));

	int err1, err2, err3;
	int n1 = fill(a, &err1);
	drain(n1);
	int n2 = fill(a, &err2);
	drain(n2);
	int n3 = fill(a, &err3);
	drain(n3);
	printf("RLIMIT_AS = VmSize + %ld MiB, stack %s: %d, %d, %d threads, then %s\n",
	       room >> 20, stack ? "64 KiB" : "default", n1, n2, n3,
	       strerror(err1));
	CHECK_ERR(err1, EAGAIN);
	CHECK_ERR(err2, EAGAIN);
	CHECK_ERR(err3, EAGAIN);
	CHECK(n1 >= 2);
	CHECK(n1 < MAXT);
	CHECK(n2 >= n1);
	CHECK(n3 >= n1);
	return t_done();
}

/* No thread made yet; room for a small thread only.  */
static int as_first_child(long unused)
{
	(void)unused;
	pthread_attr_t attr;
	CHECK0(pthread_attr_init(&attr));
	CHECK0(pthread_attr_setstacksize(&attr, 64 << 10));
	long vm = status_kb("VmSize");
	rlim_t lim = (rlim_t)(vm * 1024 + (2L << 20));
	struct rlimit rl = { lim, lim };
	if (vm <= 0 || setrlimit(RLIMIT_AS, &rl) != 0)
		FATAL("VmSize %ld kB, setrlimit: %s", vm, strerror(errno));
	pthread_t t;
	int r = pthread_create(&t, &attr, ret_arg, (void *)1);
	printf("RLIMIT_AS = VmSize + 2 MiB, first thread (64 KiB stack): %s\n",
	       r ? strerror(r) : "made");
	CHECK(r == 0 || r == EAGAIN);
	if (r == 0) {
		void *ret;
		CHECK0(pthread_join(t, &ret));
		CHECK(ret == (void *)1);
	}
	return t_done();
}

/* Tasks (threads) whose real uid is `uid`, system-wide.  */
static int tasks_of(uid_t uid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[300], line[256];
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", de->d_name);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		long u = -1, threads = 0;
		while (fgets(line, sizeof(line), f)) {
			sscanf(line, "Uid: %ld", &u);
			sscanf(line, "Threads: %ld", &threads);
		}
		fclose(f);
		if (u == (long)uid)
			n += (int)threads;
	}
	closedir(d);
	return n;
}

/* arg: how many threads the limit leaves room for.  */
static int nproc_child(long room)
{
	if (geteuid() != 0)
		return 77;
	int others = tasks_of(NPROC_UID);
	if (others < 0)
		FATAL("cannot read /proc");
	rlim_t lim = (rlim_t)(others + 1 + room);
	struct rlimit rl = { lim, lim };
	if (setrlimit(RLIMIT_NPROC, &rl) != 0)
		FATAL("setrlimit(RLIMIT_NPROC): %s", strerror(errno));
	if (setresgid(NPROC_UID, NPROC_UID, NPROC_UID) != 0 ||
	    setresuid(NPROC_UID, NPROC_UID, NPROC_UID) != 0)
		FATAL("setresuid(%d): %s", NPROC_UID, strerror(errno));
	if (room == 0) {
		/* At the limit before the first thread.  */
		pthread_t t;
		int r = pthread_create(&t, NULL, ret_arg, NULL);
		printf("RLIMIT_NPROC reached before the first thread: %s\n",
		       r ? strerror(r) : "made");
		CHECK_ERR(r, EAGAIN);
		if (r == 0)
			pthread_join(t, NULL);
		return t_done();
	}
	int err;
	int n = fill(NULL, &err);
	drain(n);
	printf("RLIMIT_NPROC = %ld + %d other task(s) of uid %d: %d threads, then %s\n",
	       room + 1, others, NPROC_UID, n, strerror(err));
	CHECK_ERR(err, EAGAIN);
	CHECK(n >= 1 && n <= room);
	/* Joined threads give their slots back (the kernel may count a
	 * joined thread for a moment longer).  */
	int r = EAGAIN;
	for (int i = 0; i < 1000 && r == EAGAIN; i++) {
		pthread_t t;
		r = pthread_create(&t, NULL, ret_arg, NULL);
		if (r == 0)
			CHECK0(pthread_join(t, NULL));
		else
			usleep(1000);
	}
	CHECK0(r);
	return t_done();
}

static void joined_handle(void)
{
	pthread_t t;
	void *ret = NULL;
	CHECK0(pthread_create(&t, NULL, ret_arg, (void *)7));
	CHECK0(pthread_join(t, &ret));
	CHECK(ret == (void *)7);
	/* No thread is made in between: the handle is not reused.  */
	CHECK_ERR(pthread_join(t, NULL), ESRCH);
	CHECK_ERR(pthread_detach(t), ESRCH);
	int r = pthread_tryjoin_np(t, NULL);
	CHECK(r == EBUSY || r == ESRCH);
	CHECK_ERR(pthread_join(t, NULL), ESRCH);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	t_failures += run_child(as_child, 0, "RLIMIT_AS, default stacks");
	t_failures += run_child(as_child, 64 << 10, "RLIMIT_AS, 64 KiB stacks");
	t_failures += run_child(as_first_child, 0, "RLIMIT_AS, first thread");
	if (geteuid() == 0) {
		t_failures += run_child(nproc_child, 6, "RLIMIT_NPROC");
		t_failures += run_child(nproc_child, 0, "RLIMIT_NPROC, first thread");
	} else {
		printf("RLIMIT_NPROC: not root, skipped (root ignores the limit)\n");
	}
	joined_handle();
	return t_done();
}
