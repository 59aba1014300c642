// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sentences of nptl_create_error(3nptl), from made-up facts: the
 * judge (src/thread/create_reason.c) compiled into this program and fed
 * each limit, among them the ones a test must not set up because they are
 * the whole machine's (kernel.threads-max, kernel.pid_max).  That a real
 * failure produces these facts is tests/create-error's part.
 */
#include "nptl.h"
#include "t.h"

#define NONE NPTL_NO_VALUE

static struct nptl_create_facts clone_facts(void)
{
	struct nptl_create_facts f = {
		.fn = "pthread_create", .err = EAGAIN,
		.step = NPTL_CREATE_CLONE, .kerr = EAGAIN, .need = 0,
		.nproc_limit = NONE, .uid = 1000, .uid_tasks = NONE,
		.nproc_exempt = false,
		.threads_max = 127000, .nr_threads = 350, .pid_max = 4194304,
		.pids_max = NONE, .pids_current = NONE, .cgroup = "",
		.as_limit = NONE, .vm_size = NONE, .data_limit = NONE,
		.vm_data = NONE, .memlock_limit = NONE, .vm_locked = NONE,
		.memlock_exempt = false, .max_map_count = NONE, .map_count = NONE,
		.overcommit = -1, .commit_limit = NONE, .committed = NONE,
		.mem_swap_total = NONE,
	};
	return f;
}

static struct nptl_create_facts map_facts(void)
{
	struct nptl_create_facts f = clone_facts();
	f.step = NPTL_CREATE_STACK;
	f.kerr = ENOMEM;
	f.threads_max = f.nr_threads = f.pid_max = NONE;
	f.need = 8396800;                      /* 8200 KiB */
	f.vm_size = 100000 * 1024ULL;
	f.vm_data = 50000 * 1024ULL;
	f.max_map_count = 65530;
	f.map_count = 120;
	f.overcommit = 0;
	return f;
}

static void expect(const struct nptl_create_facts *f, const char *want, int line)
{
	char buf[256];
	size_t n = __nptl_create_reason(f, buf, sizeof(buf));
	if (strcmp(buf, want) != 0 || n != strlen(want)) {
		fprintf(stderr, "line %d: got (%zu) \"%s\"\n       want \"%s\"\n",
			line, n, buf, want);
		t_failures++;
	}
}
#define EXPECT(f, want) expect(&(f), want, __LINE__)

int main(void)
{
	struct nptl_create_facts f;

	/* clone(2) and its limits, in the kernel's order.  */
	f = clone_facts();
	f.nproc_limit = 50;
	f.uid_tasks = 50;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_NPROC reached "
		  "(limit 50, 50 tasks of uid 1000)");
	f.nr_threads = f.threads_max;   /* RLIMIT_NPROC comes first */
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_NPROC reached "
		  "(limit 50, 50 tasks of uid 1000)");
	f.nproc_exempt = true;
	EXPECT(f, "pthread_create: EAGAIN: kernel.threads-max reached "
		  "(limit 127000, 127000 tasks on the system)");

	f = clone_facts();
	f.nr_threads = 127001;
	EXPECT(f, "pthread_create: EAGAIN: kernel.threads-max reached "
		  "(limit 127000, 127001 tasks on the system)");

	f = clone_facts();
	f.pids_max = 20;
	f.pids_current = 20;
	snprintf(f.cgroup, sizeof(f.cgroup), "/user.slice/app.scope");
	EXPECT(f, "pthread_create: EAGAIN: cgroup pids.max reached "
		  "(limit 20, 20 tasks in cgroup /user.slice/app.scope)");
	f.pids_current = 19;   /* room left: not the cgroup */
	EXPECT(f, "pthread_create: EAGAIN: clone(2) failed with EAGAIN and "
		  "no known limit is reached (RLIMIT_NPROC unlimited, "
		  "kernel.threads-max 127000 with 350 tasks, kernel.pid_max "
		  "4194304, cgroup /user.slice/app.scope pids.max 20)");

	f = clone_facts();
	f.pid_max = 32768;
	f.nr_threads = 32468;    /* 300 pids are kept back after a wrap */
	EXPECT(f, "pthread_create: EAGAIN: kernel.pid_max reached "
		  "(pid_max 32768, 32468 tasks on the system)");
	f.nr_threads = 32467;
	EXPECT(f, "pthread_create: EAGAIN: clone(2) failed with EAGAIN and "
		  "no known limit is reached (RLIMIT_NPROC unlimited, "
		  "kernel.threads-max 127000 with 32467 tasks, kernel.pid_max "
		  "32768)");

	/* RLIMIT_NPROC finite but its count below it (other user
	 * namespaces, hidden processes): the likely one.  */
	f = clone_facts();
	f.nproc_limit = 50;
	f.uid_tasks = 48;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_NPROC, probably (limit 50, "
		  "48 tasks of uid 1000 visible in /proc)");
	f.uid_tasks = NONE;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_NPROC, probably (limit 50 "
		  "tasks for uid 1000)");
	f.nproc_exempt = true;
	EXPECT(f, "pthread_create: EAGAIN: clone(2) failed with EAGAIN and "
		  "no known limit is reached (RLIMIT_NPROC does not apply, "
		  "kernel.threads-max 127000 with 350 tasks, kernel.pid_max "
		  "4194304)");

	f = clone_facts();
	f.kerr = ENOMEM;
	EXPECT(f, "pthread_create: EAGAIN: clone(2) failed with ENOMEM: the "
		  "kernel could not allocate the new task (kernel memory, or a "
		  "memory cgroup's limit)");
	f.kerr = EPERM;
	f.err = EPERM;
	f.fn = "thrd_create";
	EXPECT(f, "thrd_create: EPERM: clone(2) failed with EPERM");

	/* The mapping of stack, guard and TLS.  */
	f = map_facts();
	f.as_limit = 108000 * 1024ULL;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_AS reached (limit 108000 KiB, "
		  "VmSize 100000 KiB, a new thread needs 8200 KiB)");
	f.as_limit = 108200 * 1024ULL;   /* fits exactly */
	f.data_limit = 58000 * 1024ULL;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_DATA reached (limit 58000 KiB, "
		  "VmData 50000 KiB, a new thread needs 8200 KiB)");
	f.data_limit = NONE;
	f.map_count = 65528;
	EXPECT(f, "pthread_create: EAGAIN: vm.max_map_count reached "
		  "(limit 65530, 65528 mappings)");
	f.map_count = 65527;
	EXPECT(f, "pthread_create: EAGAIN: could not map the new thread's "
		  "memory (ENOMEM) and no known limit is reached (RLIMIT_AS "
		  "108200 KiB, VmSize 100000 KiB, 65527 of vm.max_map_count 65530 "
		  "mappings)");
	/* A limit near another's edge does not hide the one reached.  */
	f.map_count = 65530;
	f.as_limit = 108000 * 1024ULL;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_AS reached (limit 108000 KiB, "
		  "VmSize 100000 KiB, a new thread needs 8200 KiB)");

	f = map_facts();
	f.overcommit = 2;
	f.commit_limit = 4000000 * 1024ULL;
	f.committed = 3999000 * 1024ULL;
	EXPECT(f, "pthread_create: EAGAIN: the commit limit of "
		  "vm.overcommit_memory=2 reached (CommitLimit 4000000 KiB, "
		  "Committed_AS 3999000 KiB, a new thread needs 8200 KiB)");
	f.overcommit = 1;
	EXPECT(f, "pthread_create: EAGAIN: could not map the new thread's "
		  "memory (ENOMEM) and no known limit is reached (RLIMIT_AS "
		  "unlimited, VmSize 100000 KiB, 120 of vm.max_map_count 65530 "
		  "mappings)");

	/* The heuristic overcommit: one mapping larger than memory and swap
	 * (a huge stack size), and only that.  */
	f = map_facts();
	f.mem_swap_total = 8000 * 1024ULL;
	EXPECT(f, "pthread_create: EAGAIN: vm.overcommit_memory=0 refuses a "
		  "mapping larger than memory and swap (MemTotal + SwapTotal "
		  "8000 KiB, a new thread needs 8200 KiB)");
	f.mem_swap_total = 8200 * 1024ULL;
	EXPECT(f, "pthread_create: EAGAIN: could not map the new thread's "
		  "memory (ENOMEM) and no known limit is reached (RLIMIT_AS "
		  "unlimited, VmSize 100000 KiB, 120 of vm.max_map_count 65530 "
		  "mappings)");
	/* A size near 2^64 must not wrap around in the sums.  */
	f.need = ~0ULL - 1;
	f.as_limit = 1ULL << 40;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_AS reached (limit 1073741824 "
		  "KiB, VmSize 100000 KiB, a new thread needs 18014398509481983 "
		  "KiB)");

	/* mmap's EAGAIN: locked memory, with mlockall(MCL_FUTURE).  */
	f = map_facts();
	f.kerr = EAGAIN;
	f.memlock_limit = 64 * 1024;
	f.vm_locked = 0;
	f.as_limit = 1024;   /* EAGAIN is never RLIMIT_AS's */
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_MEMLOCK reached (limit 64 KiB, "
		  "VmLck 0 KiB, a new thread needs 8200 KiB) with "
		  "mlockall(MCL_FUTURE) in force");
	f.memlock_exempt = true;   /* CAP_IPC_LOCK */
	EXPECT(f, "pthread_create: EAGAIN: could not map the new thread's "
		  "memory (EAGAIN) and no known limit is reached (RLIMIT_AS 1 KiB, "
		  "VmSize 100000 KiB, 120 of vm.max_map_count 65530 mappings, "
		  "RLIMIT_MEMLOCK 64 KiB, VmLck 0 KiB)");

	/* The guard and the TLS, after the mapping.  */
	f = map_facts();
	f.step = NPTL_CREATE_GUARD;
	f.need = 0;
	f.map_count = 65528;
	EXPECT(f, "pthread_create: EAGAIN: vm.max_map_count reached "
		  "(limit 65530, 65528 mappings)");
	f.map_count = 100;
	EXPECT(f, "pthread_create: EAGAIN: could not install the new thread's "
		  "stack guard (ENOMEM) and no known limit is reached (RLIMIT_AS "
		  "unlimited, VmSize 100000 KiB, 100 of vm.max_map_count 65530 "
		  "mappings)");
	f.step = NPTL_CREATE_TLS;
	f.need = 4096;
	f.data_limit = 50002 * 1024ULL;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_DATA reached (limit 50002 KiB, "
		  "VmData 50000 KiB, a new thread needs 4 KiB)");
	f.data_limit = NONE;
	EXPECT(f, "pthread_create: EAGAIN: could not allocate the new thread's "
		  "TLS (ENOMEM) and no known limit is reached (RLIMIT_AS "
		  "unlimited, VmSize 100000 KiB, 100 of vm.max_map_count 65530 "
		  "mappings)");

	f = map_facts();
	f.step = NPTL_CREATE_LIVE;
	f.kerr = EACCES;
	f.need = 0;
	f.map_count = 65529;
	EXPECT(f, "pthread_create: EAGAIN: vm.max_map_count reached "
		  "(limit 65530, 65529 mappings)");
	f.map_count = 10;
	f.vm_size = NONE;
	f.max_map_count = NONE;
	EXPECT(f, "pthread_create: EAGAIN: could not make the new thread's "
		  "stack executable (EACCES) and no known limit is reached "
		  "(RLIMIT_AS unlimited)");

	f = map_facts();
	f.err = EINVAL;
	f.kerr = 0;
	EXPECT(f, "pthread_create: EINVAL: the stack size does not fit in the "
		  "address space");

	/* The other steps.  */
	f = clone_facts();
	f.step = NPTL_CREATE_SCHED;
	f.err = f.kerr = EPERM;
	EXPECT(f, "pthread_create: EPERM: sched_setscheduler(2) on the new "
		  "thread failed with EPERM");
	f.step = NPTL_CREATE_AFFINITY;
	f.err = f.kerr = EINVAL;
	EXPECT(f, "pthread_create: EINVAL: sched_setaffinity(2) on the new "
		  "thread failed with EINVAL");

	/* glibc's own pthread_create for libnptl's start-up thread: its mmap
	 * or its clone, both families measured, errno says which first.  */
	f = clone_facts();
	f.step = NPTL_CREATE_INIT;
	f.need = 76 * 1024;
	f.vm_size = 10000 * 1024ULL;
	f.vm_locked = 0;
	f.memlock_limit = 64 * 1024;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_MEMLOCK reached (limit 64 KiB, "
		  "VmLck 0 KiB, a new thread needs 76 KiB) with "
		  "mlockall(MCL_FUTURE) in force");
	f.nproc_limit = 50;
	f.uid_tasks = 50;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_NPROC reached "
		  "(limit 50, 50 tasks of uid 1000)");
	f.kerr = ENOMEM;   /* its mmap, then: not a task limit */
	f.as_limit = 10050 * 1024ULL;
	EXPECT(f, "pthread_create: EAGAIN: RLIMIT_AS reached (limit 10050 KiB, "
		  "VmSize 10000 KiB, a new thread needs 76 KiB)");
	f.as_limit = NONE;
	EXPECT(f, "pthread_create: EAGAIN: glibc could not make libnptl's "
		  "start-up thread (ENOMEM) and no known limit is reached "
		  "(RLIMIT_NPROC limit 50, kernel.threads-max 127000 with 350 "
		  "tasks, kernel.pid_max 4194304, RLIMIT_AS unlimited, "
		  "RLIMIT_MEMLOCK 64 KiB)");

	f = clone_facts();
	f.err = EAGAIN;
	f.step = NPTL_CREATE_ATTR;
	EXPECT(f, "pthread_create: EAGAIN: no memory to copy the default "
		  "thread attribute");

	/* Cut short like snprintf: the length of the whole sentence.  */
	f = clone_facts();
	f.nproc_limit = 50;
	f.uid_tasks = 50;
	char small[16];
	memset(small, 'x', sizeof(small));
	size_t n = __nptl_create_reason(&f, small, sizeof(small));
	CHECK(n == strlen("pthread_create: EAGAIN: RLIMIT_NPROC reached "
			  "(limit 50, 50 tasks of uid 1000)"));
	CHECK(strcmp(small, "pthread_create:") == 0);
	CHECK(__nptl_create_reason(&f, small, 0) == n);
	CHECK(small[0] == 'p');
	return t_done();
}
