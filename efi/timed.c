/* The enter/leave sequence around every timed section.
 *
 * Order matters, each step for a reason:
 *  1. RaiseTPL(TPL_HIGH_LEVEL): the firmware's own notion of "nothing may
 *     interrupt now", so no timer callback runs between our steps.
 *  2. cli: belt and braces (TPL_HIGH_LEVEL masks interrupts in EDK II, but
 *     the spec does not say how).
 *  3. lidt(app): from here an exception lands in our guard, not in the
 *     firmware's handler, which would dump registers and hang.
 *  4. mov cr3(app): the buffers now have the page size we chose. If CR4.PGE
 *     is set, it is cleared first, because global entries the firmware left
 *     in the TLB would otherwise survive the CR3 load.
 * Leaving undoes these in reverse order. No firmware service is called
 * between 3 and its undoing: the firmware expects its own IDT and tables.
 */

#include "efi/timed.h"
#include "efi/fw.h"
#include "efi/paging.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/guard.h"
#include "arch/x86_64/raise.h"
#include "lib/fmt.h"
#include "probes/platform.h"

static struct descriptor_pointer app_idt;

void timed_init(void)
{
	idt_build(&app_idt);
}

int timed_enter(void (*fn)(void *), void *arg, int with_tables)
{
	struct descriptor_pointer fw_idt;
	uint64_t fw_cr3 = 0, fw_cr4 = 0;
	EFI_TPL tpl;
	int faulted;

	tpl = uefi_call_wrapper(fw_bs->RaiseTPL, 1, TPL_HIGH_LEVEL);
	irq_disable();
	sidt(&fw_idt);
	lidt(&app_idt);
	if (with_tables) {
		fw_cr3 = read_cr3();
		fw_cr4 = read_cr4();
		if (fw_cr4 & CR4_PGE)
			write_cr4(fw_cr4 & ~CR4_PGE);
		write_cr3(paging_cr3());
	}

	faulted = guard_call(fn, arg);

	if (with_tables) {
		write_cr3(fw_cr3);
		if (fw_cr4 & CR4_PGE)
			write_cr4(fw_cr4);
	}
	lidt(&fw_idt);
	uefi_call_wrapper(fw_bs->RestoreTPL, 1, tpl);
	return faulted ? -1 : 0;
}

int plat_timed(void (*fn)(void *arg), void *arg, struct plat_fault *fault)
{
	const struct guard_fault *g = &guard_last_fault;

	if (timed_enter(fn, arg, 1) == 0)
		return 0;
	fault->vector = (unsigned)g->vector;
	fault->error_code = g->error_code;
	fault->cr2 = g->cr2;
	fault->rip = g->rip;
	mp_snprintf(fault->text, sizeof fault->text,
		    "%s (vector %u), error code 0x%llx, RIP 0x%llx, CR2 0x%llx",
		    exception_name(fault->vector), fault->vector,
		    (unsigned long long)g->error_code, (unsigned long long)g->rip,
		    (unsigned long long)g->cr2);
	return -1;
}

void plat_raise_fault(unsigned vector)
{
	raise_exception(vector);
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

	if (timed_enter(read_msr, &a, 0))
		return -1;
	*value = a.value;
	return 0;
}

int msr_write_safely(uint32_t msr, uint64_t value)
{
	struct msr_access a = { msr, value };

	return timed_enter(write_msr, &a, 0);
}
