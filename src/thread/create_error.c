// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * nptl_create_error: why the calling thread's last pthread_create (or
 * thrd_create) failed, in one sentence that names the limit and its
 * numbers; with NPTL_VERBOSE the same sentence goes to stderr at the
 * failure.
 *
 * Storage.  Each thread keeps its own last failure in libnptl's static
 * TLS (initial-exec: reading it takes no lock and no allocation), not in
 * libnptl's part of the descriptor (struct nptl_ext): threads made by
 * glibc -- the main thread above all -- have no nptl_ext, and they create
 * threads too.  Only the thread that failed writes it, on its failure
 * path; a successful creation leaves it alone, as a successful call leaves
 * errno.  A cached descriptor's TLS is reset from its image for its next
 * thread (src/glibc/tls.c), so a new thread starts with none.  The
 * sentence is copied out to the caller's buffer, so nothing the caller
 * holds points into a thread's TLS (which dies with the thread).
 *
 * Cost.  The failure itself only records what failed (the step, the
 * kernel's error, the size asked for).  Reading the limits and counts
 * (create_facts.c: a dozen system calls, a walk over /proc when
 * RLIMIT_NPROC applies) waits until the sentence is first asked for, by
 * nptl_create_error -- or is done at once with NPTL_VERBOSE, which prints
 * it.  A program that retries a refused creation in a loop, as glibc's
 * tst-create-detached does under RLIMIT_AS, would otherwise spend ~90 us
 * in /proc per refusal (glibc's refusal costs ~2 us) and keep the memory
 * it waits for from coming back sooner.  The numbers are then those of
 * the moment of asking, which for the usual caller (it asks right after
 * the failure) are the same; the man page says so.
 *
 * The failure path never changes what pthread_create returns, and neither
 * it nor nptl_create_error changes errno: measuring uses raw system calls
 * only, and errno is saved around the report on stderr (vsnprintf of a
 * "%s" and write).
 */
#include <string.h>
#include "nptl.h"

static __thread char last_error[256] __attribute__((tls_model("initial-exec")));
/* The last failure, while its sentence is not yet written.  */
static __thread struct {
	bool pending;
	bool c11;
	int err, step, kerr;
	unsigned long long need;
} last_failure __attribute__((tls_model("initial-exec")));

/* About what the failed call asked for: for map_new's mmap (stack.c),
 * stack, guard, static TLS and descriptor and a page of slack for the
 * signal frame and rounding; for the DTV's malloc, what malloc asks of the
 * kernel when its heap is full; nothing new for an mprotect or madvise on the mapping there is.  */
static unsigned long long need(int step, size_t stack_size, size_t guard)
{
	size_t align;
	unsigned long long tls = __nptl_tls_static_size(&align) + __nptl_page_size;
	switch (step) {
	case NPTL_CREATE_STACK:
		if (stack_size > ~0ULL / 2 || guard > ~0ULL / 4)
			return ~0ULL - 1;
		return stack_size + guard + tls;
	case NPTL_CREATE_INIT:
		return __nptl_glibc_bootstrap_size();
	case NPTL_CREATE_TLS:
		/* malloc grows its heap by at least its top pad (128 KiB by
		 * default) besides the request: less than that is not what
		 * was asked of the kernel.  */
		return (128 << 10) + __nptl_page_size;
	default:
		return 0;
	}
}

/* Measure now and write the sentence of the recorded failure.  */
static void compose(void)
{
	struct nptl_create_facts f;
	f.fn = last_failure.c11 ? "thrd_create" : "pthread_create";
	f.err = last_failure.err;
	f.step = last_failure.step;
	f.kerr = last_failure.kerr;
	f.need = last_failure.need;
	__nptl_create_facts(&f);
	__nptl_create_reason(&f, last_error, sizeof(last_error));
	last_failure.pending = false;
}

void __nptl_create_failed(bool c11, int err, const struct nptl_create_why *why,
			  size_t stack_size, size_t guard)
{
	int saved_errno = errno;
	last_failure.pending = false;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);  /* a handler may ask */
	last_failure.c11 = c11;
	last_failure.err = err;
	last_failure.step = why->step;
	last_failure.kerr = why->kerr;
	last_failure.need = need(why->step, stack_size, guard);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	last_failure.pending = true;
	if (__nptl_verbose) {
		compose();
		__nptl_say("%s", last_error);
	}
	errno = saved_errno;
}

/* libnptl's own interface (NPTL_1.0).  Like snprintf: copies what fits,
 * always terminated when size > 0, and returns the sentence's length; 0
 * (and "") while the calling thread has had no failed creation.  */
NPTL_API int nptl_create_error(char *buf, size_t size)
{
	if (last_failure.pending) {
		int saved_errno = errno;
		compose();
		errno = saved_errno;
	}
	size_t n = strnlen(last_error, sizeof(last_error));
	if (size) {
		size_t c = n < size ? n : size - 1;
		memcpy(buf, last_error, c);
		buf[c] = 0;
	}
	return (int)n;
}
