/* The AArch64 side of arch/guard.h: the app's exception vector table
 * (vectors.S), loaded into VBAR_EL1 or VBAR_EL2, whichever level the firmware
 * runs the app at.
 *
 * guard_call saves the callee-saved registers (x19-x30, d8-d15) and the
 * stack pointer; every vector records the exception's syndrome (ESR), its
 * fault address (FAR) and the faulting instruction (ELR), and returns with
 * ERET to guard.S's recovery, which restores that saved state and makes
 * guard_call return 1. Nothing the faulting code held is cleaned up, which
 * is why only self-contained timed sections run under a guard.
 */
#ifndef MEMPROBE_AARCH64_GUARD_H
#define MEMPROBE_AARCH64_GUARD_H

#include <stdint.h>
#include "arch/guard.h"

/* The vector numbers of struct arch_fault: a synchronous exception is
   numbered by its ESR exception class (EC, 0x00..0x3f); the asynchronous
   ones get numbers no EC has. */
#define GUARD_VECTOR_IRQ    0x101
#define GUARD_VECTOR_FIQ    0x102
#define GUARD_VECTOR_SERROR 0x103

/* Filled by vectors.S (the offsets are its own). kind is 0 for a
   synchronous exception, else a GUARD_VECTOR_*. */
struct guard_fault {
	uint64_t kind, esr, far, elr;
};

/* A CPU's guard block (vectors.S's CTX_ offsets): the saved context (22
   words, "active" the last), then its struct guard_fault. The boot
   processor's is guard_boot_block, its fault guard_last_fault. */
#define GUARD_CTX_ACTIVE_WORD 21
#define GUARD_CTX_FAULT_BYTES (22 * 8)
#define GUARD_BLOCK_BYTES (26 * 8)
extern char guard_boot_block[];
extern struct guard_fault guard_last_fault;

/* The table (2 KiB-aligned, 16 entries of 128 bytes) for VBAR_ELx, and
   the end of the code that follows it (the entry and the recovery). */
extern const char guard_vectors[], guard_code_end[];
/* The data the vectors write: the saved context and the last fault. */
extern char guard_data[], guard_data_end[];

#endif
