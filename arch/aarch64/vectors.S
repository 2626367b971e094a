/* The guard's exception vectors and guard_call (arch/aarch64/guard.h).
 *
 * Every entry, whatever the exception, records ESR, FAR and ELR of the
 * level it runs at (CurrentEL picks the _EL1 or _EL2 registers) and, when a
 * guard_call is active, sets ELR to guard_recover and returns there with
 * ERET: SPSR still holds the interrupted PSTATE, so the recovery runs at
 * the same level with DAIF masked, on the stack pointer the code used. The
 * recovery then reloads the stack pointer and registers guard_call saved.
 * No entry touches the stack, so a fault on a bad stack pointer is caught
 * like any other. With no guard_call active there is nothing to return
 * to: the CPU waits for ever (WFI, interrupts masked), which under the
 * harness ends at its timeout instead of a silent wrong figure.
 *
 * Each CPU has a guard of its own: TPIDR_ELx (of the level it runs at)
 * points at that CPU's block, its saved context then its last fault, set
 * by guard_enter_cpu. The boot processor's is guard_data's, so an AP's
 * fault returns into that AP's guard_call, never the boot processor's.
 */

	.text

/* A CPU's block: its guard_context, x19..x30 (12 words), sp, d8..d15
   (8 words), active; then its struct guard_fault. */
#define CTX_SP     (12 * 8)
#define CTX_D8     (13 * 8)
#define CTX_ACTIVE (21 * 8)
#define CTX_FAULT  (22 * 8)
#define CTX_BYTES  (26 * 8)

/* \reg = this CPU's block, from TPIDR_EL1 or TPIDR_EL2; clobbers \scratch. */
	.macro	cpu_block reg, scratch
	mrs	\scratch, CurrentEL
	cmp	\scratch, #(2 << 2)
	b.eq	91f
	mrs	\reg, tpidr_el1
	b	92f
91:	mrs	\reg, tpidr_el2
92:
	.endm

	.macro	vector kind
	.balign	0x80
	mov	x9, #\kind
	b	guard_entry
	.endm

	.balign	2048
	.global	guard_vectors
guard_vectors:
	/* Current EL with SP_EL0, then with SP_ELx, then lower EL AArch64,
	   then lower EL AArch32: synchronous, IRQ, FIQ, SError each. */
	.rept	4
	vector	0
	vector	0x101
	vector	0x102
	vector	0x103
	.endr

guard_entry:
	cpu_block x15, x11
	add	x10, x15, #CTX_FAULT
	str	x9, [x10]
	mrs	x11, CurrentEL
	cmp	x11, #(2 << 2)
	b.eq	1f
	mrs	x12, esr_el1
	mrs	x13, far_el1
	mrs	x14, elr_el1
	b	2f
1:	mrs	x12, esr_el2
	mrs	x13, far_el2
	mrs	x14, elr_el2
2:	stp	x12, x13, [x10, #8]
	str	x14, [x10, #24]
	ldr	x16, [x15, #CTX_ACTIVE]
	cbz	x16, 4f
	adr	x17, guard_recover
	cmp	x11, #(2 << 2)
	b.eq	3f
	msr	elr_el1, x17
	eret
3:	msr	elr_el2, x17
	eret
4:	wfi
	b	4b

/* int guard_call(void (*fn)(void *), void *arg) */
	.global	guard_call
guard_call:
	cpu_block x9, x10
	stp	x19, x20, [x9, #0]
	stp	x21, x22, [x9, #16]
	stp	x23, x24, [x9, #32]
	stp	x25, x26, [x9, #48]
	stp	x27, x28, [x9, #64]
	stp	x29, x30, [x9, #80]
	mov	x10, sp
	str	x10, [x9, #CTX_SP]
	stp	d8, d9, [x9, #CTX_D8]
	stp	d10, d11, [x9, #CTX_D8 + 16]
	stp	d12, d13, [x9, #CTX_D8 + 32]
	stp	d14, d15, [x9, #CTX_D8 + 48]
	mov	x10, #1
	str	x10, [x9, #CTX_ACTIVE]
	mov	x10, x0
	mov	x0, x1
	blr	x10
	/* SError is masked while guarded: one the section caused would wait
	   for the firmware's handler, which halts. Unmasked for a moment here,
	   while this call is still the active one, it is taken by the guard
	   and reported as this call's fault. */
	msr	daifclr, #4
	isb
	msr	daifset, #4
	cpu_block x9, x10
	str	xzr, [x9, #CTX_ACTIVE]
	ldp	x29, x30, [x9, #80]
	mov	x0, #0
	ret

guard_recover:
	cpu_block x9, x10
	str	xzr, [x9, #CTX_ACTIVE]
	ldr	x10, [x9, #CTX_SP]
	mov	sp, x10
	ldp	x19, x20, [x9, #0]
	ldp	x21, x22, [x9, #16]
	ldp	x23, x24, [x9, #32]
	ldp	x25, x26, [x9, #48]
	ldp	x27, x28, [x9, #64]
	ldp	x29, x30, [x9, #80]
	ldp	d8, d9, [x9, #CTX_D8]
	ldp	d10, d11, [x9, #CTX_D8 + 16]
	ldp	d12, d13, [x9, #CTX_D8 + 32]
	ldp	d14, d15, [x9, #CTX_D8 + 48]
	mov	x0, #1
	ret
	.global	guard_code_end
guard_code_end:

	.bss
	.balign	16
	.global	guard_data
guard_data:
	/* The boot processor's block. */
	.global	guard_boot_block
guard_boot_block:
	.space	22 * 8
	.global	guard_last_fault
guard_last_fault:
	.space	4 * 8
	.global	guard_data_end
guard_data_end:

	.section .note.GNU-stack, "", %progbits
