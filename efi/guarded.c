/* Guarded access (see guarded.h). The steps, each for a reason:
 *  1. RaiseTPL(TPL_HIGH_LEVEL): the firmware's own notion of "nothing may
 *     interrupt now", so no timer callback runs between our steps.
 *  2. cli: belt and braces (TPL_HIGH_LEVEL masks interrupts in EDK II, but
 *     the spec does not say how).
 *  3. lidt(app): from here an exception lands in our guard, not in the
 *     firmware's handler, which would dump registers and hang.
 * Leaving undoes these in reverse order. No firmware service is called
 * between 3 and its undoing: the firmware expects its own IDT.
 */

#include "efi/guarded.h"
#include "efi/fw.h"
#include "arch/x86_64/guard.h"

static struct descriptor_pointer app_idt;
static int app_idt_built;

/* idt_build only fills a static table with the guard's stub addresses and
   the current code segment, so building it on first use is safe at any point
   after fw_init, and a guarded call can never load an empty IDT (whose first
   exception would be a triple fault: a machine reset). */
static void load_app_idt(void)
{
	if (!app_idt_built) {
		idt_build(&app_idt);
		app_idt_built = 1;
	}
	lidt(&app_idt);
}

void guarded_enter(struct guarded_state *s)
{
	s->tpl = uefi_call_wrapper(fw_bs->RaiseTPL, 1, TPL_HIGH_LEVEL);
	irq_disable();
	sidt(&s->fw_idt);
	load_app_idt();
}

void guarded_leave(const struct guarded_state *s)
{
	lidt(&s->fw_idt);
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

struct msr_access {
	uint32_t msr;
	uint64_t value;
};

static void read_msr(void *arg)
{
	struct msr_access *a = arg;

	a->value = rdmsr(a->msr);
}

static void write_msr(void *arg)
{
	const struct msr_access *a = arg;

	wrmsr(a->msr, a->value);
}

int msr_read_safely(uint32_t msr, uint64_t *value)
{
	struct msr_access a = { msr, 0 };

	if (guarded_run(read_msr, &a))
		return -1;
	*value = a.value;
	return 0;
}

int msr_write_safely(uint32_t msr, uint64_t value)
{
	struct msr_access a = { msr, value };

	return guarded_run(write_msr, &a);
}
