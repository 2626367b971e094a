/* Guarded access: running a short piece of code under the app's own IDT, so
 * that a CPU exception inside it comes back here as a return value instead of
 * landing in the firmware's handler, which prints a register dump and hangs.
 * It serves reads of MSRs that may not exist and the clock calibration's
 * timed loops; timed sections take the same steps and the app's page tables
 * through efi/cpu_state.c (efi/timed.c). docs/PAGING.md, "Entering and
 * leaving", explains the steps.
 *
 * The app's IDT is built by the first guarded call, whoever makes it: no
 * caller depends on an init function having run first. Needs only fw_init.
 */
#ifndef MEMPROBE_GUARDED_H
#define MEMPROBE_GUARDED_H

#include <stdint.h>
#include <efi.h>
#include "arch/guard.h"

/* What guarded_enter changed and guarded_leave gives back. */
struct guarded_state {
	EFI_TPL tpl;
	struct guard_saved arch;
};

/* RaiseTPL(TPL_HIGH_LEVEL), then guard_enter (arch/guard.h: x86 cli, the
   firmware's IDT and GDT kept and the app's loaded with its TSS, built the
   first time). No firmware service may be called until guarded_leave. */
void guarded_enter(struct guarded_state *s);
/* guard_leave (the firmware's IDT and GDT), then RestoreTPL (which re-enables interrupts as the
   firmware had them). */
void guarded_leave(const struct guarded_state *s);

/* guarded_enter, fn(arg) under guard_call, guarded_leave: 0, or -1 when fn
   raised an exception (guard_last in arch/guard.h says which). Its type is
   arch/cpu.h's arch_guarded_fn, for arch code reading registers that may
   be absent (MSRs on x86). */
int guarded_run(void (*fn)(void *), void *arg);

#endif
