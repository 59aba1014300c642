// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cancellable system call and the signal return trampoline.
 *
 * long __nptl_syscall_cp_asm(const int *cancelhandling, long nr,
 *                            long a1, long a2, long a3, long a4,
 *                            long a5, long a6);
 *
 * Everything from __nptl_cp_begin up to (not including) __nptl_cp_end is
 * the window in which the system call has not taken effect: the flag test,
 * the argument shuffle, and the `syscall` instruction itself.  The kernel
 * reports a signal that interrupts a restartable call with the instruction
 * pointer rewound onto `syscall`, and one that arrives after the call
 * completed with it at __nptl_cp_end.  The SIGCANCEL handler
 * (src/cancel/cancellation.c) therefore redirects a thread found in
 * [__nptl_cp_begin, __nptl_cp_end) to __nptl_cp_cancel, and leaves one
 * found anywhere else alone: the proof is in cancellation.c.
 *
 * The function is a leaf that never moves %rsp, so the one CFI row below
 * describes every instruction, __nptl_cp_cancel included: a cancellation
 * that starts there unwinds straight into the C wrapper that called us.
 */
	.text
	.globl	__nptl_syscall_cp_asm
	.hidden	__nptl_syscall_cp_asm
	.globl	__nptl_cp_begin
	.hidden	__nptl_cp_begin
	.globl	__nptl_cp_end
	.hidden	__nptl_cp_end
	.globl	__nptl_cp_cancel
	.hidden	__nptl_cp_cancel
	.type	__nptl_syscall_cp_asm, @function
	.p2align 4
__nptl_syscall_cp_asm:
	.cfi_startproc
__nptl_cp_begin:
	/* Cancelled, enabled, and not already on the way out: act now.
	 * 0x39 = CANCELSTATE | CANCELED | EXITING | TERMINATED.  */
	movl	(%rdi), %eax
	andl	$0x39, %eax
	cmpl	$0x08, %eax
	je	__nptl_cp_cancel
	movq	%rsi, %rax
	movq	%rdx, %rdi
	movq	%rcx, %rsi
	movq	%r8, %rdx
	movq	%r9, %r10
	movq	8(%rsp), %r8
	movq	16(%rsp), %r9
	syscall
__nptl_cp_end:
	ret
__nptl_cp_cancel:
	jmp	__nptl_cancel_from_cp
	.cfi_endproc
	.size	__nptl_syscall_cp_asm, .-__nptl_syscall_cp_asm

/*
 * The restorer of libnptl's SIGCANCEL handler (the kernel's rt_sigreturn).
 * It has no CFI on purpose: libgcc recognises exactly these bytes
 * (mov $15,%rax; syscall) and unwinds through the signal frame from them,
 * which an asynchronous cancellation started in the handler needs.  The
 * nop keeps the byte before the restorer, where the unwinder looks up the
 * caller's FDE, outside any function.
 */
	.globl	__nptl_restore_rt
	.hidden	__nptl_restore_rt
	.type	__nptl_restore_rt, @function
	.p2align 4
	nop
__nptl_restore_rt:
	.byte	0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00	/* mov $15,%rax */
	syscall
	.size	__nptl_restore_rt, .-__nptl_restore_rt

	.section .note.GNU-stack, "", @progbits
