/* The streaming kernels for AArch64 (arch/stream.h, lib/stream.h): the NEON
 * (Advanced SIMD) set's read, write, copy and non-temporal write loops.
 *
 * Written in assembly so that what runs is what this file says, whatever
 * the compiler and its flags: eight 16-byte vectors per iteration, moved in
 * pairs (LDP/STP of q registers). Read adds every loaded vector into one of
 * eight accumulators, so no load waits on another. Write stores a register
 * of all ones, not zeros, because a core may shortcut zero stores. Copy
 * loads eight vectors and stores them. The non-temporal write uses STNP and ends in DSB SY, so its stores
 * have completed before the time is read.
 *
 * Only v0-v7 and v16-v23 are used: AAPCS64 makes the low halves of v8-v15
 * callee-saved, and these kernels save nothing.
 *
 * void kernel(void *dst = x0, const void *src = x1, size_t bytes = x2,
 *             uint64_t passes = x3)
 */

	.text

/* The loop around a body: x8 walks src, x9 walks dst, x10 is src's or dst's
   end. init runs once, body once per 128 bytes, finish after the last pass. */
	.macro stream_kernel name, init, body, finish, walk_src=1, walk_dst=1
	.globl \name
	.type \name, %function
	.balign 64
\name:
	cbz	x2, 3f
	cbz	x3, 3f
	\init
1:
	mov	x8, x1
	mov	x9, x0
	.if \walk_src
	add	x10, x1, x2
	.else
	add	x10, x0, x2
	.endif
	.balign 32
2:
	\body
	.if \walk_src
	add	x8, x8, #128
	.endif
	.if \walk_dst
	add	x9, x9, #128
	.endif
	.if \walk_src
	cmp	x8, x10
	.else
	cmp	x9, x10
	.endif
	b.lo	2b
	subs	x3, x3, #1
	b.ne	1b
	\finish
3:
	ret
	.size \name, . - \name
	.endm

	.macro zero_acc
	movi	v16.2d, #0
	movi	v17.2d, #0
	movi	v18.2d, #0
	movi	v19.2d, #0
	movi	v20.2d, #0
	movi	v21.2d, #0
	movi	v22.2d, #0
	movi	v23.2d, #0
	.endm
	.macro ones
	movi	v0.2d, #0xffffffffffffffff
	.endm
	.macro nothing
	.endm
	.macro done_nt
	dsb	sy
	.endm

	.macro read_body
	ldp	q0, q1, [x8]
	ldp	q2, q3, [x8, #32]
	ldp	q4, q5, [x8, #64]
	ldp	q6, q7, [x8, #96]
	add	v16.2d, v16.2d, v0.2d
	add	v17.2d, v17.2d, v1.2d
	add	v18.2d, v18.2d, v2.2d
	add	v19.2d, v19.2d, v3.2d
	add	v20.2d, v20.2d, v4.2d
	add	v21.2d, v21.2d, v5.2d
	add	v22.2d, v22.2d, v6.2d
	add	v23.2d, v23.2d, v7.2d
	.endm
	.macro write_body
	stp	q0, q0, [x9]
	stp	q0, q0, [x9, #32]
	stp	q0, q0, [x9, #64]
	stp	q0, q0, [x9, #96]
	.endm
	.macro copy_body
	ldp	q0, q1, [x8]
	ldp	q2, q3, [x8, #32]
	ldp	q4, q5, [x8, #64]
	ldp	q6, q7, [x8, #96]
	stp	q0, q1, [x9]
	stp	q2, q3, [x9, #32]
	stp	q4, q5, [x9, #64]
	stp	q6, q7, [x9, #96]
	.endm
	.macro write_nt_body
	stnp	q0, q0, [x9]
	stnp	q0, q0, [x9, #32]
	stnp	q0, q0, [x9, #64]
	stnp	q0, q0, [x9, #96]
	.endm

stream_kernel stream_read_neon, zero_acc, read_body, nothing, 1, 0
stream_kernel stream_write_neon, ones, write_body, nothing, 0, 1
stream_kernel stream_copy_neon, nothing, copy_body, nothing, 1, 1
stream_kernel stream_write_nt_neon, ones, write_nt_body, done_nt, 0, 1

	.section .note.GNU-stack, "", %progbits
