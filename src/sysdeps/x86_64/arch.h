/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* x86_64: the thread pointer, raw system calls, clone, the two
 * instructions the spin loops use, and the signal frame's layout that
 * SIGCANCEL's handler needs.  */
#ifndef NPTL_ARCH_H
#define NPTL_ARCH_H

/* The x86_64 TLS ABI keeps the TCB's own address at %fs:0.  */
static inline void *nptl_arch_tp(void)
{
	void *tp;
	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return tp;
}

/* In a spin loop: lets the sibling hyperthread run and keeps the loop
 * from flooding the memory system with loads.  */
static inline void nptl_arch_pause(void)
{
	__builtin_ia32_pause();
}

/* A cheap, roughly monotonic tick count in unknown units (the TSC): only
 * for policy that compares ticks with ticks, such as the rwlock's bias
 * back-off, never for a deadline.  It may differ a little between CPUs,
 * so callers tolerate a second reading below the first.  */
static inline unsigned long nptl_arch_ticks(void)
{
	return __builtin_ia32_rdtsc();
}

/* The interrupted pc in a signal handler's ucontext_t: SIGCANCEL's
 * handler sends a thread caught inside the cancellable-syscall window
 * to the cancellation exit (src/cancel/cancellation.c).  Macros, so that
 * only the file that uses them needs <ucontext.h>'s names.  */
#define NPTL_ARCH_UC_PC(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RIP])
#define NPTL_ARCH_UC_SET_PC(uc, pc) \
	((uc)->uc_mcontext.gregs[REG_RIP] = (greg_t)(pc))

/* The kernel's struct sigaction for rt_sigaction, whose x86_64 form
 * must name a restorer (__nptl_restore_rt, syscall_cp.S).  */
struct nptl_arch_kernel_sigaction {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	const void *restorer;
	unsigned long mask;
};
#define NPTL_ARCH_SA_RESTORER 0x04000000

/* Raw system calls: they return -errno and never touch errno.  */
static inline long nptl_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
#define nptl_syscall(n, a, b, c, d, e, f) \
	nptl_syscall6((n), (long)(a), (long)(b), (long)(c), (long)(d), \
		      (long)(e), (long)(f))

/* clone(2) for a new thread: the child runs fn(arg) on `stack` (its top)
 * and must never return.  Returns the child's tid or -errno.  */
long nptl_arch_clone(void (*fn)(void *), void *arg, unsigned long flags,
		     void *stack, int *ptid, int *ctid, void *tls)
	__attribute__((visibility("hidden")));

/* The kernel's exit(2) for this thread only.  */
static inline __attribute__((noreturn)) void nptl_arch_exit_thread(void)
{
	for (;;)
		__asm__ volatile("syscall" : : "a"(60), "D"(0) : "rcx", "r11", "memory");
}

#endif
