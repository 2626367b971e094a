/* Guarded access: running a short piece of code under the app's own IDT, so
 * that a CPU exception inside it comes back here as a return value instead of
 * landing in the firmware's handler, which prints a register dump and hangs.
 * It serves reads of MSRs that may not exist, the clock calibration's timed
 * loops and, with the app's page tables added (efi/timed.c), every timed
 * section. docs/PAGING.md, "Entering and leaving", explains the steps.
 *
 * The app's IDT is built by the first guarded call, whoever makes it: no
 * caller depends on an init function having run first. Needs only fw_init.
 */
#ifndef MEMPROBE_GUARDED_H
#define MEMPROBE_GUARDED_H

#include <stdint.h>
#include <efi.h>
#include "arch/x86_64/cpu.h"

/* What guarded_enter changed and guarded_leave gives back. */
struct guarded_state {
	EFI_TPL tpl;
	struct descriptor_pointer fw_idt;
};

/* RaiseTPL(TPL_HIGH_LEVEL), cli, the firmware's IDT kept and the app's
   loaded (built here the first time). No firmware service may be called
   until guarded_leave. */
void guarded_enter(struct guarded_state *s);
/* The firmware's IDT, then RestoreTPL (which re-enables interrupts as the
   firmware had them). */
void guarded_leave(const struct guarded_state *s);

/* guarded_enter, fn(arg) under guard_call, guarded_leave: 0, or -1 when fn
   raised an exception (guard_last_fault in arch/x86_64/guard.h says which). */
int guarded_run(void (*fn)(void *), void *arg);

/* 0 and *value, or -1 when reading the MSR raised #GP (absent on this CPU
   or under this hypervisor); the firmware's handler would hang instead. */
int msr_read_safely(uint32_t msr, uint64_t *value);
/* 0, or -1 when writing the MSR raised #GP. */
int msr_write_safely(uint32_t msr, uint64_t value);

#endif
