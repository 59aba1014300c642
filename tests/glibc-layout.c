// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnptl only: the installed libc is one libnptl knows.  Runs libnptl's
 * start-up probe (src/glibc/probe.c, compiled in) and checks that the build
 * is in the table and every probe agreed; prints the table row for a new
 * build.  With "--offsets" prints descr.h's field offsets for
 * glibc-layout.sh to compare with gdb's view of libc's debug info.
 */
#include "nptl.h"
#include "t.h"

#define F(name) printf("%s %zu\n", #name, offsetof(struct pthread, name))

int main(int argc, char **argv)
{
	__nptl_diag_init();
	if (argc > 1 && strcmp(argv[1], "--offsets") == 0) {
		printf("sizeof %zu\n", sizeof(struct pthread));
		F(list); F(tid); F(robust_prev); F(robust_head); F(cleanup);
		F(cleanup_jmp_buf); F(cancelhandling); F(flags);
		F(specific_1stblock); F(specific); F(specific_used);
		F(report_events); F(user_stack); F(stopped_start);
		F(setup_failed); F(lock); F(setxid_futex); F(joinid);
		F(result); F(schedparam); F(schedpolicy); F(start_routine);
		F(arg); F(eventbuf); F(nextevent); F(exc); F(stackblock);
		F(stackblock_size); F(guardsize); F(reported_guardsize); F(tpp);
		F(res); F(sigmask); F(c11); F(exiting); F(exit_lock);
		F(tls_state); F(rseq_area);
		/* The table's values for ld.so's _rtld_global.  */
		const struct nptl_glibc_layout *l = &__nptl_layouts[0];
		printf("rtld:_dl_stack_used %u\n", l->off_dl_stack_used);
		printf("rtld:_dl_stack_user %u\n", l->off_dl_stack_user);
		printf("rtld:_dl_stack_flags %u\n", l->off_dl_stack_flags);
		printf("rtld:_dl_in_flight_stack %u\n", l->off_dl_in_flight_stack);
		printf("rtld:_dl_stack_cache_lock %u\n", l->off_dl_stack_cache_lock);
		return 0;
	}
	struct nptl_glibc_report r;
	__nptl_glibc_probe(&r);
	printf("libc %s build-id %s\n", r.version, r.build_id);
	CHECK(r.layout != NULL);
	CHECK(r.mismatch == NULL);
	if (r.mismatch)
		fprintf(stderr, "probe disagrees: %s\n", r.mismatch);
	if (!r.known) {
		fprintf(stderr, "build %s is not in src/glibc/builds.c; if every "
			"probe agreed add:\n\t{ \"%s\", \"<package version>\", "
			"&__nptl_layouts[N] },\n", r.build_id, r.build_id);
		CHECK(r.known != NULL);
	} else {
		printf("known build: %s\n", r.known->package);
	}
	return t_done();
}
