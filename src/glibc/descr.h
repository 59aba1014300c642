/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * glibc's private thread descriptor, as libnptl shares it.
 *
 * Every libnptl thread's thread pointer (%fs on x86_64) points at a
 * `struct pthread` laid out exactly as the running glibc lays out its own,
 * because glibc's code (errno, stdio locking, malloc, the resolver, setuid
 * broadcast, cancellation, sched_getcpu...) reads it there.  This file is the
 * only place that spells that layout; src/glibc/probe.c checks it against the
 * running libc before the first thread is made.
 *
 * One layout per glibc release, chosen by the release of the headers libnptl
 * is compiled against (__GLIBC_MINOR__): a package is built on, and for, one
 * release, whose public types (<pthread.h>) it also takes from those
 * headers.  At run time probe.c refuses any other release.  A new release is
 * a new GLIBC_RELEASE_* block below, its offsets asserted, and a row in
 * builds.c.
 *
 * Fields marked ABI are read or written by glibc's code as well as ours and
 * follow glibc's protocol for them exactly.  The others are ours in glibc's
 * storage, used with the meaning glibc gives them, so that glibc-made threads
 * (the main thread, timer and aio helpers) and libnptl threads look alike to
 * every function.
 */
#ifndef NPTL_GLIBC_DESCR_H
#define NPTL_GLIBC_DESCR_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <setjmp.h>
#include <unwind.h>
#include <linux/futex.h>

/* The releases libnptl knows, and what differs between them in the
 * descriptor.  GLIBC_PD_RSEQ_AREA: the rseq area is a member (2.35-2.40);
 * from 2.41 it lives in static TLS at __rseq_offset instead.
 * GLIBC_PD_RTLD_CATCH: ld.so's dlopen exception catcher is a member.
 * GLIBC_PD_GETRANDOM: the vDSO getrandom state pointer is a member.  */
#if __GLIBC__ == 2 && __GLIBC_MINOR__ == 36
# define GLIBC_RELEASE "2.36"
# define GLIBC_PD_RSEQ_AREA 1
# define GLIBC_PD_RTLD_CATCH 0
# define GLIBC_PD_GETRANDOM 0
#elif __GLIBC__ == 2 && __GLIBC_MINOR__ == 41
# define GLIBC_RELEASE "2.41"
# define GLIBC_PD_RSEQ_AREA 0
# define GLIBC_PD_RTLD_CATCH 1
# define GLIBC_PD_GETRANDOM 1
#else
# error "libnptl knows the thread descriptor of glibc 2.36 and 2.41 only (src/glibc/descr.h)"
#endif

/* glibc's struct priority_protection_data, which pd->tpp points at: the
 * highest PRIO_PROTECT ceiling the thread holds (SCHED_FIFO minimum - 1
 * when none) and, per SCHED_FIFO priority from the minimum up, how many
 * locks of that ceiling it holds.  ABI: glibc's pthread_setschedparam and
 * pthread_setschedprio read priomax, and glibc frees a glibc-made thread's
 * tpp with free() when its descriptor is released, so it is malloc'd.  */
struct glibc_tpp {
	int priomax;
	unsigned int priomap[];
};

/* glibc's list_t, the link on ld.so's thread lists.  */
struct glibc_list {
	struct glibc_list *next;
	struct glibc_list *prev;
};

struct glibc_key_data {
	uintptr_t seq;
	void *data;
};

/* glibc's __pthread_keys[] entry.  */
struct glibc_key {
	uintptr_t seq;
	void (*destr)(void *);
};

#define GLIBC_KEYS_MAX 1024
#define GLIBC_KEY_2NDLEVEL 32
#define GLIBC_KEY_1STLEVEL 32

/* glibc's struct pthread_unwind_buf (what <pthread.h> calls
 * __pthread_unwind_buf_t): cleanup_jmp_buf chains these.  */
struct glibc_unwind_buf {
	struct {
		__jmp_buf jmp_buf;
		int mask_was_saved;
	} cancel_jmp_buf[1];
	union {
		void *pad[4];
		struct {
			struct glibc_unwind_buf *prev;
			struct _pthread_cleanup_buffer *cleanup;
			int canceltype;
		} data;
	} priv;
};

/* The rseq(2) area as glibc registers it for every thread: 32 bytes,
 * 32-aligned.  node_id and mm_cid are the kernel's extended ABI (Linux 6.3),
 * filled in when __rseq_size says glibc asked for them (2.41).  */
struct glibc_rseq {
	uint32_t cpu_id_start;
	uint32_t cpu_id;
	uint64_t rseq_cs;
	uint32_t flags;
	uint32_t node_id;
	uint32_t mm_cid;
	uint32_t pad;
} __attribute__((aligned(32)));
_Static_assert(sizeof(struct glibc_rseq) == 32, "rseq area");

struct pthread {
	/* tcbhead_t: the x86_64 TLS ABI header.  ABI.  */
	union {
		struct {
			void *tcb;              /* itself */
			void *dtv;              /* ld.so's DTV */
			void *self;             /* itself */
			int multiple_threads;   /* SINGLE_THREAD_P */
			int gscope_flag;        /* ld.so's scope lock */
			uintptr_t sysinfo;
			uintptr_t stack_guard;  /* -fstack-protector canary */
			uintptr_t pointer_guard;/* PTR_MANGLE key */
			unsigned long unused_vgetcpu_cache[2];
			unsigned int feature_1; /* CET */
		} header;
		char header_space[704];
	};
	struct glibc_list list;          /* ld.so's dl_stack_user link. ABI */
	pid_t tid;                       /* CLONE_*_SETTID/CLEARTID. ABI */
	void *robust_prev;               /* ABI */
	struct robust_list_head_glibc {
		void *list;
		long futex_offset;
		void *list_op_pending;
	} robust_head;                   /* set_robust_list area. ABI */
	struct _pthread_cleanup_buffer *cleanup;   /* old-style handlers. ABI */
	struct glibc_unwind_buf *cleanup_jmp_buf;  /* ABI */
	int cancelhandling;              /* CANCEL*_BIT, EXITING, SETXID. ABI */
	int flags;                       /* ATTR_FLAG_* (+ NPTL_PD_OURS) */
	struct glibc_key_data specific_1stblock[GLIBC_KEY_2NDLEVEL]; /* ABI */
	struct glibc_key_data *specific[GLIBC_KEY_1STLEVEL];         /* ABI */
	bool specific_used;              /* ABI */
	bool report_events;              /* libthread_db. ABI */
	bool user_stack;                 /* ABI (fork's reclaim_stacks) */
	bool stopped_start;
	int setup_failed;
	int lock;
	unsigned int setxid_futex;       /* setuid broadcast. ABI */
	struct pthread *joinid;          /* == self when detached. ABI */
	void *result;                    /* ABI (glibc's cancellation) */
	struct sched_param schedparam;   /* libthread_db, pthread_setschedparam */
	int schedpolicy;
	void *(*start_routine)(void *);  /* libthread_db */
	void *arg;
	char eventbuf[24];               /* td_eventbuf_t */
	struct pthread *nextevent;
	struct _Unwind_Exception exc;    /* forced unwinding. ABI */
	void *stackblock;                /* ABI (alloca cutoff, unwinder) */
	size_t stackblock_size;          /* ABI */
	size_t guardsize;
	size_t reported_guardsize;
	struct glibc_tpp *tpp;             /* PRIO_PROTECT ceilings held. ABI */
	char res[568] __attribute__((aligned(8)));  /* struct __res_state. ABI */
	uint64_t sigmask;                /* internal_sigset_t */
#if GLIBC_PD_RTLD_CATCH
	void *rtld_catch;                /* ld.so's dlopen error catcher. ABI */
#endif
	bool c11;
	bool exiting;                    /* pthread_kill. ABI */
	int exit_lock;                   /* ABI */
	struct {
		char *strsignal_buf;
		char *strerror_l_buf;
	} tls_state;                     /* ABI */
#if GLIBC_PD_RSEQ_AREA
	struct glibc_rseq rseq_area __attribute__((aligned(32)));  /* ABI */
#endif
#if GLIBC_PD_GETRANDOM
	void *getrandom_buf;             /* vDSO getrandom state. ABI */
#endif
} __attribute__((aligned(64)));

/* Layout (x86_64), as `ptype/o struct pthread` prints it: common part.  */
#define GLIBC_PTHREAD_SIZE 2368
_Static_assert(sizeof(struct pthread) == GLIBC_PTHREAD_SIZE, "struct pthread size");
_Static_assert(offsetof(struct pthread, header.dtv) == 0x08, "dtv");
_Static_assert(offsetof(struct pthread, header.self) == 0x10, "self");
_Static_assert(offsetof(struct pthread, header.multiple_threads) == 0x18, "multiple_threads");
_Static_assert(offsetof(struct pthread, header.stack_guard) == 0x28, "stack_guard");
_Static_assert(offsetof(struct pthread, header.pointer_guard) == 0x30, "pointer_guard");
_Static_assert(offsetof(struct pthread, header.feature_1) == 0x48, "feature_1");
_Static_assert(offsetof(struct pthread, list) == 704, "list");
_Static_assert(offsetof(struct pthread, tid) == 720, "tid");
_Static_assert(offsetof(struct pthread, robust_prev) == 728, "robust_prev");
_Static_assert(offsetof(struct pthread, robust_head) == 736, "robust_head");
_Static_assert(offsetof(struct pthread, cleanup) == 760, "cleanup");
_Static_assert(offsetof(struct pthread, cleanup_jmp_buf) == 768, "cleanup_jmp_buf");
_Static_assert(offsetof(struct pthread, cancelhandling) == 776, "cancelhandling");
_Static_assert(offsetof(struct pthread, flags) == 780, "flags");
_Static_assert(offsetof(struct pthread, specific_1stblock) == 784, "specific_1stblock");
_Static_assert(offsetof(struct pthread, specific) == 1296, "specific");
_Static_assert(offsetof(struct pthread, specific_used) == 1552, "specific_used");
_Static_assert(offsetof(struct pthread, user_stack) == 1554, "user_stack");
_Static_assert(offsetof(struct pthread, lock) == 1560, "lock");
_Static_assert(offsetof(struct pthread, setxid_futex) == 1564, "setxid_futex");
_Static_assert(offsetof(struct pthread, joinid) == 1568, "joinid");
_Static_assert(offsetof(struct pthread, result) == 1576, "result");
_Static_assert(offsetof(struct pthread, schedparam) == 1584, "schedparam");
_Static_assert(offsetof(struct pthread, schedpolicy) == 1588, "schedpolicy");
_Static_assert(offsetof(struct pthread, start_routine) == 1592, "start_routine");
_Static_assert(offsetof(struct pthread, arg) == 1600, "arg");
_Static_assert(offsetof(struct pthread, exc) == 1648, "exc");
_Static_assert(offsetof(struct pthread, stackblock) == 1680, "stackblock");
_Static_assert(offsetof(struct pthread, stackblock_size) == 1688, "stackblock_size");
_Static_assert(offsetof(struct pthread, guardsize) == 1696, "guardsize");
_Static_assert(offsetof(struct pthread, reported_guardsize) == 1704, "reported_guardsize");
_Static_assert(offsetof(struct pthread, res) == 1720, "res");
_Static_assert(offsetof(struct pthread, sigmask) == 2288, "sigmask");
#if __GLIBC_MINOR__ == 36
_Static_assert(offsetof(struct pthread, c11) == 2296, "c11");
_Static_assert(offsetof(struct pthread, exiting) == 2297, "exiting");
_Static_assert(offsetof(struct pthread, exit_lock) == 2300, "exit_lock");
_Static_assert(offsetof(struct pthread, tls_state) == 2304, "tls_state");
_Static_assert(offsetof(struct pthread, rseq_area) == 2336, "rseq_area");
#elif __GLIBC_MINOR__ == 41
_Static_assert(offsetof(struct pthread, rtld_catch) == 2296, "rtld_catch");
_Static_assert(offsetof(struct pthread, c11) == 2304, "c11");
_Static_assert(offsetof(struct pthread, exiting) == 2305, "exiting");
_Static_assert(offsetof(struct pthread, exit_lock) == 2308, "exit_lock");
_Static_assert(offsetof(struct pthread, tls_state) == 2312, "tls_state");
_Static_assert(offsetof(struct pthread, getrandom_buf) == 2328, "getrandom_buf");
#endif

/* The fields tests/glibc-layout compares with libc's debug information.  */
#define GLIBC_PTHREAD_COMMON_FIELDS(F) \
	F(list) F(tid) F(robust_prev) F(robust_head) F(cleanup) \
	F(cleanup_jmp_buf) F(cancelhandling) F(flags) F(specific_1stblock) \
	F(specific) F(specific_used) F(report_events) F(user_stack) \
	F(stopped_start) F(setup_failed) F(lock) F(setxid_futex) F(joinid) \
	F(result) F(schedparam) F(schedpolicy) F(start_routine) F(arg) \
	F(eventbuf) F(nextevent) F(exc) F(stackblock) F(stackblock_size) \
	F(guardsize) F(reported_guardsize) F(tpp) F(res) F(sigmask) F(c11) \
	F(exiting) F(exit_lock) F(tls_state)
#if __GLIBC_MINOR__ == 36
# define GLIBC_PTHREAD_FIELDS(F) GLIBC_PTHREAD_COMMON_FIELDS(F) F(rseq_area)
#elif __GLIBC_MINOR__ == 41
# define GLIBC_PTHREAD_FIELDS(F) GLIBC_PTHREAD_COMMON_FIELDS(F) \
	F(rtld_catch) F(getrandom_buf)
#endif

/* cancelhandling bits (glibc's nptl/descr.h).  ABI.  */
#define CANCELSTATE_BITMASK 0x01
#define CANCELTYPE_BITMASK  0x02
#define CANCELING_BITMASK   0x04
#define CANCELED_BITMASK    0x08
#define EXITING_BITMASK     0x10
#define TERMINATED_BITMASK  0x20
#define SETXID_BITMASK      0x40

/* setxid_futex in glibc's setuid broadcast (nptl_setxid.c).  ABI.  A thread
 * that does not run yet is not signalled: the broadcast marks it AWAITED
 * and sleeps until the thread, once it may take signals, stores 0 and
 * wakes it.  0 otherwise, and the futex of the signalled thread's wait.  */
#define SETXID_NOT_STARTED  ((unsigned int)-1)
#define SETXID_AWAITED      ((unsigned int)-2)

/* glibc's internal pthread_attr_t (struct pthread_attr) and its extension.
 * glibc's own code (timer_create's SIGEV_THREAD helper) copies and reads
 * attribute objects the application built with our functions.  ABI.  */
struct glibc_attr_ext {
	cpu_set_t *cpuset;
	size_t cpusetsize;
	sigset_t sigmask;
	bool sigmask_set;
};

struct glibc_attr {
	struct sched_param schedparam;
	int schedpolicy;
	int flags;
	size_t guardsize;
	void *stackaddr;          /* top of the stack, as glibc keeps it */
	size_t stacksize;
	struct glibc_attr_ext *extension;
	void *unused;
};
_Static_assert(sizeof(struct glibc_attr) <= sizeof(pthread_attr_t), "attr size");
_Static_assert(offsetof(struct glibc_attr, flags) == 8, "attr flags");
_Static_assert(offsetof(struct glibc_attr, guardsize) == 16, "attr guardsize");
_Static_assert(offsetof(struct glibc_attr, stackaddr) == 24, "attr stackaddr");
_Static_assert(offsetof(struct glibc_attr, stacksize) == 32, "attr stacksize");
_Static_assert(offsetof(struct glibc_attr, extension) == 40, "attr extension");
_Static_assert(sizeof(struct glibc_attr_ext) == 152, "attr extension size");

/* struct pthread_attr flags (glibc's internaltypes.h).  ABI.  */
#define ATTR_FLAG_DETACHSTATE     0x0001
#define ATTR_FLAG_NOTINHERITSCHED 0x0002
#define ATTR_FLAG_SCOPEPROCESS    0x0004
#define ATTR_FLAG_STACKADDR       0x0008
#define ATTR_FLAG_OLDATTR         0x0010
#define ATTR_FLAG_SCHED_SET       0x0020
#define ATTR_FLAG_POLICY_SET      0x0040
#define ATTR_FLAG_DO_RSEQ         0x0080

/* glibc's pthread_once_t states (nptl/pthread_once.c): bit 0 "in progress",
 * bit 1 "done", the rest a fork generation.  ABI.  */
#define ONCE_INPROGRESS 1
#define ONCE_DONE       2

/* glibc checks stack sizes against this fixed minimum, whatever
 * sysconf(_SC_THREAD_STACK_MIN) (what PTHREAD_STACK_MIN means under
 * _GNU_SOURCE) says.  */
#define GLIBC_PTHREAD_STACK_MIN 16384

/* The rseq signature glibc registers with, the smallest length it
 * registers (the kernel's original ABI; glibc asks for __rseq_size when
 * that is more), and the cpu_id values that say "not registered yet" and
 * "registration failed" to readers of __rseq_offset.  */
#define GLIBC_RSEQ_SIG 0x53053053
#define GLIBC_RSEQ_AREA_SIZE 32
#define RSEQ_CPU_ID_UNINITIALIZED ((uint32_t)-1)
#define RSEQ_CPU_ID_REGISTRATION_FAILED ((uint32_t)-2)

/* robust_head.futex_offset: pthread_mutex_t.__lock minus __list.__next.  */
#define GLIBC_ROBUST_FUTEX_OFFSET (-32L)

/* SIGCANCEL and SIGSETXID, reserved by glibc.  */
#define GLIBC_SIGCANCEL  32
#define GLIBC_SIGSETXID  33

/* ld.so's dtv_t.  */
union glibc_dtv {
	size_t counter;
	struct {
		void *val;
		void *to_free;
	} pointer;
};

#endif
