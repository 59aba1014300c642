// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * nptl_create_error(3nptl): a failed pthread_create names the limit that
 * refused it, with its numbers, per thread, and NPTL_VERBOSE=1 prints the
 * same sentence on stderr (without it, nothing).  One case per limit that
 * a test can set up for itself, each in a forked child so that its limits
 * die with it:
 *
 *  - RLIMIT_AS (unprivileged): threads with 1 MiB stacks until EAGAIN.
 *  - RLIMIT_NPROC: as root, the child drops to uid 65532 after setrlimit
 *    (the kernel lets root past the limit; 65532 because tests/eagain
 *    uses 65533 and tests/setuid 65534, and the limit counts every task of
 *    the uid), and the count is exact; otherwise the limit is our own
 *    uid's tasks + 4, and other processes of ours may come and go, so
 *    "RLIMIT_NPROC, probably" is accepted too.
 *  - cgroup pids.max, built as its own program, tests/create-error-cgroup
 *    (root, a writable pids hierarchy: v1's "pids", or v2 with pids
 *    already enabled for our cgroup's children): a child cgroup with
 *    pids.max 4; SKIP (77) with the reason otherwise.  Nothing global
 *    changes: the cgroup is ours and removed afterwards.
 *  - RLIMIT_MEMLOCK with mlockall(MCL_FUTURE) (unprivileged; root drops to
 *    uid 65532, as CAP_IPC_LOCK ignores the limit): refused first in
 *    glibc's making of libnptl's start-up thread, then in libnptl's mmap.
 *  - vm.overcommit_memory=0 (when it is 0): a stack of twice memory and
 *    swap, which the heuristic refuses at once (nothing is touched).
 *  - vm.max_map_count (unprivileged): the child fills its own map count
 *    with one-page mappings instead of lowering the global sysctl;
 *    skipped when the sysctl is so large (> 262144) that filling it would
 *    cost the machine real memory.
 * Also: the sentence is per thread, a new thread on a cached stack of one
 * that failed has none, a success leaves it, thrd_create names itself,
 * the copy is cut short like snprintf's, and errno is left alone.
 *
 * kernel.threads-max and kernel.pid_max are the whole machine's, and a
 * test must not lower them: tests/create-reason covers their sentences.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <threads.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <dirent.h>
#include "t.h"

int nptl_create_error(char *buf, size_t size);

#define MAXT 4096
#define NPROC_UID 65532

static pthread_t th[MAXT];
static int rel[2];
/* Whether the failure comes from clone(2), after which libnptl calls
 * nothing that may set errno (a failed mapping may fail inside malloc).  */
static bool check_errno;

static void *wait_release(void *arg)
{
	char c;
	while (read(rel[0], &c, 1) < 0 && errno == EINTR)
		;
	return arg;
}

static int wait_release_c11(void *arg)
{
	(void)arg;
	return 0;
}

static void *ret_arg(void *arg)
{
	return arg;
}

/* Threads blocked on the release pipe until pthread_create fails.  */
static int fill(const pthread_attr_t *a, int *err)
{
	int n = 0;
	if (pipe(rel) != 0)
		FATAL("pipe: %s", strerror(errno));
	*err = 0;
	while (n < MAXT) {
		errno = EDOM;
		int r = pthread_create(&th[n], a, wait_release, NULL);
		if (r) {
			*err = r;
			/* The failure path leaves errno alone.  */
			CHECK(!check_errno || errno == EDOM);
			break;
		}
		n++;
	}
	return n;
}

static void drain(int n)
{
	close(rel[1]);
	for (int i = 0; i < n; i++)
		CHECK0(pthread_join(th[i], NULL));
	close(rel[0]);
}

static long status_kb_of(const char *path, const char *key)
{
	FILE *f = fopen(path, "re");
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

static long status_kb(const char *key)
{
	return status_kb_of("/proc/self/status", key);
}

/* The sentence must start with want (the numbers that follow are the
 * kernel's at the time).  */
static void check_prefix(const char *got, const char *want)
{
	if (strncmp(got, want, strlen(want)) != 0) {
		fprintf(stderr, "reason \"%s\"\n  want \"%s...\"\n", got, want);
		t_failures++;
	}
}

static int run_child(int (*fn)(void), const char *what)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		FATAL("fork: %s", strerror(errno));
	if (pid == 0) {
		t_failures = 0;
		alarm(120);
		_exit(fn());
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

/* ---- RLIMIT_AS -------------------------------------------------------- */

static char other_thread_saw[64];
static int other_thread_len = -1;

static void *read_own_error(void *arg)
{
	(void)arg;
	other_thread_len = nptl_create_error(other_thread_saw, sizeof(other_thread_saw));
	return NULL;
}

static char failed_saw[256];

/* A stack larger than RLIMIT_AS leaves room for.  */
static void *fail_and_exit(void *arg)
{
	pthread_attr_t attr;
	pthread_t t;
	CHECK0(pthread_attr_init(&attr));
	CHECK0(pthread_attr_setstacksize(&attr, (size_t)1 << 40));
	int r = pthread_create(&t, &attr, ret_arg, NULL);
	CHECK_ERR(r, EAGAIN);
	if (r == 0)
		pthread_join(t, NULL);
	nptl_create_error(failed_saw, sizeof(failed_saw));
	CHECK0(pthread_attr_destroy(&attr));
	return arg;
}

/* Fill RLIMIT_AS = VmSize + 24 MiB with 1 MiB stacks; *reason gets the
 * sentence.  Returns the limit in KiB.  */
static long as_fill(char *reason, size_t size, int *made)
{
	pthread_attr_t attr;
	CHECK0(pthread_attr_init(&attr));
	CHECK0(pthread_attr_setstacksize(&attr, 1 << 20));
	pthread_t t;
	CHECK0(pthread_create(&t, &attr, ret_arg, NULL));
	CHECK0(pthread_join(t, NULL));
	long vm = status_kb("VmSize");
	long lim = vm + (24 << 10);
	struct rlimit rl = { (rlim_t)lim * 1024, (rlim_t)lim * 1024 };
	if (vm <= 0 || setrlimit(RLIMIT_AS, &rl) != 0)
		FATAL("VmSize %ld kB, setrlimit: %s", vm, strerror(errno));
	int err;
	*made = fill(&attr, &err);
	CHECK_ERR(err, EAGAIN);
	int n = nptl_create_error(reason, size);
	CHECK(n > 0 && (size_t)n == strlen(reason));
	drain(*made);
	CHECK0(pthread_attr_destroy(&attr));
	return lim;
}

static int as_child(void)
{
	char reason[256], want[128], small[11];
	int made;
	long lim = as_fill(reason, sizeof(reason), &made);
	printf("RLIMIT_AS = VmSize + 24 MiB, 1 MiB stacks: %d threads, then \"%s\"\n",
	       made, reason);
	snprintf(want, sizeof(want), "pthread_create: EAGAIN: RLIMIT_AS reached "
		 "(limit %ld KiB, VmSize ", lim);
	check_prefix(reason, want);
	CHECK(strstr(reason, ", a new thread needs 10") != NULL);   /* 1 MiB + */

	/* Cut short like snprintf, still terminated.  */
	CHECK(nptl_create_error(small, sizeof(small)) == (int)strlen(reason));
	CHECK(strcmp(small, "pthread_cr") == 0);
	CHECK(nptl_create_error(NULL, 0) == (int)strlen(reason));

	/* Per thread: another thread has had no failure.  (Its stack is one
	 * of the cached ones: RLIMIT_AS leaves no room for another size.)  */
	pthread_attr_t attr;
	CHECK0(pthread_attr_init(&attr));
	CHECK0(pthread_attr_setstacksize(&attr, 1 << 20));
	pthread_t t;
	int r = pthread_create(&t, &attr, read_own_error, NULL);
	CHECK0(r);
	if (r == 0)
		CHECK0(pthread_join(t, NULL));
	CHECK(other_thread_len == 0 && other_thread_saw[0] == 0);

	/* The sentence lives in the thread's own TLS: a thread that failed
	 * and exited does not hand it to the next thread on its (cached)
	 * stack.  */
	CHECK0(pthread_create(&t, &attr, fail_and_exit, NULL));
	CHECK0(pthread_join(t, NULL));
	check_prefix(failed_saw, "pthread_create: EAGAIN: RLIMIT_AS reached (limit ");
	pthread_t failed = t;
	other_thread_len = -1;
	CHECK0(pthread_create(&t, &attr, read_own_error, NULL));
	CHECK0(pthread_join(t, NULL));
	CHECK(other_thread_len == 0 && other_thread_saw[0] == 0);
	printf("a thread on the stack of one that failed (%s): no sentence\n",
	       pthread_equal(t, failed) ? "the same descriptor" :
	       "another descriptor");

	/* A success leaves the last failure's sentence in place.  */
	char again[256];
	CHECK(nptl_create_error(again, sizeof(again)) > 0);
	CHECK(strcmp(again, reason) == 0);

	/* thrd_create says so under its own name.  */
	int err;
	int n = fill(&attr, &err);
	thrd_t ct;
	r = thrd_create(&ct, wait_release_c11, NULL);
	CHECK(r != thrd_success);
	if (r == thrd_success)
		thrd_join(ct, NULL);
	nptl_create_error(again, sizeof(again));
	check_prefix(again, "thrd_create: EAGAIN: RLIMIT_AS reached (limit ");
	drain(n);
	CHECK0(pthread_attr_destroy(&attr));
	return t_done();
}

/* ---- NPTL_VERBOSE ------------------------------------------------------- */

/* Re-executed as "create-error verbose-child": the RLIMIT_AS case, its
 * sentence on stdout.  */
static int verbose_child(void)
{
	char reason[256];
	int made;
	as_fill(reason, sizeof(reason), &made);
	printf("%s\n", reason);
	return t_done();
}

static void read_all(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)n;
	}
	buf[len] = 0;
}

/* Runs the verbose child with NPTL_VERBOSE set or unset; returns its pid,
 * its stdout and its stderr.  */
static pid_t run_verbose(bool verbose, char *out, char *err, size_t size)
{
	int po[2], pe[2];
	if (pipe(po) != 0 || pipe(pe) != 0)
		FATAL("pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		FATAL("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		if (verbose)
			setenv("NPTL_VERBOSE", "1", 1);
		else
			unsetenv("NPTL_VERBOSE");
		execl("/proc/self/exe", "create-error", "verbose-child", (char *)NULL);
		_exit(98);
	}
	close(po[1]);
	close(pe[1]);
	/* The child's stderr stays small (a few lines): read it after
	 * stdout ends without risk of blocking the child.  */
	read_all(po[0], out, size);
	read_all(pe[0], err, size);
	close(po[0]);
	close(pe[0]);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return pid;
}

static void verbose_cases(void)
{
	char out[1024], err[4096], want[1100];
	pid_t pid = run_verbose(true, out, err, sizeof(err));
	char *nl = strchr(out, '\n');
	CHECK(nl != NULL);
	if (nl)
		*nl = 0;
	check_prefix(out, "pthread_create: EAGAIN: RLIMIT_AS reached (limit ");
	/* One line for the failure, with the same sentence; the other
	 * verbose lines (the glibc build, the binding, the count) say other
	 * things.  */
	snprintf(want, sizeof(want), "libnptl[%d]: %s\n", (int)pid, out);
	char *hit = strstr(err, want);
	CHECK(hit != NULL);
	if (hit) {
		CHECK(strstr(err, "pthread_create:") == strchr(hit, ' ') + 1);
		CHECK(strstr(hit + strlen(want), "pthread_create:") == NULL);
	}
	if (!hit)
		fprintf(stderr, "NPTL_VERBOSE=1 stderr:\n%s\nwant the line %s", err, want);
	printf("NPTL_VERBOSE=1: %s", hit ? want : "(no line)\n");

	run_verbose(false, out, err, sizeof(err));
	check_prefix(out, "pthread_create: EAGAIN: RLIMIT_AS reached (limit ");
	CHECK(err[0] == 0);
	if (err[0])
		fprintf(stderr, "without NPTL_VERBOSE, stderr:\n%s\n", err);
	printf("without NPTL_VERBOSE: stderr %s\n", err[0] ? "not empty" : "empty");
}

/* ---- RLIMIT_NPROC ----------------------------------------------------- */

/* Whether a capability is in our effective set (/proc/self/status).  */
static bool cap_on(int cap)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long eff = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	if (f)
		fclose(f);
	return (eff >> cap) & 1;
}

/* Tasks whose real uid is uid, system-wide.  */
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

static int nproc_child(void)
{
	check_errno = true;
	bool root = geteuid() == 0;
	uid_t uid = root ? NPROC_UID : getuid();
	int others = tasks_of(uid);
	if (others < 0)
		FATAL("cannot read /proc");
	rlim_t lim = (rlim_t)(others + 4);
	struct rlimit rl = { lim, lim };
	if (setrlimit(RLIMIT_NPROC, &rl) != 0)
		FATAL("setrlimit(RLIMIT_NPROC): %s", strerror(errno));
	if (root && (setresgid(NPROC_UID, NPROC_UID, NPROC_UID) != 0 ||
		     setresuid(NPROC_UID, NPROC_UID, NPROC_UID) != 0))
		FATAL("setresuid(%d): %s", NPROC_UID, strerror(errno));
	if (!root && (cap_on(CAP_SYS_RESOURCE) || cap_on(CAP_SYS_ADMIN)))
		SKIP("RLIMIT_NPROC: CAP_SYS_RESOURCE or CAP_SYS_ADMIN ignore it");
	int err;
	int n = fill(NULL, &err);
	char reason[256], want[128];
	nptl_create_error(reason, sizeof(reason));
	drain(n);
	printf("RLIMIT_NPROC = %d (uid %u): %d threads, then \"%s\"\n", (int)lim,
	       (unsigned)uid, n, reason);
	CHECK_ERR(err, EAGAIN);
	snprintf(want, sizeof(want), "pthread_create: EAGAIN: RLIMIT_NPROC "
		 "reached (limit %d, ", (int)lim);
	if (root) {
		check_prefix(reason, want);
		unsigned long tasks = 0;
		unsigned u = 0;
		CHECK(sscanf(reason + strlen(want), "%lu tasks of uid %u)",
			     &tasks, &u) == 2);
		CHECK(tasks >= lim);
		CHECK(u == NPROC_UID);
	} else if (strncmp(reason, want, strlen(want)) != 0) {
		snprintf(want, sizeof(want), "pthread_create: EAGAIN: "
			 "RLIMIT_NPROC, probably (limit %d, ", (int)lim);
		check_prefix(reason, want);
	}
	return t_done();
}

/* ---- cgroup pids.max -------------------------------------------------- */

static char cg_dir[600];

/* Our pids cgroup directory: v1's "pids" hierarchy or v2's (with its
 * mount point from /proc/self/mountinfo).  0, or a reason to skip.  */
static const char *find_pids_cgroup(char *dir, size_t size)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[512], path[256] = "", v2path[256] = "";
	bool v1 = false;
	if (!f)
		return "no /proc/self/cgroup";
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = 0;
		char *ctl = c1 + 1;
		if (strcmp(line, "0:") == 0 || (line[0] == '0' && ctl[0] == 0))
			snprintf(v2path, sizeof(v2path), "%s", c2 + 1);
		for (char *tok = strtok(ctl, ","); tok; tok = strtok(NULL, ","))
			if (strcmp(tok, "pids") == 0) {
				snprintf(path, sizeof(path), "%s", c2 + 1);
				v1 = true;
			}
	}
	fclose(f);
	if (!v1)
		snprintf(path, sizeof(path), "%s", v2path);
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return "no /proc/self/mountinfo";
	char point[256] = "", root[256] = "";
	while (fgets(line, sizeof(line), f)) {
		char r[256], p[256], type[64], super[256];
		char *dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %255s %255s", r, p) != 2 ||
		    sscanf(dash + 3, "%63s %*s %255s", type, super) != 2)
			continue;
		if ((v1 && strcmp(type, "cgroup") == 0 && strstr(super, "pids")) ||
		    (!v1 && strcmp(type, "cgroup2") == 0)) {
			snprintf(point, sizeof(point), "%s", p);
			snprintf(root, sizeof(root), "%s", r);
			break;
		}
	}
	fclose(f);
	if (!point[0])
		return "no pids cgroup hierarchy mounted";
	if (strcmp(root, "/") != 0)
		return "the pids hierarchy is mounted from a subtree";
	snprintf(dir, size, "%s%s", point, strcmp(path, "/") == 0 ? "" : path);
	if (!v1) {
		char ctl[600], buf[256] = "";
		snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", dir);
		FILE *s = fopen(ctl, "re");
		if (!s)
			return "cgroup v2: no cgroup.subtree_control";
		if (!fgets(buf, sizeof(buf), s))
			buf[0] = 0;
		fclose(s);
		if (!strstr(buf, "pids")) {
			/* Under systemd our cgroup is a leaf (a session
			 * scope, a service) whose children get no
			 * controllers, and a cgroup with processes cannot
			 * enable one for them; the hierarchy's root can (it
			 * is exempt) and systemd enables pids there.  Make
			 * the test cgroup a child of the root then.  */
			snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", point);
			s = fopen(ctl, "re");
			if (!s || !fgets(buf, sizeof(buf), s))
				buf[0] = 0;
			if (s)
				fclose(s);
			if (!strstr(buf, "pids"))
				return "cgroup v2: the pids controller is not enabled "
				       "for our cgroup's children nor the root's "
				       "(enabling it would change the system)";
			snprintf(dir, size, "%s", point);
		}
	}
	return NULL;
}

static bool write_file(const char *dir, const char *file, const char *val)
{
	char p[700];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok;
}

static int cgroup_child(void)
{
	check_errno = true;
	char pid[32];
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (!write_file(cg_dir, "cgroup.procs", pid))
		FATAL("cannot join %s: %s", cg_dir, strerror(errno));
	int err;
	int n = fill(NULL, &err);
	char reason[256], want[700];
	nptl_create_error(reason, sizeof(reason));
	drain(n);
	printf("cgroup pids.max = 4: %d threads, then \"%s\"\n", n, reason);
	CHECK_ERR(err, EAGAIN);
	CHECK(n == 3);
	/* The cgroup as /proc/self/cgroup names it.  */
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[512], name[512] = "?";
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "nptl-create-error-")) {
			line[strcspn(line, "\n")] = 0;
			snprintf(name, sizeof(name), "%s", strrchr(line, ':') + 1);
		}
	if (f)
		fclose(f);
	snprintf(want, sizeof(want), "pthread_create: EAGAIN: cgroup pids.max "
		 "reached (limit 4, 4 tasks in cgroup %s)", name);
	CHECK(strcmp(reason, want) == 0);
	if (strcmp(reason, want) != 0)
		fprintf(stderr, "want \"%s\"\n", want);
	return t_done();
}

/* Its own test program (create-error-cgroup), so that a machine where it
 * cannot be set up says SKIP for it alone.  */
static int cgroup_main(void)
{
	if (!t_on_libnptl())
		SKIP("libnptl's own interface");
	if (geteuid() != 0)
		SKIP("cgroup pids.max: not root, cannot make a cgroup");
	char parent[400];
	const char *why = find_pids_cgroup(parent, sizeof(parent));
	if (!why) {
		snprintf(cg_dir, sizeof(cg_dir), "%s/nptl-create-error-%d", parent,
			 (int)getpid());
		if (mkdir(cg_dir, 0755) != 0)
			why = "cannot make a child cgroup (read-only or delegated elsewhere)";
		else if (!write_file(cg_dir, "pids.max", "4"))
			why = "cannot write pids.max";
	}
	if (why) {
		if (cg_dir[0])
			rmdir(cg_dir);
		SKIP("cgroup pids.max: %s", why);
	}
	t_failures += run_child(cgroup_child, "cgroup pids.max");
	/* The cgroup empties once the child is reaped; rmdir may still
	 * find it busy for a moment.  */
	for (int i = 0; i < 100 && rmdir(cg_dir) != 0 && errno == EBUSY; i++)
		usleep(10000);
	struct stat st;
	CHECK(stat(cg_dir, &st) != 0);
	return t_done();
}

/* ---- RLIMIT_MEMLOCK ----------------------------------------------------- */

/* mlockall(MCL_FUTURE) locks every new mapping, a thread's stack too, and
 * the kernel refuses it (mmap's EAGAIN) past RLIMIT_MEMLOCK.  Root's
 * CAP_IPC_LOCK ignores the limit: root drops to NPROC_UID first.  The
 * child has made no thread yet, so the first refusal is glibc's, making
 * libnptl's start-up thread; the second libnptl's own mmap.  */
static int memlock_child(void)
{
	check_errno = true;
	struct rlimit rl = { 64 << 10, 64 << 10 };
	if (setrlimit(RLIMIT_MEMLOCK, &rl) != 0)
		FATAL("setrlimit(RLIMIT_MEMLOCK): %s", strerror(errno));
	if (geteuid() == 0 &&
	    (setresgid(NPROC_UID, NPROC_UID, NPROC_UID) != 0 ||
	     setresuid(NPROC_UID, NPROC_UID, NPROC_UID) != 0))
		FATAL("setresuid(%d): %s", NPROC_UID, strerror(errno));
	pthread_attr_t attr;
	CHECK0(pthread_attr_init(&attr));
	CHECK0(pthread_attr_setstacksize(&attr, 3 << 20));   /* none cached */
	char first[256], reason[256];
	pthread_t t;
	for (int round = 0; round < 2; round++) {
		if (mlockall(MCL_FUTURE) != 0)
			SKIP("mlockall(MCL_FUTURE): %s", strerror(errno));
		int err;
		int n = fill(&attr, &err);
		nptl_create_error(round ? reason : first, sizeof(reason));
		/* Nothing below may need locked memory.  */
		munlockall();
		drain(n);
		CHECK_ERR(err, EAGAIN);
		CHECK(n == 0);
		if (round == 0) {
			/* Now that libnptl is started.  */
			CHECK0(pthread_create(&t, NULL, ret_arg, NULL));
			CHECK0(pthread_join(t, NULL));
		}
	}
	printf("RLIMIT_MEMLOCK = 64 KiB, mlockall(MCL_FUTURE): first thread: "
	       "\"%s\"\n", first);
	printf("RLIMIT_MEMLOCK = 64 KiB, mlockall(MCL_FUTURE), 3 MiB stacks: "
	       "\"%s\"\n", reason);
	const char *want = "pthread_create: EAGAIN: RLIMIT_MEMLOCK reached "
			   "(limit 64 KiB, VmLck ";
	check_prefix(first, want);
	check_prefix(reason, want);
	CHECK(strstr(reason, ", a new thread needs 30") != NULL);   /* 3 MiB + */
	CHECK(strstr(first, " with mlockall(MCL_FUTURE) in force") != NULL);
	CHECK(strstr(reason, " with mlockall(MCL_FUTURE) in force") != NULL);
	CHECK0(pthread_attr_destroy(&attr));
	return t_done();
}

/* ---- vm.overcommit_memory=0 --------------------------------------------- */

/* The heuristic overcommit refuses one mapping larger than memory and swap
 * together: a stack of twice that.  */
static int overcommit_child(void)
{
	check_errno = true;
	FILE *f = fopen("/proc/sys/vm/overcommit_memory", "re");
	int mode = -1;
	if (!f || fscanf(f, "%d", &mode) != 1)
		SKIP("cannot read vm.overcommit_memory");
	fclose(f);
	if (mode != 0)
		SKIP("vm.overcommit_memory is %d, not 0", mode);
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur != RLIM_INFINITY)
		SKIP("RLIMIT_AS is finite: it would refuse first");
	long total = status_kb_of("/proc/meminfo", "MemTotal");
	long swap = status_kb_of("/proc/meminfo", "SwapTotal");
	if (total <= 0 || swap < 0)
		FATAL("no MemTotal or SwapTotal in /proc/meminfo");
	unsigned long long size = 2ULL * (unsigned long long)(total + swap) * 1024;
	if (size > (1ULL << 45))
		SKIP("memory and swap too large for a stack twice their size");
	pthread_attr_t attr;
	pthread_t t;
	CHECK0(pthread_attr_init(&attr));
	CHECK0(pthread_attr_setstacksize(&attr, (size_t)size));
	errno = EDOM;
	int r = pthread_create(&t, &attr, ret_arg, NULL);
	CHECK(errno == EDOM);
	if (r == 0)
		pthread_join(t, NULL);
	char reason[256], want[200];
	nptl_create_error(reason, sizeof(reason));
	printf("vm.overcommit_memory = 0, a stack of 2 x (MemTotal + SwapTotal): "
	       "\"%s\"\n", reason);
	CHECK_ERR(r, EAGAIN);
	snprintf(want, sizeof(want), "pthread_create: EAGAIN: vm.overcommit_memory=0 "
		 "refuses a mapping larger than memory and swap (MemTotal + "
		 "SwapTotal %ld KiB, a new thread needs ", total + swap);
	check_prefix(reason, want);
	CHECK0(pthread_attr_destroy(&attr));
	return t_done();
}

/* ---- vm.max_map_count --------------------------------------------------- */

#define MAP_COUNT_MAX 262144L

static int maps_child(void)
{
	FILE *f = fopen("/proc/sys/vm/max_map_count", "re");
	long max = -1;
	if (!f || fscanf(f, "%ld", &max) != 1)
		SKIP("cannot read vm.max_map_count");
	fclose(f);
	if (max > MAP_COUNT_MAX)
		SKIP("vm.max_map_count is %ld: filling it costs too much memory", max);
	/* Whatever the first thread sets up happens now, and its stack waits
	 * in the cache: the creations below need fresh mappings.  */
	pthread_t t;
	CHECK0(pthread_create(&t, NULL, ret_arg, NULL));
	CHECK0(pthread_join(t, NULL));
	size_t room = (size_t)max + 16;
	void **maps = mmap(NULL, room * sizeof(void *), PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (maps == MAP_FAILED)
		FATAL("mmap: %s", strerror(errno));
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = 0;
	/* One page each, protections alternating so that neighbours do not
	 * merge, until the kernel refuses a new one.  */
	while (n < room) {
		void *p = mmap(NULL, pg, n % 2 ? PROT_READ : PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		maps[n++] = p;
	}
	int err;
	int made = fill(NULL, &err);
	char reason[256];
	nptl_create_error(reason, sizeof(reason));
	for (size_t i = 0; i < n; i++)
		munmap(maps[i], pg);
	drain(made);
	printf("vm.max_map_count = %ld, %zu one-page mappings: %d threads, "
	       "then \"%s\"\n", max, n, made, reason);
	CHECK_ERR(err, EAGAIN);
	char want[128];
	snprintf(want, sizeof(want), "pthread_create: EAGAIN: vm.max_map_count "
		 "reached (limit %ld, ", max);
	check_prefix(reason, want);
	return t_done();
}

#ifndef CREATE_ERROR_CGROUP
#define CREATE_ERROR_CGROUP 0
#endif

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (CREATE_ERROR_CGROUP)
		return cgroup_main();
	if (argc > 1 && strcmp(argv[1], "verbose-child") == 0)
		return verbose_child();
	if (!t_on_libnptl())
		SKIP("libnptl's own interface");

	/* Nothing failed yet.  */
	char buf[64];
	memset(buf, 'x', sizeof(buf));
	CHECK(nptl_create_error(buf, sizeof(buf)) == 0);
	CHECK(buf[0] == 0);

	t_failures += run_child(as_child, "RLIMIT_AS");
	verbose_cases();
	t_failures += run_child(nproc_child, "RLIMIT_NPROC");
	t_failures += run_child(memlock_child, "RLIMIT_MEMLOCK");
	t_failures += run_child(overcommit_child, "vm.overcommit_memory=0");
	t_failures += run_child(maps_child, "vm.max_map_count");
	return t_done();
}
