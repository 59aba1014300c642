// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The limits a failed thread creation may have run into, measured right
 * after the failure for create_reason.c to judge: getrlimit values, the
 * sysctls in /proc/sys, the counts in /proc and the pids cgroup.
 *
 * Only the failure path comes here, but it may come from any thread, on a
 * small stack, with memory or descriptors exhausted: so no malloc, no
 * stdio, no lock, only raw system calls (which leave errno alone) into
 * buffers on the stack, and string functions a signal handler may call
 * too.  The two walks (/proc, the cgroup tree) are kept out of line so
 * that their buffers are never on the stack together: about 2.5 KiB at
 * most.  A value that cannot be read (no /proc, no descriptor left) stays
 * NPTL_NO_VALUE, and the reason then says less, never something wrong.
 * The expensive count, the tasks of our uid (a walk over /proc), is made
 * only when RLIMIT_NPROC is finite and applies to us; /proc/self/maps is
 * counted only when a mapping failed.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <linux/capability.h>
#include "nptl.h"

#define NONE NPTL_NO_VALUE

static int open_ro(const char *path, int flags)
{
	long fd = nptl_sys4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | flags, 0);
	return fd < 0 ? -1 : (int)fd;
}

static void close_fd(int fd)
{
	nptl_sys1(SYS_close, fd);
}

/* A small file (a sysctl, /proc/loadavg) into buf, NUL-terminated.  */
static bool read_small(const char *path, char *buf, size_t size)
{
	int fd = open_ro(path, 0);
	if (fd < 0)
		return false;
	long n = nptl_sys3(SYS_read, fd, buf, size - 1);
	close_fd(fd);
	if (n < 0)
		return false;
	buf[n] = 0;
	return true;
}

/* Decimal at *s (after blanks); NONE if there is none.  */
static unsigned long long parse_u(const char **s)
{
	const char *p = *s;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return NONE;
	unsigned long long v = 0;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (unsigned long long)(*p++ - '0');
	*s = p;
	return v;
}

static unsigned long long read_u(const char *path)
{
	char buf[32];
	const char *p = buf;
	return read_small(path, buf, sizeof(buf)) ? parse_u(&p) : NONE;
}

/* Calls fn for each line of the file (a line longer than the buffer is cut
 * short) until fn returns true.  False if the file could not be read.  */
static bool scan_lines(const char *path, bool (*fn)(const char *line, void *ctx),
		       void *ctx)
{
	int fd = open_ro(path, 0);
	if (fd < 0)
		return false;
	char chunk[512], line[256];
	size_t len = 0;
	bool done = false;
	long n = 0;
	while (!done && (n = nptl_sys3(SYS_read, fd, chunk, sizeof(chunk))) > 0) {
		for (long i = 0; i < n && !done; i++) {
			if (chunk[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = chunk[i];
				continue;
			}
			line[len] = 0;
			len = 0;
			done = fn(line, ctx);
		}
	}
	close_fd(fd);
	return done || n == 0;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static unsigned long long limit(int resource)
{
	struct rlimit rl;
	if (nptl_sys4(SYS_prlimit64, 0, resource, NULL, &rl) != 0 ||
	    rl.rlim_cur == RLIM_INFINITY)
		return NONE;
	return rl.rlim_cur;
}

/* ---- tasks ------------------------------------------------------------ */

/* Whether the calling thread has one of the capabilities (all below 32)
 * in its effective set.  */
static bool capable(unsigned int mask)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	if (nptl_sys2(SYS_capget, &h, d) != 0)
		return false;
	return (d[0].effective & mask) != 0;
}

/* Whether we are in the first user namespace, where the kernel's
 * exemptions below (uid 0, capabilities) hold: its uid_map maps all.  */
static bool first_userns(void)
{
	char buf[64];
	const char *p = buf;
	if (!read_small("/proc/self/uid_map", buf, sizeof(buf)))
		return true;   /* no user namespaces */
	return parse_u(&p) == 0 && parse_u(&p) == 0 && parse_u(&p) == 4294967295ULL;
}

/* The kernel lets a process with uid 0 (in the first user namespace) or
 * CAP_SYS_RESOURCE or CAP_SYS_ADMIN (there) past RLIMIT_NPROC.  */
static bool nproc_exempt(unsigned long long uid, bool first_ns)
{
	return first_ns &&
	       (uid == 0 || capable((1u << CAP_SYS_RESOURCE) | (1u << CAP_SYS_ADMIN)));
}

struct status_ctx {
	unsigned long long uid, threads;
	int found;
};

static bool status_line(const char *line, void *arg)
{
	struct status_ctx *c = arg;
	const char *p = line;
	if (starts(line, "Uid:")) {
		p += 4;
		c->uid = parse_u(&p);
		c->found++;
	} else if (starts(line, "Threads:")) {
		p += 8;
		c->threads = parse_u(&p);
		c->found++;
	}
	return c->found == 2;
}

struct dirent64_hdr {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* What RLIMIT_NPROC counts: the tasks of our real uid, as far as /proc
 * shows them.  */
__attribute__((noinline))
static unsigned long long uid_tasks(unsigned long long uid)
{
	int dir = open_ro("/proc", O_DIRECTORY);
	if (dir < 0)
		return NONE;
	unsigned long long total = 0;
	char ents[1024] __attribute__((aligned(8)));
	long n;
	while ((n = nptl_sys3(SYS_getdents64, dir, ents, sizeof(ents))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64_hdr *d = (struct dirent64_hdr *)(void *)(ents + off);
			off += d->d_reclen;
			if (d->d_name[0] < '1' || d->d_name[0] > '9')
				continue;
			char path[48] = "/proc/";
			size_t l = strnlen(d->d_name, 20);
			memcpy(path + 6, d->d_name, l);
			memcpy(path + 6 + l, "/status", 8);
			struct status_ctx c = { NONE, 0, 0 };
			scan_lines(path, status_line, &c);
			if (c.uid == uid && c.threads != NONE)
				total += c.threads;
		}
	}
	close_fd(dir);
	return total;
}

/* ---- the pids cgroup ---------------------------------------------------- */

struct cg_ctx {
	char path[160];   /* our cgroup in the pids hierarchy */
	bool v1;          /* in a cgroup v1 "pids" hierarchy */
	bool found;
};

/* /proc/self/cgroup: "ID:controllers:path"; v1's "pids" wins over v2's
 * single hierarchy ("0::path") where both are there.  */
static bool cgroup_line(const char *line, void *arg)
{
	struct cg_ctx *c = arg;
	const char *ctl = strchr(line, ':');
	const char *path = ctl ? strchr(ctl + 1, ':') : NULL;
	if (!path)
		return false;
	ctl++;
	path++;
	bool v2 = ctl == path - 1 && starts(line, "0:");
	bool pids = false;
	for (const char *p = ctl; p < path - 1;) {
		const char *e = memchr(p, ',', (size_t)(path - 1 - p));
		if (!e)
			e = path - 1;
		if (e - p == 4 && strncmp(p, "pids", 4) == 0)
			pids = true;
		p = e + 1;
	}
	if (pids || (v2 && !c->found)) {
		size_t l = strnlen(path, sizeof(c->path) - 1);
		memcpy(c->path, path, l);
		c->path[l] = 0;
		c->v1 = pids;
		c->found = true;
	}
	return pids;
}

struct mnt_ctx {
	bool v1;
	char root[96];    /* the hierarchy's directory mounted there */
	char point[96];
	bool found;
};

/* /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT POINT OPTS [TAGS] - TYPE
 * SOURCE SUPEROPTS".  */
static bool mount_line(const char *line, void *arg)
{
	struct mnt_ctx *c = arg;
	const char *f[5];
	const char *p = line;
	for (int i = 0; i < 5; i++) {
		f[i] = p;
		p = strchr(p, ' ');
		if (!p)
			return false;
		p++;
	}
	const char *dash = strstr(p, " - ");
	if (!dash)
		return false;
	const char *type = dash + 3;
	if (c->v1) {
		if (!starts(type, "cgroup "))
			return false;
		const char *opts = strrchr(type, ' ');
		if (!opts || !strstr(opts, "pids"))
			return false;
	} else if (!starts(type, "cgroup2 ")) {
		return false;
	}
	size_t lr = (size_t)(f[4] - f[3] - 1), lp = (size_t)(p - f[4] - 1);
	if (lr >= sizeof(c->root) || lp >= sizeof(c->point))
		return false;
	memcpy(c->root, f[3], lr);
	c->root[lr] = 0;
	memcpy(c->point, f[4], lp);
	c->point[lp] = 0;
	c->found = true;
	return true;
}

/* The pids cgroup level from ours up to the top with the least room left
 * (the first one full, or the tightest): pids.max limits a subtree.  */
__attribute__((noinline))
static void pids_cgroup(struct nptl_create_facts *f)
{
	struct cg_ctx cg = { .found = false };
	/* The new task starts in its creator's cgroup, and in cgroup v1 (or
	 * v2's threaded mode) a thread's may differ from its process's.  */
	scan_lines("/proc/thread-self/cgroup", cgroup_line, &cg);
	if (!cg.found)
		scan_lines("/proc/self/cgroup", cgroup_line, &cg);
	if (!cg.found)
		return;
	struct mnt_ctx m = { .v1 = cg.v1, .found = false };
	scan_lines("/proc/self/mountinfo", mount_line, &m);
	if (!m.found)
		return;
	/* Our path as seen under the mount: the mount may show a subtree.  */
	const char *rel = cg.path;
	size_t lroot = strlen(m.root);
	if (strcmp(m.root, "/") != 0) {
		if (strncmp(rel, m.root, lroot) != 0 ||
		    (rel[lroot] != '/' && rel[lroot] != 0))
			return;
		rel += lroot;
	}
	char dir[256];
	size_t lp = strlen(m.point), lrel = strlen(rel);
	if (lp + lrel + sizeof("/pids.current") > sizeof(dir))
		return;
	memcpy(dir, m.point, lp);
	memcpy(dir + lp, rel, lrel + 1);
	size_t end = lp + lrel;
	while (end > lp && dir[end - 1] == '/')
		end--;
	unsigned long long best_room = NONE;
	for (;;) {
		memcpy(dir + end, "/pids.max", sizeof("/pids.max"));
		unsigned long long max = read_u(dir);
		if (max != NONE) {
			memcpy(dir + end, "/pids.current", sizeof("/pids.current"));
			unsigned long long cur = read_u(dir);
			unsigned long long room = cur == NONE ? NONE :
						  cur >= max ? 0 : max - cur;
			if (cur != NONE && (best_room == NONE || room < best_room)) {
				best_room = room;
				f->pids_max = max;
				f->pids_current = cur;
				/* Its name in the hierarchy, as
				 * /proc/self/cgroup gives names.  */
				size_t off = 0, l = end - lp;
				if (strcmp(m.root, "/") != 0) {
					memcpy(f->cgroup, m.root, lroot);
					off = lroot;
				}
				if (off + l >= sizeof(f->cgroup))
					l = sizeof(f->cgroup) - 1 - off;
				memcpy(f->cgroup + off, dir + lp, l);
				f->cgroup[off + l] = 0;
				if (!f->cgroup[0])
					memcpy(f->cgroup, "/", 2);
			}
		}
		if (end == lp)
			break;
		while (end > lp && dir[end - 1] != '/')
			end--;
		if (end > lp)
			end--;   /* the slash before the last component */
	}
}

/* ---- memory ------------------------------------------------------------- */

/* Fields of a "Key:   value kB" file (/proc/self/status, /proc/meminfo),
 * each to NONE until found.  */
struct kv_ctx {
	const char *const *keys;
	unsigned long long *vals;
	int n, found;
};

static bool kv_line(const char *line, void *arg)
{
	struct kv_ctx *c = arg;
	for (int i = 0; i < c->n; i++) {
		size_t l = strlen(c->keys[i]);
		if (strncmp(line, c->keys[i], l) == 0 && line[l] == ':') {
			const char *p = line + l + 1;
			c->vals[i] = parse_u(&p);
			c->found++;
			break;
		}
	}
	return c->found == c->n;
}

static void read_kv(const char *path, const char *const *keys,
		    unsigned long long *vals, int n)
{
	for (int i = 0; i < n; i++)
		vals[i] = NONE;
	struct kv_ctx c = { keys, vals, n, 0 };
	scan_lines(path, kv_line, &c);
}

static unsigned long long kib(unsigned long long v)
{
	return v == NONE ? NONE : v * 1024;
}

static bool maps_line(const char *line, void *arg)
{
	/* x86_64's vsyscall page is shown but is no mapping of ours: the
	 * kernel does not count it against vm.max_map_count.  */
	static const char gate[] = "[vsyscall]";
	size_t l = strlen(line), g = sizeof(gate) - 1;
	if (l < g || strcmp(line + l - g, gate) != 0)
		++*(unsigned long long *)arg;
	return false;
}

void __nptl_create_facts(struct nptl_create_facts *f)
{
	f->nproc_limit = f->uid = f->uid_tasks = NONE;
	f->nproc_exempt = false;
	f->threads_max = f->nr_threads = f->pid_max = NONE;
	f->pids_max = f->pids_current = NONE;
	f->cgroup[0] = 0;
	f->as_limit = f->vm_size = f->data_limit = f->vm_data = NONE;
	f->memlock_limit = f->vm_locked = NONE;
	f->memlock_exempt = false;
	f->mem_swap_total = NONE;
	f->max_map_count = f->map_count = NONE;
	f->overcommit = -1;
	f->commit_limit = f->committed = NONE;

	/* glibc's own pthread_create for the start-up thread (INIT) may
	 * have failed in its mmap or its clone: both families.  */
	bool init = f->step == NPTL_CREATE_INIT;
	if ((f->step == NPTL_CREATE_CLONE && f->kerr == EAGAIN) || init) {
		f->nproc_limit = limit(RLIMIT_NPROC);
		f->uid = (unsigned long long)nptl_sys0(SYS_getuid);
		f->nproc_exempt = nproc_exempt(f->uid, first_userns());
		f->threads_max = read_u("/proc/sys/kernel/threads-max");
		f->pid_max = read_u("/proc/sys/kernel/pid_max");
		/* "0.00 0.01 0.05 RUNNING/TASKS LASTPID" */
		char la[128];
		if (read_small("/proc/loadavg", la, sizeof(la))) {
			const char *p = strchr(la, '/');
			if (p) {
				p++;
				f->nr_threads = parse_u(&p);
			}
		}
		pids_cgroup(f);
		if (f->nproc_limit != NONE && !f->nproc_exempt)
			f->uid_tasks = uid_tasks(f->uid);
	}
	if (f->step == NPTL_CREATE_STACK || f->step == NPTL_CREATE_GUARD ||
	    f->step == NPTL_CREATE_TLS || f->step == NPTL_CREATE_LIVE || init) {
		f->as_limit = limit(RLIMIT_AS);
		f->data_limit = limit(RLIMIT_DATA);
		f->memlock_limit = limit(RLIMIT_MEMLOCK);
		f->memlock_exempt = first_userns() && capable(1u << CAP_IPC_LOCK);
		static const char *const vm_keys[] = { "VmSize", "VmData", "VmLck" };
		unsigned long long vm[3];
		read_kv("/proc/self/status", vm_keys, vm, 3);
		f->vm_size = kib(vm[0]);
		f->vm_data = kib(vm[1]);
		f->vm_locked = kib(vm[2]);
		f->max_map_count = read_u("/proc/sys/vm/max_map_count");
		unsigned long long maps = 0;
		if (scan_lines("/proc/self/maps", maps_line, &maps))
			f->map_count = maps;
		unsigned long long oc = read_u("/proc/sys/vm/overcommit_memory");
		f->overcommit = oc == NONE ? -1 : (int)oc;
		static const char *const mem_keys[] = {
			"CommitLimit", "Committed_AS", "MemTotal", "SwapTotal"
		};
		unsigned long long mem[4];
		if (f->overcommit == 0 || f->overcommit == 2) {
			read_kv("/proc/meminfo", mem_keys, mem, 4);
			if (f->overcommit == 2) {
				f->commit_limit = kib(mem[0]);
				f->committed = kib(mem[1]);
			} else if (mem[2] != NONE && mem[3] != NONE) {
				f->mem_swap_total = kib(mem[2] + mem[3]);
			}
		}
	}
}
