/* The enter/leave sequence around every timed section: guarded access
 * (efi/guarded.c: TPL_HIGH_LEVEL, cli, the app's IDT) plus the app's page
 * tables.
 *
 *  1-3. guarded_enter: RaiseTPL(TPL_HIGH_LEVEL), cli, lidt(app).
 *  4.   mov cr3(app): the buffers now have the page size we chose. If CR4.PGE
 *       is set, it is cleared first, because global entries the firmware left
 *       in the TLB would otherwise survive the CR3 load.
 * Leaving undoes these in reverse order. No firmware service is called
 * between 3 and its undoing: the firmware expects its own IDT and tables.
 */

#include "efi/guarded.h"
#include "efi/paging.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/guard.h"
#include "arch/x86_64/raise.h"
#include "lib/fmt.h"
#include "probes/platform.h"

/* The vector a refused section reports: no CPU exception has it. */
#define NO_VECTOR 0xffffffffu

/* fn under guard_call with the app's CR3 loaded: 0, or 1 when it faulted. */
static int run_with_tables(void (*fn)(void *), void *arg, uint64_t app_cr3)
{
	uint64_t fw_cr3 = read_cr3(), fw_cr4 = read_cr4();
	int faulted;

	if (fw_cr4 & CR4_PGE)
		write_cr4(fw_cr4 & ~CR4_PGE);
	write_cr3(app_cr3);

	faulted = guard_call(fn, arg);

	write_cr3(fw_cr3);
	if (fw_cr4 & CR4_PGE)
		write_cr4(fw_cr4);
	return faulted;
}

int plat_timed(void (*fn)(void *arg), void *arg, struct plat_fault *fault)
{
	const struct guard_fault *g = &guard_last_fault;
	struct guarded_state s;
	uint64_t app_cr3 = paging_cr3();
	int faulted;

	/* Without the app's tables (paging_init not run, or failed) there is no
	   CR3 to load: loading 0 would reset the machine. Refuse instead. */
	if (!app_cr3) {
		mp_memset(fault, 0, sizeof *fault);
		fault->vector = NO_VECTOR;
		mp_snprintf(fault->text, sizeof fault->text,
			    "not run: the app's page tables are not built");
		return -1;
	}

	guarded_enter(&s);
	faulted = run_with_tables(fn, arg, app_cr3);
	guarded_leave(&s);
	if (!faulted)
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
