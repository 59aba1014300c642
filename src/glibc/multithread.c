// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glibc switches into multi-threaded mode (stdio and malloc locking,
 * __libc_single_threaded = 0, its SIGSETXID handler for setuid from any
 * thread) only inside its own pthread_create, through internal functions
 * nobody else can call.  So libnptl lets glibc's pthread_create make one
 * thread that returns at once, joins it with glibc's pthread_join, and from
 * then on glibc behaves as it does in any threaded process.  This costs one
 * thread, once, before libnptl's first.  The thread runs on a stack of
 * ours, given to glibc as a user stack: glibc then keeps nothing of it in
 * its own stack cache (which nothing would ever take from again), and we
 * unmap it once glibc's join has returned -- by then the kernel has
 * cleared the thread's tid and glibc has taken the descriptor off its
 * lists and freed its DTV.
 */
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/single_threaded.h>
#include "nptl.h"

static void *bootstrap(void *arg)
{
	return arg;
}

/* The bootstrap's stack: a small one, so that it fits wherever a thread of
 * the program's would -- plus the static TLS glibc carves out of it
 * (ThreadSanitizer's runtime alone has 768 KiB of it).  */
static size_t bootstrap_stack(void)
{
	size_t size = 64 * 1024 + __nptl_tls_static_size(NULL);
	return (size + __nptl_page_size - 1) & ~(__nptl_page_size - 1);
}

/* What is mapped for it (by us; glibc gets it as a user stack, with no
 * guard): for the report of a failure.  */
size_t __nptl_glibc_bootstrap_size(void)
{
	return bootstrap_stack();
}

int __nptl_glibc_go_multithreaded(int *kerr)
{
	typedef int create_fn(pthread_t *, const pthread_attr_t *,
			      void *(*)(void *), void *);
	typedef int join_fn(pthread_t, void **);
	create_fn *create = (create_fn *)dlvsym(RTLD_NEXT, "pthread_create",
						"GLIBC_2.34");
	join_fn *join = (join_fn *)dlvsym(RTLD_NEXT, "pthread_join",
					  "GLIBC_2.34");
	if (!create || !join)
		__nptl_fatal("glibc's pthread_create@GLIBC_2.34 is missing");
	/* glibc reads the attribute in its own layout.  */
	size_t size = bootstrap_stack();
	long m = nptl_syscall(SYS_mmap, 0, size, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (nptl_sys_failed(m)) {
		*kerr = (int)-m;
		return EAGAIN;
	}
	union {
		pthread_attr_t attr;
		struct glibc_attr ga;
	} a = { .ga = { .flags = ATTR_FLAG_STACKADDR,
			.stackaddr = (char *)m + size, .stacksize = size } };
	pthread_t t;
	/* On failure, errno is what glibc's failed clone (or TLS set-up)
	 * left: the kernel's reason, kept for the report, and errno is put
	 * back.  */
	int saved_errno = errno;
	errno = 0;
	int err = create(&t, &a.attr, bootstrap, NULL);
	*kerr = errno;
	errno = saved_errno;
	if (err == 0)
		join(t, NULL);
	nptl_sys2(SYS_munmap, m, size);
	return err;
}

/* A self-cancel in a process that never made a thread: glibc's own
 * cancellation points (the write under fflush, the read under fgets) skip
 * the cancellation check while glibc believes the process single-threaded.
 * On x86_64 that belief is __libc_single_threaded as libc reads it -- its
 * own object, through a hidden alias, which differs from the public symbol
 * when the program has a copy relocation for it -- and on other targets
 * the descriptor's multiple_threads.  glibc's pthread_cancel clears all
 * three; so do we.  libc's own object is the definition that a lookup
 * starting at libc.so.6 finds.  */
void __nptl_glibc_cancel_points_on(void)
{
	nptl_self()->header.multiple_threads = 1;
	__libc_single_threaded = 0;
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	if (libc) {
		char *own = dlvsym(libc, "__libc_single_threaded", "GLIBC_2.32");
		if (own)
			__atomic_store_n(own, 0, __ATOMIC_RELAXED);
		dlclose(libc);
	}
}
