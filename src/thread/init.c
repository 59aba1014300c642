// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Library start-up.  At load time libnptl checks that the running libc is
 * one whose private layout it knows (src/glibc/probe.c) and that its
 * definitions win the binding (src/glibc/binding.c), reads NPTL_VERBOSE and
 * registers its fork handler.  Switching glibc into multi-threaded mode
 * waits for the first pthread_create, so a program that never makes a
 * thread runs as on glibc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nptl.h"

unsigned long __nptl_created;

static void fork_prepare(void);
static void fork_parent(void);
static void fork_child(void);

static void report_at_exit(void)
{
	__nptl_say("%lu thread(s) created by libnptl", __nptl_created);
}

__attribute__((constructor)) static void nptl_load(void)
{
	__nptl_diag_init();
	__nptl_glibc_check();
	const char *lose = __nptl_binding_problem();
	if (lose) {
		char msg[600];
		snprintf(msg, sizeof(msg), "refusing to start: %s", lose);
		__nptl_fatal(msg);
	}
	if (__nptl_verbose)
		__nptl_say("libnptl %s won the binding: it precedes libc.so.6 "
			   "in lookup order and serves the thread interfaces",
			   PACKAGE_VERSION);
	__nptl_default_attr.guardsize = __nptl_page_size;
	(void)__nptl_default_stacksize();   /* fixed at start-up, as in glibc */
	__nptl_stack_cache_init();
	if (__nptl_verbose)
		atexit(report_at_exit);
	/* At load, not at the first thread: a thread glibc made (a timer
	 * helper) may be inside pthread_once when the process forks.  */
	if (pthread_atfork(fork_prepare, fork_parent, fork_child) != 0)
		__nptl_fatal("cannot register the fork handler");
}

/* Holding the stack lock across fork gives the child consistent thread
 * lists and stack cache to reset.  */
static void fork_prepare(void)
{
	__nptl_stack_fork_prepare();
}

static void fork_parent(void)
{
	__nptl_stack_fork_parent();
}

static void fork_child(void)
{
	__nptl_stack_fork_child();
	__atomic_fetch_add(&__nptl_fork_generation, 4, __ATOMIC_RELAXED);
}

static int init_state;   /* 0 not yet, 1 running, 2 done */

/* Once, before the first thread.  If glibc cannot make its bootstrap thread
 * (resource limits), the first pthread_create fails with EAGAIN as it would
 * have on glibc, and the next one tries again.  */
int __nptl_init_once(int *kerr)
{
	/* Returns 0, or the error glibc's pthread_create gave the bootstrap
	 * (EAGAIN under resource limits), and then *kerr the errno of the
	 * call in it that failed.  */
	for (;;) {
		int s = __atomic_load_n(&init_state, __ATOMIC_ACQUIRE);
		if (s == 2)
			return 0;
		if (s == 1) {
			nptl_futex_wait(&init_state, 1, true);
			continue;
		}
		if (__atomic_compare_exchange_n(&init_state, &s, 1, false,
						__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
			break;
	}
	__nptl_tls_init_layout();
	int err = __nptl_glibc_go_multithreaded(kerr);
	__atomic_store_n(&init_state, err ? 0 : 2, __ATOMIC_RELEASE);
	nptl_futex_wake(&init_state, INT32_MAX, true);
	return err == ENOMEM ? EAGAIN : err;
}

/* libnptl's own interface (NPTL_1.0): which libnptl serves this process.  */
NPTL_API const char *nptl_version(void)
{
	return PACKAGE_VERSION;
}
