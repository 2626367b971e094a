/* probes/codegen: what it writes is decoded by a decoder of its own here,
 * for exactly the forms the generator may emit, and run on paper: a sled
 * must execute its NOPs `laps` times and return, a chain must visit every
 * block once and return. A byte wrong anywhere decodes as "unknown" or
 * sends the walk astray, and a check fails.
 */

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "probes/codegen.h"

/* ---- A decoder for the forms written ---------------------------------- */

enum op { OP_UNKNOWN, OP_NOP, OP_JUMP, OP_RET, OP_DEC, OP_JNZ, OP_JZ_SKIP };

struct insn {
	enum op op;
	unsigned len;
	const uint8_t *target;    /* OP_JUMP, OP_JNZ; OP_JZ_SKIP: where it goes */
	int indirect;             /* a jump through a register */
};

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static int32_t sext(uint32_t v, unsigned bits)
{
	return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

/* x86-64: the documented NOPs, JMP rel32, MOV RAX imm64 + JMP RAX,
   DEC RDI, JNZ rel32, RET. */
static struct insn decode_x86(const uint8_t *p)
{
	static const uint8_t nop_pre[][3] = { { 0x0f, 0x1f, 0x00 }, { 0x0f, 0x1f, 0x40 },
		{ 0x0f, 0x1f, 0x44 }, { 0x0f, 0x1f, 0x80 }, { 0x0f, 0x1f, 0x84 } };
	static const unsigned nop_len[] = { 3, 4, 5, 7, 8 };
	struct insn in = { OP_UNKNOWN, 0, NULL, 0 };

	if (p[0] == 0x90)
		return (struct insn){ OP_NOP, 1, NULL, 0 };
	if (p[0] == 0x66 && p[1] == 0x90)
		return (struct insn){ OP_NOP, 2, NULL, 0 };
	if (p[0] == 0x66 && p[1] == 0x0f && p[2] == 0x1f && p[3] == 0x44 && !p[4] && !p[5])
		return (struct insn){ OP_NOP, 6, NULL, 0 };
	for (unsigned i = 0; i < 5; i++)
		if (!memcmp(p, nop_pre[i], 3)) {
			for (unsigned k = 3; k < nop_len[i]; k++)
				if (p[k])
					return in;
			return (struct insn){ OP_NOP, nop_len[i], NULL, 0 };
		}
	if (p[0] == 0xe9)
		return (struct insn){ OP_JUMP, 5, p + 5 + (int32_t)get32(p + 1), 0 };
	if (p[0] == 0x48 && p[1] == 0xb8 && p[10] == 0xff && p[11] == 0xe0)
		return (struct insn){ OP_JUMP, 12, (const uint8_t *)(uintptr_t)get64(p + 2), 1 };
	if (p[0] == 0x48 && p[1] == 0xff && p[2] == 0xcf)
		return (struct insn){ OP_DEC, 3, NULL, 0 };
	if (p[0] == 0x0f && p[1] == 0x85)
		return (struct insn){ OP_JNZ, 6, p + 6 + (int32_t)get32(p + 2), 0 };
	if (p[0] == 0xc3)
		return (struct insn){ OP_RET, 1, NULL, 0 };
	return in;
}

/* AArch64: NOP, B, LDR X16 literal + BR X16, SUBS X0 #1, B.EQ, RET. */
static struct insn decode_a64(const uint8_t *p)
{
	uint32_t w = get32(p);

	if (w == 0xd503201fu)
		return (struct insn){ OP_NOP, 4, NULL, 0 };
	if ((w & 0xfc000000u) == 0x14000000u)
		return (struct insn){ OP_JUMP, 4, p + 4 * (int64_t)sext(w & 0x03ffffffu, 26), 0 };
	if (w == 0x58000050u && get32(p + 4) == 0xd61f0200u)
		return (struct insn){ OP_JUMP, 8, (const uint8_t *)(uintptr_t)get64(p + 8), 1 };
	if (w == 0xf1000400u)
		return (struct insn){ OP_DEC, 4, NULL, 0 };
	if ((w & 0xff00001fu) == 0x54000000u)  /* B.EQ */
		return (struct insn){ OP_JZ_SKIP, 4, p + 4 * (int64_t)sext((w >> 5) & 0x7ffffu, 19), 0 };
	if (w == 0xd65f03c0u)
		return (struct insn){ OP_RET, 4, NULL, 0 };
	return (struct insn){ OP_UNKNOWN, 0, NULL, 0 };
}

static struct insn decode(enum code_isa isa, const uint8_t *p)
{
	return isa == CODE_ISA_X86_64 ? decode_x86(p) : decode_a64(p);
}

/* ---- Running on paper ------------------------------------------------- */

/* Runs a sled with the count register at laps: the instructions executed
   before the return (-1 on an unknown instruction or a runaway), and the
   NOPs of each length in nops_of[]. */
static long run_sled(enum code_isa isa, const uint8_t *buf, size_t bytes, uint64_t laps,
		     size_t nops_of[16])
{
	const uint8_t *pc = buf;
	uint64_t count = laps;
	long executed = 0;
	int zero = 0;

	memset(nops_of, 0, 16 * sizeof nops_of[0]);
	while (executed < 10000000) {
		struct insn in;

		if (pc < buf || pc >= buf + bytes)
			return -1;
		in = decode(isa, pc);
		if (in.op == OP_UNKNOWN)
			return -1;
		if (in.op == OP_RET)
			return executed;
		executed++;
		if (in.op == OP_NOP && laps == count)
			nops_of[in.len]++;
		if (in.op == OP_DEC)
			zero = --count == 0;
		if ((in.op == OP_JNZ && !zero) || (in.op == OP_JZ_SKIP && zero) || in.op == OP_JUMP)
			pc = in.target;
		else
			pc += in.len;
	}
	return -1;
}

/* Follows a chain from block 0: 0 when it returns after visiting every
   block exactly once with jumps of the asked kind, else -1. */
static int walk_chain(enum code_isa isa, const uint8_t *buf, size_t slots, size_t slot_bytes,
		      int want_indirect)
{
	unsigned char *seen = calloc(slots, 1);
	const uint8_t *pc = buf + codegen_block_offset(0, slot_bytes);
	size_t visits = 0;
	int ok = -1;

	while (seen && visits <= slots) {
		size_t i = (size_t)(pc - buf) / slot_bytes;
		struct insn in;

		if (pc < buf || i >= slots || pc != buf + i * slot_bytes + codegen_block_offset(i, slot_bytes) ||
		    seen[i])
			break;
		seen[i] = 1;
		visits++;
		in = decode(isa, pc);
		if (in.op == OP_RET) {
			ok = visits == slots ? 0 : -1;
			break;
		}
		if (in.op != OP_JUMP || in.indirect != want_indirect)
			break;
		pc = in.target;
	}
	free(seen);
	return ok;
}

/* ---- The checks ------------------------------------------------------- */

static void check_sleds(enum code_isa isa, const char *name)
{
	static const size_t sizes[] = { 1024, 1000, 65536 };
	uint8_t *buf = malloc(65536 + 16);   /* the decoder reads up to 12 bytes ahead */
	size_t nops_of[16];
	struct code_sled s;
	char why[200];

	for (unsigned len = 1; len <= 8; len++)
		for (unsigned k = 0; k < 3; k++) {
			size_t bytes = sizes[k];
			long ran;

			if (!codegen_nop_length_ok(isa, len) || (isa == CODE_ISA_AARCH64 && bytes % 4))
				continue;
			memset(buf, 0xcc, 65536 + 16);
			CHECK(codegen_sled(isa, buf, bytes, len, &s, why, sizeof why) == 0 && !why[0],
			      "%s: a %zu-byte sled of %u-byte NOPs is written", name, bytes, len);
			ran = run_sled(isa, buf, bytes, 3, nops_of);
			/* AArch64's last lap skips its backward B. */
			CHECK(ran == 3 * (long)s.insns_per_lap - (isa == CODE_ISA_AARCH64),
			      "%s: it runs 3 laps of %zu instructions and returns (%ld run)", name,
			      s.insns_per_lap, ran);
			CHECK(nops_of[len] == s.nops && s.nops * len + s.pad_bytes +
			      (isa == CODE_ISA_X86_64 ? 10u : 16u) == bytes && s.bytes == bytes,
			      "%s: %zu NOPs of %u bytes fill it up to the loop tail", name, s.nops, len);
			CHECK(buf[bytes] == 0xcc, "%s: nothing is written past its end", name);
		}
	CHECK(codegen_sled(isa, buf, 1024, 9, &s, why, sizeof why) == -1 && why[0],
	      "%s: a 9-byte NOP is refused with a reason: %s", name, why);
	CHECK(codegen_sled(isa, buf, 8, 4, &s, why, sizeof why) == -1,
	      "%s: a sled smaller than its loop tail is refused", name);
	free(buf);
}

static void check_chains(enum code_isa isa, const char *name)
{
	static const size_t slot_sizes[] = { 16, 64, 4096, 1u << 21 };
	static const size_t slot_counts[] = { 511, 512, 97, 3 };
	uint32_t *next = malloc(4096 * sizeof *next);
	char why[200];

	for (unsigned s = 0; s < 4; s++)
		for (unsigned f = CODE_JUMP_NEAR; f <= CODE_JUMP_FAR; f++) {
			size_t slot = slot_sizes[s], slots = slot_counts[s];
			uint8_t *buf;

			buf = calloc(slots, slot);
			CHECK(buf && codegen_chain(isa, buf, slots, slot, (enum code_jump)f,
						   1234 + s, next, why, sizeof why) == 0,
			      "%s: a chain of %zu slots of %zu bytes (%s jumps) is written", name,
			      slots, slot, f == CODE_JUMP_NEAR ? "near" : "far");
			CHECK(buf && walk_chain(isa, buf, slots, slot, f == CODE_JUMP_FAR) == 0,
			      "%s: it visits each of its %zu blocks once and returns", name, slots);
			free(buf);
		}
	CHECK(codegen_chain(isa, (uint8_t *)next, 4, 24, CODE_JUMP_NEAR, 1, next, why, sizeof why) == -1
	      && why[0], "%s: a slot that is not a power of two is refused", name);
	CHECK(codegen_chain(isa, (uint8_t *)next, (size_t)1 << 20, (size_t)1 << 21, CODE_JUMP_NEAR, 1,
			    next, why, sizeof why) == -1,
	      "%s: a span beyond the near jump's reach is refused", name);
	free(next);
}

/* Each block's line (its slot, where slots are smaller) holds the block
   and traps: nothing left from earlier code stays beside it, and nothing
   outside those lines is written. */
static void check_chain_lines(enum code_isa isa, const char *name)
{
	static const size_t slot_sizes[] = { 16, 64, 4096 };
	uint32_t next[96];
	char why[200];

	for (unsigned s = 0; s < 3; s++) {
		size_t slot = slot_sizes[s], slots = 96, line = slot < 64 ? slot : 64, bad = 0;
		size_t block = isa == CODE_ISA_X86_64 ? 5 : 4, untouched = 0, outside = 0;
		uint8_t *buf = malloc(slots * slot);

		memset(buf, 0xe9, slots * slot);   /* stale JMPs, as an earlier chain leaves */
		codegen_chain(isa, buf, slots, slot, CODE_JUMP_NEAR, 7, next, why, sizeof why);
		for (size_t i = 0; i < slots; i++) {
			uint8_t *at = buf + i * slot + codegen_block_offset(i, slot);

			for (size_t b = block; b < line; b++)
				bad += isa == CODE_ISA_X86_64 ? at[b] != 0xcc : at[b] != 0;
			for (size_t b = 0; b < slot; b++) {
				uint8_t *p = buf + i * slot + b;

				outside += p < at || p >= at + line;
				untouched += (p < at || p >= at + line) && *p == 0xe9;
			}
		}
		CHECK(bad == 0 && untouched == outside,
		      "%s: %zu-byte slots: each block's line holds the block and traps (%zu other "
		      "bytes), the %zu bytes outside those lines untouched", name, slot, bad, outside);
		free(buf);
	}
}

static void check_cycles_differ(void)
{
	uint32_t next[64];
	uint8_t a[64 * 16], b[64 * 16];
	char why[200];

	codegen_chain(CODE_ISA_X86_64, a, 64, 16, CODE_JUMP_NEAR, 1, next, why, sizeof why);
	codegen_chain(CODE_ISA_X86_64, b, 64, 16, CODE_JUMP_NEAR, 2, next, why, sizeof why);
	CHECK(memcmp(a, b, sizeof a) != 0, "two seeds give two different cycles");
	CHECK(codegen_block_offset(5, 4096) == 5 * 64 && codegen_block_offset(64, 4096) == 64 &&
	      codegen_block_offset(9, 64) == 0,
	      "blocks rotate over the lines of a page as the data chase's slots do");
}

int main(void)
{
	check_sleds(CODE_ISA_X86_64, "x86-64");
	check_sleds(CODE_ISA_AARCH64, "AArch64");
	check_chains(CODE_ISA_X86_64, "x86-64");
	check_chains(CODE_ISA_AARCH64, "AArch64");
	check_chain_lines(CODE_ISA_X86_64, "x86-64");
	check_chain_lines(CODE_ISA_AARCH64, "AArch64");
	check_cycles_differ();
	return check_summary();
}
