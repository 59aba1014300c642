// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Cancellation: glibc's protocol on the descriptor's cancelhandling word,
 * libnptl's SIGCANCEL handler, and the race-free cancellable system call.
 *
 * The word.  CANCELSTATE (disabled), CANCELTYPE (asynchronous), CANCELING
 * (a cancellation is on its way), CANCELED (requested), EXITING, TERMINATED
 * -- glibc's bits, changed only with compare-and-swap, so that glibc's own
 * cancellation points (its read inside fgets, system, ...) and libnptl's
 * see the same state.  A thread acts on a cancellation when it is CANCELED
 * and enabled and not yet EXITING: it sets EXITING (no second cancellation
 * can start on top) and unwinds with PTHREAD_CANCELED as its result.
 *
 * glibc 2.36's protocol (kept for glibc 2.36's own cancellation points and
 * for the futex waits of libnptl's other families): a blocking call switches
 * the thread to asynchronous cancellation around its system call
 * (__nptl_enable_asynccancel / __nptl_disable_asynccancel).  A cancellation
 * already requested acts at once; one requested meanwhile arrives as
 * SIGCANCEL, and the handler unwinds from inside the call.  That loses
 * data: a read that has consumed bytes and is about to return can still be
 * unwound (glibc bug 12683).  Fine for a futex wait, wrong for read.
 *
 * libnptl's own cancellation points (the wrappers in this directory) use
 * instead a system call stub with known bounds (src/sysdeps/<arch>/
 * syscall_cp.S): [begin, end) covers the test of the word, the argument
 * set-up and the system call instruction; `end` is the instruction after
 * it.  pthread_cancel sets CANCELED first and then sends SIGCANCEL to a
 * thread with cancellation enabled.  The handler looks at where the
 * signal interrupted the thread:
 *
 *  - pc in [begin, end): the system call has not taken effect.  Either the
 *    thread had not reached the instruction yet, or the kernel interrupted
 *    a call that returns "restart" (ERESTARTSYS under SA_RESTART,
 *    ERESTARTNOINTR), which it reports by rewinding pc onto the
 *    instruction -- and a call that restarts has done nothing (a read that
 *    copied bytes returns their count instead).  The handler rewrites pc
 *    to the cancel trampoline, which acts on the cancellation.
 *  - pc anywhere else: the call completed (pc == end, with whatever result
 *    the kernel gave) or the thread is not in the stub.  Nothing is undone:
 *    the result goes back to the caller, and CANCELED, which stays set,
 *    acts at the next cancellation point.  A call that completed with
 *    EINTR had no effect (the one exception, close, is excluded), so
 *    __nptl_syscall_cp acts on a pending cancellation then.
 *
 * glibc 2.41 fixed its bug 12683 the same way: its own cancellation points
 * (the read inside fgets...) make the call in a stub of its own with the
 * same window, CANCELED tested first, and no asynchronous switch.  Its
 * range is known to src/glibc/cancel.c, and the handler treats it as its
 * own stub's: a thread found there is sent to our cancel trampoline (both
 * stubs are leaves that keep the return address at the top of the stack,
 * which is all the trampoline's unwind information assumes), and one that
 * completed with EINTR is cancelled by glibc's code after the stub, which
 * sees CANCELED as ours does.
 *
 * So no data is lost: the thread is unwound only where the call never took
 * effect.  And no cancellation is lost: CANCELED is set before the signal
 * is sent, and the stub tests it before the call; a thread that tested it
 * too early is, when the signal arrives, either still in the window
 * (redirected), or past the call (it returns, and the next cancellation
 * point sees CANCELED), or blocked in the call (interrupted: restart means
 * pc in the window, EINTR means the post-check acts).  The signal may find
 * the thread in a handler of its own that interrupted the stub: then pc is
 * not in the window, so the handler blocks SIGCANCEL in the interrupted
 * context and sends it again; it stays pending until that context's mask
 * is restored (the other handler returns into the stub, or the thread
 * changes its mask), and is delivered again then.  Asynchronous
 * cancellation (type ASYNCHRONOUS, glibc's cancellation points included)
 * acts in the handler wherever the thread is.
 *
 * Cancellation points that are more than one system call (join, the
 * semaphore and condition variable waits) test the word at entry
 * (nptl_testcancel in nptl.h), so that a request already pending acts
 * even when the call would return without sleeping, as the stub's own test
 * makes every single-call point do.  The rest of the argument is
 * unchanged: a request that arrives after the entry test is seen by the
 * sleep's asynchronous switch, which tests the word before it sleeps, or
 * interrupts the sleep; a call that completes without sleeping returns,
 * and CANCELED acts at the next point.
 *
 * SIGCANCEL (32) is also glibc's SIGTIMER: the handler acts only on
 * SI_TKILL signals from this process.
 */
#include <signal.h>
#include <ucontext.h>
#include "nptl.h"

void __nptl_do_cancel(void)
{
	struct pthread *self = nptl_self();
	__atomic_fetch_or(&self->cancelhandling, EXITING_BITMASK, __ATOMIC_RELAXED);
	__nptl_unwind(self->cleanup_jmp_buf);
}

void __nptl_cancel_now(void)
{
	nptl_self()->result = PTHREAD_CANCELED;
	__nptl_do_cancel();
}

int __nptl_enable_asynccancel(void)
{
	struct pthread *self = nptl_self();
	int old = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	for (;;) {
		int new = old | CANCELTYPE_BITMASK;
		if (new == old)
			break;
		if (__atomic_compare_exchange_n(&self->cancelhandling, &old, new,
						true, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			if (nptl_cancel_async_pending(new))
				__nptl_cancel_now();
			break;
		}
	}
	return old;
}

void __nptl_disable_asynccancel(int oldtype)
{
	if (oldtype & CANCELTYPE_BITMASK)
		return;
	struct pthread *self = nptl_self();
	int old = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	int new;
	do
		new = old & ~CANCELTYPE_BITMASK;
	while (!__atomic_compare_exchange_n(&self->cancelhandling, &old, new, true,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	/* A canceller saw us asynchronous and sent SIGCANCEL with CANCELING
	 * alone: it will arrive, and must not find us past this point
	 * believing we were not cancelled (glibc's rule).  The handler sets
	 * CANCELED, and its delivery interrupts the wait.  */
	while ((new & (CANCELING_BITMASK | CANCELED_BITMASK)) == CANCELING_BITMASK) {
		nptl_futex_wait(&self->cancelhandling, new, true);
		new = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	}
}

/* ---- the cancellable system call -------------------------------------- */

long __nptl_syscall_cp_asm(const int *ch, long nr, long a, long b, long c,
			   long d, long e, long f) NPTL_HIDDEN;
extern const char __nptl_cp_begin[] NPTL_HIDDEN;
extern const char __nptl_cp_end[] NPTL_HIDDEN;
extern const char __nptl_cp_cancel[] NPTL_HIDDEN;
extern const char __nptl_restore_rt[] NPTL_HIDDEN;
_Noreturn void __nptl_cancel_from_cp(void) NPTL_HIDDEN;

/* The stub jumps here (and the handler sends the thread here) with the
 * stub's frame still on the stack: the unwind starts in the C wrapper that
 * called the stub, whose cleanups run.  */
void __nptl_cancel_from_cp(void)
{
	__nptl_cancel_now();
}

long __nptl_syscall_cp(long nr, long a, long b, long c, long d, long e, long f)
{
	struct pthread *self = nptl_self();
	long r = __nptl_syscall_cp_asm(&self->cancelhandling, nr, a, b, c, d, e, f);
	/* Interrupted without effect (close is the exception: Linux has
	 * released the descriptor even when it says EINTR).  */
	if (r == -EINTR && nr != SYS_close &&
	    nptl_cancel_pending(__atomic_load_n(&self->cancelhandling,
						__ATOMIC_RELAXED)))
		__nptl_cancel_now();
	return r;
}

long __nptl_syscall_cp_errno(long nr, long a, long b, long c, long d, long e,
			     long f)
{
	long r = __nptl_syscall_cp(nr, a, b, c, d, e, f);
	if (nptl_sys_failed(r)) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* ---- SIGCANCEL -------------------------------------------------------- */

#define SIGCANCEL_BIT (1UL << (GLIBC_SIGCANCEL - 1))

static void sigcancel_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	if (si->si_code != SI_TKILL || si->si_pid != nptl_sys0(SYS_getpid))
		return;
	struct pthread *self = nptl_self();
	int save_errno = errno;

	/* A SIGCANCEL not sent by pthread_cancel (tgkill by hand) still
	 * means "cancelled", as in glibc.  */
	int old = __atomic_load_n(&self->cancelhandling, __ATOMIC_RELAXED);
	int cur;
	do {
		if (old & (EXITING_BITMASK | TERMINATED_BITMASK))
			return;
		cur = old | CANCELING_BITMASK | CANCELED_BITMASK;
	} while (cur != old &&
		 !__atomic_compare_exchange_n(&self->cancelhandling, &old, cur,
					      true, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	if (cur & CANCELSTATE_BITMASK)
		return;
	if (cur & CANCELTYPE_BITMASK)
		__nptl_cancel_now();

	ucontext_t *uc = ctx;
	uintptr_t pc = NPTL_ARCH_UC_PC(uc);
	if ((pc >= (uintptr_t)__nptl_cp_begin && pc < (uintptr_t)__nptl_cp_end) ||
	    nptl_glibc_in_cancel_stub(pc)) {
		NPTL_ARCH_UC_SET_PC(uc, (uintptr_t)__nptl_cp_cancel);
		return;
	}
	/* Not in the stub (maybe in a handler that interrupted it): keep the
	 * signal pending and blocked until the interrupted context's own mask
	 * comes back (see above).  glibc's sigaddset refuses SIGCANCEL.  */
	((unsigned long *)(void *)&uc->uc_sigmask)[0] |= SIGCANCEL_BIT;
	nptl_sys3(SYS_tgkill, nptl_sys0(SYS_getpid), nptl_sys0(SYS_gettid),
		  GLIBC_SIGCANCEL);
	errno = save_errno;
}

static int installed;

void __nptl_cancel_install(void)
{
	if (__atomic_load_n(&installed, __ATOMIC_ACQUIRE))
		return;
	/* SA_RESTART: a thread signalled while cancellation cannot act must
	 * not see a spurious EINTR from a restartable call; and restart is
	 * what puts pc back into the stub's window.  Two threads installing
	 * at once install the same thing.  */
	struct nptl_arch_kernel_sigaction sa = {
		.handler = sigcancel_handler,
		.flags = SA_SIGINFO | SA_RESTART | NPTL_ARCH_SA_RESTORER,
		.restorer = __nptl_restore_rt,
		.mask = 0,
	};
	nptl_sys4(SYS_rt_sigaction, GLIBC_SIGCANCEL, &sa, 0, sizeof(sa.mask));
	__atomic_store_n(&installed, 1, __ATOMIC_RELEASE);
}
