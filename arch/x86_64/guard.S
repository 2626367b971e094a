/* The guard's entry and the app's exception vectors (see guard.h).
 *
 * Every CPU runs the same vectors; each finds its own guard (struct
 * guard_context) at %gs:0, IA32_GS_BASE having been pointed at it by
 * guard_enter_cpu on that CPU. */

/* struct guard_context */
#define CTX_RSP    0
#define CTX_FAULT  8

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
	mov %rsp, %gs:CTX_RSP
	/* Six pushes after the return address leave %rsp 8 bytes off the
	   16-byte alignment the callee's ABI promises it. */
	sub $8, %rsp
	mov %rdi, %rax
	mov %rsi, %rdi
	call *%rax
	add $8, %rsp
	xor %eax, %eax
guard_unwind:
	/* No guard_call active on this CPU from here. */
	movq $0, %gs:CTX_RSP
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
	mov %rax, %gs:CTX_FAULT
	mov 8(%rsp), %rax
	mov %rax, %gs:CTX_FAULT+8
	mov 16(%rsp), %rax
	mov %rax, %gs:CTX_FAULT+16
	mov %cr2, %rax
	mov %rax, %gs:CTX_FAULT+24
	mov %gs:CTX_RSP, %rsp
	test %rsp, %rsp
	jz guard_park
	mov $1, %eax
	jmp guard_unwind
/* A fault with no guard_call active on this CPU has no frame to return
   to: the CPU stops here, interrupts off, its fault recorded. */
guard_park:
	cli
	hlt
	jmp guard_park
	.globl guard_text_end
guard_text_end:

	.data
	.balign 8
	.globl guard_data
guard_data:
	.globl guard_nmi_count
guard_nmi_count:
	.quad 0
	.globl guard_data_end
guard_data_end:

	.section .note.GNU-stack, "", @progbits
