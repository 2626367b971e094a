/* The x86-64 side of arch/guard.h: running a function so that a CPU
 * exception inside it returns here instead
 * of into the firmware's handler (which prints a dump and hangs).
 *
 * guard_call saves the callee-saved registers and the stack pointer; every
 * exception vector of the app's IDT records what happened and unwinds to
 * that saved state, making guard_call return 1. Nothing the faulting code
 * held is cleaned up, which is why only self-contained timed sections run
 * under a guard.
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

/* What the last caught exception was; valid after guard_call returned 1. */
extern struct guard_fault guard_last_fault;
/* How many NMIs arrived while guarded: they are acknowledged and resumed. */
extern uint64_t guard_nmi_count;

/* Fills the app's IDT with the guard's vectors through code selector cs,
   #DF and #MC on their IST stacks when uses_tss, and gives the pointer to
   load with lidt. */
void idt_build(struct descriptor_pointer *idtr, uint16_t cs, int uses_tss);

#endif
