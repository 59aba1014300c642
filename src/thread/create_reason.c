// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which limit refused a thread: from the facts create_facts.c measured at
 * the failure, one sentence such as
 *
 *   pthread_create: EAGAIN: RLIMIT_NPROC reached (limit 50, 50 tasks of uid 1000)
 *
 * This file only decides and formats: it makes no system call and reads
 * no global state, so that tests/create-reason can feed it the facts of
 * limits a test must not set up (kernel.threads-max, kernel.pid_max).  It
 * writes with its own formatter rather than snprintf, so that it is safe
 * wherever pthread_create may fail.
 *
 * The kernel's errno says which family of limits to look at: clone(2)'s
 * EAGAIN is a task limit, its ENOMEM the kernel's own memory; mmap(2)'s
 * ENOMEM is a limit on mappings, its EAGAIN RLIMIT_MEMLOCK with
 * mlockall(MCL_FUTURE) in force.  Within a family the numbers decide.
 *
 * clone(2) checks RLIMIT_NPROC first, then kernel.threads-max, then takes
 * a pid (kernel.pid_max), then asks the pids cgroups (all EAGAIN); a limit
 * found reached earlier in that order is the one that refused -- except
 * that a full cgroup is named before kernel.pid_max, whose count is only
 * estimated (tasks on the system against the pids there are) where the
 * cgroup's is exact.  The numbers are read after the failure, so a limit
 * right at its edge may read as one task below it: then RLIMIT_NPROC, the
 * one limit whose count is not exact (tasks of other user namespaces,
 * hidden /proc), is named as the likely one when it is finite and applies.
 *
 * A mapping (the stack with its guard and TLS) is refused by the kernel
 * for the map count, then RLIMIT_MEMLOCK, RLIMIT_AS, RLIMIT_DATA (a
 * private writable mapping counts as data), then the overcommit policy.
 * Here the exact byte limits are judged before the map count, which is
 * judged with a margin of two (the mapping and the split for its guard),
 * so that a map count near its limit does not hide the limit that refused.
 */
#include <string.h>
#include "nptl.h"

#define NONE NPTL_NO_VALUE
/* The kernel keeps pids below 300 for daemons once pids have wrapped.  */
#define RESERVED_PIDS 300

struct out {
	char *buf;
	size_t size, len;   /* len counts what did not fit as well */
};

static void put(struct out *o, const char *s)
{
	for (; *s; s++, o->len++)
		if (o->len + 1 < o->size)
			o->buf[o->len] = *s;
}

static void put_u(struct out *o, unsigned long long v)
{
	char d[24];
	int n = (int)sizeof(d) - 1;
	d[n] = 0;
	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(o, d + n);
}

static void put_err(struct out *o, int e)
{
	const char *name = strerrorname_np(e);
	if (name) {
		put(o, name);
	} else {
		put(o, "error ");
		put_u(o, (unsigned long long)e);
	}
}

/* Bytes as KiB, the unit of ulimit -v and /proc/self/status.  */
static void put_kib(struct out *o, unsigned long long bytes)
{
	put_u(o, bytes / 1024);
	put(o, " KiB");
}

/* "limit N" or "unlimited" */
static void put_limit(struct out *o, unsigned long long v)
{
	if (v == NONE) {
		put(o, "unlimited");
	} else {
		put(o, "limit ");
		put_u(o, v);
	}
}

static bool have(unsigned long long v)
{
	return v != NONE;
}

static void nproc(struct out *o, const struct nptl_create_facts *f, bool reached)
{
	put(o, reached ? "RLIMIT_NPROC reached (limit " :
			 "RLIMIT_NPROC, probably (limit ");
	put_u(o, f->nproc_limit);
	if (have(f->uid_tasks)) {
		put(o, ", ");
		put_u(o, f->uid_tasks);
		put(o, " tasks of uid ");
		put_u(o, f->uid);
		if (!reached)
			put(o, " visible in /proc");
	} else {
		put(o, " tasks for uid ");
		put_u(o, f->uid);
	}
	put(o, ")");
}

/* The task limits as read, when none is found reached.  */
static void task_numbers(struct out *o, const struct nptl_create_facts *f)
{
	put(o, "RLIMIT_NPROC ");
	if (f->nproc_exempt && have(f->nproc_limit))
		put(o, "does not apply");
	else
		put_limit(o, f->nproc_limit);
	if (have(f->threads_max)) {
		put(o, ", kernel.threads-max ");
		put_u(o, f->threads_max);
	}
	if (have(f->nr_threads)) {
		put(o, " with ");
		put_u(o, f->nr_threads);
		put(o, " tasks");
	}
	if (have(f->pid_max)) {
		put(o, ", kernel.pid_max ");
		put_u(o, f->pid_max);
	}
	if (have(f->pids_max)) {
		put(o, ", cgroup ");
		put(o, f->cgroup);
		put(o, " pids.max ");
		put_u(o, f->pids_max);
	}
}

/* The task limit found reached, if one is.  */
static bool task_limit(struct out *o, const struct nptl_create_facts *f)
{
	if (!f->nproc_exempt && have(f->nproc_limit) && have(f->uid_tasks) &&
	    f->uid_tasks >= f->nproc_limit) {
		nproc(o, f, true);
	} else if (have(f->threads_max) && have(f->nr_threads) &&
		   f->nr_threads >= f->threads_max) {
		put(o, "kernel.threads-max reached (limit ");
		put_u(o, f->threads_max);
		put(o, ", ");
		put_u(o, f->nr_threads);
		put(o, " tasks on the system)");
	} else if (have(f->pids_max) && have(f->pids_current) &&
		   f->pids_current >= f->pids_max) {
		put(o, "cgroup pids.max reached (limit ");
		put_u(o, f->pids_max);
		put(o, ", ");
		put_u(o, f->pids_current);
		put(o, " tasks in cgroup ");
		put(o, f->cgroup);
		put(o, ")");
	} else if (have(f->pid_max) && have(f->nr_threads) &&
		   f->nr_threads + RESERVED_PIDS >= f->pid_max) {
		put(o, "kernel.pid_max reached (pid_max ");
		put_u(o, f->pid_max);
		put(o, ", ");
		put_u(o, f->nr_threads);
		put(o, " tasks on the system)");
	} else {
		return false;
	}
	return true;
}

static void clone_reason(struct out *o, const struct nptl_create_facts *f)
{
	if (f->kerr == ENOMEM) {
		put(o, "clone(2) failed with ENOMEM: the kernel could not "
		       "allocate the new task (kernel memory, or a memory "
		       "cgroup's limit)");
		return;
	}
	if (f->kerr != EAGAIN) {
		put(o, "clone(2) failed with ");
		put_err(o, f->kerr);
		return;
	}
	if (task_limit(o, f))
		return;
	if (!f->nproc_exempt && have(f->nproc_limit)) {
		nproc(o, f, false);
	} else {
		put(o, "clone(2) failed with EAGAIN and no known limit is "
		       "reached (");
		task_numbers(o, f);
		put(o, ")");
	}
}

/* A limit on bytes of mapping: in use + needed > limit.  */
static bool over(unsigned long long limit, unsigned long long used,
		 unsigned long long need)
{
	return have(limit) && have(used) && (need > limit || used > limit - need);
}

static void rlimit_reason(struct out *o, const char *which, const char *vm,
			  unsigned long long limit, unsigned long long used,
			  unsigned long long need)
{
	put(o, which);
	put(o, " reached (limit ");
	put_kib(o, limit);
	put(o, ", ");
	put(o, vm);
	put(o, " ");
	put_kib(o, used);
	put(o, ", a new thread needs ");
	put_kib(o, need);
	put(o, ")");
}

static void what_failed(struct out *o, const struct nptl_create_facts *f)
{
	switch (f->step) {
	case NPTL_CREATE_GUARD:
		put(o, "could not install the new thread's stack guard");
		break;
	case NPTL_CREATE_TLS:
		put(o, "could not allocate the new thread's TLS");
		break;
	case NPTL_CREATE_LIVE:
		put(o, "could not make the new thread's stack executable");
		break;
	default:
		put(o, "could not map the new thread's memory");
		break;
	}
	if (f->kerr) {
		put(o, " (");
		put_err(o, f->kerr);
		put(o, ")");
	}
}

/* The limit the mapping ran into, if one is found reached.  */
static bool memory_limit(struct out *o, const struct nptl_create_facts *f)
{
	bool mmap = f->step == NPTL_CREATE_STACK || f->step == NPTL_CREATE_INIT;
	if (mmap && f->kerr == EAGAIN) {
		if (f->memlock_exempt || !over(f->memlock_limit, f->vm_locked, f->need))
			return false;
		rlimit_reason(o, "RLIMIT_MEMLOCK", "VmLck", f->memlock_limit,
			      f->vm_locked, f->need);
		put(o, " with mlockall(MCL_FUTURE) in force");
		return true;
	}
	if (over(f->as_limit, f->vm_size, f->need)) {
		rlimit_reason(o, "RLIMIT_AS", "VmSize", f->as_limit, f->vm_size,
			      f->need);
		return true;
	}
	if (over(f->data_limit, f->vm_data, f->need)) {
		rlimit_reason(o, "RLIMIT_DATA", "VmData", f->data_limit,
			      f->vm_data, f->need);
		return true;
	}
	if (have(f->max_map_count) && have(f->map_count) &&
	    f->map_count + 2 >= f->max_map_count) {
		put(o, "vm.max_map_count reached (limit ");
		put_u(o, f->max_map_count);
		put(o, ", ");
		put_u(o, f->map_count);
		put(o, " mappings)");
		return true;
	}
	if (f->overcommit == 2 && over(f->commit_limit, f->committed, f->need)) {
		put(o, "the commit limit of vm.overcommit_memory=2 reached "
		       "(CommitLimit ");
		put_kib(o, f->commit_limit);
		put(o, ", Committed_AS ");
		put_kib(o, f->committed);
		put(o, ", a new thread needs ");
		put_kib(o, f->need);
		put(o, ")");
		return true;
	}
	/* The heuristic overcommit refuses only a single mapping larger than
	 * all of memory and swap.  */
	if (f->overcommit == 0 && mmap &&
	    have(f->mem_swap_total) && f->need > f->mem_swap_total) {
		put(o, "vm.overcommit_memory=0 refuses a mapping larger than "
		       "memory and swap (MemTotal + SwapTotal ");
		put_kib(o, f->mem_swap_total);
		put(o, ", a new thread needs ");
		put_kib(o, f->need);
		put(o, ")");
		return true;
	}
	return false;
}

static void memory_reason(struct out *o, const struct nptl_create_facts *f)
{
	if (f->step == NPTL_CREATE_STACK && f->err == EINVAL) {
		put(o, "the stack size does not fit in the address space");
		return;
	}
	if (memory_limit(o, f))
		return;
	what_failed(o, f);
	put(o, " and no known limit is reached (RLIMIT_AS ");
	if (have(f->as_limit))
		put_kib(o, f->as_limit);
	else
		put(o, "unlimited");
	if (have(f->vm_size)) {
		put(o, ", VmSize ");
		put_kib(o, f->vm_size);
	}
	if (have(f->map_count) && have(f->max_map_count)) {
		put(o, ", ");
		put_u(o, f->map_count);
		put(o, " of vm.max_map_count ");
		put_u(o, f->max_map_count);
		put(o, " mappings");
	}
	if (f->kerr == EAGAIN && have(f->memlock_limit)) {
		put(o, ", RLIMIT_MEMLOCK ");
		put_kib(o, f->memlock_limit);
		if (have(f->vm_locked)) {
			put(o, ", VmLck ");
			put_kib(o, f->vm_locked);
		}
	}
	put(o, ")");
}

/* glibc's pthread_create failed to make libnptl's start-up thread
 * (src/glibc/multithread.c): its mmap or its clone, the errno glibc left
 * says which family to try first.  */
static void init_reason(struct out *o, const struct nptl_create_facts *f)
{
	if (f->kerr == EAGAIN && task_limit(o, f))
		return;
	if (memory_limit(o, f))
		return;
	put(o, "glibc could not make libnptl's start-up thread");
	if (f->kerr) {
		put(o, " (");
		put_err(o, f->kerr);
		put(o, ")");
	}
	put(o, " and no known limit is reached (");
	task_numbers(o, f);
	put(o, ", RLIMIT_AS ");
	if (have(f->as_limit))
		put_kib(o, f->as_limit);
	else
		put(o, "unlimited");
	if (have(f->memlock_limit)) {
		put(o, ", RLIMIT_MEMLOCK ");
		put_kib(o, f->memlock_limit);
	}
	put(o, ")");
}

size_t __nptl_create_reason(const struct nptl_create_facts *f, char *buf,
			    size_t size)
{
	struct out o = { buf, size, 0 };
	put(&o, f->fn);
	put(&o, ": ");
	put_err(&o, f->err);
	put(&o, ": ");
	switch (f->step) {
	case NPTL_CREATE_INIT:
		init_reason(&o, f);
		break;
	case NPTL_CREATE_ATTR:
		put(&o, "no memory to copy the default thread attribute");
		break;
	case NPTL_CREATE_STACK:
	case NPTL_CREATE_GUARD:
	case NPTL_CREATE_TLS:
	case NPTL_CREATE_LIVE:
		memory_reason(&o, f);
		break;
	case NPTL_CREATE_CLONE:
		clone_reason(&o, f);
		break;
	case NPTL_CREATE_AFFINITY:
	case NPTL_CREATE_SCHED:
		put(&o, f->step == NPTL_CREATE_AFFINITY ?
			"sched_setaffinity(2) on the new thread failed with " :
			"sched_setscheduler(2) on the new thread failed with ");
		put_err(&o, f->kerr);
		break;
	default:
		put(&o, "unknown step");
		break;
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return o.len;
}
