// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The bare clone(2) of the floor (see floor.h).  It is assembly because the
 * child starts with a stack and %fs that no C code may use: it must go
 * straight to its few syscalls.  r9 (the sixth argument, ctl) survives the
 * syscall into the child, which is how the child gets its control block.
 */
#if defined __x86_64__

#define SYS_futex		202
#define SYS_exit		60
#define SYS_clone		56
#define FUTEX_WAIT_PRIVATE	128
#define FUTEX_WAKE_PRIVATE	129

	.text
	.globl	floor_clone
	.hidden	floor_clone
	.type	floor_clone, @function
	.p2align 4
/* long floor_clone(flags=rdi, stack=rsi, ptid=rdx, ctid=rcx, tls=r8, ctl=r9) */
floor_clone:
	.cfi_startproc
	mov	%rcx, %r10		/* the kernel takes the 4th arg in r10 */
	mov	$SYS_clone, %eax
	syscall
	test	%rax, %rax
	jz	1f
	ret				/* parent: tid or -errno */
	.cfi_endproc

1:	/* Child.  No CFI: there is nothing to unwind to. */
	test	%r9, %r9
	jz	4f
	cmpl	$0, 16(%r9)		/* touch: the two pages below the top */
	je	3f
	movq	$0, -8(%rsp)
	movq	$0, -4104(%rsp)
3:
	mov	$1, %eax
	lock xadd %eax, 0(%r9)		/* count++ */
	inc	%eax
	cmp	4(%r9), %eax
	jne	2f
	movl	$1, 12(%r9)		/* last one: started = 1, wake it */
	mov	$SYS_futex, %eax
	lea	12(%r9), %rdi
	mov	$FUTEX_WAKE_PRIVATE, %esi
	mov	$1, %edx
	syscall
2:	mov	8(%r9), %eax		/* while (!stop) futex_wait(&stop, 0) */
	test	%eax, %eax
	jnz	4f
	mov	$SYS_futex, %eax
	lea	8(%r9), %rdi
	mov	$FUTEX_WAIT_PRIVATE, %esi
	xor	%edx, %edx
	xor	%r10d, %r10d
	syscall
	jmp	2b
4:	mov	$SYS_exit, %eax		/* exit(2): this thread only */
	xor	%edi, %edi
	syscall
	hlt
	.size	floor_clone, .-floor_clone

#define FUTEX_WAIT		0
	.globl	floor_join
	.hidden	floor_join
	.type	floor_join, @function
	.p2align 4
/*
 * void floor_join(int *ctid): while (*ctid) futex_wait(ctid, *ctid).
 * Shared (not private) futex: the kernel's CLONE_CHILD_CLEARTID wake-up is
 * a shared FUTEX_WAKE, and glibc's pthread_join waits the same way.
 */
floor_join:
	.cfi_startproc
1:	mov	(%rdi), %edx
	test	%edx, %edx
	jz	2f
	mov	$SYS_futex, %eax	/* syscall keeps rdi */
	mov	$FUTEX_WAIT, %esi
	xor	%r10d, %r10d
	syscall
	jmp	1b
2:	ret
	.cfi_endproc
	.size	floor_join, .-floor_join

#endif

	.section .note.GNU-stack,"",@progbits
