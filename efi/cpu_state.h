/* The app's CPU state, entered and left as one step on any CPU: what a
 * timed section's code runs under, and what each AP loads before its role.
 *
 * Today it is the app's IDT with interrupts off (arch/guard.h's
 * guard_enter) and the app's page tables (arch/paging.h's pt_switch_to).
 * This is the seam for the rest of the app's own CPU state: its GDT (and
 * TSS) joins here, so BSP and APs load the same state the same way. No
 * firmware service may be called between enter and leave.
 */
#ifndef MEMPROBE_CPU_STATE_H
#define MEMPROBE_CPU_STATE_H

#include <stdint.h>
#include "arch/guard.h"
#include "arch/paging.h"

/* The firmware's state that app_cpu_state_enter replaced. */
struct app_cpu_state {
	struct guard_saved guard;
	struct pt_saved tables;
};

/* Interrupts off, the app's IDT, then the app's tables (app_root, from
   paging_root); the firmware's kept in *s. */
void app_cpu_state_enter(struct app_cpu_state *s, uint64_t app_root);
/* The firmware's tables, then its IDT; interrupts stay off (the firmware
   turns them back on as it had them: RestoreTPL on the BSP, its own AP
   loop on an AP). */
void app_cpu_state_leave(const struct app_cpu_state *s);

#endif
