// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Thread memory and its cache.
 *
 * One mapping per thread holds, from the top down: libnptl's struct
 * nptl_ext, glibc's struct pthread (the thread pointer), the static TLS
 * blocks below it, the stack, and a guard at the bottom:
 *
 *   map                                                         map + size
 *   | guard | stack (>= requested + signal frame) | TLS | pthread | ext |
 *
 * The requested stack size is all usable stack: TLS and the descriptor come
 * on top of it (glibc takes them out of it, its bug 11787), and so does room
 * for one signal frame of this CPU (AT_MINSIGSTKSZ: AVX-512 frames are
 * larger than the 2 KiB MINSIGSTKSZ promises).  A thread on a user-supplied
 * stack gets a mapping of the same kind with no stack part, so its TLS and
 * descriptor are recycled like everybody else's.
 *
 * Protocol.  A descriptor is in exactly one place: on the live list (its
 * thread runs or waits to be joined) or in the cache.  Both lists, and the
 * cache's byte count, are guarded by __nptl_stack_lock; a thread is also on
 * ld.so's dl_stack_user list from before clone until it is freed, guarded by
 * ld.so's lock, which is always taken inside ours.  A descriptor goes into
 * the cache when it is freed (joined, or detached and finished), possibly
 * while its thread still runs its last instructions on it: the kernel clears
 * pd->tid (CLONE_CHILD_CLEARTID) only once the thread no longer touches its
 * memory, so the cache hands out, and trims, only entries whose tid is 0.
 * A joined descriptor's tid is -1 (join's mark, as in glibc): free too.
 *
 * Executable stacks.  When a library that needs an executable stack is
 * loaded, ld.so makes the stacks on its dl_stack_used list executable,
 * live libnptl threads' among them (src/glibc/ldso.c).  A cached or new
 * mapping that does not have the protection ld.so now asks for gets it
 * when its thread goes live, under ld.so's lock, so that it cannot slip
 * between ld.so's walk and the list.  Around fork the threads are parked
 * on ld.so's other list; a walk that ran meanwhile is caught up in the
 * parent handler the same way.
 * The cache is LIFO (the warmest stack first) and bounded by bytes of
 * mapping, 40 MiB as glibc's, or what glibc's tunable
 * glibc.pthread.stack_cache_size says (0: no cache); reuse costs no
 * system call.  It must not cost the program memory it needs:
 *  - an exiting thread gives back the pages of its stack below what it
 *    still runs on (MADV_DONTNEED, as glibc), so a cached stack holds only
 *    its top pages, TLS and descriptor -- except one, the kept stack
 *    (below);
 *  - a thread whose mapping cannot be made (ENOMEM under RLIMIT_AS, or
 *    vm.max_map_count) empties the cache and tries again;
 *  - under a finite RLIMIT_AS (ulimit -v), or when the mapping is refused
 *    even after that, a thread gets glibc's compact layout (TLS and
 *    descriptor taken out of the requested size, no extra signal-frame
 *    room), so that a program fits as many threads in its address space
 *    as under glibc.  A compact mapping is handed out again only while
 *    RLIMIT_AS is finite: otherwise a thread gets the whole stack it asks
 *    for.  (getrlimit costs a system call, paid only when a mapping is
 *    made, or a compact one found, never on the cached fast path.)
 * What libnptl cannot do is empty the cache when the program's own
 * malloc or mmap fails: those never reach libnptl.  The glibc-sized bound
 * is the answer there, as in glibc.
 *
 * The kept stack.  In the textbook loop (create, join, create...) the
 * next thread gets the stack the last one left, and giving its pages back
 * at exit only makes the next thread fault them in again: the madvise and
 * the faults were 7 % of a create-join cycle.  So one exiting thread at a
 * time skips the madvise: it publishes its descriptor in `kept` (a CAS
 * from NULL, in the exit path, without the lock) with the top of what it
 * did not give back in kept_hi.  Every other transition is kept -> NULL
 * under the stack lock, by whoever removes that entry from the cache:
 * a creation that reuses it (the point of it: the next thread finds its
 * pages resident), a trim that unmaps it, or the release that leaves no
 * live thread of ours, which takes the entry off the cache, waits until
 * its thread is gone (tid cleared), gives its pages back and puts it
 * back, so that nothing is handed out while its pages are being zapped.
 * (A detached thread that is itself that last release is still above
 * kept_hi, PTHREAD_STACK_MIN below where it was, and zaps its own.)  So
 * at most one thread's touched stack stays resident, and only while
 * libnptl threads still run: after the last join the process's RSS is
 * what glibc's is.
 *
 * Batches.  A program that starts thousands of threads at once finds the
 * cache empty for each, and then paid per thread an mmap, a madvise for
 * the guard, two page faults (descriptor and TLS, the first stack frame)
 * and at the end a munmap with its TLB shoot-down: together more than
 * clone itself costs.  So a miss while many threads are live
 * maps several like mappings at once (one mmap, at most BATCH_MAX, about
 * an eighth of the live threads), installs their guards and faults in
 * their hot top pages with one process_madvise(2) each, hands out the
 * first and keeps the rest on the `fresh` list for the next misses of
 * the cache.  Likewise entries trimmed from the cache while many
 * threads are live wait on the `dead` list until there are DEAD_MAX of
 * them, and go in as few munmaps as their addresses allow (a batch's
 * mappings are adjacent, and threads tend to end in the order they
 * began).  Both lists are emptied when the last live thread is freed,
 * when a mapping is refused for want of memory, and whenever RLIMIT_AS is
 * found finite, so the address space a program sees after its threads are
 * gone is what it was without batches.  A fresh entry holds only its hot
 * pages (no TLS of its own yet: that is made when it is handed out, as for
 * any new mapping), a dead one only its top pages until its munmap.  A
 * kernel that does not know PIDFD_SELF_THREAD_GROUP (a 2025 addition)
 * or a seccomp filter that refuses process_madvise gets the same work
 * done one madvise per mapping.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include "nptl.h"

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef PIDFD_SELF_THREAD_GROUP
#define PIDFD_SELF_THREAD_GROUP -10001
#endif

int __nptl_stack_lock;

/* Fork.  The prepare handler holds the stack lock across fork so that the
 * child finds consistent lists, and records the parent's pid; the child
 * handler repairs the lists and frees the lock.  But another library's
 * child handler may run before ours and create a thread (ThreadSanitizer
 * restarts its background thread there): a thread that finds the lock
 * taken and a pid that is not the one recorded is in such a child, before
 * our handler, and does the repair itself, once.  */
static pid_t fork_parent_pid;

static void stack_lock(void)
{
	int c = 0;
	if (__atomic_compare_exchange_n(&__nptl_stack_lock, &c, 1, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	pid_t p = __atomic_load_n(&fork_parent_pid, __ATOMIC_RELAXED);
	if (p && p != (pid_t)nptl_sys0(SYS_getpid))
		__nptl_stack_fork_child();
	nptl_lll_lock(&__nptl_stack_lock);
}

static void stack_unlock(void)
{
	nptl_lll_unlock(&__nptl_stack_lock);
}

static struct nptl_ext live = { .next = &live, .prev = &live };
static struct nptl_ext cache = { .next = &cache, .prev = &cache };
static size_t cache_bytes;
static int madv_guard_ok = 1;
static struct nptl_ext *kept;    /* the kept stack, or NULL (above) */

/* Bound on the cache, in bytes of mapping: glibc's default, or the
 * tunable's value (__nptl_stack_cache_init).  */
static size_t cache_max = (size_t)40 << 20;

/* Batches (see above); all guarded by __nptl_stack_lock.  */
#define BATCH_MAX 64
#define DEAD_MAX 64
static struct nptl_ext fresh = { .next = &fresh, .prev = &fresh };
static struct nptl_ext *dead[DEAD_MAX];
static int n_dead;
static size_t n_live;            /* descriptors on the live list */
static bool as_seen_limited;     /* RLIMIT_AS was finite at the last look */

static bool as_limited(void)
{
	struct rlimit rl;
	bool lim = getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;
	__atomic_store_n(&as_seen_limited, lim, __ATOMIC_RELAXED);
	return lim;
}

/* For __pthread_get_minstack: whether a new thread now gets the compact
 * layout, and what that layout takes out of the requested size.  */
bool __nptl_stack_compact_now(void)
{
	return as_limited();
}

size_t __nptl_stack_compact_room(void)
{
	size_t align;
	size_t tls = __nptl_tls_static_size(&align);
	return tls + NPTL_EXT_SIZE + align;
}

/* GLIBC_TUNABLES=...:glibc.pthread.stack_cache_size=N:...  Read as glibc
 * reads it: a number in C syntax (decimal, 0x hex, leading-0 octal); a
 * malformed value is ignored; ignored altogether in a set-user-ID
 * program, where glibc erases it.  */
void __nptl_stack_cache_init(void)
{
	static const char name[] = "glibc.pthread.stack_cache_size=";
	const char *t = getauxval(AT_SECURE) ? NULL : getenv("GLIBC_TUNABLES");
	while (t && *t) {
		const char *end = strchrnul(t, ':');
		if ((size_t)(end - t) > sizeof(name) - 1 &&
		    memcmp(t, name, sizeof(name) - 1) == 0) {
			const char *v = t + sizeof(name) - 1;
			char *stop;
			errno = 0;
			unsigned long long n = strtoull(v, &stop, 0);
			if (stop == end && errno == 0 && *v != '-' && *v != '+' &&
			    n <= SIZE_MAX)
				cache_max = (size_t)n;
		}
		t = *end ? end + 1 : end;
	}
}

static void list_del(struct nptl_ext *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
}

static void list_add(struct nptl_ext *head, struct nptl_ext *e)
{
	e->next = head->next;
	e->prev = head;
	head->next->prev = e;
	head->next = e;
}

static struct pthread *ext_pd(struct nptl_ext *e)
{
	return (struct pthread *)((char *)e - NPTL_TCB_SIZE);
}

/* Give a thread's own stack the protection ld.so asks for now (only ever
 * more: ld.so never takes PROT_EXEC away).  Under ld.so's lock.  Returns
 * mprotect's error, 0 when done.  */
static int match_prot(struct pthread *pd)
{
	struct nptl_ext *e = nptl_ext(pd);
	if (!e->stack_size || pd->user_stack || !__nptl_dl_stacks_exec() ||
	    (e->prot & PROT_EXEC))
		return 0;
	int prot = e->prot | PROT_EXEC;
	long r = nptl_sys3(SYS_mprotect, (char *)e->map + e->guard_size,
			   e->map_size - e->guard_size, prot);
	if (r != 0)
		return (int)-r;
	e->prot = prot;
	return 0;
}

void __nptl_stack_fork_prepare(void)
{
	nptl_lll_lock(&__nptl_stack_lock);
	__atomic_store_n(&fork_parent_pid, (pid_t)nptl_sys0(SYS_getpid), __ATOMIC_RELAXED);
	__nptl_dl_lock();
	for (struct nptl_ext *e = live.next; e != &live; e = e->next)
		__nptl_dl_park(ext_pd(e), true);
	__nptl_dl_unlock();
}

void __nptl_stack_fork_parent(void)
{
	__nptl_dl_lock();
	for (struct nptl_ext *e = live.next; e != &live; e = e->next) {
		__nptl_dl_park(ext_pd(e), false);
		/* Nothing to report to: a stack that stays as it was is what
		 * glibc leaves when its own walk fails half-way.  */
		(void)match_prot(ext_pd(e));
	}
	__nptl_dl_unlock();
	__atomic_store_n(&fork_parent_pid, 0, __ATOMIC_RELAXED);
	nptl_lll_unlock(&__nptl_stack_lock);
}

static size_t sigframe_room(void)
{
	unsigned long m = getauxval(AT_MINSIGSTKSZ);
	if (m < 2048)
		m = 2048;
	return (m + 63) & ~63UL;
}

static int install_guard(char *lo, size_t len)
{
	if (!len)
		return 0;
	if (__atomic_load_n(&madv_guard_ok, __ATOMIC_RELAXED)) {
		if (nptl_sys3(SYS_madvise, lo, len, MADV_GUARD_INSTALL) == 0)
			return 0;
		/* Old kernel, or a seccomp filter: mprotect from now on.  */
		__atomic_store_n(&madv_guard_ok, 0, __ATOMIC_RELAXED);
	}
	return (int)-nptl_sys3(SYS_mprotect, lo, len, PROT_NONE);
}

/* One madvise over several ranges of our own memory: process_madvise(2)
 * on PIDFD_SELF_THREAD_GROUP (older kernels, and seccomp filters, refuse
 * it, and the caller goes range by range).  Returns whether every range
 * was done.  */
static int pm_self_ok = 1;

static bool madvise_all(const struct iovec *iov, int n, int advice)
{
	if (n < 2 || !__atomic_load_n(&pm_self_ok, __ATOMIC_RELAXED))
		return false;
	size_t want = 0;
	for (int i = 0; i < n; i++)
		want += iov[i].iov_len;
	long r = nptl_syscall(SYS_process_madvise, PIDFD_SELF_THREAD_GROUP,
			      iov, n, advice, 0, 0);
	if (r == (long)want)
		return true;
	if (r == -EBADF || r == -ENOSYS || r == -EPERM || r == -ESRCH)
		__atomic_store_n(&pm_self_ok, 0, __ATOMIC_RELAXED);
	return false;
}

/* Fault in a new mapping's hot pages at once (MADV_POPULATE_WRITE, Linux
 * 5.14): one system call instead of the page faults its thread and its
 * creator would take on them one by one.  Only a saving: a refusal
 * (old kernel, no memory now) leaves them to fault in as they would.  */
static int populate_ok = 1;

static void populate(const struct iovec *iov, int n)
{
	if (!__atomic_load_n(&populate_ok, __ATOMIC_RELAXED) ||
	    madvise_all(iov, n, MADV_POPULATE_WRITE))
		return;
	for (int i = 0; i < n; i++)
		if (nptl_sys3(SYS_madvise, iov[i].iov_base, iov[i].iov_len,
			      MADV_POPULATE_WRITE) == -EINVAL) {
			__atomic_store_n(&populate_ok, 0, __ATOMIC_RELAXED);
			return;
		}
}

/* The size of a mapping for this request; 0 when there can be none
 * (*err says why).  compact: glibc's layout, the requested size holding
 * the TLS and descriptor too.  */
static size_t map_size_for(size_t stack_size, size_t guard, bool compact,
			   int *err, struct nptl_create_why *why)
{
	size_t pg = __nptl_page_size;
	size_t top = __nptl_stack_compact_room();
	size_t stack_room = stack_size ? stack_size + sigframe_room() : 0;
	size_t size = guard + stack_room + top;
	if (compact) {
		/* As little as glibc would refuse with EINVAL: no thread.  */
		if (stack_size < top + PTHREAD_STACK_MIN) {
			*err = EAGAIN;
			return 0;
		}
		size = guard + stack_size;
	}
	size = (size + pg - 1) & ~(pg - 1);
	if (size < stack_size || size < guard) {
		*err = EINVAL;
		why->step = NPTL_CREATE_STACK;
		why->kerr = 0;
		return 0;
	}
	return size;
}

/* Where the descriptor of the mapping [map, map + size) goes (align:
 * the static TLS alignment).  */
static struct pthread *pd_at(char *map, size_t size, size_t align)
{
	return (struct pthread *)(((uintptr_t)map + size - NPTL_EXT_SIZE -
				   NPTL_TCB_SIZE) & ~(uintptr_t)(align - 1));
}

/* The pages a new thread touches first, from its first stack frames up
 * through its TLS (tls bytes with the TCB), descriptor and our
 * extension.  */
static struct iovec hot_pages(char *map, size_t size, size_t guard,
			      size_t tls, size_t align)
{
	uintptr_t pg = __nptl_page_size;
	uintptr_t pd = (uintptr_t)pd_at(map, size, align);
	uintptr_t lo = (pd - (tls - NPTL_TCB_SIZE) - 2048) & ~(pg - 1);
	if (lo < (uintptr_t)map + guard)
		lo = (uintptr_t)map + guard;
	return (struct iovec){ (void *)lo, (uintptr_t)map + size - lo };
}

/* Record the mapping in its descriptor's extension; its TLS is made when
 * it is handed out (tls_give).  */
static struct pthread *carve(char *map, size_t size, size_t stack_size,
			     size_t guard, bool compact, int prot,
			     size_t tls, size_t align)
{
	struct pthread *pd = pd_at(map, size, align);
	struct nptl_ext *e = nptl_ext(pd);
	e->map = map;
	e->map_size = size;
	e->prot = prot;
	e->stack_size = stack_size;
	e->guard_size = guard;
	e->tls_size = tls;
	e->compact = compact;
	return pd;
}

static void cache_add_locked(struct nptl_ext *e)
{
	list_add(&cache, e);
	cache_bytes += e->map_size;
}

/* A descriptor's TLS could not be made (malloc): it goes back to the
 * cache or the fresh list, where it came from, and the creation's error
 * is set.  */
static bool tls_refused(struct pthread *pd, bool cached, int *err,
			struct nptl_create_why *why)
{
	stack_lock();
	if (cached)
		cache_add_locked(nptl_ext(pd));
	else
		list_add(&fresh, nptl_ext(pd));
	stack_unlock();
	*err = EAGAIN;
	why->step = NPTL_CREATE_TLS;
	why->kerr = ENOMEM;   /* all that can fail in it is malloc */
	return false;
}

/* glibc's TLS for a descriptor that never had it (a new mapping).  */
static bool tls_give(struct pthread *pd, int *err, struct nptl_create_why *why)
{
	if (_dl_allocate_tls(pd) == NULL)
		return tls_refused(pd, false, err, why);
	struct nptl_ext *e = nptl_ext(pd);
	pd->header.tcb = pd;
	pd->header.self = pd;
	pd->stackblock = e->map;
	pd->stackblock_size = e->map_size;
	pd->guardsize = e->guard_size;
	return true;
}

/* How many mappings a miss makes at once: one while few threads are live,
 * up to BATCH_MAX as their number grows.  */
static int batch_count(void)
{
	size_t n = __atomic_load_n(&n_live, __ATOMIC_RELAXED) / 8;
	return n < 1 ? 1 : n > BATCH_MAX ? BATCH_MAX : (int)n;
}

/* count fresh mappings laid out as above, in one mmap; the first is
 * returned with its TLS, the others go on the fresh list.  */
static struct pthread *map_new(size_t stack_size, size_t guard, bool compact,
			       int count, int *err, struct nptl_create_why *why)
{
	size_t size = map_size_for(stack_size, guard, compact, err, why);
	if (!size)
		return NULL;
	if (compact || !stack_size || count < 1 || size > SIZE_MAX / BATCH_MAX)
		count = 1;
	int prot = stack_size ? __nptl_dl_stack_prot() : PROT_READ | PROT_WRITE;
	long m;
	for (;;) {
		m = nptl_syscall(SYS_mmap, 0, size * count, prot,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (!nptl_sys_failed(m) || count == 1)
			break;
		count = 1;   /* a batch is only a saving */
	}
	if (nptl_sys_failed(m)) {
		*err = EAGAIN;
		why->step = NPTL_CREATE_STACK;
		why->kerr = (int)-m;
		return NULL;
	}
	char *map = (char *)m;
	struct iovec iov[BATCH_MAX];
	int gerr = 0;
	if (guard) {
		for (int i = 0; i < count; i++)
			iov[i] = (struct iovec){ map + i * size, guard };
		if (!__atomic_load_n(&madv_guard_ok, __ATOMIC_RELAXED) ||
		    !madvise_all(iov, count, MADV_GUARD_INSTALL))
			for (int i = 0; i < count && !gerr; i++)
				gerr = install_guard(map + i * size, guard);
	}
	if (gerr) {
		nptl_sys2(SYS_munmap, map, size * count);
		*err = EAGAIN;
		why->step = NPTL_CREATE_GUARD;
		why->kerr = gerr;
		return NULL;
	}
	size_t align;
	size_t tls = __nptl_tls_static_size(&align);
	for (int i = 0; i < count; i++)
		iov[i] = hot_pages(map + i * size, size, guard, tls, align);
	populate(iov, count);
	struct pthread *pds[BATCH_MAX];
	for (int i = 0; i < count; i++)
		pds[i] = carve(map + i * size, size, stack_size, guard, compact,
			       prot, tls, align);
	if (count > 1) {
		/* Handed out from the lowest address up: threads that begin
		 * and end in order leave adjacent mappings to the dead list.  */
		stack_lock();
		for (int i = count - 1; i >= 1; i--)
			list_add(&fresh, nptl_ext(pds[i]));
		stack_unlock();
	}
	return tls_give(pds[0], err, why) ? pds[0] : NULL;
}

/* An entry leaves the cache: if it is the kept stack, it is no longer
 * (reused or unmapped, its pages need no madvise).  */
static void unkeep_locked(struct nptl_ext *e)
{
	if (__atomic_load_n(&kept, __ATOMIC_RELAXED) == e) {
		e->kept_hi = 0;
		__atomic_store_n(&kept, NULL, __ATOMIC_RELAXED);
	}
}

/* Trim the cache to bound bytes, oldest first; returns the entries to
 * unmap, chained through next, for the caller to bury outside the lock.
 * An entry whose thread still runs its last instructions (tid not yet
 * cleared) stays for a later trim.  */
static struct nptl_ext *trim_locked(size_t bound)
{
	struct nptl_ext *out = NULL;
	struct nptl_ext *e = cache.prev;
	while (cache_bytes > bound && e != &cache) {
		struct nptl_ext *prev = e->prev;
		if (__atomic_load_n(&ext_pd(e)->tid, __ATOMIC_ACQUIRE) <= 0) {
			__nptl_glibc_stack_unmap(ext_pd(e));
			unkeep_locked(e);
			list_del(e);
			cache_bytes -= e->map_size;
			e->next = out;
			out = e;
		}
		e = prev;
	}
	return out;
}

/* munmap a set of mappings in as few calls as their addresses allow.  */
static void unmap_ranges(struct nptl_ext **v, int n)
{
	for (int i = 1; i < n; i++) {   /* insertion sort by address: n <= 64 */
		struct nptl_ext *x = v[i];
		int j = i;
		for (; j > 0 && (char *)v[j - 1]->map > (char *)x->map; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	for (int i = 0; i < n;) {
		char *lo = v[i]->map;
		char *hi = lo + v[i]->map_size;
		for (i++; i < n && (char *)v[i]->map == hi; i++)
			hi += v[i]->map_size;
		nptl_sys2(SYS_munmap, lo, hi - lo);
	}
}

/* The dead list's entries and the fresh list's, taken off for the caller
 * to unmap: all of them (all), or else the dead ones once there are
 * DEAD_MAX.  Under the lock; returns how many were put in out.  */
static int take_spare_locked(struct nptl_ext **out, int cap, bool all)
{
	int n = 0;
	if (all || n_dead >= DEAD_MAX) {
		for (int i = 0; i < n_dead; i++)
			out[n++] = dead[i];
		n_dead = 0;
	}
	while (all && fresh.next != &fresh && n < cap) {
		struct nptl_ext *e = fresh.next;
		list_del(e);
		out[n++] = e;
	}
	return n;
}

/* Entries trimmed from the cache: their TLS goes now (or, in a thread's
 * exit, at the next creation, join or detach: src/glibc/tls.c says why),
 * their mappings now or, while many threads are live and the address
 * space is not limited, with the next batch of dead ones.  */
static void bury(struct nptl_ext *e, bool exiting)
{
	while (e) {
		struct nptl_ext *next = e->next;
		if (!ext_pd(e)->header.dtv)
			;       /* dropped at its join (tls.c) */
		else if (exiting)
			__nptl_tls_orphan(ext_pd(e));
		else
			_dl_deallocate_tls(ext_pd(e), false);
		bool later = false;
		struct nptl_ext *v[DEAD_MAX + BATCH_MAX];
		int n = 0;
		if (batch_count() > 1 &&
		    !__atomic_load_n(&as_seen_limited, __ATOMIC_RELAXED)) {
			stack_lock();
			if (n_dead < DEAD_MAX) {
				dead[n_dead++] = e;
				later = true;
				n = take_spare_locked(v, DEAD_MAX + BATCH_MAX, false);
			}
			stack_unlock();
		}
		if (!later)
			nptl_sys2(SYS_munmap, e->map, e->map_size);
		unmap_ranges(v, n);
		e = next;
	}
}

/* Unmap what the fresh and dead lists hold (no live thread needs them);
 * false if they held nothing.  */
static bool drop_spares(void)
{
	struct nptl_ext *v[DEAD_MAX + BATCH_MAX];
	int n;
	bool any = false;
	do {
		stack_lock();
		n = take_spare_locked(v, DEAD_MAX + BATCH_MAX, true);
		stack_unlock();
		unmap_ranges(v, n);
		any |= n > 0;
	} while (n == DEAD_MAX + BATCH_MAX);
	return any;
}

struct pthread *__nptl_stack_get(size_t stack_size, size_t guard,
				 void *user_stack, size_t user_size, int *err,
				 struct nptl_create_why *why)
{
	size_t pg = __nptl_page_size;
	if (user_stack) {
		stack_size = 0;
		guard = 0;
	} else {
		stack_size = (stack_size + pg - 1) & ~(pg - 1);
		guard = (guard + pg - 1) & ~(pg - 1);
	}
	size_t align;
	size_t tls = __nptl_tls_static_size(&align);
	/* What pthread_getattr_np reports, as glibc would: the size asked
	 * for, aligned as glibc aligns it (its block holds TLS; ours has the
	 * room the request, a signal frame and page rounding leave).  */
	size_t reported = stack_size & ~(align - 1);
	struct pthread *pd = NULL;
	bool is_fresh = false;

	__nptl_tls_free_orphans();
	stack_lock();
	for (struct nptl_ext *e = cache.next; e != &cache; e = e->next) {
		if (e->stack_size == stack_size && e->guard_size == guard &&
		    e->tls_size >= tls &&
		    __atomic_load_n(&ext_pd(e)->tid, __ATOMIC_ACQUIRE) <= 0 &&
		    (!e->compact || as_limited())) {
			unkeep_locked(e);
			list_del(e);
			cache_bytes -= e->map_size;
			pd = ext_pd(e);
			break;
		}
	}
	if (!pd)
		for (struct nptl_ext *e = fresh.next; e != &fresh; e = e->next)
			if (e->stack_size == stack_size && e->guard_size == guard &&
			    e->tls_size >= tls) {
				list_del(e);
				pd = ext_pd(e);
				is_fresh = true;
				break;
			}
	stack_unlock();

	if (pd && is_fresh) {
		if (!tls_give(pd, err, why))
			return NULL;
	} else if (pd && pd->header.dtv) {
		__nptl_tls_reinit(pd);
	} else if (pd) {
		if (!__nptl_tls_renew(pd)) {
			tls_refused(pd, true, err, why);
			return NULL;
		}
	} else {
		/* A refusal for want of memory (RLIMIT_AS, max_map_count,
		 * malloc under RLIMIT_AS) empties the cache and the spare
		 * lists and, if that gave anything back, tries again; then
		 * it tries glibc's compact layout.  A limited address space
		 * gets no spares at all.  */
		bool compact = stack_size && as_limited();
		if (compact)
			drop_spares();
		pd = map_new(stack_size, guard, compact, compact ? 1 : batch_count(),
			     err, why);
		if (!pd && why->kerr == ENOMEM) {
			stack_lock();
			struct nptl_ext *all = trim_locked(0);
			stack_unlock();
			bool freed = all != NULL;
			bury(all, false);
			if (drop_spares() || freed)
				pd = map_new(stack_size, guard, compact, 1, err, why);
			if (!pd && why->kerr == ENOMEM && !compact && stack_size)
				pd = map_new(stack_size, guard, true, 1, err, why);
		}
		if (!pd)
			return NULL;
	}
	struct nptl_ext *e = nptl_ext(pd);
	e->user_stack_lo = user_stack;
	e->user_stack_size = user_size;
	e->reported_size = reported;
	pd->user_stack = user_stack != NULL;
	if (user_stack) {
		pd->stackblock = user_stack;
		pd->stackblock_size = user_size;
		pd->guardsize = 0;
	} else {
		pd->stackblock = e->map;
		pd->stackblock_size = e->map_size;
		pd->guardsize = guard;
	}
	return pd;
}

/* In the exiting thread, on its own stack: give the kernel back the pages
 * below the frame it still runs on (keeping PTHREAD_STACK_MIN for the
 * rest of the exit, and signal handlers), as glibc does, so that a cached
 * stack costs no RSS.  A user stack is the user's.  */
void __nptl_stack_release_unused(struct pthread *pd)
{
	struct nptl_ext *e = nptl_ext(pd);
	if (!e->stack_size || e->user_stack_lo)
		return;
	uintptr_t lo = (uintptr_t)e->map + e->guard_size;
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	if (sp < lo + 2 * PTHREAD_STACK_MIN)
		return;
	uintptr_t hi = (sp - PTHREAD_STACK_MIN) & ~(uintptr_t)(__nptl_page_size - 1);
	struct nptl_ext *none = NULL;
	e->kept_hi = hi;
	if (__atomic_compare_exchange_n(&kept, &none, e, false,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return;
	e->kept_hi = 0;
	nptl_sys3(SYS_madvise, lo, hi - lo, MADV_DONTNEED);
}

/* The last live thread of ours is gone: the kept stack gives its pages
 * back now (see the comment at the top), off the cache meanwhile.  */
static void unkeep_last(bool exiting)
{
	stack_lock();
	struct nptl_ext *e = __atomic_load_n(&kept, __ATOMIC_ACQUIRE);
	uintptr_t hi = 0;
	if (e && n_live == 0) {
		hi = e->kept_hi;
		e->kept_hi = 0;
		__atomic_store_n(&kept, NULL, __ATOMIC_RELAXED);
		list_del(e);
		cache_bytes -= e->map_size;
	}
	stack_unlock();
	if (!hi)
		return;
	struct pthread *pd = ext_pd(e);
	if (pd != nptl_self()) {
		int tid;
		while ((tid = __atomic_load_n(&pd->tid, __ATOMIC_ACQUIRE)) > 0)
			nptl_futex_wait(&pd->tid, tid, false);
	}
	uintptr_t lo = (uintptr_t)e->map + e->guard_size;
	nptl_sys3(SYS_madvise, lo, hi - lo, MADV_DONTNEED);
	stack_lock();
	cache_add_locked(e);
	struct nptl_ext *trim = trim_locked(cache_max);
	stack_unlock();
	bury(trim, exiting);
}

/* The usable top of a descriptor's own stack (below the static TLS).  */
void *__nptl_stack_top(struct pthread *pd)
{
	struct nptl_ext *e = nptl_ext(pd);
	if (e->user_stack_lo)
		return (char *)e->user_stack_lo + e->user_stack_size;
	return (void *)(((uintptr_t)pd - (e->tls_size - NPTL_TCB_SIZE)) & ~(uintptr_t)63);
}

/* Before clone: the new thread is on our live list and ld.so's, its stack
 * as executable as ld.so wants.  On failure it is on neither and the
 * caller frees it.  */
int __nptl_stack_live(struct pthread *pd, struct nptl_create_why *why)
{
	stack_lock();
	__nptl_glibc_stack_live(pd);
	__nptl_dl_lock();
	int kerr = match_prot(pd);
	if (!kerr) {
		list_add(&live, nptl_ext(pd));
		__atomic_store_n(&n_live, n_live + 1, __ATOMIC_RELAXED);
		__nptl_dl_add(pd);
	}
	__nptl_dl_unlock();
	stack_unlock();
	if (kerr) {
		why->step = NPTL_CREATE_LIVE;
		why->kerr = kerr;
		return EAGAIN;
	}
	return 0;
}

/* Into the cache, off the live lists if it was on them.  */
static void release(struct pthread *pd, bool was_live)
{
	struct nptl_ext *e = nptl_ext(pd);
	bool exiting = pd == nptl_self();   /* a detached thread's own exit */
	if (!exiting)
		__nptl_tls_free_orphans();
	if (!exiting && pd->user_stack && pd->header.dtv)
		__nptl_tls_drop(pd);
	stack_lock();
	if (was_live) {
		list_del(e);
		__atomic_store_n(&n_live, n_live - 1, __ATOMIC_RELAXED);
		__nptl_dl_lock();
		__nptl_dl_del(pd);
		__nptl_dl_unlock();
	}
	cache_add_locked(e);
	struct nptl_ext *trim = trim_locked(cache_max);
	bool last = n_live == 0 && (n_dead || fresh.next != &fresh);
	bool unkeep = n_live == 0 && __atomic_load_n(&kept, __ATOMIC_RELAXED);
	stack_unlock();
	bury(trim, exiting);
	if (unkeep)
		unkeep_last(exiting);
	if (last)
		drop_spares();
}

/* A descriptor whose thread never went live (its creation failed).  */
void __nptl_stack_put(struct pthread *pd)
{
	release(pd, false);
}

/* Release a finished (or never started) thread's descriptor, exactly once:
 * the joiner, the detacher and the exiting thread itself may all try, and
 * TERMINATED_BITMASK elects one.  */
void __nptl_free_tcb(struct pthread *pd)
{
	int old = __atomic_fetch_or(&pd->cancelhandling, TERMINATED_BITMASK,
				    __ATOMIC_ACQ_REL);
	/* A thread glibc made (the main thread) has no memory of ours.  */
	if ((old & TERMINATED_BITMASK) || !nptl_is_ours(pd))
		return;
	release(pd, true);
}

/* In fork's child (the lock was held across fork by the prepare handler):
 * only the forking thread survives.  Every other live descriptor becomes
 * free; glibc's reclaim_stacks has already rebuilt ld.so's lists.  */
void __nptl_stack_fork_child(void)
{
	/* Once per fork: the parent's pid is cleared when it is done.  */
	if (!__atomic_load_n(&fork_parent_pid, __ATOMIC_RELAXED))
		return;
	struct pthread *self = nptl_self();
	struct nptl_ext *e = live.next;
	size_t n = 0;
	while (e != &live) {
		struct nptl_ext *next = e->next;
		struct pthread *pd = ext_pd(e);
		if (pd != self) {
			list_del(e);
			pd->tid = 0;
			pd->cancelhandling = TERMINATED_BITMASK;
			cache_add_locked(e);
		} else {
			n++;
		}
		e = next;
	}
	__atomic_store_n(&n_live, n, __ATOMIC_RELAXED);
	__atomic_store_n(&fork_parent_pid, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&__nptl_stack_lock, 0, __ATOMIC_RELEASE);
}
