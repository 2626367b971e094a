/* The streaming kernels (arch/stream.h, lib/stream.h): for SSE2, AVX2 and
 * AVX-512 each, read, write, copy and non-temporal write loops.
 *
 * Written in assembly so that what runs is what this file says, whatever
 * the compiler and its flags: eight vectors per iteration, each in a
 * register of its own. Read adds every loaded vector into one of eight
 * accumulators, so no load waits on another (one accumulator would chain
 * every add and cap reading at one vector per add latency); eight also keep
 * two or three load ports busy at once. Write stores a register of all
 * ones, not zeros, because a core may shortcut zero stores.
 * Copy loads eight vectors and stores them. The non-temporal write ends in
 * SFENCE, so its stores have left the core before the time is read.
 *
 * Only xmm/ymm/zmm 0-7 are used: vzeroupper then clears every upper part a
 * kernel dirtied, which both keeps the SSE/AVX transition penalty out of
 * later code and leaves nothing live when the state is narrowed again.
 *
 * void kernel(void *dst = %rdi, const void *src = %rsi, size_t bytes = %rdx,
 *             uint64_t passes = %rcx)     (System V; all vector registers
 *             are caller-saved there, so none is saved here)
 */

	.text

/* The loop around a body: %r8 walks src, %r9 walks dst, %r10 is src's or
   dst's end. init runs once, body once per 8 vectors (it addresses them
   from %r8 and %r9), finish once after the last pass. */
	.macro stream_kernel name, vbytes, init, body, finish, walk_src=1, walk_dst=1
	.globl \name
	.type \name, @function
	.balign 64
\name:
	test %rdx, %rdx
	jz 3f
	test %rcx, %rcx
	jz 3f
	\init
1:
	mov %rsi, %r8
	mov %rdi, %r9
	.if \walk_src
	lea (%rsi,%rdx), %r10
	.else
	lea (%rdi,%rdx), %r10
	.endif
	.balign 32
2:
	\body
	.if \walk_src
	add $(8*\vbytes), %r8
	.endif
	.if \walk_dst
	add $(8*\vbytes), %r9
	.endif
	.if \walk_src
	cmp %r10, %r8
	.else
	cmp %r10, %r9
	.endif
	jb 2b
	dec %rcx
	jnz 1b
	\finish
3:
	ret
	.size \name, . - \name
	.endm

/* ---- The bodies, one per operation, for any width --------------------- */
/* reg: the register file's prefix (xmm, ymm, zmm); vb: its bytes; the
   instructions as each set spells them. */

	/* Legacy SSE's instructions have two operands, VEX and EVEX's three. */
	.macro zero_sse
	.irp i, 0,1,2,3,4,5,6,7
	pxor %xmm\i, %xmm\i
	.endr
	.endm
	.macro zero_vex xor, reg
	.irp i, 0,1,2,3,4,5,6,7
	\xor %\reg\()\i, %\reg\()\i, %\reg\()\i
	.endr
	.endm
	.macro read_sse
	.irp i, 0,1,2,3,4,5,6,7
	paddq (\i*16)(%r8), %xmm\i
	.endr
	.endm
	.macro read_vex reg, vb
	.irp i, 0,1,2,3,4,5,6,7
	vpaddq (\i*\vb)(%r8), %\reg\()\i, %\reg\()\i
	.endr
	.endm
	.macro write_all store, reg, vb
	.irp i, 0,1,2,3,4,5,6,7
	\store %\reg\()0, (\i*\vb)(%r9)
	.endr
	.endm
	.macro copy_all mov, reg, vb
	.irp i, 0,1,2,3,4,5,6,7
	\mov (\i*\vb)(%r8), %\reg\()\i
	.endr
	.irp i, 0,1,2,3,4,5,6,7
	\mov %\reg\()\i, (\i*\vb)(%r9)
	.endr
	.endm
	.macro none
	.endm
	.macro fenced finish
	sfence
	\finish
	.endm

/* The four kernels of one set: name suffix, vector bytes, the read body
   and the zeroing of its accumulators, the all-ones instruction, the
   aligned move, the non-temporal store, and what ends each (vzeroupper for
   VEX and EVEX). */
	.macro stream_set set, vb, read, zero, ones, mov, movnt, reg, finish
	stream_kernel stream_read_\set, \vb, "\zero", "\read", "\finish", 1, 0
	stream_kernel stream_write_\set, \vb, "\ones", "write_all \mov, \reg, \vb", "\finish", 0, 1
	stream_kernel stream_copy_\set, \vb, none, "copy_all \mov, \reg, \vb", "\finish", 1, 1
	stream_kernel stream_write_nt_\set, \vb, "\ones", "write_all \movnt, \reg, \vb", "fenced \finish", 0, 1
	.endm

/* SSE2, 16 bytes; AVX2, 32 (VEX: vpaddq on ymm is AVX2's); AVX-512
   Foundation, 64 (EVEX). */
	stream_set sse2, 16, "read_sse", "zero_sse", "pcmpeqd %xmm0, %xmm0", movdqa, movntdq, xmm, none
	stream_set avx2, 32, "read_vex ymm, 32", "zero_vex vpxor, ymm", "vpcmpeqd %ymm0, %ymm0, %ymm0", vmovdqa, vmovntdq, ymm, vzeroupper
	stream_set avx512, 64, "read_vex zmm, 64", "zero_vex vpxorq, zmm", "vpternlogd $0xff, %zmm0, %zmm0, %zmm0", vmovdqa64, vmovntdq, zmm, vzeroupper

/* The vector state is live between a kernel and vzeroupper only: nothing
   in this file needs an executable stack. */
	.section .note.GNU-stack, "", @progbits
