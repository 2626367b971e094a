/* Machine code written at run time for the ifetch probe: NOP sleds that
 * loop back, and chains of taken jumps through a random cycle of blocks
 * that end in a return.
 *
 * Pure: it writes bytes into the caller's memory and knows no page table,
 * no cache and no clock. Making the bytes executable, and the cache
 * maintenance a CPU needs before running freshly written code, is the
 * platform's (core/platform.h, plat_code_seal). The encodings are the
 * architectures' own, x86-64 and AArch64; which one a run uses the
 * platform says (plat_code_isa). tests/unit/test_codegen.c decodes what
 * is written and follows it.
 */
#ifndef MEMPROBE_PROBES_CODEGEN_H
#define MEMPROBE_PROBES_CODEGEN_H

#include <stddef.h>
#include <stdint.h>
#include "lib/machine.h"

/* The instruction sets code can be written for. */
enum code_isa { CODE_ISA_X86_64 = MACHINE_ISA_X86_64, CODE_ISA_AARCH64 = MACHINE_ISA_AARCH64 };

/* How a chain's block reaches the next one:
   - CODE_JUMP_NEAR: one pc-relative jump (x86-64 JMP rel32, 5 bytes,
     reach +-2 GiB; AArch64 B imm26, 4 bytes, reach +-128 MiB);
   - CODE_JUMP_FAR: the target's absolute address in a register, then an
     indirect jump (x86-64 MOV RAX, imm64; JMP RAX, 12 bytes; AArch64
     LDR X16, literal; BR X16 with the literal after, 16 bytes): any
     distance, at the price of an indirect branch. */
enum code_jump { CODE_JUMP_NEAR = 1, CODE_JUMP_FAR = 2 };

/* The smallest slot a chain block fits (the far form's 16 bytes). */
#define CODEGEN_SLOT_MIN 16u
/* The line a block's place inside a larger slot rotates over. */
#define CODEGEN_LINE 64u

/* The largest span, in bytes, that a chain with this form can cover on
   this instruction set (the near jump's reach; the far form's is the
   address space, given as SIZE_MAX). */
size_t codegen_jump_reach(enum code_isa isa, enum code_jump form);

/* The longest NOP codegen_sled writes for isa (x86-64: 8 bytes, the
   longest of the documented multi-byte forms that takes no prefix beyond
   0x66; AArch64: 4, its only length); and whether insn_bytes is one it
   writes (x86-64 1..8, AArch64 4). */
unsigned codegen_nop_max(enum code_isa isa);
int codegen_nop_length_ok(enum code_isa isa, unsigned insn_bytes);

/* What a sled holds, for the rows' bytes and instructions per lap. */
struct code_sled {
	size_t nops;              /* NOPs of the asked length */
	size_t pad_bytes;         /* one shorter NOP before the loop tail, or 0 */
	unsigned tail_insns;      /* the loop-back's instructions run per lap */
	size_t insns_per_lap;     /* executed per lap that loops back (AArch64's
				     last lap skips its B: one fewer) */
	size_t bytes;             /* the sled's whole size, the tail included */
};

/* Writes at buf (where it will run) a function `void f(uint64_t laps)`
   of exactly `bytes` bytes: NOPs of insn_bytes each from buf, then a loop
   tail that decrements the first argument register and jumps back to buf
   while it is not zero, then returns (laps >= 1). Returns 0 with *out
   filled, or -1 with why[] (a length the ISA has no NOP of, bytes too
   small for the tail or beyond the loop-back's reach). */
int codegen_sled(enum code_isa isa, uint8_t *buf, size_t bytes, unsigned insn_bytes,
		 struct code_sled *out, char *why, size_t why_len);

/* The offset of block i inside its slot: 0 for slots up to
   CODEGEN_LINE, else a line that rotates with i as the data chase's
   (probes/chase.h, chase_page_line), so blocks in many pages spread over
   a cache's sets rather than pile into one. */
size_t codegen_block_offset(size_t i, size_t slot_bytes);

/* Writes at buf (where it will run; slots * slot_bytes bytes, slot_bytes
   a power of two >= CODEGEN_SLOT_MIN) a function `void f(void)` whose
   entry is block 0 (buf + codegen_block_offset(0, slot_bytes)): block i
   sits in slot i at codegen_block_offset(i, slot_bytes), and each block
   jumps to the next of one random cycle through all the slots (Sattolo's
   algorithm from seed, so every block is visited exactly once per call)
   except the block before block 0, which returns. next is the caller's
   scratch of `slots` entries. Each block's 64-byte line (its slot, where
   slots are smaller) is filled with traps first (INT3; AArch64 UDF #0),
   so nothing left from earlier code stands beside a block; nothing else
   is written. 0, or
   -1 with why[] (a slot too small or not a power of two, fewer than two
   slots, a span beyond the form's reach). */
int codegen_chain(enum code_isa isa, uint8_t *buf, size_t slots, size_t slot_bytes,
		  enum code_jump form, uint64_t seed, uint32_t *next, char *why, size_t why_len);

#endif
