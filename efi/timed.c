/* The enter/leave sequence around every timed section: guarded access
 * (efi/guarded.c: TPL_HIGH_LEVEL, cli, the app's IDT, GDT and TSS) plus the
 * app's page tables.
 *
 *  1.   RaiseTPL(TPL_HIGH_LEVEL): the firmware's last call.
 *  2-4. app_cpu_state_enter (efi/cpu_state.c, the same sequence every AP
 *       of a multi-CPU run goes through): guard_enter (arch/guard.h; x86:
 *       cli, lgdt/ltr/lidt(app)), then pt_switch_to (arch/paging.h; x86:
 *       mov cr3(app), with CR4.PGE cleared first when set, because global
 *       entries the firmware left in the TLB would otherwise survive the
 *       CR3 load): the buffers now have the page size we chose; then, for
 *       plat_timed_wide, the wide vector state.
 *  5.   APERF/MPERF read around the section where the CPU has them
 *       (efi/core_clock.c), so its cycles are measured.
 * Leaving undoes these in reverse order. No firmware service is called
 * between 3 and its undoing: the firmware expects its own IDT and tables.
 * Before the first switch timed_init walks the app's tables for what
 * exception delivery needs; after a machine check or double fault no
 * section runs again (plat_fatal).
 */

#include "efi/timed.h"
#include "efi/core_clock.h"
#include "efi/cpu_state.h"
#include "efi/fw.h"
#include "efi/guarded.h"
#include "efi/paging.h"
#include "efi/stream.h"
#include "arch/guard.h"
#include "arch/paging.h"
#include "lib/fmt.h"
#include "core/platform.h"

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

void timed_fatal_elsewhere(const char *text)
{
	if (!fatal_text[0])
		mp_snprintf(fatal_text, sizeof fatal_text, "%s", text);
}
/* No operating system sends the app a signal: a bare-metal run ends on its
   own, or by a fatal fault. */
const char *plat_stop_signal(void) { return NULL; }

/* How much of the stack below the current frame a timed section may use:
   the probes' sections are shallow, a few frames. */
#define STACK_CHECK_BYTES (16 * 1024)
/* The guard's ranges and the stack. */
#define CHECKED_RANGES_MAX 8

/* Every page of r is mapped writable by the tables at root, or why[] names
   the first that is not. */
static int range_mapped(uint64_t root, const struct guard_range *r, char *why, size_t size)
{
	struct pt_translation t;
	uint64_t page;

	if (pt_range_writable(paging_config(), root, r->base, r->length, &page, &t))
		return 1;
	mp_snprintf(why, size, "the app's page tables %s %s at 0x%llx, which exception "
		    "delivery needs", t.status != PT_WALK_MAPPED ? "do not map"
		    : t.phys != page ? "do not identity-map" : "map read-only",
		    r->what, (unsigned long long)page);
	return 0;
}

/* Before the first switch: the CPU may be allowed to switch at all, and an
   exception under the app's tables must find the guard's code, data and
   tables and the stack mapped, since one that does not resets the machine.
   Checked once: nothing it looks at moves. Returns NULL or the refusal. */
static const char *tables_refusal(uint64_t root)
{
	static int checked;
	static char why[192];
	struct guard_range ranges[CHECKED_RANGES_MAX];
	uint8_t here;
	size_t n;

	if (checked)
		return why[0] ? why : NULL;
	checked = 1;
	if (pt_switch_refusal()) {
		mp_snprintf(why, sizeof why, "%s", pt_switch_refusal());
		return why;
	}
	n = guard_ranges(ranges, CHECKED_RANGES_MAX - 1);
	ranges[n++] = (struct guard_range){ "the stack", (uint64_t)(uintptr_t)&here -
					    STACK_CHECK_BYTES, STACK_CHECK_BYTES };
	for (size_t i = 0; i < n; i++)
		if (!range_mapped(root, &ranges[i], why, sizeof why))
			return why;
	return NULL;
}

int timed_init(void)
{
	struct guarded_state s;
	char line[256];

	/* One guarded entry builds the guard's tables, so their ranges are
	   known before they are checked. */
	guarded_enter(&s);
	guarded_leave(&s);
	if (!paging_root() || !tables_refusal(paging_root()))
		return paging_root() ? 0 : -1;
	mp_snprintf(line, sizeof line, "memprobe: timed sections refused: %s\n",
		    tables_refusal(paging_root()));
	plat_console(line);
	return -1;
}

/* Set by plat_timed_wide for the length of its section. */
static int wide_state;

/* fn under guard_call in the app's CPU state (with the wide vector state
   for plat_timed_wide), the core's cycles counted around it: 0, or 1 when
   it faulted. Everything is given back whether fn faulted or not, before
   interrupts come back, so the firmware never runs with the app's tables or
   the wide state on (docs/PAGING.md). */
static int run_in_app_state(void (*fn)(void *), void *arg, uint64_t app_root)
{
	struct core_clock_mark mark;
	struct app_cpu_state state;
	EFI_TPL tpl;
	int faulted;

	tpl = uefi_call_wrapper(fw_bs->RaiseTPL, 1, TPL_HIGH_LEVEL);
	app_cpu_state_enter(&state, app_root, NULL, wide_state);
	core_clock_before(&mark);
	faulted = guard_call(fn, arg);
	if (!faulted)
		core_clock_after(&mark);
	app_cpu_state_leave(&state);
	uefi_call_wrapper(fw_bs->RestoreTPL, 1, tpl);
	return faulted;
}

int plat_timed(void (*fn)(void *arg), void *arg, struct plat_fault *fault)
{
	struct arch_fault g;
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
	if (tables_refusal(app_root))
		return refuse(fault, tables_refusal(app_root));

	faulted = run_in_app_state(fn, arg, app_root);
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
