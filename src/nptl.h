/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnptl's one internal header: the thread descriptor, symbol versioning,
 * futex and lock helpers, and the internal interfaces between families.
 *
 * A thread's descriptor is glibc's `struct pthread` (src/glibc/descr.h),
 * followed in the same mapping by libnptl's own `struct nptl_ext`.  A
 * pthread_t is the descriptor's address, as in glibc, so pthread_self()
 * in glibc and in libnptl agree.  Threads made by glibc (the main thread,
 * its internal helpers) have no nptl_ext; NPTL_PD_OURS in pd->flags says
 * which is which.
 */
#ifndef NPTL_H
#define NPTL_H

#include <errno.h>
#include <pthread.h>
#include <threads.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <linux/futex.h>

#include "arch.h"
#include "glibc/glibc.h"

/* ---- symbol export ---------------------------------------------------- */

/* Every exported function is defined under an internal name
 * (`__nptl_<name>`) with default visibility; symbols.map makes those names
 * local and .symver gives each public name its glibc versions.  Internal
 * callers use the internal names, so nothing inside libnptl can be
 * interposed.  The default version's definition must have the type the
 * system headers give the public name, or the build stops: the check
 * compares types only, so that the headers' nonnull attributes do not
 * reach the definitions (whose NULL checks the compiler would drop).
 * NPTL_SYMVER_DEFAULT_NOHDR is for the few names no header declares in
 * this build: glibc-private ones, and the cleanup entry points that
 * <pthread.h> declares only without -fexceptions.  */
#define NPTL_API __attribute__((visibility("default")))
#define NPTL_SYMVER_DEFAULT_NOHDR(impl, name, ver) \
	__asm__(".symver " #impl ", " #name "@@" #ver)
#define NPTL_SYMVER_DEFAULT(impl, name, ver) \
	_Pragma("GCC diagnostic push") \
	_Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"") \
	_Static_assert(__builtin_types_compatible_p(__typeof(impl), \
						    __typeof(name)), \
		       #impl " does not have " #name "'s type"); \
	_Pragma("GCC diagnostic pop") \
	__asm__(".symver " #impl ", " #name "@@" #ver)
#define NPTL_SYMVER_COMPAT(impl, name, ver) \
	__asm__(".symver " #impl ", " #name "@" #ver)

#define NPTL_HIDDEN __attribute__((visibility("hidden")))

/* ---- the descriptor --------------------------------------------------- */

/* pd->flags bit (above glibc's ATTR_FLAG_*): a libnptl thread.  */
#define NPTL_PD_OURS 0x40000000

struct nptl_ext {
	struct nptl_ext *next, *prev;   /* live list or stack cache */
	void *map;                      /* the whole mapping */
	size_t map_size;
	size_t stack_size;              /* usable stack it was made for */
	size_t guard_size;
	size_t tls_size;                /* static TLS + TCB room below/at pd */
	void *user_stack_lo;            /* user stack: [lo, lo + size) */
	size_t user_stack_size;
	size_t reported_size;           /* pthread_getattr_np's stack size */
	sigset_t start_mask;            /* pthread_attr_setsigmask_np */
	bool set_mask;
	bool compact;                   /* glibc's layout: never handed out again */
	int prot;                       /* protection of the mapping above the guard */
	uintptr_t kept_hi;              /* stack pages below this still resident
					   (the one kept stack, stack.c) */
	bool robust_set;                /* robust list registered (robust_list.c) */
};

#define NPTL_TCB_SIZE GLIBC_PTHREAD_SIZE
#define NPTL_EXT_SIZE ((sizeof(struct nptl_ext) + 63) & ~(size_t)63)

static inline struct pthread *nptl_self(void)
{
	return (struct pthread *)nptl_arch_tp();
}

static inline struct nptl_ext *nptl_ext(struct pthread *pd)
{
	return (struct nptl_ext *)((char *)pd + NPTL_TCB_SIZE);
}

static inline bool nptl_is_ours(const struct pthread *pd)
{
	return (pd->flags & NPTL_PD_OURS) != 0;
}

/* pd->joinid as one atomic word (glibc's field: NULL joinable, the thread
 * itself when detached, the joiner's descriptor while one waits).  libnptl
 * threads add one bit: JOINID_EXITED, set by the thread's own exit in the
 * same atomic step in which it reads whether it is detached.  That one
 * step decides who frees the descriptor (see pthread_detach.c); glibc never
 * reads joinid of a libnptl thread.  */
#define JOINID_EXITED ((uintptr_t)1)

static inline uintptr_t *nptl_joinid_word(struct pthread *pd)
{
	return (uintptr_t *)(void *)&pd->joinid;
}

/* Who holds the thread: NULL, itself (detached) or its joiner.  */
static inline struct pthread *nptl_joinid(struct pthread *pd)
{
	return (struct pthread *)(__atomic_load_n(nptl_joinid_word(pd),
						  __ATOMIC_ACQUIRE) &
				  ~JOINID_EXITED);
}

/* ---- system calls and futexes ----------------------------------------- */

#define nptl_sys0(n) nptl_syscall(n, 0, 0, 0, 0, 0, 0)
#define nptl_sys1(n, a) nptl_syscall(n, a, 0, 0, 0, 0, 0)
#define nptl_sys2(n, a, b) nptl_syscall(n, a, b, 0, 0, 0, 0)
#define nptl_sys3(n, a, b, c) nptl_syscall(n, a, b, c, 0, 0, 0)
#define nptl_sys4(n, a, b, c, d) nptl_syscall(n, a, b, c, d, 0, 0)

/* A raw system call failed when its result lies in [-4095, -1] (it is
 * -errno then); any other value, even a negative one, is a result.  */
static inline bool nptl_sys_failed(long r)
{
	return r < 0 && r > -4096;
}

static inline long nptl_futex_wait(void *addr, int val, bool private)
{
	return nptl_sys4(SYS_futex, addr,
			 FUTEX_WAIT | (private ? FUTEX_PRIVATE_FLAG : 0), val, 0);
}

static inline long nptl_futex_wake(void *addr, int n, bool private)
{
	return nptl_sys3(SYS_futex, addr,
			 FUTEX_WAKE | (private ? FUTEX_PRIVATE_FLAG : 0), n);
}

/* Wait while *addr == val until the absolute time `abs` on `clock`
 * (CLOCK_REALTIME or CLOCK_MONOTONIC; NULL: forever).  Returns 0 (woken or
 * value changed), ETIMEDOUT, EINTR, or EINVAL for a deadline the kernel
 * refuses (negative, or tv_nsec out of range).  */
int nptl_futex_wait_abs(void *addr, int val, clockid_t clock,
			const struct timespec *abs, bool private) NPTL_HIDDEN;

/* glibc's low-level lock protocol (0 free, 1 taken, 2 taken with
 * waiters).  Used where glibc uses lll_lock on the same word.  */
static inline void nptl_lll_lock(int *l)
{
	int c = 0;
	if (__atomic_compare_exchange_n(l, &c, 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	while (__atomic_exchange_n(l, 2, __ATOMIC_ACQUIRE) != 0)
		nptl_futex_wait(l, 2, true);
}

static inline void nptl_lll_unlock(int *l)
{
	if (__atomic_exchange_n(l, 0, __ATOMIC_RELEASE) == 2)
		nptl_futex_wake(l, 1, true);
}

/* ---- internal interfaces ---------------------------------------------- */

/* src/diag.c, the ground floor (calls nothing else of libnptl's):
 * diagnostics on stderr and the page size, set by __nptl_diag_init.  */
void __nptl_diag_init(void) NPTL_HIDDEN;
_Noreturn void __nptl_fatal(const char *msg) NPTL_HIDDEN;
void __nptl_say(const char *fmt, ...) NPTL_HIDDEN
	__attribute__((format(printf, 1, 2)));
extern size_t __nptl_page_size NPTL_HIDDEN;
extern int __nptl_verbose NPTL_HIDDEN;

/* init.c */
int __nptl_init_once(int *kerr) NPTL_HIDDEN;   /* 0 or an error (EAGAIN) */
/* src/once/pthread_once.c: bumped by 4 in every fork child.  */
extern unsigned int __nptl_fork_generation NPTL_HIDDEN;
extern unsigned long __nptl_created NPTL_HIDDEN;

/* default_attr.c: what pthread_create uses for a NULL attribute.  */
extern struct glibc_attr __nptl_default_attr NPTL_HIDDEN;
extern int __nptl_default_attr_lock NPTL_HIDDEN;
size_t __nptl_default_stacksize(void) NPTL_HIDDEN;

/* Where a thread creation failed, and the system call's own error (0:
 * none), for the report of the failure (create_error.c).  */
enum nptl_create_step {
	NPTL_CREATE_INIT,       /* library start-up */
	NPTL_CREATE_ATTR,       /* copying the default attribute */
	NPTL_CREATE_STACK,      /* mmap of stack, guard and TLS */
	NPTL_CREATE_GUARD,      /* installing the guard (madvise, mprotect) */
	NPTL_CREATE_TLS,        /* ld.so's TLS set-up (malloc of the DTV) */
	NPTL_CREATE_LIVE,       /* making the stack executable for ld.so */
	NPTL_CREATE_CLONE,
	NPTL_CREATE_AFFINITY,   /* applying the attribute to the new thread */
	NPTL_CREATE_SCHED,
};
struct nptl_create_why {
	int step;               /* enum nptl_create_step */
	int kerr;               /* errno of the call that failed, 0: none */
};

/* stack.c: descriptors with stack and TLS, cached.  On failure, *err is
 * what pthread_create returns and *why says which call failed.  */
struct pthread *__nptl_stack_get(size_t stack_size, size_t guard_size,
				 void *user_stack, size_t user_size,
				 int *err, struct nptl_create_why *why) NPTL_HIDDEN;
int __nptl_stack_live(struct pthread *pd, struct nptl_create_why *why) NPTL_HIDDEN;
void __nptl_stack_put(struct pthread *pd) NPTL_HIDDEN;
void *__nptl_stack_top(struct pthread *pd) NPTL_HIDDEN;
void __nptl_stack_release_unused(struct pthread *pd) NPTL_HIDDEN;
void __nptl_stack_cache_init(void) NPTL_HIDDEN;
bool __nptl_stack_compact_now(void) NPTL_HIDDEN;
size_t __nptl_stack_compact_room(void) NPTL_HIDDEN;
void __nptl_free_tcb(struct pthread *pd) NPTL_HIDDEN;
void __nptl_stack_fork_prepare(void) NPTL_HIDDEN;
void __nptl_stack_fork_parent(void) NPTL_HIDDEN;
void __nptl_stack_fork_child(void) NPTL_HIDDEN;
extern int __nptl_stack_lock NPTL_HIDDEN;

/* pthread_create.c */
int __nptl_thread_create(pthread_t *res, const pthread_attr_t *attr,
			 void *(*fn)(void *), void *arg, bool c11) NPTL_HIDDEN;

/* Why pthread_create failed (src/thread/create_*.c), worked out only on
 * failure.  pthread_create.c and stack.c say which step failed and the
 * system call's own error (struct nptl_create_why); create_facts.c
 * measures the limits that step can run into; create_reason.c, which only
 * decides and formats, names the one that refused; create_error.c keeps
 * the sentence per thread (nptl_create_error) and prints it with
 * NPTL_VERBOSE.  */
#define NPTL_NO_VALUE (~0ULL)   /* not measured, or no limit */
struct nptl_create_facts {
	const char *fn;                 /* "pthread_create" or "thrd_create" */
	int err;                        /* what fn returns */
	int step;                       /* enum nptl_create_step */
	int kerr;                       /* the system call's error, 0: none */
	unsigned long long need;        /* bytes the failed call asked for (about) */
	/* clone: tasks */
	unsigned long long nproc_limit; /* RLIMIT_NPROC (soft) */
	unsigned long long uid;         /* real uid */
	unsigned long long uid_tasks;   /* its tasks visible in /proc */
	bool nproc_exempt;              /* uid 0, CAP_SYS_RESOURCE/ADMIN */
	unsigned long long threads_max, nr_threads, pid_max;
	unsigned long long pids_max, pids_current;
	char cgroup[160];               /* where pids_max is */
	/* memory, in bytes */
	unsigned long long as_limit, vm_size, data_limit, vm_data;
	unsigned long long memlock_limit, vm_locked;
	bool memlock_exempt;            /* CAP_IPC_LOCK */
	unsigned long long max_map_count, map_count;
	int overcommit;                 /* vm.overcommit_memory, -1 unknown */
	unsigned long long commit_limit, committed;    /* overcommit 2 */
	unsigned long long mem_swap_total;             /* overcommit 0 */
};
void __nptl_create_failed(bool c11, int err, const struct nptl_create_why *why,
			  size_t stack_size, size_t guard) NPTL_HIDDEN;
void __nptl_create_facts(struct nptl_create_facts *f) NPTL_HIDDEN;
size_t __nptl_create_reason(const struct nptl_create_facts *f, char *buf,
			    size_t size) NPTL_HIDDEN;

/* pthread_exit.c */
_Noreturn void __nptl_thread_exit(struct pthread *pd) NPTL_HIDDEN;
_Noreturn void __nptl_unwind(struct glibc_unwind_buf *buf) NPTL_HIDDEN;

/* unwind_link.c: libgcc_s, loaded at the first pthread_exit or
 * pthread_cancel.  */
bool __nptl_unwind_link(void) NPTL_HIDDEN;
void __nptl_unwind_link_or_die(bool cancel) NPTL_HIDDEN;
_Unwind_Reason_Code __nptl_forced_unwind(struct _Unwind_Exception *e,
					 _Unwind_Stop_Fn stop,
					 void *arg) NPTL_HIDDEN;
_Unwind_Word __nptl_unwind_get_cfa(struct _Unwind_Context *ctx) NPTL_HIDDEN;

/* src/cancel/cancellation.c: glibc's protocol for cancellation points.
 * Around a blocking system call that is a cancellation point:
 *	int old = __nptl_enable_asynccancel();
 *	r = syscall(...);
 *	__nptl_disable_asynccancel(old);
 * and keep the state that a cancellation must undo in locals with
 * __attribute__((cleanup)) handlers (libnptl is built with -fexceptions, so
 * they run during the forced unwind).  */
int __nptl_enable_asynccancel(void) NPTL_HIDDEN;
void __nptl_disable_asynccancel(int oldtype) NPTL_HIDDEN;
_Noreturn void __nptl_do_cancel(void) NPTL_HIDDEN;

/* pthread_join.c */
int __nptl_join(pthread_t t, void **res, bool block, clockid_t clock,
		const struct timespec *abs) NPTL_HIDDEN;

/* keys (src/keys) */
void __nptl_deallocate_tsd(struct pthread *pd) NPTL_HIDDEN;

/* attributes (src/attr) */
int __nptl_attr_copy(struct glibc_attr *dst, const struct glibc_attr *src) NPTL_HIDDEN;
void __nptl_attr_free(struct glibc_attr *a) NPTL_HIDDEN;

/* Exported functions that other families call internally (their
 * definitions carry no attribute; this declaration gives them default
 * visibility, and symbols.map's `local: *` hides the __nptl_ names).  */
NPTL_API int __nptl_pthread_attr_init(pthread_attr_t *a);
NPTL_API int __nptl_pthread_attr_destroy(pthread_attr_t *a);
NPTL_API int __nptl_pthread_detach(pthread_t t);
NPTL_API int __nptl_pthread_attr_setaffinity_np(pthread_attr_t *a, size_t size,
						const cpu_set_t *set);
NPTL_API _Noreturn void __nptl_pthread_exit(void *ret);
NPTL_API int __nptl_pthread_once(pthread_once_t *once, void (*fn)(void));
NPTL_API int __nptl_pthread_key_create(pthread_key_t *k, void (*d)(void *));
NPTL_API int __nptl_pthread_key_delete(pthread_key_t k);
NPTL_API void *__nptl_pthread_getspecific(pthread_key_t k);
NPTL_API int __nptl_pthread_setspecific(pthread_key_t k, const void *v);

/* Mutex <-> condition variable contract (src/mutex, src/cond).
 * __nptl_mutex_requeue_word: for a mutex whose lock word is a plain
 * futex that a waiter can be requeued to (NORMAL/RECURSIVE/ERRORCHECK/
 * ADAPTIVE, not robust, not PI, not PP), store its address and whether it
 * is process-private, and return true; else false.
 * __nptl_mutex_lock_requeued: lock a mutex after having been requeued to
 * its lock word (waiters may exist: the lock word must be left "contended"
 * so that the eventual unlock wakes the next one), with the mutex type's
 * own recursion/owner bookkeeping; returns 0 or the error lock would.
 * __nptl_mutex_unlock_for_wait / __nptl_mutex_relock_after_wait: what
 * pthread_cond_wait does to the mutex (for a robust mutex the relock may
 * return EOWNERDEAD; for PP/PI it restores the priority protocol state).  */
NPTL_API int __nptl_pthread_mutex_lock(pthread_mutex_t *m);
NPTL_API int __nptl_pthread_mutex_unlock(pthread_mutex_t *m);
bool __nptl_mutex_requeue_word(pthread_mutex_t *m, int **word, bool *private) NPTL_HIDDEN;
int __nptl_mutex_lock_requeued(pthread_mutex_t *m) NPTL_HIDDEN;
int __nptl_mutex_unlock_for_wait(pthread_mutex_t *m) NPTL_HIDDEN;
int __nptl_mutex_relock_after_wait(pthread_mutex_t *m) NPTL_HIDDEN;

/* C11's thrd_* result for a POSIX error number, as glibc's thrd_err_map
 * (used by thrd_*, mtx_*, cnd_* and tss_set).  */
static inline int nptl_thrd_result(int err)
{
	switch (err) {
	case 0:
		return thrd_success;
	case ENOMEM:
		return thrd_nomem;
	case ETIMEDOUT:
		return thrd_timedout;
	case EBUSY:
		return thrd_busy;
	default:
		return thrd_error;
	}
}

static inline bool nptl_valid_timespec(const struct timespec *ts)
{
	return ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000L;
}

/* ---- mutexes (src/mutex): internal helpers ---------------------------- */

/* glibc's __kind encoding (sysdeps/nptl/pthreadP.h).  ABI: a glibc
 * process and a libnptl process may share one process-shared mutex.
 * Bits 0-1 are the POSIX type; the elision bits are hints we ignore.  */
#define NPTL_MUTEX_KIND_MASK    3
#define NPTL_MUTEX_ROBUST       16
#define NPTL_MUTEX_PI           32
#define NPTL_MUTEX_PP           64
#define NPTL_MUTEX_PSHARED      128
#define NPTL_MUTEX_ELISION      256
#define NPTL_MUTEX_NO_ELISION   512
/* type, robust/PI/PP and pshared bits: what the lock paths dispatch on */
#define NPTL_MUTEX_TYPE(k)      ((k) & 255)
/* __owner of a robust mutex: owner died / unlocked without consistent.  */
#define NPTL_MUTEX_INCONSISTENT     0x7fffffff
#define NPTL_MUTEX_NOTRECOVERABLE   0x7ffffffe
/* A PRIO_PROTECT mutex keeps its ceiling in the top bits of __lock.  */
#define NPTL_MUTEX_CEILING_SHIFT 19
#define NPTL_MUTEX_CEILING_MASK  0xfff80000u

/* glibc's pthread_mutexattr_t: one int, the type in the low bits.  ABI.  */
#define NPTL_MUTEXATTR_PROTOCOL_SHIFT 28
#define NPTL_MUTEXATTR_PROTOCOL_MASK  0x30000000
#define NPTL_MUTEXATTR_CEILING_SHIFT  12
#define NPTL_MUTEXATTR_CEILING_MASK   0x00fff000
#define NPTL_MUTEXATTR_ROBUST         0x40000000
#define NPTL_MUTEXATTR_PSHARED        ((int)0x80000000u)
#define NPTL_MUTEXATTR_FLAG_BITS (NPTL_MUTEXATTR_ROBUST | NPTL_MUTEXATTR_PSHARED \
				  | NPTL_MUTEXATTR_PROTOCOL_MASK \
				  | NPTL_MUTEXATTR_CEILING_MASK)

/* src/sched/tpp.c: priority protection (PRIO_PROTECT ceilings) of the
 * calling thread.  __nptl_tpp_change counts ceiling `new` in and `prev`
 * out (-1: none) and sets the thread's priority to its own raised to the
 * highest ceiling counted; 0, or an errno with nothing counted in (ENOMEM,
 * EAGAIN: a count would overflow, or what sched_setscheduler says, EINVAL
 * for a SCHED_OTHER thread).  __nptl_current_priority: the thread's own
 * priority, without ceilings (-1 if the kernel cannot tell).
 * __nptl_valid_ceiling: SCHED_FIFO's range, and fits the lock word.  */
int __nptl_tpp_change(int prev, int new) NPTL_HIDDEN;
int __nptl_current_priority(void) NPTL_HIDDEN;
int __nptl_fifo_min(void) NPTL_HIDDEN;
int __nptl_fifo_max(void) NPTL_HIDDEN;
bool __nptl_valid_ceiling(int c) NPTL_HIDDEN;
void __nptl_tpp_free(struct pthread *pd) NPTL_HIDDEN;
static inline int nptl_mutex_ceiling(int lockword)
{
	return (int)(((unsigned)lockword & NPTL_MUTEX_CEILING_MASK)
		     >> NPTL_MUTEX_CEILING_SHIFT);
}

/* flags of __nptl_mutex_lock_common */
#define NPTL_MUTEX_NO_INCR   1  /* relock by a condvar: __nusers kept */
#define NPTL_MUTEX_REQUEUED  2  /* leave the lock word "with waiters" */

/* Lock m for every kind; abs NULL blocks forever.  clock is
 * CLOCK_REALTIME or CLOCK_MONOTONIC (checked by the caller).  */
int __nptl_mutex_lock_common(pthread_mutex_t *m, clockid_t clock,
			     const struct timespec *abs, int flags) NPTL_HIDDEN;
/* Unlock; decr false keeps __nusers (condvar wait).  */
int __nptl_mutex_unlock_usercnt(pthread_mutex_t *m, bool decr) NPTL_HIDDEN;
/* The robust list of the calling thread (glibc's protocol).  */
void __nptl_robust_enqueue(pthread_mutex_t *m, bool pi) NPTL_HIDDEN;
void __nptl_robust_dequeue(pthread_mutex_t *m) NPTL_HIDDEN;
/* Announce (or end) a robust-list operation on `entry` to the kernel, as
 * glibc does, before the lock word changes hands.  */
void __nptl_robust_register(struct pthread *self) NPTL_HIDDEN;
static inline void nptl_robust_pending(struct pthread *self, void *entry)
{
	if (entry && nptl_is_ours(self) &&
	    __builtin_expect(!nptl_ext(self)->robust_set, 0))
		__nptl_robust_register(self);
	self->robust_head.list_op_pending = entry;
	__asm__ __volatile__("" ::: "memory");
}
/* Steps of robust and PI locking that lock and trylock share
 * (mutex_lock_common.c); each but the first ends the robust-list
 * operation.  __nptl_mutex_relock_own: the caller's tid is already in the
 * lock word: EDEADLK, a recursive count (0 or EAGAIN), or -1 for the
 * kinds where that is simply a busy lock.  __nptl_mutex_owner_died: we
 * took the word over from a dead owner: EOWNERDEAD.
 * __nptl_mutex_unrecoverable: we hold the word of a mutex that is not
 * recoverable: give it back, ENOTRECOVERABLE.  __nptl_mutex_robust_taken:
 * taken normally (robust): onto the robust list.  */
int __nptl_mutex_relock_own(pthread_mutex_t *m, int kind) NPTL_HIDDEN;
/* A recursive mutex's owner locks it again: one more count, or EAGAIN
 * when the count would wrap (POSIX: the maximum number of recursive locks
 * has been exceeded).  Every kind's lock and trylock use this one.  */
static inline int nptl_mutex_recount(pthread_mutex_t *m)
{
	if (m->__data.__count + 1 == 0)
		return EAGAIN;
	m->__data.__count++;
	return 0;
}
/* Take a PP lock word *w whose ceiling bits are `cv`, leaving it cv|state
 * (1, or 2 for "maybe sleepers"), sleeping as the protocol says until the
 * deadline abs (NULL: none).  0 taken; -1 the ceiling is no longer cv
 * (*seen: the word read); ETIMEDOUT or EINVAL (a bad deadline).  */
int __nptl_mutex_pp_take(int *w, int cv, int state, bool private,
			 clockid_t clock, const struct timespec *abs,
			 int *seen) NPTL_HIDDEN;
int __nptl_mutex_owner_died(pthread_mutex_t *m, bool pi) NPTL_HIDDEN;
int __nptl_mutex_unrecoverable(pthread_mutex_t *m, bool pi) NPTL_HIDDEN;
void __nptl_mutex_robust_taken(pthread_mutex_t *m, bool pi) NPTL_HIDDEN;

NPTL_API int __nptl_pthread_mutex_init(pthread_mutex_t *m,
				       const pthread_mutexattr_t *a);
NPTL_API int __nptl_pthread_mutex_destroy(pthread_mutex_t *m);
NPTL_API int __nptl_pthread_mutex_trylock(pthread_mutex_t *m);
NPTL_API int __nptl_pthread_mutex_timedlock(pthread_mutex_t *m,
					    const struct timespec *abs);
NPTL_API int __nptl_pthread_mutexattr_init(pthread_mutexattr_t *a);
NPTL_API int __nptl_pthread_mutexattr_settype(pthread_mutexattr_t *a, int type);

/* ---- condition variables (src/cond): internal helpers ----------------- */

/* libnptl's view of the 48-byte pthread_cond_t (also cnd_t).  Only
 * __wrefs keeps glibc's meaning and place, so that pthread_cond_init with
 * glibc's attribute encoding, and PTHREAD_COND_INITIALIZER (all zero), work:
 * bit 0 process-shared, bit 1 CLOCK_MONOTONIC, bit 2 "destroy is waiting",
 * and the number of waiters inside a wait call from bit 3 up.  Its place is
 * the one the <pthread.h> libnptl is built against gives it (glibc 2.41
 * dropped __g_refs and moved it from byte 36 to 28), so libnptl's own
 * fields leave bytes 28-39 to it.  The protocol is described in
 * src/cond/pthread_cond_wait.c.  This view is for process-private
 * condvars only: a process-shared one (NPTL_COND_SHARED) is glibc's
 * pthread_cond_t throughout, with glibc's protocol (src/glibc/cond.c).  */
struct nptl_cond {
	union {
		pthread_cond_t glibc;     /* for __data.__wrefs only */
		struct {
			unsigned int seq;         /* futex word: bumped by each
						     wake-up call */
			unsigned int sleepers;    /* waiters that may be in
						     FUTEX_WAIT on seq */
			int spin;                 /* adaptive spin budget of
						     the waiters */
			unsigned int woke_at;     /* CLOCK_MONOTONIC ns (low
						     bits) of the last
						     FUTEX_WAKE, to tune the
						     spin budget */
			uintptr_t mutex;          /* the waiters' mutex, and
						     NPTL_COND_MIXED (private
						     condvars) */
			unsigned int waker_cpu;   /* nptl_handoff_mark() of the
						     last signaller */
			unsigned int wrefs_room[3];  /* glibc's __wrefs */
			unsigned int requeued_below;  /* a requeue may have
						     moved sleepers whose seq
						     snapshot is below this */
			unsigned int unused;
		};
	};
};
_Static_assert(sizeof(struct nptl_cond) == sizeof(pthread_cond_t),
	       "struct nptl_cond");
_Static_assert(offsetof(pthread_cond_t, __data.__wrefs) >=
		       offsetof(struct nptl_cond, wrefs_room) &&
	       offsetof(pthread_cond_t, __data.__wrefs) + 4 <=
		       offsetof(struct nptl_cond, requeued_below),
	       "__wrefs lies outside libnptl's own condvar fields");
static inline unsigned int *nptl_cond_wrefs(struct nptl_cond *c)
{
	return &c->glibc.__data.__wrefs;
}
#define NPTL_COND_SHARED     1u
#define NPTL_COND_MONOTONIC  2u
#define NPTL_COND_DESTROYING 4u
#define NPTL_COND_WAITER     8u

/* Wait on c with m; abs NULL waits forever, else an absolute time on
 * clock (CLOCK_REALTIME or CLOCK_MONOTONIC, checked by the caller, as is
 * abs's validity).  A cancellation point.  */
int __nptl_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clock,
		     const struct timespec *abs) NPTL_HIDDEN;
/* Bit 0 of c->mutex: waiters of more than one mutex may be registered,
 * so that no broadcast may requeue (pthread_cond_wait.c, "Several
 * mutexes").  The pointer stays: waiters requeued before may still sleep
 * on its lock word.  */
#define NPTL_COND_MIXED ((uintptr_t)1)
/* The lock word a broadcast may requeue c's sleepers onto (for destroy:
 * the one earlier broadcasts may have requeued them onto), or NULL: only
 * for a private condvar whose waiters' mutex has a plain, private lock
 * word (pthread_cond_broadcast.c), and for a broadcast only while the
 * waiters have one mutex.  */
static inline int *nptl_cond_requeue_word(struct nptl_cond *c, bool private,
					  bool for_destroy)
{
	uintptr_t v = __atomic_load_n(&c->mutex, __ATOMIC_SEQ_CST);
	pthread_mutex_t *m = (pthread_mutex_t *)(v & ~NPTL_COND_MIXED);
	int *word;
	bool mprivate;
	if ((v & NPTL_COND_MIXED) && !for_destroy)
		return NULL;
	if (private && m && __nptl_mutex_requeue_word(m, &word, &mprivate) &&
	    mprivate)
		return word;
	return NULL;
}

NPTL_API int __nptl_pthread_cond_init(pthread_cond_t *c,
				      const pthread_condattr_t *a);
NPTL_API int __nptl_pthread_cond_destroy(pthread_cond_t *c);
NPTL_API int __nptl_pthread_cond_signal(pthread_cond_t *c);
NPTL_API int __nptl_pthread_cond_broadcast(pthread_cond_t *c);
NPTL_API int __nptl_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
NPTL_API int __nptl_pthread_cond_timedwait(pthread_cond_t *c,
					   pthread_mutex_t *m,
					   const struct timespec *abs);

/* ---- semaphores (src/sem) ---------------------------------------------- */

/* glibc 2.36's `struct new_sem` for 64-bit atomics, the layout a sem_t has
 * in every process that shares it: `data` holds the value in its low 32
 * bits (the futex word, little-endian) and the number of registered
 * waiters in its high 32 bits; `private` is glibc's futex flag value, 0 for
 * a process-private semaphore and FUTEX_PRIVATE_FLAG for a shared one
 * (glibc XORs it into an op that already carries the private flag).  */
struct nptl_sem {
	uint64_t data;          /* ABI: value low, registered waiters high */
	int private;            /* ABI: 0 private, FUTEX_PRIVATE_FLAG shared */
	int pad;                /* glibc's unused pad: libnptl's spin budget */
	unsigned int woke_at;   /* beyond glibc's struct, in sem_t: the stamp of
				   the last post that woke a sleeper */
	unsigned int waker_cpu; /* nptl_handoff_mark() of the last poster */
};
#define NPTL_SEM_NWAITERS_SHIFT 32
#define NPTL_SEM_VALUE_MASK 0xffffffffu
#define NPTL_SEM_PRIVATE 0
#define NPTL_SEM_SHARED FUTEX_PRIVATE_FLAG

static inline bool nptl_sem_private(const struct nptl_sem *s)
{
	return (s->private & FUTEX_PRIVATE_FLAG) == 0;
}

static inline int *nptl_sem_word(struct nptl_sem *s)
{
	return (int *)&s->data;
}

/* sem_open.c / sem_close.c: the per-process list of named semaphores
 * mapped, keyed like glibc's (device, inode, name as given), so that
 * opening one name twice yields one address with a reference count.
 * __nptl_sem_map_add returns the address to use for the object open on
 * `fd` (`mapped`: a mapping the caller made, or MAP_FAILED to map it
 * here; a mapping not used is unmapped) or NULL.  __nptl_sem_map_drop
 * drops one reference and unmaps on the last; false if `sem` is not one
 * of ours.  */
void *__nptl_sem_map_add(const char *name, int fd, void *mapped) NPTL_HIDDEN;
bool __nptl_sem_map_drop(void *sem) NPTL_HIDDEN;
/* sem_unlink.c: glibc's file name for a named semaphore, "/dev/shm/sem."
 * and the name without its leading slashes; 0, or EINVAL for a name glibc
 * refuses (empty, with another slash) and ENAMETOOLONG for one longer than
 * NAME_MAX.  */
#define NPTL_SEM_PATH_SIZE (sizeof("/dev/shm/") + 4 + 255)
int __nptl_sem_path(char path[NPTL_SEM_PATH_SIZE], const char *name) NPTL_HIDDEN;


/* ---- cancellation (src/cancel): internal helpers ---------------------- */

/* Clear glibc's reserved signals (SIGCANCEL, SIGSETXID) in a mask that a
 * thread will run with: sigdelset refuses them, so by hand.  */
static inline void nptl_sigset_drop_reserved(sigset_t *s)
{
	const int bits = 8 * sizeof(s->__val[0]);
	s->__val[(GLIBC_SIGCANCEL - 1) / bits] &= ~(1UL << (GLIBC_SIGCANCEL - 1) % bits);
	s->__val[(GLIBC_SIGSETXID - 1) / bits] &= ~(1UL << (GLIBC_SIGSETXID - 1) % bits);
}

/* A system call that is a cancellation point, free of the race glibc 2.36
 * has (its bug 12683): either it takes effect and returns, or a pending
 * cancellation acts before it took any effect (src/cancel/cancellation.c
 * has the proof).  Returns the kernel's value (-errno on failure).  Use it
 * for any blocking call whose effect must not be lost to a cancellation
 * (a futex wait can simply use __nptl_enable_asynccancel instead).  */
long __nptl_syscall_cp(long nr, long a, long b, long c, long d, long e,
		       long f) NPTL_HIDDEN;
#define nptl_cp(n, a, b, c, d, e, f) \
	__nptl_syscall_cp((n), (long)(a), (long)(b), (long)(c), (long)(d), \
			  (long)(e), (long)(f))
/* The same, with errno set and -1 returned on failure (the libc style).  */
long __nptl_syscall_cp_errno(long nr, long a, long b, long c, long d, long e,
			     long f) NPTL_HIDDEN;
#define nptl_cp_errno(n, a, b, c, d, e, f) \
	__nptl_syscall_cp_errno((n), (long)(a), (long)(b), (long)(c), \
				(long)(d), (long)(e), (long)(f))
/* Cancelled with cancellation enabled and not yet acting on it.  */
static inline bool nptl_cancel_pending(int ch)
{
	return (ch & (CANCELSTATE_BITMASK | CANCELED_BITMASK | EXITING_BITMASK |
		      TERMINATED_BITMASK)) == CANCELED_BITMASK;
}
/* The same with asynchronous cancellation on: the request acts at once,
 * wherever the thread is (pthread_cancel's caller, the SIGCANCEL handler,
 * and setcancelstate/setcanceltype turning it on all use this one test).  */
static inline bool nptl_cancel_async_pending(int ch)
{
	return (ch & (CANCELSTATE_BITMASK | CANCELTYPE_BITMASK | CANCELED_BITMASK |
		      EXITING_BITMASK | TERMINATED_BITMASK)) ==
	       (CANCELTYPE_BITMASK | CANCELED_BITMASK);
}
/* Act on a pending cancellation now: result PTHREAD_CANCELED, unwind.  */
_Noreturn void __nptl_cancel_now(void) NPTL_HIDDEN;
/* The test at the entry of a cancellation point that is not a single
 * system call through the stub (join, semaphore and condvar waits): a
 * cancellation pending when the call starts acts there, whether or not the
 * call would block (POSIX: a cancellation point is where a pending request
 * is acted upon, not only where the caller sleeps).  One requested after
 * this test is seen by the wait's own protocol (__nptl_enable_asynccancel
 * tests the word before it sleeps, SIGCANCEL interrupts a sleeper), or acts
 * at the next point if the call completes without sleeping.  */
static inline bool nptl_self_cancel_pending(void)
{
	return nptl_cancel_pending(__atomic_load_n(&nptl_self()->cancelhandling,
						   __ATOMIC_RELAXED));
}
static inline void nptl_testcancel(void)
{
	if (nptl_self_cancel_pending())
		__nptl_cancel_now();
}
/* Install libnptl's SIGCANCEL handler (once; idempotent).  */
void __nptl_cancel_install(void) NPTL_HIDDEN;
/* Cancellation points that the fortify variants (src/cancel/fortify.c)
 * call once their check passed.  */
NPTL_API ssize_t __nptl_read(int fd, void *buf, size_t n);
NPTL_API ssize_t __nptl_pread(int fd, void *buf, size_t n, off_t off);
NPTL_API ssize_t __nptl_recv(int fd, void *buf, size_t n, int flags);
NPTL_API ssize_t __nptl_recvfrom(int fd, void *buf, size_t n, int flags,
				 struct sockaddr *addr, socklen_t *len);
NPTL_API int __nptl_poll(struct pollfd *fds, nfds_t n, int timeout);
NPTL_API int __nptl_ppoll(struct pollfd *fds, nfds_t n,
			  const struct timespec *timeout, const sigset_t *mask);
NPTL_API int __nptl_open(const char *path, int flags, ...);
NPTL_API int __nptl_openat(int dirfd, const char *path, int flags, ...);
NPTL_API int __nptl_pthread_setcancelstate(int state, int *old);
NPTL_API int __nptl_pthread_setcanceltype(int type, int *old);
NPTL_API void __nptl_pthread_testcancel(void);
/* src/cancel/cleanup.c: the _defer/_restore pairs.  Switch the caller to
 * deferred cancellation, returning the type it had
 * (PTHREAD_CANCEL_ASYNCHRONOUS or PTHREAD_CANCEL_DEFERRED); and switch it
 * back, acting at once on a cancellation that is then pending.  */
int __nptl_cancel_defer(void) NPTL_HIDDEN;
void __nptl_cancel_restore(int type) NPTL_HIDDEN;

/* ---- spinlocks, barriers, rwlocks (src/spin, src/barrier, src/rwlock) ---- */

/* src/spin/handoff.c: the adaptive spin of a waiter for a hand-off
 * (condvars, semaphores).  `hint` is the object's budget, `woke_at` the
 * stamp its waker leaves (__nptl_handoff_note) before it wakes a sleeper;
 * a waiter that slept from t0 learns from it (__nptl_handoff_slept), one
 * that saw the hand-off after `spun` iterations of its spin loop from that
 * (__nptl_handoff_caught).  */
int __nptl_handoff_budget(const int *hint) NPTL_HIDDEN;
void __nptl_handoff_caught(int *hint, int budget, int spun) NPTL_HIDDEN;
unsigned int __nptl_handoff_now(void) NPTL_HIDDEN;
void __nptl_handoff_note(unsigned int *woke_at) NPTL_HIDDEN;
void __nptl_handoff_slept(int *hint, int budget, unsigned int t0,
			  const unsigned int *woke_at) NPTL_HIDDEN;
/* Where the waker runs.  A waker leaves its CPU (+1; 0: not known) in
 * the object; a waiter whose waker last ran on the waiter's own CPU does
 * not spin, since the waker most likely needs that very CPU to run: the
 * scheduler keeps a sleeping pair together, and a pair shares a CPU when
 * threads outnumber CPUs.  The CPU comes from the rseq area.  */
static inline unsigned int nptl_cpu_tag(void)
{
	int c = (int)__atomic_load_n(&nptl_glibc_rseq(nptl_self())->cpu_id,
				     __ATOMIC_RELAXED);
	return c >= 0 ? (unsigned int)c + 1 : 0;
}
static inline void nptl_handoff_mark(unsigned int *waker_cpu)
{
	unsigned int c = nptl_cpu_tag();
	if (__atomic_load_n(waker_cpu, __ATOMIC_RELAXED) != c)
		__atomic_store_n(waker_cpu, c, __ATOMIC_RELAXED);
}
static inline bool nptl_handoff_colocated(const unsigned int *waker_cpu)
{
	unsigned int c = nptl_cpu_tag();
	return c && c == __atomic_load_n(waker_cpu, __ATOMIC_RELAXED);
}

/* src/spin/sync_spin.c: CPUs online (cached), for the brief spins before a
 * futex wait: spinning helps only if the awaited thread can run meanwhile.  */
int __nptl_sync_ncpu(void) NPTL_HIDDEN;
/* The one test of whether a brief spin before a futex wait can pay, for
 * mutex, condvar, semaphore and rwlock: only with another CPU this process
 * may use to run the awaited thread meanwhile.  (A barrier asks a stronger
 * question, whether all its waiters fit on the CPUs, and counts itself.)  */
static inline bool nptl_spin_pays(void)
{
	return __nptl_sync_ncpu() > 1;
}

/* Concurrency restriction's rule, shared by mutex lockers and rwlock
 * readers ("Saturation" in src/mutex/mutex_lock_common.c and
 * src/rwlock/pthread_rwlock.c), over all of a thread's locks of the one
 * family: a conflict (a lock attempt that found the lock taken) close to
 * the last -- NPTL_HOT_GAP or fewer of the thread's acquisitions and at
 * most NPTL_HOT_TICKS apart -- NPTL_HOT_RUN times in a row means the lock
 * has more takers than it can serve, and the thread naps
 * (__nptl_heat_nap) before it queues.  */
#define NPTL_HOT_GAP 8          /* a conflict this few acquisitions after */
#define NPTL_HOT_TICKS 100000   /* and this few ticks (43 us at 2.3 GHz) */
#define NPTL_HOT_RUN 3          /* the last, so many times: saturated */
struct nptl_heat {
	unsigned int acq;               /* acquisitions, fast paths included */
	unsigned int acq_conflict;      /* acq at the last conflict */
	unsigned int hot;               /* close conflicts in a row */
	unsigned long t_conflict;       /* nptl_arch_ticks() at the last */
};
/* Count a conflict: is the thread saturated (and is there a CPU for the
 * others while it naps)?  */
static inline bool nptl_heat_conflict(struct nptl_heat *h)
{
	unsigned int gap = h->acq - h->acq_conflict;
	h->acq_conflict = h->acq;
	unsigned long now = nptl_arch_ticks();
	bool soon = now - h->t_conflict <= NPTL_HOT_TICKS;
	h->t_conflict = now;
	h->hot = gap <= NPTL_HOT_GAP && soon ? h->hot + 1 : 0;
	return h->hot >= NPTL_HOT_RUN && nptl_spin_pays();
}
/* src/spin/sync_spin.c: the nap, 50 us doubling while the thread stays
 * hot, up to 800 us; the time napped is not a gap between conflicts.
 * None under a realtime policy (then false, and the run ends).  */
bool __nptl_heat_nap(struct nptl_heat *h) NPTL_HIDDEN;

/* A thread's record of its conflicts on simple (NORMAL-family) mutexes,
 * over all of them ("Saturation" in src/mutex/mutex_lock_common.c): hot
 * threads nap before they queue, and a thread that takes lock after lock
 * without blocking yields when its unlock wakes a sleeper.  The blocking
 * primitives (condvar, semaphore, barrier) cool the thread when they
 * return: it blocked between its locks, so its conflicts were a hand-off,
 * not surplus.  */
struct nptl_mutex_heat {
	struct nptl_heat h;
	unsigned int own_sleeps;        /* lock waits and naps (ours) */
	unsigned int acq_rest;          /* acq when it last blocked */
	unsigned int own_seen;          /* own_sleeps at the last check */
	unsigned int cold;              /* conflicts to go without naps */
	unsigned int penalty;           /* naps in a row that were useless */
	long nvcsw;                     /* voluntary switches then */
};
extern __thread struct nptl_mutex_heat __nptl_mutex_heat NPTL_HIDDEN
	__attribute__((tls_model("initial-exec")));
static inline void nptl_mutex_cool(void)
{
	__nptl_mutex_heat.h.hot = 0;
	__nptl_mutex_heat.acq_rest = __nptl_mutex_heat.h.acq;
}

/* After the release of a simple mutex's word, FUTEX_WAKE woke `woken`.
 * A thread that has taken many locks without blocking gives way: the one
 * it woke may be queued behind it on its CPU.  */
#define NPTL_YIELD_STREAK 64
static inline void nptl_mutex_woke(long woken)
{
	struct nptl_mutex_heat *me = &__nptl_mutex_heat;
	if (woken > 0 && me->h.acq - me->acq_rest > NPTL_YIELD_STREAK) {
		me->acq_rest = me->h.acq;
		nptl_sys0(SYS_sched_yield);
	}
}

/* Spin budgets, in nptl_arch_pause() iterations, side by side so that
 * they are tuned together.  */
#define NPTL_SPIN_MUTEX 100     /* a mutex's adaptive spin: glibc's default */
#define NPTL_SPIN_RELOCK 200    /* a woken condvar waiter, for the mutex */
#define NPTL_SPIN_RWLOCK 100    /* a rwlock waiter, for the holder to leave */

/* glibc 2.36's barrier layout and protocol (pthread_barrier_wait.c), plus
 * `sleepers`, in bytes glibc leaves unused: libnptl waiters of a private
 * barrier count themselves there so that the last arrival can skip the
 * futex wake when everyone is still spinning, and `spin` learns how long
 * spinning pays on this barrier.  `shared` is glibc's encoding: 0 for a
 * private barrier, FUTEX_PRIVATE_FLAG for a process-shared one (the flag
 * that futex operations must then *not* carry).  */
struct nptl_barrier {
	unsigned int in;
	unsigned int current_round;
	unsigned int count;
	int shared;
	unsigned int out;
	unsigned int sleepers;
	int spin;               /* adaptive spin budget (src/spin/handoff.c) */
	unsigned int woke_at;   /* the completer's stamp before a FUTEX_WAKE */
};
#define NPTL_BARRIER_THRESHOLD (UINT32_MAX / 2)
static inline int nptl_barrier_futex_flag(int shared)
{
	return FUTEX_PRIVATE_FLAG ^ shared;
}
struct nptl_barrierattr {
	int pshared;
};
_Static_assert(sizeof(struct nptl_barrier) == sizeof(pthread_barrier_t),
	       "barrier layout");

/* pthread_rwlock_t with glibc's offsets for what programs and glibc's
 * static initializers fix (cur_writer, shared, flags = kind); the first 24
 * bytes carry libnptl's own protocol, and the 16 bytes glibc gives to
 * elision and padding carry the read bias (src/rwlock/pthread_rwlock.c).
 * Process-private locks only: a process-shared one (shared != 0) is
 * glibc's pthread_rwlock_t throughout, with glibc's protocol
 * (src/glibc/rwlock.c).  */
struct nptl_rwlock {
	unsigned int state;     /* readers | NPTL_RW_BIAS | _WRLOCKED | _WAITERS */
	int lk;                 /* internal lock of the slow path (0/1/2) */
	unsigned int rseq;      /* futex word of waiting readers */
	unsigned int wseq;      /* futex word of waiting writers */
	unsigned int rwait;     /* readers queued (under lk) */
	unsigned int wwait;     /* writers queued (under lk) */
	int cur_writer;         /* tid of the write owner, as glibc */
	int shared;             /* 0 private, 1 process-shared, as glibc */
	unsigned int slots;     /* 1: readers may hold slots, a writer scans */
	unsigned int handoff;   /* write locks handed to queued writers (under lk) */
	unsigned long inhibit;  /* nptl_arch_ticks(): no bias before this */
	unsigned int flags;     /* kind: PTHREAD_RWLOCK_PREFER_*_NP */
};
#define NPTL_RW_READERS 0x1fffffffu
#define NPTL_RW_MAX_READERS ((1u << 28) - 1)    /* glibc's limit */
#define NPTL_RW_BIAS 0x20000000u
#define NPTL_RW_WRLOCKED 0x40000000u
#define NPTL_RW_WAITERS 0x80000000u
struct nptl_rwlockattr {
	int kind;
	int pshared;
};
_Static_assert(sizeof(struct nptl_rwlock) == sizeof(pthread_rwlock_t),
	       "rwlock layout");
_Static_assert(offsetof(struct nptl_rwlock, flags) ==
	       offsetof(pthread_rwlock_t, __data.__flags), "rwlock flags");
_Static_assert(offsetof(struct nptl_rwlock, shared) ==
	       offsetof(pthread_rwlock_t, __data.__shared), "rwlock shared");
_Static_assert(offsetof(struct nptl_rwlock, cur_writer) ==
	       offsetof(pthread_rwlock_t, __data.__cur_writer), "rwlock writer");
/* The bias lives where glibc keeps __rwelision and padding, which its
 * static initializers leave zero: a zero lock is unbiased.  */
_Static_assert(offsetof(struct nptl_rwlock, slots) ==
	       offsetof(pthread_rwlock_t, __data.__rwelision), "rwlock slots");
_Static_assert(offsetof(struct nptl_rwlock, inhibit) ==
	       offsetof(pthread_rwlock_t, __data.__pad2), "rwlock inhibit");

#endif
