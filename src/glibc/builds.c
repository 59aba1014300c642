// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The libc releases and builds libnptl knows.  A layout row holds, for one
 * upstream release, every value descr.h, ldso.c and tls.c rely on and the
 * protocol choices where releases differ; probe.c compares the probeable
 * values with the running libc and trusts the rest only when the build is
 * in the table or every probe agreed.  Add a build by running
 * `tests/glibc-layout` on it (it prints a row) and checking descr.h's
 * offsets with `gdb -batch -ex 'ptype/o struct pthread' libc.so.6`
 * (tests/glibc-layout.sh does).  A release also needs its block in descr.h,
 * and libnptl must be built against its headers.
 *
 * Where the values come from: the _thread_db_* descriptors and
 * __rseq_offset read in the running process; ld.so's _rtld_global offsets
 * from `gdb -batch -ex 'ptype/o struct rtld_global'` on ld.so with the
 * libc6-dbg package; the protocols from glibc's sources (tags glibc-2.36,
 * glibc-2.41); a build's cancellable-syscall stub from
 * `gdb -batch -ex 'info address __syscall_cancel_arch_start' libc.so.6`.
 */
#include <errno.h>
#include <string.h>
#include "glibc.h"

const struct nptl_glibc_layout __nptl_layouts[] = {
	{
		/* Debian 12 (bookworm).  */
		.version = "2.36",
		.sizeof_pthread = 2368,
		.off_list = 704,
		.off_tid = 720,
		.off_cancelhandling = 776,
		.off_specific = 1296,
		.off_schedpolicy = 1588,
		.off_start_routine = 1592,
		.off_report_events = 1553,
		.off_dl_stack_used = 4264,
		.off_dl_stack_user = 4280,
		.rseq_offset = 2336,
		.off_dl_stack_flags = 4192,
		.off_dl_in_flight_stack = 4320,
		.off_dl_stack_cache_lock = 4328,
		.tls_init_new_thread = true,
		.cond_group_refs = true,
		.cancel_stub = false,
		.join_checks_time_first = false,
		.sem_long_name_errno = EINVAL,
		.sem_open_user_oflags = true,
	},
	{
		/* Debian 13 (trixie).  struct pthread gained rtld_catch and
		 * getrandom_buf and lost rseq_area (now in static TLS);
		 * _rtld_global shrank; condvars lost __g_refs and their
		 * protocol changed (glibc bug 25847 fixed); cancellation points run in a stub
		 * (glibc bug 12683 fixed); pthread_clockjoin_np checks its
		 * timespec first; sem_open says ENAMETOOLONG and keeps no
		 * caller flag but O_EXCL when it opens an existing file.  */
		.version = "2.41",
		.sizeof_pthread = 2368,
		.off_list = 704,
		.off_tid = 720,
		.off_cancelhandling = 776,
		.off_specific = 1296,
		.off_schedpolicy = 1588,
		.off_start_routine = 1592,
		.off_report_events = 1553,
		.off_dl_stack_used = 2816,
		.off_dl_stack_user = 2832,
		.rseq_offset = 0,
		.off_dl_stack_flags = 2744,
		.off_dl_in_flight_stack = 2872,
		.off_dl_stack_cache_lock = 2880,
		.tls_init_new_thread = false,
		.cond_group_refs = false,
		.cancel_stub = true,
		.join_checks_time_first = true,
		.sem_long_name_errno = ENAMETOOLONG,
		.sem_open_user_oflags = false,
	},
	{ .version = NULL },
};

const struct nptl_glibc_build __nptl_builds[] = {
	{
		.build_id = "93ac61ec5a8eb1396f9fbd350e3169a558528a40",
		.package = "2.36-9+deb12u14",
		.layout = &__nptl_layouts[0],
	},
	{
		.build_id = "93f70d1a8ae34f8e63c223f1500327fbd717f871",
		.package = "2.41-12+deb13u5",
		.layout = &__nptl_layouts[1],
		.off_cancel_stub = 0x9a700,
	},
	{ .build_id = NULL },
};

const struct nptl_glibc_layout *__nptl_glibc_release(const char *version)
{
	for (const struct nptl_glibc_layout *l = __nptl_layouts; l->version; l++)
		if (strcmp(l->version, version) == 0)
			return l;
	return NULL;
}
