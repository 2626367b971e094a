/* Entering and leaving the app's CPU state (see cpu_state.h). The order
   matters: the descriptor tables first, so a fault under the app's tables lands in the
   app's guard, never in a firmware handler whose code those tables may map
   differently; leaving undoes it in reverse. */

#include "efi/cpu_state.h"

void app_cpu_state_enter(struct app_cpu_state *s, uint64_t app_root, void *cpu_tables)
{
	if (cpu_tables)
		guard_enter_cpu(cpu_tables, &s->guard);
	else
		guard_enter(&s->guard);
	pt_switch_to(app_root, &s->tables);
}

void app_cpu_state_leave(const struct app_cpu_state *s)
{
	pt_switch_back(&s->tables);
	guard_leave(&s->guard);
}
