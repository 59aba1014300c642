// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The libc builds libnptl knows.  A layout row holds, for one upstream
 * release, every value descr.h and ldso.c rely on; probe.c compares the
 * probeable ones with the running libc and trusts the rest only when the
 * build is in the table or every probe agreed.  Add a build by running
 * `tests/glibc-layout` on it (it prints a row) and checking descr.h's
 * offsets with `gdb -batch -ex 'ptype/o struct pthread' libc.so.6`.
 */
#include "glibc.h"

const struct nptl_glibc_layout __nptl_layouts[] = {
	{
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
	},
	{ .version = NULL },
};

const struct nptl_glibc_build __nptl_builds[] = {
	{ "93ac61ec5a8eb1396f9fbd350e3169a558528a40", "2.36-9+deb12u14",
	  &__nptl_layouts[0] },
	{ NULL, NULL, NULL },
};
