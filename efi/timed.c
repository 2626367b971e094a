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
#include "efi/stream.h"
#include "arch/guard.h"
#include "arch/paging.h"
#include "arch/stream.h"
#include "lib/fmt.h"
#include "probes/platform.h"

/* The vector a refused section reports: no CPU exception has it. */
#define NO_VECTOR 0xffffffffu

/* Set by plat_timed_wide for the length of its section. */
static int wide_state;

/* fn under guard_call with the app's tables loaded, and with the wide
   vector state on for plat_timed_wide: 0, or 1 when it faulted. The state
   is restored whether fn faulted or not, before interrupts come back, so
   the firmware never runs with it on (docs/PAGING.md). */
static int run_with_tables(void (*fn)(void *), void *arg, uint64_t app_root)
{
	struct pt_saved saved;
	struct stream_state_saved vector_state;
	int faulted;

	pt_switch_to(app_root, &saved);
	if (wide_state)
		stream_state_enable(&vector_state);
	faulted = guard_call(fn, arg);
	if (wide_state)
		stream_state_restore(&vector_state);
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
	if (!app_root) {
		mp_memset(fault, 0, sizeof *fault);
		fault->vector = NO_VECTOR;
		mp_snprintf(fault->text, sizeof fault->text,
			    "not run: the app's page tables are not built");
		return -1;
	}

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
	return -1;
}

/* Only once enabling is known not to fault (efi/stream.c tried it under
   the guard): a fault outside guard_call would find no guard to return to.
   Without it the section runs as plat_timed, and plat_stream_sets has
   already said that no wide set may run. */
int plat_timed_wide(void (*fn)(void *arg), void *arg, struct plat_fault *fault)
{
	int rc;

	wide_state = stream_state_works();
	rc = plat_timed(fn, arg, fault);
	wide_state = 0;
	return rc;
}

void plat_raise_fault(unsigned vector)
{
	raise_exception(vector);
}
