/* Guarded access (see guarded.h). The steps, each for a reason:
 *  1. RaiseTPL(TPL_HIGH_LEVEL): the firmware's own notion of "nothing may
 *     interrupt now", so no timer callback runs between our steps.
 *  2-3. guard_enter (arch/guard.h), on x86: cli, belt and braces
 *     (TPL_HIGH_LEVEL masks interrupts in EDK II, but the spec does not say
 *     how); lgdt/ltr/lidt(app): from here an exception lands in our guard,
 *     not in the firmware's handler, which would dump registers and hang,
 *     and its delivery reads the app's GDT and TSS, not the firmware's.
 * Leaving undoes these in reverse order. No firmware service is called
 * between 3 and its undoing: the firmware expects its own IDT.
 */

#include "efi/guarded.h"
#include "efi/fw.h"

void guarded_enter(struct guarded_state *s)
{
	s->tpl = uefi_call_wrapper(fw_bs->RaiseTPL, 1, TPL_HIGH_LEVEL);
	guard_enter(&s->arch);
}

void guarded_leave(const struct guarded_state *s)
{
	guard_leave(&s->arch);
	uefi_call_wrapper(fw_bs->RestoreTPL, 1, s->tpl);
}

int guarded_run(void (*fn)(void *), void *arg)
{
	struct guarded_state s;
	int faulted;

	guarded_enter(&s);
	faulted = guard_call(fn, arg);
	guarded_leave(&s);
	return faulted ? -1 : 0;
}
