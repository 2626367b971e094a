/* The encodings: each instruction the ifetch probe runs, written byte by
 * byte from the architectures' manuals (x86-64: the recommended multi-byte
 * NOPs, JMP rel32, MOV r64, imm64, JMP r/m64, DEC r/m64, JNZ rel32, RET;
 * AArch64: NOP, B, B.cond, SUBS immediate, LDR literal, BR, RET, all
 * little-endian 32-bit words). A wrong byte would run as some other
 * instruction and measure it silently: tests/unit/test_codegen.c decodes
 * every form written here and follows the control flow.
 */

#include "probes/codegen.h"
#include "probes/chase.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

/* x86-64's NOPs by length: 0x90, 0x66 0x90, then NOP r/m32 (0F 1F /0)
   with ever longer addressing forms. */
static const uint8_t x86_nops[8][8] = {
	{ 0x90 },
	{ 0x66, 0x90 },
	{ 0x0f, 0x1f, 0x00 },
	{ 0x0f, 0x1f, 0x40, 0x00 },
	{ 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	{ 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	{ 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
	{ 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
};

#define X86_JMP_REL32 0xe9u       /* then rel32 from the next instruction */
#define X86_RET 0xc3u
#define X86_TAIL_BYTES 10u        /* DEC RDI (3), JNZ rel32 (6), RET (1) */

#define A64_NOP 0xd503201fu
#define A64_RET 0xd65f03c0u       /* RET X30 */
#define A64_B 0x14000000u         /* imm26 words from this instruction */
#define A64_BEQ_PLUS8 0x54000040u /* B.EQ with imm19 = 2 */
#define A64_SUBS_X0_1 0xf1000400u /* SUBS X0, X0, #1 */
#define A64_LDR_X16_PLUS8 0x58000050u /* LDR X16, [PC + 8] */
#define A64_BR_X16 0xd61f0200u
#define A64_TAIL_BYTES 16u        /* SUBS, B.EQ to the RET, B to the start, RET */
#define X86_INT3 0xccu            /* a trap: never a branch, never a load */
#define A64_UDF 0x00000000u       /* UDF #0, permanently undefined */

/* ---- Private Functions ------------------------------------------------ */

static void put32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static void x86_nop(uint8_t *p, unsigned len)
{
	for (unsigned i = 0; i < len; i++)
		p[i] = x86_nops[len - 1][i];
}

/* NOPs of len bytes over [p, p + bytes), bytes a multiple of len. */
static void fill_nops(enum code_isa isa, uint8_t *p, size_t bytes, unsigned len)
{
	for (size_t off = 0; off < bytes; off += len) {
		if (isa == CODE_ISA_X86_64)
			x86_nop(p + off, len);
		else
			put32(p + off, A64_NOP);
	}
}

/* Traps over [p, p + bytes), bytes a multiple of 4. What a chain's line
   held before (the last point's jumps, its control's, a sled's NOPs)
   must not stay beside a block: branches left in a line the chain runs
   through cost the predictor as if they were its own. On the Zen 5 VM a
   chain of one jump a line over lines still holding a 16-byte chain's
   jumps read 0.39-0.48 ns a jump up to 32 KiB, against 0.18 over clean
   lines, and its step moved. */
static void fill_traps(enum code_isa isa, uint8_t *p, size_t bytes)
{
	for (size_t off = 0; off < bytes; off += 4) {
		if (isa == CODE_ISA_X86_64)
			p[off] = p[off + 1] = p[off + 2] = p[off + 3] = X86_INT3;
		else
			put32(p + off, A64_UDF);
	}
}

/* The loop tail at p, jumping back to start while the count is not 0. */
static void sled_tail(enum code_isa isa, uint8_t *p, const uint8_t *start)
{
	if (isa == CODE_ISA_X86_64) {
		p[0] = 0x48; p[1] = 0xff; p[2] = 0xcf;          /* DEC RDI */
		p[3] = 0x0f; p[4] = 0x85;                       /* JNZ rel32 */
		put32(p + 5, (uint32_t)(int32_t)(start - (p + 9)));
		p[9] = X86_RET;
		return;
	}
	put32(p, A64_SUBS_X0_1);
	put32(p + 4, A64_BEQ_PLUS8);
	put32(p + 8, A64_B | ((uint32_t)((start - (p + 8)) / 4) & 0x03ffffffu));
	put32(p + 12, A64_RET);
}

/* One block at p: a jump to target, or the return. */
static void chain_block(enum code_isa isa, enum code_jump form, uint8_t *p, const uint8_t *target)
{
	if (isa == CODE_ISA_X86_64) {
		if (!target) {
			p[0] = X86_RET;
		} else if (form == CODE_JUMP_NEAR) {
			p[0] = X86_JMP_REL32;
			put32(p + 1, (uint32_t)(int32_t)(target - (p + 5)));
		} else {
			p[0] = 0x48; p[1] = 0xb8;               /* MOV RAX, imm64 */
			put64(p + 2, (uint64_t)(uintptr_t)target);
			p[10] = 0xff; p[11] = 0xe0;             /* JMP RAX */
		}
		return;
	}
	if (!target) {
		put32(p, A64_RET);
	} else if (form == CODE_JUMP_NEAR) {
		put32(p, A64_B | ((uint32_t)((target - p) / 4) & 0x03ffffffu));
	} else {
		put32(p, A64_LDR_X16_PLUS8);
		put32(p + 4, A64_BR_X16);
		put64(p + 8, (uint64_t)(uintptr_t)target);
	}
}

/* Sattolo's algorithm over indices: next[] becomes one cycle through all
   `slots` entries, every such cycle equally likely. */
static void random_cycle(uint32_t *next, size_t slots, uint64_t seed)
{
	struct chase_rng rng;

	for (size_t i = 0; i < slots; i++)
		next[i] = (uint32_t)i;
	chase_rng_seed(&rng, seed);
	for (size_t i = slots; i-- > 1;) {
		size_t j = (size_t)chase_rng_below(&rng, i);
		uint32_t t = next[i];

		next[i] = next[j];
		next[j] = t;
	}
}

/* ---- Public Functions ------------------------------------------------- */

size_t codegen_jump_reach(enum code_isa isa, enum code_jump form)
{
	if (form == CODE_JUMP_FAR)
		return SIZE_MAX;
	return isa == CODE_ISA_X86_64 ? (size_t)1 << 31 : (size_t)1 << 27;
}

unsigned codegen_nop_max(enum code_isa isa)
{
	return isa == CODE_ISA_X86_64 ? 8u : 4u;
}

int codegen_nop_length_ok(enum code_isa isa, unsigned insn_bytes)
{
	if (isa == CODE_ISA_X86_64)
		return insn_bytes >= 1 && insn_bytes <= codegen_nop_max(isa);
	return insn_bytes == 4;
}

int codegen_sled(enum code_isa isa, uint8_t *buf, size_t bytes, unsigned insn_bytes,
		 struct code_sled *out, char *why, size_t why_len)
{
	size_t tail = isa == CODE_ISA_X86_64 ? X86_TAIL_BYTES : A64_TAIL_BYTES, body;

	if (why_len)
		why[0] = '\0';
	if (!codegen_nop_length_ok(isa, insn_bytes)) {
		mp_snprintf(why, why_len, "no %u-byte NOP is written for this instruction set "
			    "(x86-64: 1 to 8 bytes, AArch64: 4)", insn_bytes);
		return -1;
	}
	if (bytes < tail + insn_bytes || bytes - tail >= codegen_jump_reach(isa, CODE_JUMP_NEAR) ||
	    (isa == CODE_ISA_AARCH64 && bytes % 4)) {
		mp_snprintf(why, why_len, "a sled of %zu bytes cannot be written (its loop-back "
			    "needs %zu bytes, reaches back %zu bytes, and AArch64 needs whole words)",
			    bytes, tail, codegen_jump_reach(isa, CODE_JUMP_NEAR));
		return -1;
	}
	body = bytes - tail;
	out->nops = body / insn_bytes;
	out->pad_bytes = body % insn_bytes;
	fill_nops(isa, buf, out->nops * insn_bytes, insn_bytes);
	if (out->pad_bytes)
		x86_nop(buf + out->nops * insn_bytes, (unsigned)out->pad_bytes);
	sled_tail(isa, buf + body, buf);
	out->tail_insns = isa == CODE_ISA_X86_64 ? 2u : 3u;
	out->insns_per_lap = out->nops + (out->pad_bytes != 0) + out->tail_insns;
	out->bytes = bytes;
	return 0;
}

size_t codegen_block_offset(size_t i, size_t slot_bytes)
{
	if (slot_bytes <= CODEGEN_LINE)
		return 0;
	return chase_page_line(i, slot_bytes) * CODEGEN_LINE;
}

int codegen_chain(enum code_isa isa, uint8_t *buf, size_t slots, size_t slot_bytes,
		  enum code_jump form, uint64_t seed, uint32_t *next, char *why, size_t why_len)
{
	if (why_len)
		why[0] = '\0';
	if (slot_bytes < CODEGEN_SLOT_MIN || (slot_bytes & (slot_bytes - 1)) || slots < 2 ||
	    slots > UINT32_MAX || slots > codegen_jump_reach(isa, form) / slot_bytes) {
		mp_snprintf(why, why_len, "a chain of %zu slots of %zu bytes cannot be written "
			    "(slots a power of two of at least %u bytes, at least 2 of them, "
			    "within the jumps' reach of %zu bytes)", slots, slot_bytes,
			    CODEGEN_SLOT_MIN, codegen_jump_reach(isa, form));
		return -1;
	}
	random_cycle(next, slots, seed);
	for (size_t i = 0; i < slots; i++) {
		uint8_t *here = buf + i * slot_bytes + codegen_block_offset(i, slot_bytes);
		size_t to = next[i];

		fill_traps(isa, here, slot_bytes < CODEGEN_LINE ? slot_bytes : CODEGEN_LINE);

		chain_block(isa, form, here, to == 0 ? NULL
				  : buf + to * slot_bytes + codegen_block_offset(to, slot_bytes));
	}
	return 0;
}
