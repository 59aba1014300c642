// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glibc's own cancellable system calls, from glibc 2.41 on.
 *
 * Up to 2.40 glibc's cancellation points (the read inside fgets, the wait
 * inside system) switched the thread to asynchronous cancellation around
 * the system call, and libnptl's SIGCANCEL handler acted on that bit.
 * glibc 2.41 fixed its bug 12683 the way libnptl's own cancellation points
 * work (src/cancel/cancellation.c): the system call is made in a small
 * assembly stub, __syscall_cancel_arch, whose range from its first
 * instruction up to (not including) the one after `syscall` is where the
 * call has not taken effect, and glibc's SIGCANCEL handler cancels a thread
 * found there.  libnptl's handler replaces glibc's, so it must know that
 * range too, or a libnptl thread blocked in glibc's read would ignore
 * pthread_cancel.  The stub is not exported, so:
 *
 *  - for a build in the table, builds.c gives its offset in libc.so.6, and
 *    we check that the bytes there are the stub's;
 *  - for an unknown build of the release, we look for the stub's bytes in
 *    libc's code and accept exactly one match.
 *
 * The fingerprint is the stub's machine code as the release assembles it,
 * with the displacement of its jump to glibc's __syscall_do_cancel left
 * out (it differs between builds).  It also proves what libnptl's handler
 * relies on to redirect a thread found in the range to its own cancel
 * trampoline: the stub is a leaf that never moves the stack pointer, so
 * the return address into its caller is at the top of the stack throughout,
 * exactly as in libnptl's stub.
 */
#include <link.h>
#include <string.h>
#include "nptl.h"

uintptr_t __nptl_glibc_cancel_lo;

#if defined(__x86_64__)
/* glibc 2.41, sysdeps/unix/sysv/linux/x86_64/syscall_cancel.S: test the
 * CANCELED bit and jump out, shuffle the arguments (the seventh, the
 * cancelhandling pointer, is parked in the caller's argument slot), syscall,
 * ret.  */
static const unsigned char stub[] = {
	0x8b, 0x07,                         /* mov (%rdi),%eax */
	0xf6, 0x07, CANCELED_BITMASK,       /* testb $CANCELED,(%rdi) */
	0x0f, 0x85, 0, 0, 0, 0,             /* jne __syscall_do_cancel */
	0x49, 0x89, 0xfb,                   /* mov %rdi,%r11 */
	0x48, 0x89, 0xf0,                   /* mov %rsi,%rax */
	0x48, 0x89, 0xd7,                   /* mov %rdx,%rdi */
	0x48, 0x89, 0xce,                   /* mov %rcx,%rsi */
	0x4c, 0x89, 0xc2,                   /* mov %r8,%rdx */
	0x4d, 0x89, 0xca,                   /* mov %r9,%r10 */
	0x4c, 0x8b, 0x44, 0x24, 0x08,       /* mov 0x8(%rsp),%r8 */
	0x4c, 0x8b, 0x4c, 0x24, 0x10,       /* mov 0x10(%rsp),%r9 */
	0x4c, 0x89, 0x5c, 0x24, 0x08,       /* mov %r11,0x8(%rsp) */
	0x0f, 0x05,                         /* syscall */
	0xc3,                               /* ret: the end of the range */
};
#define STUB_WILD_AT 7          /* the jump's 4-byte displacement */
#define STUB_WILD_LEN 4
#define STUB_TAIL_AT 11         /* a unique run to search for */
const uintptr_t __nptl_glibc_cancel_len = sizeof(stub) - 1;
#else
static const unsigned char stub[1];
#define STUB_WILD_AT 0
#define STUB_WILD_LEN 0
#define STUB_TAIL_AT 0
const uintptr_t __nptl_glibc_cancel_len = 0;
#endif

static bool is_stub(const unsigned char *p)
{
	return memcmp(p, stub, STUB_WILD_AT) == 0 &&
	       memcmp(p + STUB_WILD_AT + STUB_WILD_LEN,
		      stub + STUB_WILD_AT + STUB_WILD_LEN,
		      sizeof(stub) - STUB_WILD_AT - STUB_WILD_LEN) == 0;
}

struct search {
	uintptr_t want;          /* the table's address, or 0: scan */
	uintptr_t found;
	int matches;
};

static int search_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct search *s = data;
	if (!strstr(info->dlpi_name, "/libc.so.6"))
		return 0;
	if (s->want)
		s->want += info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) ||
		    ph->p_memsz < sizeof(stub))
			continue;
		const unsigned char *lo = (const unsigned char *)
			(info->dlpi_addr + ph->p_vaddr);
		const unsigned char *hi = lo + ph->p_memsz;
		if (s->want) {
			if (s->want >= (uintptr_t)lo &&
			    s->want <= (uintptr_t)hi - sizeof(stub) &&
			    is_stub((const unsigned char *)s->want)) {
				s->found = s->want;
				s->matches = 1;
			}
			continue;
		}
		const unsigned char *tail = stub + STUB_TAIL_AT;
		size_t tail_len = sizeof(stub) - STUB_TAIL_AT;
		const unsigned char *p = lo + STUB_TAIL_AT;
		while ((p = memmem(p, (size_t)(hi - p), tail, tail_len)) != NULL) {
			if (is_stub(p - STUB_TAIL_AT)) {
				s->found = (uintptr_t)(p - STUB_TAIL_AT);
				s->matches++;
			}
			p++;
		}
	}
	return 1;
}

uintptr_t __nptl_glibc_cancel_stub_find(const struct nptl_glibc_build *known,
					const char **why)
{
	if (__nptl_glibc_cancel_len == 0) {
		*why = "glibc's cancellable system call stub (no fingerprint for "
		       "this architecture)";
		return 0;
	}
	struct search s = { known ? known->off_cancel_stub : 0, 0, 0 };
	if (known && !s.want) {
		*why = "glibc's cancellable system call stub (no offset in the "
		       "build table)";
		return 0;
	}
	dl_iterate_phdr(search_libc, &s);
	if (s.matches != 1) {
		*why = "glibc's cancellable system call stub";
		return 0;
	}
	return s.found;
}

void __nptl_glibc_cancel_stub_set(uintptr_t start)
{
	__atomic_store_n(&__nptl_glibc_cancel_lo, start, __ATOMIC_RELAXED);
}
