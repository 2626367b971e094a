/* Entering and leaving the app's CPU state (see cpu_state.h). The order
   matters: the descriptor tables first, so a fault under the app's tables lands in the
   app's guard, never in a firmware handler whose code those tables may map
   differently; the wide vector state last, as efi/timed.c turns it on
   inside a timed section; leaving undoes it in reverse. */

#include "efi/cpu_state.h"

void app_cpu_state_enter(struct app_cpu_state *s, uint64_t app_root, void *cpu_tables,
			 int wide)
{
	if (cpu_tables)
		guard_enter_cpu(cpu_tables, &s->guard);
	else
		guard_enter(&s->guard);
	pt_switch_to(app_root, &s->tables);
	s->wide = wide;
	if (wide)
		stream_state_enable(&s->vector);
}

void app_cpu_state_leave(const struct app_cpu_state *s)
{
	if (s->wide)
		stream_state_restore(&s->vector);
	pt_switch_back(&s->tables);
	guard_leave(&s->guard);
}
