/* The guard's entry and the app's exception vectors (see guard.h). */

	.text
	.globl guard_text
guard_text:

/* int guard_call(void (*fn)(void *) = %rdi, void *arg = %rsi) */
	.globl guard_call
	.type guard_call, @function
guard_call:
	push %rbp
	push %rbx
	push %r12
	push %r13
	push %r14
	push %r15
	mov %rsp, guard_saved_rsp(%rip)
	/* Six pushes after the return address leave %rsp 8 bytes off the
	   16-byte alignment the callee's ABI promises it. */
	sub $8, %rsp
	mov %rdi, %rax
	mov %rsi, %rdi
	call *%rax
	add $8, %rsp
	xor %eax, %eax
guard_unwind:
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %rbx
	pop %rbp
	ret
	.size guard_call, . - guard_call

/* One 16-byte stub per vector 0..31, so stub v sits at guard_vectors + 16*v
   and the IDT can be filled at run time, after relocation. Vectors with a
   CPU-pushed error code skip the dummy push so every frame looks alike.
   The NMI (2) cannot be masked by cli and says nothing about the probe: it
   is counted and the interrupted code resumes. */
	.macro vector n
	.balign 16
	.if \n == 2
	lock incq guard_nmi_count(%rip)
	iretq
	.else
	.if (\n == 8 || (\n >= 10 && \n <= 14) || \n == 17 || \n == 21 || \n == 29 || \n == 30)
	.else
	pushq $0
	.endif
	pushq $\n
	jmp guard_fault_entry
	.endif
	.endm

	.balign 16
	.globl guard_vectors
guard_vectors:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vector \n
	.endr

/* Frame: vector, error code, RIP, CS, RFLAGS, RSP, SS. */
guard_fault_entry:
	cld
	mov (%rsp), %rax
	mov %rax, guard_last_fault(%rip)
	mov 8(%rsp), %rax
	mov %rax, guard_last_fault+8(%rip)
	mov 16(%rsp), %rax
	mov %rax, guard_last_fault+16(%rip)
	mov %cr2, %rax
	mov %rax, guard_last_fault+24(%rip)
	mov guard_saved_rsp(%rip), %rsp
	mov $1, %eax
	jmp guard_unwind
	.globl guard_text_end
guard_text_end:

	.data
	.balign 8
	.globl guard_data
guard_data:
guard_saved_rsp:
	.quad 0
	.globl guard_last_fault
guard_last_fault:
	.quad 0, 0, 0, 0
	.globl guard_nmi_count
guard_nmi_count:
	.quad 0
	.globl guard_data_end
guard_data_end:

	.section .note.GNU-stack, "", @progbits
