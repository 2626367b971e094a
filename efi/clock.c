/* TSC rate, in the order the figures deserve trust: CPUID 15h's crystal
 * ratio, a statement of the TSC's own clock; otherwise a measurement
 * against a reference timer: the ACPI PM timer (a 3.579545 MHz crystal the
 * chipset drives), else the ACPI HPET (its period stated by its own
 * register), and Stall() only when neither exists, because its accuracy is
 * whatever the firmware's own calibration was. CPUID 16h is never the rate:
 * the SDM says its base frequency "does not reflect actual values"; it is
 * reported beside the measurement.
 */

#include "efi/clock.h"
#include "efi/acpi.h"
#include "efi/fw.h"
#include "efi/guarded.h"
#include "arch/counter.h"
#include "arch/io.h"
#include "lib/fmt.h"
#include "core/platform.h"

/* The calibration policy (window count and length, core clock chains) is
   arch/counter.h's, shared with the Linux build. */
#define PM_TIMER_HZ 3579545ull
#define WINDOWS COUNTER_CAL_WINDOWS
#define STALL_US (COUNTER_CAL_WINDOW_MS * 1000)

/* HPET registers (IA-PC HPET specification 1.0a, 2.3): the capabilities
   word with the counter's period in femtoseconds in its top half and
   COUNT_SIZE_CAP (a 64-bit counter) at bit 13; ENABLE_CNF in the
   configuration word; the main counter. */
#define HPET_CAPABILITIES 0x000u
#define HPET_CONFIGURATION 0x010u
#define HPET_MAIN_COUNTER 0x0f0u
#define HPET_COUNT_64 (1ull << 13)
#define HPET_ENABLE 1ull
/* The specification's bounds on the period: above 0, at most 100 ns. */
#define HPET_PERIOD_MAX_FS 100000000ull

static struct plat_clock clock;
static char source[400], core_source[128];
static uint64_t start_ticks;

uint64_t plat_ticks(void) { return counter_read(); }
const struct plat_clock *plat_clock(void) { return &clock; }

uint64_t plat_elapsed_ms(void)
{
	return (counter_read() - start_ticks) * 1000 / clock.ticks_per_s;
}

static void sort(uint64_t *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* A reference timer: an I/O port (the PM timer) or a memory-mapped counter
   (the HPET), read through the firmware's own tables, which map MMIO
   uncached (MTRRs make the chipset's range UC). */
struct reference {
	char name[120];           /* "the ACPI PM timer (port 0x608, 24-bit)" */
	uint64_t hz, mask;
	uint16_t port;            /* PM timer, when hpet is 0 */
	uint64_t hpet;            /* HPET register block */
	int hpet_64;
	uint32_t rounding_ppm;    /* its rate in whole Hz against the real one */
};

static uint64_t reference_read(const struct reference *r)
{
	if (!r->hpet)
		return io_read32(r->port) & r->mask;
	if (r->hpet_64)
		return *(volatile const uint64_t *)(uintptr_t)(r->hpet + HPET_MAIN_COUNTER);
	return *(volatile const uint32_t *)(uintptr_t)(r->hpet + HPET_MAIN_COUNTER);
}

struct windows {
	const struct reference *ref;
	uint64_t hz[WINDOWS];
	int stuck;                /* the timer did not advance in time */
};

/* Far beyond a window at any TSC rate below 200 GHz, yet a few seconds at
   most: a timer that reads a constant (one the chipset left off) must end
   in a fallback, not a hang with interrupts off. */
#define DEADLINE_TICKS (1ull << 32)

/* Each window starts on a reference edge, so the count is exact to one
   tick at both ends. */
static void measure_windows(void *arg)
{
	struct windows *w = arg;
	const struct reference *r = w->ref;
	uint64_t window_ticks = r->hz * COUNTER_CAL_WINDOW_MS / 1000;

	for (int i = 0; i < WINDOWS; i++) {
		uint64_t p0 = reference_read(r), p1, t0 = counter_read(), t1, elapsed;

		while ((p1 = reference_read(r)) == p0)
			if (counter_read() - t0 > DEADLINE_TICKS)
				goto stuck;
		t0 = counter_read();
		do {
			elapsed = (reference_read(r) - p1) & r->mask;
			t1 = counter_read();
			if (t1 - t0 > DEADLINE_TICKS)
				goto stuck;
		} while (elapsed < window_ticks);
		w->hz[i] = (t1 - t0) * r->hz / elapsed;
	}
	return;
stuck:
	w->stuck = 1;
}

/* Median of the windows, and its uncertainty: half their spread, the
   one-tick quantisation of a window, and the reference's rate rounding. */
static uint64_t median_hz(uint64_t *hz, uint32_t tick_ppm, uint32_t *ppm, uint64_t *spread)
{
	uint64_t median;

	sort(hz, WINDOWS);
	median = hz[WINDOWS / 2];
	*spread = hz[WINDOWS - 1] - hz[0];
	*ppm = (uint32_t)(*spread * 1000000ull / (2 * median) + tick_ppm);
	return median;
}

static uint32_t window_tick_ppm(const struct reference *r)
{
	uint64_t window_ticks = r->hz * COUNTER_CAL_WINDOW_MS / 1000;

	return (uint32_t)((1000000ull + window_ticks - 1) / window_ticks) + r->rounding_ppm;
}

static int pm_timer(struct reference *r, char *why, size_t why_len)
{
	struct acpi_pm_timer t;

	if (acpi_find_pm_timer(&t)) {
		mp_snprintf(why, why_len, "the ACPI tables describe no I/O-port PM timer");
		return -1;
	}
	r->hpet = 0;
	r->port = t.port;
	r->hz = PM_TIMER_HZ;
	r->mask = t.bits == 32 ? 0xffffffffull : 0xffffffull;
	r->rounding_ppm = 0;
	mp_snprintf(r->name, sizeof r->name, "the ACPI PM timer (port 0x%x, %d-bit)", t.port,
		    t.bits);
	return 0;
}

struct hpet_setup {
	uint64_t base, capabilities, configuration;
	int enabled_by_us;
};

/* The counter runs only with ENABLE_CNF set; firmware often leaves it
   clear. Setting it starts the main counter and nothing else (no timer
   interrupt is armed); leave_hpet puts the bit back as it was found. */
static void enter_hpet(void *arg)
{
	struct hpet_setup *h = arg;
	volatile uint64_t *config = (volatile uint64_t *)(uintptr_t)(h->base + HPET_CONFIGURATION);

	h->capabilities = *(volatile const uint64_t *)(uintptr_t)(h->base + HPET_CAPABILITIES);
	h->configuration = *config;
	h->enabled_by_us = !(h->configuration & HPET_ENABLE);
	if (h->enabled_by_us)
		*config = h->configuration | HPET_ENABLE;
}

static void leave_hpet(void *arg)
{
	struct hpet_setup *h = arg;

	if (h->enabled_by_us)
		*(volatile uint64_t *)(uintptr_t)(h->base + HPET_CONFIGURATION) = h->configuration;
}

static int hpet_timer(struct reference *r, struct hpet_setup *h, char *why, size_t why_len)
{
	struct acpi_hpet t;
	uint64_t period;

	if (acpi_find_hpet(&t)) {
		mp_snprintf(why, why_len, "no ACPI HPET table with a memory-mapped block");
		return -1;
	}
	h->base = t.base;
	if (guarded_run(enter_hpet, h) != 0) {
		mp_snprintf(why, why_len, "the HPET at 0x%llx faulted when read",
			    (unsigned long long)t.base);
		return -1;
	}
	period = h->capabilities >> 32;
	if (!period || period > HPET_PERIOD_MAX_FS) {
		guarded_run(leave_hpet, h);
		mp_snprintf(why, why_len, "the HPET at 0x%llx states a period of %llu fs, outside "
			    "its specification", (unsigned long long)t.base,
			    (unsigned long long)period);
		return -1;
	}
	r->hpet = t.base;
	r->hpet_64 = !!(h->capabilities & HPET_COUNT_64);
	r->mask = r->hpet_64 ? ~0ull : 0xffffffffull;
	r->hz = 1000000000000000ull / period;
	/* Whole hertz from a femtosecond period: under one part in r->hz. */
	r->rounding_ppm = (uint32_t)(1000000ull / r->hz + 1);
	mp_snprintf(r->name, sizeof r->name, "the ACPI HPET (0x%llx, %llu fs period = %llu Hz, "
		    "%d-bit, read uncached through the firmware's map)",
		    (unsigned long long)t.base, (unsigned long long)period,
		    (unsigned long long)r->hz, r->hpet_64 ? 64 : 32);
	return 0;
}

/* The reference timer's windows: the PM timer, else the HPET, or only the
   one clock.reference asks for. 0 with the windows measured, -1 with why[]
   naming what each lacked. */
static int reference_windows(enum clock_reference which, struct reference *r,
			     struct windows *w, char *why, size_t why_len)
{
	char pm_why[96] = "", hpet_why[120] = "";
	struct hpet_setup h = { 0, 0, 0, 0 };
	int rc;

	w->ref = r;
	w->stuck = 0;
	if (which != CLOCK_REF_HPET && pm_timer(r, pm_why, sizeof pm_why) == 0) {
		rc = guarded_run(measure_windows, w);
		if (rc == 0 && !w->stuck)
			return 0;
		mp_snprintf(pm_why, sizeof pm_why, "the ACPI PM timer at port 0x%x %s", r->port,
			    rc ? "faulted when read" : "did not advance");
	}
	w->stuck = 0;
	if (which != CLOCK_REF_PM_TIMER && hpet_timer(r, &h, hpet_why, sizeof hpet_why) == 0) {
		rc = guarded_run(measure_windows, w);
		guarded_run(leave_hpet, &h);
		if (rc == 0 && !w->stuck)
			return 0;
		mp_snprintf(hpet_why, sizeof hpet_why, "the HPET at 0x%llx %s",
			    (unsigned long long)r->hpet, rc ? "faulted when read" : "did not advance");
	}
	mp_snprintf(why, why_len, "%s%s%s", pm_why, pm_why[0] && hpet_why[0] ? "; " : "",
		    hpet_why);
	return -1;
}

/* A PM timer the CPU emulates from the TSC's crystal shares that crystal's
   error: agreement with it proves the arithmetic, not the crystal. */
static const char *independence(const struct reference *r)
{
	if (r->hpet)
		return "";
	switch (counter_timer_emulated(&fw_cpu, guarded_run, r->port)) {
	case COUNTER_EMULATION_YES:
		return "; this PM timer is emulated by the CPU from the TSC's own crystal "
		       "(MSR 0x121): not an independent check of that crystal";
	case COUNTER_EMULATION_NO:
		return "; the PM timer is not emulated from the TSC's crystal (MSR 0x121)";
	case COUNTER_EMULATION_NO_REGISTER:
		return "; not an Intel CPU, so not Intel's PM timer emulation (MSR 0x121)";
	case COUNTER_EMULATION_UNREADABLE:
		break;
	}
	return "; whether the CPU emulates it from the TSC's crystal is unknown "
	       "(MSR 0x121 unreadable)";
}

/* The measurement is the rate; CPUID's figure, when there is one (16h's
   nominal base frequency, or 15h's when clock.reference asks for a
   measurement), is set beside it and never used. The reference crystal's own
   tolerance is not included: ACPI states none for the PM timer, and the
   HPET specification allows its clock 500 ppm. */
static void use_measured(const struct reference *r, struct windows *w, uint64_t nominal_hz,
			 enum counter_rate_source leaf)
{
	uint64_t spread;
	char nominal[120] = "";
	struct mp_text t = { source, sizeof source, 0 };

	clock.ticks_per_s = median_hz(w->hz, window_tick_ppm(r), &clock.uncertainty_ppm, &spread);
	if (nominal_hz) {
		uint64_t diff = nominal_hz > clock.ticks_per_s ? nominal_hz - clock.ticks_per_s
							       : clock.ticks_per_s - nominal_hz;
		mp_snprintf(nominal, sizeof nominal, "; the %s's %llu Hz differs by %llu ppm and "
			    "is not used", counter_rate_source_name(leaf),
			    (unsigned long long)nominal_hz,
			    (unsigned long long)(diff * 1000000ull / clock.ticks_per_s));
	}
	mp_append(&t, "TSC rate calibrated against %s, median of %d windows, spread %llu Hz; "
		  "uncertainty: half the spread and one reference tick, not the reference's own "
		  "crystal tolerance (%s)%s%s", r->name, WINDOWS, (unsigned long long)spread,
		  r->hpet ? "the HPET specification allows 500 ppm" : "ACPI states none",
		  nominal, independence(r));
}

/* CPUID 15h states the rate from the crystal; a reference timer, where
   there is one, says how well the statement holds: their difference is
   the uncertainty reported. Without one, the crystal is taken at its
   rating and the uncertainty is unknown, not 0. */
static void use_crystal(uint64_t hz)
{
	const char *how = counter_rate_source_name(COUNTER_RATE_CRYSTAL);
	struct reference r;
	struct windows w;
	uint64_t ref_hz, spread, diff;
	uint32_t ref_ppm;
	char why[240];

	clock.ticks_per_s = hz;
	if (reference_windows(CLOCK_REF_AUTO, &r, &w, why, sizeof why) == 0) {
		ref_hz = median_hz(w.hz, window_tick_ppm(&r), &ref_ppm, &spread);
		diff = ref_hz > hz ? ref_hz - hz : hz - ref_hz;
		clock.uncertainty_ppm = (uint32_t)(diff * 1000000ull / hz) + ref_ppm;
		mp_snprintf(source, sizeof source, "TSC rate from %s; %s measures %llu Hz, %llu ppm "
			    "apart%s", how, r.name, (unsigned long long)ref_hz,
			    (unsigned long long)(diff * 1000000ull / hz), independence(&r));
		return;
	}
	clock.uncertainty_ppm = 0;
	mp_snprintf(source, sizeof source, "TSC rate from %s, the crystal's nominal rating, not "
		    "cross-checked (%s): its uncertainty is unknown, not 0", how, why);
}

/* The counter's rate over WINDOWS of the firmware's Stall(STALL_US). */
static void stall_windows(uint64_t hz[WINDOWS])
{
	for (int i = 0; i < WINDOWS; i++) {
		uint64_t t0 = counter_read();
		uefi_call_wrapper(fw_bs->Stall, 1, STALL_US);
		hz[i] = (counter_read() - t0) * (1000000ull / STALL_US);
	}
}

/* A rate the firmware programmed into a register (AArch64: CNTFRQ_EL0) is
   what the firmware believes, and the firmware's Stall() counts with the
   same belief, usually from the same counter; so the register is used, and
   Stall() is set beside it as a check that catches a register left wrong
   (a firmware that never set it, or set it for another clock), not as an
   independent measurement. Their difference is the uncertainty. */
static void use_register(uint64_t hz)
{
	uint64_t stall_hz[WINDOWS], measured, spread, diff;
	uint32_t ppm;

	stall_windows(stall_hz);
	measured = median_hz(stall_hz, 0, &ppm, &spread);
	diff = measured > hz ? measured - hz : hz - measured;
	clock.ticks_per_s = hz;
	clock.uncertainty_ppm = (uint32_t)(diff * 1000000ull / hz) + ppm;
	mp_snprintf(source, sizeof source, "%s rate from %s; the firmware's Stall() measures %llu "
		    "Hz, %llu ppm apart, median of %d windows (not independent: Stall() may count "
		    "with this very counter and rate)", counter_name(),
		    counter_rate_source_name(COUNTER_RATE_REGISTER), (unsigned long long)measured,
		    (unsigned long long)(diff * 1000000ull / hz), WINDOWS);
}

static void calibrate_stall(const char *why_not_reference, uint64_t nominal_hz,
			    enum counter_rate_source leaf)
{
	uint64_t hz[WINDOWS], spread;
	struct mp_text t = { source, sizeof source, 0 };

	stall_windows(hz);
	clock.ticks_per_s = median_hz(hz, 0, &clock.uncertainty_ppm, &spread);
	mp_append(&t, "%s rate calibrated against the firmware's Stall(), median of %d windows, "
		  "spread %llu Hz (%s; only as good as the firmware's own calibration, which the "
		  "uncertainty cannot include)", counter_name(), WINDOWS, (unsigned long long)spread,
		  why_not_reference);
	if (nominal_hz)
		mp_append(&t, "; the %s states %llu Hz, not used", counter_rate_source_name(leaf),
			  (unsigned long long)nominal_hz);
}

struct add_chain { uint64_t best; };

static void run_add_chain(void *arg)
{
	struct add_chain *c = arg;

	c->best = add_chain_best_ticks(CORE_CLOCK_ADDS, CORE_CLOCK_RUNS);
}

uint64_t clock_add_chain_hz(void)
{
	struct add_chain c;

	guarded_run(run_add_chain, &c);
	return add_chain_hz(CORE_CLOCK_ADDS, c.best, clock.ticks_per_s);
}

static void measure_core_clock(void)
{
	clock.core_hz = clock_add_chain_hz();
	mp_snprintf(core_source, sizeof core_source,
		    "%llu dependent adds, best of %d, one cycle each", CORE_CLOCK_ADDS,
		    CORE_CLOCK_RUNS);
	clock.core_source = core_source;
}

static const char *reference_word(enum clock_reference which)
{
	return which == CLOCK_REF_PM_TIMER ? "pm" : which == CLOCK_REF_HPET ? "hpet" : "stall";
}

int clock_init(const struct config *c)
{
	enum counter_rate_source leaf;
	uint64_t hz = counter_hz_stated(&leaf);
	enum clock_reference which = (enum clock_reference)c->clock_reference;
	struct reference r;
	struct windows w;
	char why[240], line[320];

	clock.invariant = counter_invariant();
	clock.invariant_source = counter_invariant_source();
	clock.source = source;
	clock.counter = counter_name();
	if (which == CLOCK_REF_AUTO && leaf == COUNTER_RATE_CRYSTAL) {
		use_crystal(hz);
	} else if (which == CLOCK_REF_AUTO && leaf == COUNTER_RATE_REGISTER) {
		use_register(hz);
	} else if (which != CLOCK_REF_STALL &&
		   reference_windows(which, &r, &w, why, sizeof why) == 0) {
		use_measured(&r, &w, hz, leaf);
	} else if (which == CLOCK_REF_AUTO) {
		calibrate_stall(why, hz, leaf);
	} else if (which == CLOCK_REF_STALL) {
		calibrate_stall("clock.reference = stall", hz, leaf);
	} else {
		/* Asked for one reference: another would answer a question
		   that was not asked. */
		mp_snprintf(line, sizeof line, "memprobe: clock.reference = %s: %s; no probe runs\n",
			    reference_word(which), why);
		plat_console(line);
		return -1;
	}
	measure_core_clock();
	start_ticks = counter_read();
	return 0;
}
