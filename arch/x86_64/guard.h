/* The x86-64 side of arch/guard.h: running a function so that a CPU
 * exception inside it returns here instead
 * of into the firmware's handler (which prints a dump and hangs).
 *
 * guard_call saves the callee-saved registers and the stack pointer; every
 * exception vector of the app's IDT records what happened and unwinds to
 * that saved state, making guard_call return 1. Nothing the faulting code
 * held is cleaned up, which is why only self-contained timed sections run
 * under a guard.
 *
 * Each CPU has a guard of its own (struct guard_context, in its struct
 * cpu_tables): while a CPU is guarded its IA32_GS_BASE points at it, so
 * the vectors, shared by every CPU, save and unwind on the CPU they run
 * on, and an AP's fault returns into that AP's guard_call, never the
 * boot processor's.
 */
#ifndef MEMPROBE_GUARD_H
#define MEMPROBE_GUARD_H

#include <stdint.h>
#include "arch/guard.h"
#include "arch/x86_64/cpu.h"

/* Filled by guard.S (the offsets are its own); guard_last turns it into a
   struct arch_fault. */
struct guard_fault {
	uint64_t vector, error_code, rip, cr2;
};

/* One CPU's guard, found by the vectors through IA32_GS_BASE: the stack
   pointer the active guard_call saved (0 while none is active: a fault
   then parks the CPU, cli and hlt, rather than unwind into a frame that
   is gone) and the last exception caught on that CPU. */
struct guard_context {
	uint64_t saved_rsp;       /* guard.S: %gs:0 */
	struct guard_fault fault; /* guard.S: %gs:8 .. %gs:32 */
};

#define MSR_IA32_GS_BASE 0xc0000101u
/* How many NMIs arrived while guarded: they are acknowledged and resumed. */
extern uint64_t guard_nmi_count;

/* Fills the app's IDT with the guard's vectors through code selector cs,
   #DF and #MC on their IST stacks when uses_tss, and gives the pointer to
   load with lidt. */
void idt_build(struct descriptor_pointer *idtr, uint16_t cs, int uses_tss);

#endif
