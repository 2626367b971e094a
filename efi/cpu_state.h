/* The app's CPU state, entered and left as one step on any CPU: what a
 * timed section's code runs under, and what each AP loads before its role.
 *
 * It is interrupts off, the app's GDT (and TSS where the firmware had
 * none) and IDT (arch/guard.h's guard_enter, or guard_enter_cpu with an
 * AP's own descriptor tables and #DF/#MC stacks, since a TSS can be loaded
 * on one CPU only), then the app's page tables (arch/paging.h's
 * pt_switch_to): BSP and APs load the same state the same way. No
 * firmware service may be called between enter and leave.
 */
#ifndef MEMPROBE_CPU_STATE_H
#define MEMPROBE_CPU_STATE_H

#include <stdint.h>
#include "arch/guard.h"
#include "arch/paging.h"
#include "arch/stream.h"

/* The firmware's state that app_cpu_state_enter replaced. */
struct app_cpu_state {
	struct guard_saved guard;
	struct pt_saved tables;
	int wide;                          /* the wide vector state was turned on */
	struct stream_state_saved vector;  /* ... and what it was before */
};

/* Interrupts off, the app's descriptor tables, then the app's page tables
   (app_root, from paging_root); the firmware's kept in *s. cpu_tables is
   NULL on the BSP (its tables are the guard's own), else that AP's
   (cpus.c: guard_cpu_tables_bytes, zeroed, identity-mapped). With wide,
   then the register state of every offered streaming set (arch/stream.h),
   only once efi/stream.c's guarded trial showed that enabling it does not
   fault: no fault guard catches one on an AP. */
void app_cpu_state_enter(struct app_cpu_state *s, uint64_t app_root, void *cpu_tables,
			 int wide);
/* The vector state as it was (when wide), the firmware's page tables,
   then its IDT and GDT; interrupts stay off (the firmware
   turns them back on as it had them: RestoreTPL on the BSP, its own AP
   loop on an AP). */
void app_cpu_state_leave(const struct app_cpu_state *s);

#endif
