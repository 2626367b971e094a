/* TSC rate, in the order the figures deserve trust: CPUID 15h/16h, which
 * state it; then a calibration against the ACPI PM timer, a fixed
 * 3.579545 MHz crystal the chipset drives; Stall() only when neither exists,
 * because its accuracy is whatever the firmware's own calibration was.
 */

#include "efi/clock.h"
#include "efi/acpi.h"
#include "efi/fw.h"
#include "efi/timed.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/tsc.h"
#include "probes/fmt.h"
#include "probes/platform.h"

#define PM_TIMER_HZ 3579545ull
#define WINDOWS 5
#define WINDOW_PM_TICKS (PM_TIMER_HZ / 50)      /* 20 ms */
#define STALL_US 20000
#define CORE_ADDS (1ull << 24)

static struct plat_clock clock;
static char source[160], core_source[128];
static uint64_t start_ticks;

uint64_t plat_ticks(void) { return rdtsc_ordered(); }
const struct plat_clock *plat_clock(void) { return &clock; }

uint64_t plat_elapsed_ms(void)
{
	return (rdtsc_ordered() - start_ticks) * 1000 / clock.ticks_per_s;
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

struct pm_window {
	struct acpi_pm_timer timer;
	uint64_t hz[WINDOWS];
};

/* Each window starts on a PM timer edge, so the count is exact to one tick
   (14 ppm of a 20 ms window) at both ends. */
static void pm_windows(void *arg)
{
	struct pm_window *w = arg;
	uint32_t mask = w->timer.bits == 32 ? 0xffffffffu : 0xffffffu;

	for (int i = 0; i < WINDOWS; i++) {
		uint32_t p0 = inl(w->timer.port) & mask, p1;
		uint64_t t0, t1, elapsed;

		while (((p1 = inl(w->timer.port) & mask)) == p0)
			;
		t0 = rdtsc_ordered();
		do {
			elapsed = ((inl(w->timer.port) & mask) - p1) & mask;
		} while (elapsed < WINDOW_PM_TICKS);
		t1 = rdtsc_ordered();
		w->hz[i] = (t1 - t0) * PM_TIMER_HZ / elapsed;
	}
}

static void record(uint64_t *hz, const char *how)
{
	uint64_t median, spread;

	sort(hz, WINDOWS);
	median = hz[WINDOWS / 2];
	spread = hz[WINDOWS - 1] - hz[0];
	clock.ticks_per_s = median;
	clock.uncertainty_ppm = (uint32_t)(spread * 1000000ull / (2 * median)) + 14;
	mp_snprintf(source, sizeof source, "%s, median of %d windows, spread %llu Hz",
		    how, WINDOWS, (unsigned long long)spread);
}

static int calibrate_pm_timer(void)
{
	struct pm_window w;
	char how[96];

	if (acpi_find_pm_timer(&w.timer))
		return -1;
	timed_enter(pm_windows, &w, 0);
	mp_snprintf(how, sizeof how, "calibrated against the ACPI PM timer (port 0x%x, %d-bit)",
		    w.timer.port, w.timer.bits);
	record(w.hz, how);
	return 0;
}

static void calibrate_stall(void)
{
	uint64_t hz[WINDOWS];

	for (int i = 0; i < WINDOWS; i++) {
		uint64_t t0 = rdtsc_ordered();
		uefi_call_wrapper(fw_bs->Stall, 1, STALL_US);
		hz[i] = (rdtsc_ordered() - t0) * (1000000ull / STALL_US);
	}
	record(hz, "calibrated against the firmware's Stall() (no ACPI PM timer; "
	       "only as good as the firmware's own calibration)");
}

struct add_chain { uint64_t best; };

static void run_add_chain(void *arg)
{
	struct add_chain *c = arg;

	c->best = ~0ull;
	for (int i = 0; i < WINDOWS; i++) {
		uint64_t t = add_chain_ticks(CORE_ADDS);
		if (t < c->best)
			c->best = t;
	}
}

static void measure_core_clock(void)
{
	struct add_chain c;

	timed_enter(run_add_chain, &c, 0);
	clock.core_hz = c.best ? CORE_ADDS * clock.ticks_per_s / c.best : 0;
	mp_snprintf(core_source, sizeof core_source,
		    "%llu dependent adds, best of %d, one cycle each", CORE_ADDS, WINDOWS);
	clock.core_source = core_source;
}

void clock_init(void)
{
	const char *how;
	uint64_t hz = tsc_hz_from_cpuid(&how);

	clock.invariant = tsc_invariant();
	clock.source = source;
	if (hz) {
		clock.ticks_per_s = hz;
		clock.uncertainty_ppm = 0;
		mp_snprintf(source, sizeof source, "TSC rate from %s", how);
	} else if (calibrate_pm_timer()) {
		calibrate_stall();
	}
	measure_core_clock();
	start_ticks = rdtsc_ordered();
}
