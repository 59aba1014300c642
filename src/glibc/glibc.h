/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Everything libnptl takes from glibc's and ld.so's private interfaces.
 * A port to another glibc release touches this folder only: descr.h (the
 * thread descriptor), builds.c (the table of known libc builds), probe.c
 * (start-up checks) and ldso.c (ld.so's thread lists and TLS).
 */
#ifndef NPTL_GLIBC_H
#define NPTL_GLIBC_H

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
extern const ptrdiff_t __rseq_offset;

/* What a libc build must look like for descr.h to be right about it:
 * values that can be probed at run time and values only a table can give.
 * builds.c holds the table, probe.c fills and compares.  */
struct nptl_glibc_layout {
	const char *version;          /* gnu_get_libc_version() */
	/* probed: libc's _thread_db_* descriptors, ld.so's rseq exports */
	uint32_t sizeof_pthread;
	uint32_t off_list, off_tid, off_cancelhandling, off_specific;
	uint32_t off_schedpolicy, off_start_routine, off_report_events;
	uint32_t off_dl_stack_used, off_dl_stack_user;
	uint32_t rseq_offset;         /* -__rseq_offset from the TP */
	/* table only: nothing at run time describes these */
	uint32_t off_dl_stack_flags, off_dl_in_flight_stack, off_dl_stack_cache_lock;
};

struct nptl_glibc_build {
	const char *build_id;         /* hex NT_GNU_BUILD_ID of libc.so.6 */
	const char *package;          /* distribution package version */
	const struct nptl_glibc_layout *layout;
};

extern const struct nptl_glibc_layout __nptl_layouts[];
extern const struct nptl_glibc_build __nptl_builds[];

/* probe.c: verify the running libc, once, before anything else.  */
struct nptl_glibc_report {
	char build_id[41];
	const char *version;
	const struct nptl_glibc_build *known;   /* NULL: build not in table */
	const struct nptl_glibc_layout *layout; /* NULL: version not in table */
	const char *mismatch;                   /* first disagreeing value */
};
void __nptl_glibc_probe(struct nptl_glibc_report *r);
void __nptl_glibc_check(void);
extern const struct nptl_glibc_layout *__nptl_glibc;

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
size_t __nptl_tls_static_size(size_t *align);

/* glibc's multi-threaded mode: locks in stdio and malloc, the SIGSETXID
 * handler, __libc_single_threaded.  */
int __nptl_glibc_go_multithreaded(void);   /* 0 or pthread_create's error */
/* Make glibc's own cancellation points check for cancellation even in a
 * process with one thread (a self-cancel before any pthread_create).  */
void __nptl_glibc_cancel_points_on(void);

#endif
