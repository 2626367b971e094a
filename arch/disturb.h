/* Events from outside the program that stall a timed section without its
 * knowledge: non-maskable interrupts, which no cli keeps out, and system
 * management interrupts, which the firmware takes behind the OS's back. A
 * trial during which either count moved measured the event too, so the
 * probes discard it (core/trials.c). Each architecture implements this in
 * arch/NAME/ (x86-64: arch/x86_64/disturb.c).
 */
#ifndef MEMPROBE_ARCH_DISTURB_H
#define MEMPROBE_ARCH_DISTURB_H

#include <stddef.h>
#include <stdint.h>
#include "arch/cpu.h"

/* NMIs the guard's own handler counted (arch/guard.h): those that arrived
   while the app's exception vectors were loaded. A plain memory read, fit
   for inside a timed section. */
uint64_t disturb_nmi_count(void);

/* The interrupt type under which the firmware's CPU architectural protocol
   (RegisterInterruptHandler) delivers an NMI (x86: vector 2); -1 where the
   architecture has no NMI (AArch64, where that type would name the FIQ),
   with why[] saying so. */
int disturb_nmi_type(char *why, size_t size);

/* Whether this CPU counts SMIs where the program can read the count (x86:
   Intel's MSR_SMI_COUNT, 0x34, tried once through run). 1 when it does;
   0 with why[] saying why not ("AMD parts have no SMI counter"). */
int disturb_smi_init(const struct cpuinfo *ci, arch_guarded_fn run, char *why, size_t size);
/* The CPU's SMI count since reset; only after disturb_smi_init returned 1
   (then the read cannot fault, so it is fit for inside a timed section). */
uint64_t disturb_smi_count(void);

#endif
