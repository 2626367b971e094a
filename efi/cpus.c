/* The other CPUs on bare metal (core/platform.h, "Other CPUs"; cpus.h).
 *
 * A run of roles goes like this, every step for a reason:
 *  1. The BSP starts each AP's procedure with StartupThisAP and an event
 *     (non-blocking), so the BSP is free to take part itself. The firmware
 *     is given a timeout of twice the deadline: an AP still busy then is
 *     reset to idle by the firmware itself, so a stuck AP cannot keep the
 *     machine from coming back.
 *  2. Each AP waits, in the firmware's state, until the BSP says the
 *     firmware is quiet: the BSP's last firmware call (RaiseTPL) is made
 *     before any CPU loads the app's tables.
 *  3. BSP and APs enter the app's CPU state (cpu_state.h: interrupts off,
 *     the app's IDT and tables, and for plat_cpus_run_wide the wide vector
 *     state, CR4 and XCR0 being each CPU's own), meet at the start line (core/gang.c),
 *     play their roles, and the APs leave the app's state again before
 *     saying they are back.
 *  4. The BSP leaves the app's state only once every AP that finished in
 *     time is back in the firmware's, and only then calls the firmware
 *     again (RestoreTPL, then the events). The one exception is an AP that
 *     missed the deadline: it may still hold the app's tables while the
 *     BSP waits on its event for the firmware's timeout to reset it.
 *
 * Each AP plays under its own fault guard (arch/guard.h: its own saved
 * stack and last fault, in its descriptor tables): an exception in its
 * role unwinds to its procedure, which marks the role faulted, leaves the
 * app's state and returns to the firmware like any AP that finished. The
 * BSP reports the fault with the CPU, vector and address, the role counts
 * as missed, and the CPU gets no more roles: the run goes on with the
 * others and its verdict fails.
 */

#include "efi/cpus.h"
#include "efi/cpu_state.h"
#include "efi/fw.h"
#include "efi/mp_services.h"
#include "efi/paging.h"
#include "efi/stream.h"
#include "efi/timed.h"
#include "arch/cpu.h"
#include "arch/guard.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/machine.h"
#include "core/gang.h"
#include "core/platform.h"
#include "results/results.h"

/* ---- Constants -------------------------------------------------------- */

static EFI_GUID mp_services_guid = MP_SERVICES_GUID;
/* Topology is read in well under a millisecond; a generous bound all the
   same, so a slow emulated CPU is not mistaken for a lost one. */
#define TOPOLOGY_DEADLINE_MS 2000u

/* ---- Private Types ---------------------------------------------------- */

/* What an AP's procedure is handed. */
struct ap_start {
	struct gang *g;
	unsigned index;
	uint64_t app_root;
	void *cpu_tables;      /* this AP's descriptor tables (ap_tables) */
	int wide;              /* the wide vector state on for the role */
	int faulted;           /* out: its role faulted; fault says what */
	struct arch_fault fault;
};

/* The fault each CPU's last role raised, by logical CPU (plat_cpu_fault). */
struct cpu_fault {
	int faulted;
	struct plat_fault fault;
};

/* ---- Private Data ----------------------------------------------------- */

static struct mp_services *mp;
static EFI_STATUS mp_status = EFI_NOT_FOUND;  /* cpus_count's search for mp */
static UINTN mp_total, mp_enabled;           /* the CPUs the firmware reports */
static unsigned cpu_count = 1;
static UINTN processor[PLAT_CPUS_MAX];       /* logical -> firmware number */
static uint64_t processor_id[PLAT_CPUS_MAX];  /* the firmware's CPU id (cpu_id_name) */
static struct cpu_topology topology[PLAT_CPUS_MAX];
static unsigned char lost[PLAT_CPUS_MAX];
static char conditions[320];

/* Static, never on a stack: an AP that missed its deadline may still read
   and write them after plat_cpus_run returned. */
static struct gang gang;
static struct ap_start ap_start[PLAT_CPUS_MAX];
static volatile uint32_t firmware_quiet;
static volatile uint32_t back_in_firmware_state[PLAT_CPUS_MAX];
static EFI_EVENT ap_event[PLAT_CPUS_MAX];
/* Each AP's own GDT, TSS and #DF/#MC stacks (arch/guard.h), by logical
   CPU: a TSS is marked busy on the CPU that loads it, so no two CPUs may
   share one. Never given back: an AP's TR may go on naming its TSS. */
static void *ap_tables[PLAT_CPUS_MAX];
static struct cpu_fault cpu_fault[PLAT_CPUS_MAX];

/* ---- Private Functions ------------------------------------------------ */

/* Sequentially consistent, as in core/gang.c: an AP's "back" must not be
   seen before it has left the app's state. */
static void put(volatile uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

static uint32_t get(const volatile uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

/* An AP's part, under its own guard. */
static void ap_member(void *argument)
{
	struct ap_start *s = argument;

	gang_member(s->g, s->index);
}

/* An AP's procedure (the firmware calls it with the Microsoft convention). */
static VOID EFIAPI ap_entry(VOID *argument)
{
	struct ap_start *s = argument;
	struct app_cpu_state state;

	while (!get(&firmware_quiet) && plat_ticks() < s->g->deadline_ticks)
		;
	if (get(&firmware_quiet)) {
		app_cpu_state_enter(&state, s->app_root, s->cpu_tables, s->wide);
		if (guard_call(ap_member, s)) {
			guard_last_cpu(s->cpu_tables, &s->fault);
			s->faulted = 1;
			gang_member_faulted(s->g, s->index);
		}
		app_cpu_state_leave(&state);
	}
	put(&back_in_firmware_state[s->index], 1);
}

/* A role that faulted on its AP, for the report: the CPU, the exception and
   where. */
static void report_ap_fault(const struct ap_start *s, unsigned cpu)
{
	const struct arch_fault *f = &s->fault;
	struct plat_fault *out = &cpu_fault[cpu].fault;
	char *text = out->text;

	*out = (struct plat_fault){ .vector = f->vector, .error_code = f->error_code,
				    .pc = f->pc, .address = f->address,
				    .has_address = f->has_address,
				    .fatal = exception_fatal(f->vector) };
	mp_snprintf(text, sizeof out->text, "%s (vector %u) on CPU %u (%s %llu), error "
		    "code 0x%llx, %s 0x%llx, %s 0x%llx", exception_name(f->vector), f->vector,
		    cpu, cpu_id_name, (unsigned long long)processor_id[cpu], (unsigned long long)f->error_code,
		    arch_pc_name, (unsigned long long)f->pc, arch_address_name,
		    (unsigned long long)f->address);
	cpu_fault[cpu].faulted = 1;
	report_printf("  CPU %u: FAULT in its role: %s; caught by that CPU's own guard, the CPU "
		      "is back with the firmware and gets no more roles\n", cpu, text);
	/* The hardware itself failed, or could not deliver an exception:
	   no probe may run after it, on any CPU. */
	if (exception_fatal(f->vector))
		timed_fatal_elsewhere(text);
}

/* A role: the topology of the CPU it runs on, into *arg. */
static void read_topology(void *arg)
{
	cpu_topology_read(arg);
}

/* Steps 1: one AP's procedure started; 0, or -1 with why[] said. */
static int start_ap(unsigned index, unsigned cpu, uint64_t app_root, int wide,
		    uint64_t deadline_ms, char *why, size_t why_len)
{
	EFI_STATUS s;

	ap_start[index] = (struct ap_start){ .g = &gang, .index = index, .app_root = app_root,
					     .cpu_tables = ap_tables[cpu], .wide = wide };
	s = uefi_call_wrapper(fw_bs->CreateEvent, 5, 0, 0, NULL, NULL, &ap_event[index]);
	if (s != EFI_SUCCESS) {
		ap_event[index] = 0;
		mp_snprintf(why, why_len, "no event for CPU %u: %s", cpu, fw_status_text(s));
		return -1;
	}
	s = uefi_call_wrapper(mp->startup_this_ap, 7, mp, ap_entry, processor[cpu],
			      ap_event[index], (UINTN)(deadline_ms * 2 * 1000), &ap_start[index],
			      NULL);
	if (s != EFI_SUCCESS) {
		uefi_call_wrapper(fw_bs->CloseEvent, 1, ap_event[index]);
		ap_event[index] = 0;
		mp_snprintf(why, why_len, "StartupThisAP refused CPU %u: %s", cpu,
			    fw_status_text(s));
		return -1;
	}
	return 0;
}

/* Steps 2-4 on the BSP: the start line and the roles in the app's state;
   back in the firmware's once every AP that is not late is. */
static unsigned lead(uint64_t app_root, int wide, int go)
{
	struct app_cpu_state state;
	EFI_TPL tpl;
	unsigned missed = 0;

	tpl = uefi_call_wrapper(fw_bs->RaiseTPL, 1, TPL_HIGH_LEVEL);
	app_cpu_state_enter(&state, app_root, NULL, wide);
	if (!go)
		put(&gang.start, GANG_OFF);
	put(&firmware_quiet, 1);
	if (go)
		missed = gang_lead(&gang);
	/* Bounded too: an AP that never even reached the start line (the run
	   called off) is not waited for past the deadline. One whose role
	   faulted is on its way back (its guard returned): it is waited for
	   like one that finished. */
	for (unsigned i = 0; i < gang.n; i++)
		while ((int)i != gang.lead &&
		       (!gang.roles[i].missed || get(&gang.state[i]) == GANG_FAULTED) &&
		       ap_event[i] && !get(&back_in_firmware_state[i]) &&
		       plat_ticks() < gang.deadline_ticks)
			;
	app_cpu_state_leave(&state);
	uefi_call_wrapper(fw_bs->RestoreTPL, 1, tpl);
	return missed;
}

/* Every started AP's event, until the firmware's own timeout has passed
   (it resets an AP still busy then); an AP whose event never comes is
   lost. */
static void collect(uint64_t deadline_ms)
{
	uint64_t until = plat_ticks() + deadline_ms * 3 * (plat_clock()->ticks_per_s / 1000u);

	for (unsigned i = 0; i < gang.n; i++) {
		EFI_STATUS status;
		int signalled;

		if (!ap_event[i])
			continue;
		/* CheckEvent clears the signal it reports: its answer is kept. */
		while ((status = uefi_call_wrapper(fw_bs->CheckEvent, 1, ap_event[i])) ==
			       EFI_NOT_READY && plat_ticks() < until)
			;
		signalled = status == EFI_SUCCESS;
		uefi_call_wrapper(fw_bs->CloseEvent, 1, ap_event[i]);
		ap_event[i] = 0;
		if (ap_start[i].faulted) {
			lost[gang.roles[i].cpu] = 1;
			report_ap_fault(&ap_start[i], gang.roles[i].cpu);
			continue;
		}
		if (!gang.roles[i].missed && get(&back_in_firmware_state[i]))
			continue;
		lost[gang.roles[i].cpu] = 1;
		report_printf("  CPU %u (%s %llu): %s\n", gang.roles[i].cpu, cpu_id_name,
			      (unsigned long long)processor_id[gang.roles[i].cpu],
			      signalled ? "back with the firmware (its procedure returned late, or "
					  "the StartupThisAP timeout reset the AP to idle); no more "
					  "roles for it"
					: "the firmware never reported it back: lost for this run");
	}
}

/* Logical CPUs: the BSP, then every enabled, healthy AP. */
static void list_cpus(UINTN total)
{
	struct mp_processor_information info;
	UINTN bsp = 0;

	uefi_call_wrapper(mp->who_am_i, 2, mp, &bsp);
	processor[0] = bsp;
	if (uefi_call_wrapper(mp->get_processor_info, 3, mp, bsp, &info) == EFI_SUCCESS)
		processor_id[0] = info.processor_id;
	cpu_count = 1;
	for (UINTN p = 0; p < total && cpu_count < PLAT_CPUS_MAX; p++) {
		if (p == bsp || uefi_call_wrapper(mp->get_processor_info, 3, mp, p, &info) !=
				EFI_SUCCESS)
			continue;
		if ((info.status_flag & (MP_PROCESSOR_ENABLED | MP_PROCESSOR_HEALTHY)) !=
		    (MP_PROCESSOR_ENABLED | MP_PROCESSOR_HEALTHY))
			continue;
		processor[cpu_count] = p;
		processor_id[cpu_count] = info.processor_id;
		cpu_count++;
	}
}

/* Every AP's descriptor tables (ap_tables), each checked mapped writable by
   the app's tables, since an exception on an AP whose GDT or stack the
   tables do not map resets the machine: 0, or -1 with why[] said. */
static int give_ap_tables(char *why, size_t why_len)
{
	size_t bytes = guard_cpu_tables_bytes();
	struct pt_translation t;
	uint64_t base, bad;
	VOID *p;

	for (unsigned k = 1; k < cpu_count; k++) {
		if (uefi_call_wrapper(fw_bs->AllocatePool, 3, EfiLoaderData, bytes + 15, &p) !=
		    EFI_SUCCESS) {
			mp_snprintf(why, why_len, "no memory for CPU %u's descriptor tables", k);
			return -1;
		}
		base = ((uint64_t)(uintptr_t)p + 15) & ~15ull;
		mp_memset((void *)(uintptr_t)base, 0, bytes);
		if (!pt_range_writable(paging_config(), paging_root(), base, bytes, &bad, &t)) {
			mp_snprintf(why, why_len, "the app's page tables do not map CPU %u's "
				    "descriptor tables writable at 0x%llx", k, (unsigned long long)bad);
			return -1;
		}
		ap_tables[k] = (void *)(uintptr_t)base;
	}
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

void cpus_count(void)
{
	mp_status = uefi_call_wrapper(fw_bs->LocateProtocol, 3, &mp_services_guid, NULL,
				      (VOID **)&mp);
	if (mp_status != EFI_SUCCESS) {
		mp = 0;
		return;
	}
	if (uefi_call_wrapper(mp->get_number_of_processors, 3, mp, &mp_total, &mp_enabled) ==
	    EFI_SUCCESS)
		list_cpus(mp_total);
}

void cpus_init(void)
{
	static struct plat_role roles[PLAT_CPUS_MAX];
	UINTN total = mp_total, enabled = mp_enabled;
	char why[160];

	if (!mp) {
		mp_snprintf(conditions, sizeof conditions, "other CPUs: none reachable: the "
			    "firmware has no MP services protocol (%s); c2c has no pair to measure, "
			    "loaded no CPU to load with", fw_status_text(mp_status));
		return;
	}
	if (cpu_count > 1 && give_ap_tables(why, sizeof why)) {
		mp_snprintf(conditions, sizeof conditions, "other CPUs: none used of the %u the "
			    "firmware's MP services report: %s; c2c has no pair to measure, loaded "
			    "no CPU to load with", cpu_count, why);
		cpu_count = 1;
		return;
	}
	if (cpu_count == 1) {
		mp_snprintf(conditions, sizeof conditions, "other CPUs: none: the firmware's MP "
			    "services report %llu CPU%s, %llu enabled; c2c has no pair to measure, "
			    "loaded no CPU to load with", (unsigned long long)total,
			    total == 1 ? "" : "s", (unsigned long long)enabled);
	} else {
		mp_snprintf(conditions, sizeof conditions, "other CPUs: %u (of %llu the firmware "
			    "reports), started by EFI MP services (StartupThisAP with an event, so "
			    "the BSP takes part); every CPU runs its role with interrupts off, the "
			    "app's GDT, IDT and page tables, and the BSP calls the firmware only with "
			    "every CPU back in the firmware's state", cpu_count,
			    (unsigned long long)total);
	}
	for (unsigned k = 0; k < cpu_count; k++)
		roles[k] = (struct plat_role){ k, read_topology, &topology[k], 0 };
	if (plat_cpus_run(roles, cpu_count, TOPOLOGY_DEADLINE_MS, why, sizeof why) < 0)
		plat_console("memprobe: the CPUs' topology was not read\n");
	for (unsigned k = 0; k < cpu_count; k++)
		if (roles[k].missed)
			topology[k].source = 0;
}

unsigned plat_cpu_count(void)
{
	return cpu_count;
}

const char *plat_cpus_conditions(void)
{
	if (!conditions[0])
		mp_snprintf(conditions, sizeof conditions, "other CPUs: not looked for yet");
	return conditions;
}

/* plat_cpus_run, with the wide vector state on every CPU when wide. */
static int run_roles(struct plat_role *roles, unsigned n, uint64_t deadline_ms, int wide,
		     char *why, size_t why_len)
{
	uint64_t app_root = paging_root();
	unsigned missed;
	int go = 1;

	if (gang_check(roles, n, cpu_count, lost, why, why_len))
		return -1;
	/* Loading a root of 0 would reset the machine. */
	if (!app_root) {
		mp_snprintf(why, why_len, "the app's page tables are not built");
		return -1;
	}
	gang_init(&gang, roles, n, deadline_ms);
	for (unsigned i = 0; i < n; i++)
		cpu_fault[roles[i].cpu].faulted = 0;
	put(&firmware_quiet, 0);
	for (unsigned i = 0; i < n; i++) {
		put(&back_in_firmware_state[i], 0);
		ap_event[i] = 0;
	}
	for (unsigned i = 0; i < n && go; i++)
		if ((int)i != gang.lead &&
		    start_ap(i, roles[i].cpu, app_root, wide, deadline_ms, why, why_len) != 0)
			go = 0;
	missed = lead(app_root, wide, go);
	collect(deadline_ms);
	if (!go)
		return -1;
	return missed ? 1 : 0;
}

int plat_cpus_run(struct plat_role *roles, unsigned n, uint64_t deadline_ms,
		  char *why, size_t why_len)
{
	return run_roles(roles, n, deadline_ms, 0, why, why_len);
}

/* Only once the BSP's guarded trial (efi/stream.c) showed that enabling
   does not fault: an AP has no guard to catch it. Every CPU writes XCR0
   from its own CPUID leaf 0Dh, so no CPU is given a value it refuses.
   Without the trial's success the roles run with the firmware's state, and
   plat_stream_sets_here says so on each CPU. */
int plat_cpus_run_wide(struct plat_role *roles, unsigned n, uint64_t deadline_ms,
		       char *why, size_t why_len)
{
	return run_roles(roles, n, deadline_ms, stream_state_works(), why, why_len);
}

int plat_cpu_fault(unsigned cpu, struct plat_fault *fault)
{
	if (cpu >= PLAT_CPUS_MAX || !cpu_fault[cpu].faulted)
		return 0;
	*fault = cpu_fault[cpu].fault;
	return 1;
}

void cpus_describe(struct json *j)
{
	machine_describe_topology(j, topology, processor_id, "firmware_cpu_id", cpu_count);
}
