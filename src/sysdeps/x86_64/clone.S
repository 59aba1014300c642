/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * long nptl_arch_clone(fn, arg, flags, stack, ptid, ctid, tls)
 *                      rdi rsi  rdx    rcx    r8    r9   8(%rsp)
 * The child starts on `stack` with fn and arg popped from it; its frame is
 * the outermost one (undefined return address) so that forced unwinding
 * for pthread_exit and cancellation stops there.
 */
	.text
	.globl	nptl_arch_clone
	.hidden	nptl_arch_clone
	.type	nptl_arch_clone,@function
	.p2align 4
nptl_arch_clone:
	.cfi_startproc
	andq	$-16, %rcx
	subq	$16, %rcx
	movq	%rdi, 0(%rcx)
	movq	%rsi, 8(%rcx)
	movq	%rdx, %rdi
	movq	%rcx, %rsi
	movq	%r8, %rdx
	movq	%r9, %r10
	movq	8(%rsp), %r8
	movl	$56, %eax		/* __NR_clone */
	.cfi_endproc
	syscall
	testq	%rax, %rax
	jz	1f
	ret
1:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	popq	%rax
	popq	%rdi
	call	*%rax
	hlt
	.cfi_endproc
	.size	nptl_arch_clone, .-nptl_arch_clone
	.section .note.GNU-stack,"",@progbits
