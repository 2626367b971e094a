/* The enter/leave sequence around every timed section: guarded access
 * (efi/guarded.c: TPL_HIGH_LEVEL, cli, the app's IDT) plus the app's page
 * tables.
 *
 *  1-3. guarded_enter: RaiseTPL(TPL_HIGH_LEVEL), then guard_enter
 *       (arch/guard.h; x86: cli, lidt(app)).
 *  4.   pt_switch_to (arch/paging.h; x86: mov cr3(app), with CR4.PGE cleared
 *       first when set, because global entries the firmware left in the TLB
 *       would otherwise survive the CR3 load): the buffers now have the page
 *       size we chose.
 * Leaving undoes these in reverse order. No firmware service is called
 * between 3 and its undoing: the firmware expects its own IDT and tables.
 */

#include "efi/guarded.h"
#include "efi/paging.h"
#include "arch/guard.h"
#include "arch/paging.h"
#include "lib/fmt.h"
#include "probes/platform.h"

/* The vector a refused section reports: no CPU exception has it. */
#define NO_VECTOR 0xffffffffu

/* The fatal fault that stopped the run, "" while none: from then on no
   timed section runs (plat_fatal). */
static char fatal_text[640];

/* refuses a section with why as its fault text: -1. */
static int refuse(struct plat_fault *fault, const char *why)
{
	mp_memset(fault, 0, sizeof *fault);
	fault->vector = NO_VECTOR;
	mp_snprintf(fault->text, sizeof fault->text, "not run: %s", why);
	return -1;
}

/* A #MC or #DF: what the CPU recorded, kept for plat_fatal and the end of
   the run; the short fault text says the run stops. */
static void note_fatal(struct plat_fault *fault)
{
	char recorded[512];

	fatal_exception_describe(fault->vector, guarded_run, recorded, sizeof recorded);
	mp_snprintf(fatal_text, sizeof fatal_text, "%s; %s", fault->text, recorded);
	fault->fatal = 1;
}

const char *plat_fatal(void) { return fatal_text[0] ? fatal_text : NULL; }

/* fn under guard_call with the app's tables loaded: 0, or 1 when it faulted. */
static int run_with_tables(void (*fn)(void *), void *arg, uint64_t app_root)
{
	struct pt_saved saved;
	int faulted;

	pt_switch_to(app_root, &saved);
	faulted = guard_call(fn, arg);
	pt_switch_back(&saved);
	return faulted;
}

int plat_timed(void (*fn)(void *arg), void *arg, struct plat_fault *fault)
{
	struct arch_fault g;
	struct guarded_state s;
	uint64_t app_root = paging_root();
	int faulted;

	/* Without the app's tables (paging_init not run, or failed) there is no
	   root to load: loading 0 would reset the machine. Refuse instead. */
	if (!app_root)
		return refuse(fault, "the app's page tables are not built");
	/* After a machine check the hardware is suspect and a second one,
	   taken mid-section, could shut the CPU down with the files unwritten. */
	if (fatal_text[0])
		return refuse(fault, "a machine check or double fault stopped the run");

	guarded_enter(&s);
	faulted = run_with_tables(fn, arg, app_root);
	guarded_leave(&s);
	if (!faulted)
		return 0;

	guard_last(&g);
	fault->vector = g.vector;
	fault->error_code = g.error_code;
	fault->pc = g.pc;
	fault->address = g.address;
	fault->has_address = g.has_address;
	fault->fatal = 0;
	/* x86: "#PF page fault (vector 14), error code 0x0, RIP 0x..., CR2 0x...". */
	if (g.has_address)
		mp_snprintf(fault->text, sizeof fault->text,
			    "%s (vector %u), error code 0x%llx, %s 0x%llx, %s 0x%llx",
			    exception_name(g.vector), g.vector, (unsigned long long)g.error_code,
			    arch_pc_name, (unsigned long long)g.pc, arch_address_name,
			    (unsigned long long)g.address);
	else
		mp_snprintf(fault->text, sizeof fault->text,
			    "%s (vector %u), error code 0x%llx, %s 0x%llx",
			    exception_name(g.vector), g.vector, (unsigned long long)g.error_code,
			    arch_pc_name, (unsigned long long)g.pc);
	if (exception_fatal(g.vector))
		note_fatal(fault);
	return -1;
}

void plat_raise_fault(unsigned vector)
{
	raise_exception(vector);
}
