/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Everything libnptl takes from glibc's and ld.so's private interfaces.
 * A port to another glibc release touches this folder only: descr.h (the
 * thread descriptor, one layout per release), builds.c (a layout and
 * protocol row per release, the table of known libc builds), probe.c
 * (start-up checks), ldso.c (ld.so's thread lists), tls.c (static TLS),
 * thread.c (what glibc expects of every thread: rseq, ld.so's catcher,
 * the getrandom state), cancel.c (glibc's own cancellable system calls),
 * cond.c and rwlock.c (the condvar and rwlock protocols that
 * process-shared objects follow).
 */
#ifndef NPTL_GLIBC_H
#define NPTL_GLIBC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "descr.h"

/* GLIBC_PRIVATE symbols of libc.so.6 and ld.so.  */
extern unsigned int __nptl_nthreads;             /* live threads; 0 => exit */
extern struct glibc_key __pthread_keys[GLIBC_KEYS_MAX];
extern void __call_tls_dtors(void);              /* C++ thread_local dtors */
extern void __ctype_init(void);                  /* per-thread ctype tables */
struct __res_state;
extern __thread struct __res_state *__resp;      /* per-thread resolver */
extern void *_dl_allocate_tls(void *mem);
extern void *_dl_allocate_tls_init(void *tcb, bool init_tls);
extern void _dl_deallocate_tls(void *tcb, bool dealloc_tcb);
extern void _dl_get_tls_static_info(size_t *size, size_t *align);
extern char _rtld_global[];
extern const unsigned int __rseq_size;           /* public since 2.35 */
/* The fortify checks' failure: "buffer overflow detected" (__chk_fail,
 * GLIBC_2.3.4) or a message of the caller's (__fortify_fail, private),
 * printed as glibc prints them, then abort.  */
extern void __chk_fail(void) __attribute__((noreturn));
extern void __fortify_fail(const char *msg) __attribute__((noreturn));
extern const ptrdiff_t __rseq_offset;

/* What a libc release must look like for descr.h to be right about it,
 * and how it behaves where libnptl must follow: values that can be probed
 * at run time, values only a table can give, and protocol choices.
 * builds.c holds one row per release, probe.c fills and compares.  */
struct nptl_glibc_layout {
	const char *version;          /* gnu_get_libc_version() */
	/* probed: libc's _thread_db_* descriptors, ld.so's rseq exports */
	uint32_t sizeof_pthread;
	uint32_t off_list, off_tid, off_cancelhandling, off_specific;
	uint32_t off_schedpolicy, off_start_routine, off_report_events;
	uint32_t off_dl_stack_used, off_dl_stack_user;
	/* __rseq_offset: the area's fixed place in the descriptor, or 0 when
	 * it lives in static TLS below the thread pointer, where ld.so puts
	 * it for each process (probed for place and alignment).  */
	uint32_t rseq_offset;
	/* table only: nothing at run time describes these */
	uint32_t off_dl_stack_flags, off_dl_in_flight_stack, off_dl_stack_cache_lock;
	/* protocols */
	bool tls_init_new_thread;     /* _dl_allocate_tls_init's flag for the
					 TLS of a thread that is not the main
					 one (2.36: "init_tls", true; from
					 2.39 "main_thread", false) */
	bool cond_group_refs;         /* condvars (process-shared ones follow
					 glibc, cond.c): 2.36's layout and
					 protocol, with per-group futex
					 references (__g_refs) that a signaller
					 drains before it reuses a group and
					 doubled signal counts with a "closing"
					 bit; false: 2.41's (bug 25847 fixed),
					 without them, signal counts relative
					 to __g1_start.  Probed.  */
	bool cancel_stub;             /* libc's cancellable system calls run
					 in a stub that a SIGCANCEL handler
					 must recognise (cancel.c); else they
					 switch to asynchronous cancellation
					 around the call */
	/* behaviour of public interfaces that changed between releases */
	bool join_checks_time_first;  /* pthread_timedjoin_np/clockjoin_np:
					 an invalid timespec is EINVAL before
					 looking at the thread (2.41), not
					 only when about to wait (2.36) */
	int sem_long_name_errno;      /* sem_open of a name longer than
					 NAME_MAX: EINVAL (2.36), ENAMETOOLONG
					 (2.41) */
	bool sem_open_user_oflags;    /* sem_open of an existing semaphore
					 passes the caller's other open flags
					 on (2.36) or only O_EXCL (2.41) */
};

struct nptl_glibc_build {
	const char *build_id;         /* hex NT_GNU_BUILD_ID of libc.so.6 */
	const char *package;          /* distribution package version */
	const struct nptl_glibc_layout *layout;
	uint32_t off_cancel_stub;     /* libc's cancellable-syscall stub, from
					 libc's load address (cancel_stub) */
};

extern const struct nptl_glibc_layout __nptl_layouts[];
extern const struct nptl_glibc_build __nptl_builds[];
/* The row of a release ("2.41"), or NULL.  */
const struct nptl_glibc_layout *__nptl_glibc_release(const char *version);

/* probe.c: verify the running libc, once, before anything else.  */
struct nptl_glibc_report {
	char build_id[41];
	const char *version;
	const struct nptl_glibc_build *known;   /* NULL: build not in table */
	const struct nptl_glibc_layout *layout; /* NULL: version not in table */
	const char *mismatch;                   /* first disagreeing value */
	uintptr_t cancel_stub;                  /* where cancel.c found it */
};
void __nptl_glibc_probe(struct nptl_glibc_report *r);
void __nptl_glibc_check(void);
extern const struct nptl_glibc_layout *__nptl_glibc;

/* cancel.c: glibc's own cancellable system calls (from 2.41) run in a stub
 * whose [start, end) has not yet made the system call take effect, as
 * libnptl's own (src/sysdeps/<arch>/syscall_cp.S).  Find it in libc.so.6
 * (at the table's offset for a known build, by its fingerprint for an
 * unknown one): its address, or 0 and *why.  */
uintptr_t __nptl_glibc_cancel_stub_find(const struct nptl_glibc_build *known,
					const char **why);
void __nptl_glibc_cancel_stub_set(uintptr_t start);
extern uintptr_t __nptl_glibc_cancel_lo;
extern const uintptr_t __nptl_glibc_cancel_len;
/* Is pc inside glibc's stub, before its system call took effect?  */
static inline bool nptl_glibc_in_cancel_stub(uintptr_t pc)
{
	uintptr_t lo = __atomic_load_n(&__nptl_glibc_cancel_lo, __ATOMIC_RELAXED);
	return lo && pc - lo < __nptl_glibc_cancel_len;
}

/* thread.c: what glibc expects of every thread it may meet.
 *
 * rseq: each thread's area sits at __rseq_offset from its thread pointer
 * (inside the descriptor up to 2.40, in static TLS from 2.41).  */
static inline struct glibc_rseq *nptl_glibc_rseq(struct pthread *pd)
{
	return (struct glibc_rseq *)(void *)((char *)pd + __rseq_offset);
}
/* Is the calling thread's area registered (glibc's "inherit the creator's
 * state" rule for ATTR_FLAG_DO_RSEQ)?  */
bool __nptl_glibc_rseq_registered(struct pthread *self);
/* In the new thread: register its area if `want`, else mark it failed.  */
void __nptl_glibc_rseq_register(struct pthread *self, bool want);
/* Creator, before clone: descriptor fields glibc's code reads that a new
 * thread must start without (ld.so's catcher of a thread that unwound out
 * of a dlopen).  */
void __nptl_glibc_thread_reset(struct pthread *pd);
/* With __nptl_stack_lock held: a descriptor goes live (it may adopt a
 * getrandom state from the pool), or its mapping is about to be unmapped
 * (its state goes into the pool: glibc frees none, and only glibc's own
 * thread exit returns one to glibc's allocator).  */
void __nptl_glibc_stack_live(struct pthread *pd);
void __nptl_glibc_stack_unmap(struct pthread *pd);

/* binding.c: NULL when libnptl's definitions win the binding, else why.  */
const char *__nptl_binding_problem(void);

/* ldso.c: ld.so's thread lists, under its dl_stack_cache_lock, with the
 * in-flight marking that fork's reclaim_stacks relies on.  A thread on a
 * stack of its own goes on dl_stack_used (ld.so makes those executable
 * when a library needs it), one on a user stack on dl_stack_user; park
 * moves the former to dl_stack_user and back around fork.  */
void __nptl_dl_lock(void);
void __nptl_dl_unlock(void);
void __nptl_dl_add(struct pthread *pd);
void __nptl_dl_del(struct pthread *pd);
void __nptl_dl_park(struct pthread *pd, bool parked);
bool __nptl_dl_stacks_exec(void);   /* under the lock: PF_X in dl_stack_flags */
int __nptl_dl_stack_prot(void);

/* Static TLS: where libc.so.6's own block sits below the thread pointer.
 * It holds malloc's tcache and arena, which a reused descriptor keeps.  */
void __nptl_tls_init_layout(void);
void __nptl_tls_reinit(struct pthread *pd);
/* A user-stack thread's descriptor is cached without a DTV (tls.c).  */
void __nptl_tls_drop(struct pthread *pd);
bool __nptl_tls_renew(struct pthread *pd);
size_t __nptl_tls_static_size(size_t *align);
/* Free a dead thread's TLS later, outside a thread exit (tls.c), then
 * free what was put off so; the creation, join and detach paths call the
 * latter.  */
void __nptl_tls_orphan(struct pthread *pd);
void __nptl_tls_free_orphans(void);

/* glibc's multi-threaded mode: locks in stdio and malloc, the SIGSETXID
 * handler, __libc_single_threaded.  */
/* 0 or pthread_create's error, and then *kerr the errno it left.  */
int __nptl_glibc_go_multithreaded(int *kerr);
size_t __nptl_glibc_bootstrap_size(void);   /* stack and guard it maps */
/* Make glibc's own cancellation points check for cancellation even in a
 * process with one thread (a self-cancel before any pthread_create).  */
void __nptl_glibc_cancel_points_on(void);

/* cond.c: glibc's condition variable protocol (each release its own,
 * chosen by the row's cond_group_refs), which process-shared condvars
 * follow so that glibc processes can share them.  wait: abs NULL waits
 * forever, else an absolute time on clock (checked by the caller); a
 * cancellation point.  */
int __nptl_glibc_cond_wait(pthread_cond_t *c, pthread_mutex_t *m,
			   clockid_t clock, const struct timespec *abs);
int __nptl_glibc_cond_signal(pthread_cond_t *c);
int __nptl_glibc_cond_broadcast(pthread_cond_t *c);
/* The two layouts of glibc's pthread_cond_t (48 bytes both): 2.36's
 * (every release before 2.38, and 2.38-2.40 before their backports of
 * 2.41's condvar) and 2.41's.  */
struct glibc_cond_refs {
	uint64_t wseq;
	uint64_t g1_start;
	unsigned int g_refs[2];
	unsigned int g_size[2];
	unsigned int g1_orig_size;
	unsigned int wrefs;
	unsigned int g_signals[2];
};
struct glibc_cond_norefs {
	uint64_t wseq;
	uint64_t g1_start;
	unsigned int g_size[2];
	unsigned int g1_orig_size;
	unsigned int wrefs;
	unsigned int g_signals[2];
	unsigned int unused[2];
};
_Static_assert(sizeof(struct glibc_cond_refs) == sizeof(pthread_cond_t) &&
	       sizeof(struct glibc_cond_norefs) == sizeof(pthread_cond_t),
	       "glibc's condvar layouts");

/* rwlock.c: glibc's read-write lock protocol, for process-shared rwlocks.
 * The caller has checked clock and abs as glibc does (EINVAL first).  */
int __nptl_glibc_rwlock_rdlock(pthread_rwlock_t *rw, clockid_t clock,
			       const struct timespec *abs);
int __nptl_glibc_rwlock_tryrdlock(pthread_rwlock_t *rw);
int __nptl_glibc_rwlock_wrlock(pthread_rwlock_t *rw, clockid_t clock,
			       const struct timespec *abs);
int __nptl_glibc_rwlock_trywrlock(pthread_rwlock_t *rw);
int __nptl_glibc_rwlock_unlock(pthread_rwlock_t *rw);

#endif
