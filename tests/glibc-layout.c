// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnptl only: the installed libc is one libnptl knows.  Runs libnptl's
 * start-up probe (src/glibc/probe.c, compiled in) and checks that the build
 * is in the table and every probe agreed; prints the table row for a new
 * build.  With "--offsets" prints descr.h's field offsets for
 * glibc-layout.sh to compare with gdb's view of libc's debug info.
 */
#include <dlfcn.h>
#include "nptl.h"
#include "t.h"

#define F(name) printf("%s %zu\n", #name, offsetof(struct pthread, name));

/* The probe's find of glibc's cancellable-syscall stub, from libc's load
 * address (0: none).  */
static uintptr_t libc_offset(void)
{
	struct nptl_glibc_report r;
	__nptl_glibc_probe(&r);
	Dl_info di;
	if (!r.cancel_stub || !dladdr((void *)r.cancel_stub, &di))
		return 0;
	return r.cancel_stub - (uintptr_t)di.dli_fbase;
}

int main(int argc, char **argv)
{
	__nptl_diag_init();
	if (argc > 1 && strcmp(argv[1], "--offsets") == 0) {
		printf("sizeof %zu\n", sizeof(struct pthread));
		GLIBC_PTHREAD_FIELDS(F)
		/* The table's values for ld.so's _rtld_global.  */
		const struct nptl_glibc_layout *l = __nptl_glibc_release(GLIBC_RELEASE);
		printf("rtld:_dl_stack_used %u\n", l->off_dl_stack_used);
		printf("rtld:_dl_stack_user %u\n", l->off_dl_stack_user);
		printf("rtld:_dl_stack_flags %u\n", l->off_dl_stack_flags);
		printf("rtld:_dl_in_flight_stack %u\n", l->off_dl_in_flight_stack);
		printf("rtld:_dl_stack_cache_lock %u\n", l->off_dl_stack_cache_lock);
		/* Where the probe found glibc's cancellable-syscall stub.  */
		if (l->cancel_stub)
			printf("libc:__syscall_cancel_arch_start %lu\n",
			       (unsigned long)libc_offset());
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
			"probe agreed add:\n\t{\n\t\t.build_id = \"%s\",\n"
			"\t\t.package = \"<package version>\",\n"
			"\t\t.layout = &__nptl_layouts[N],\n", r.build_id,
			r.build_id);
		if (r.cancel_stub)
			fprintf(stderr, "\t\t.off_cancel_stub = %#lx,\n",
				(unsigned long)libc_offset());
		fprintf(stderr, "\t},\n");
		CHECK(r.known != NULL);
	} else {
		printf("known build: %s\n", r.known->package);
	}
	return t_done();
}
