/* TSC rate, in the order the figures deserve trust: CPUID 15h/16h, which
 * state it; then a calibration against the ACPI PM timer, a fixed
 * 3.579545 MHz crystal the chipset drives; Stall() only when neither exists,
 * because its accuracy is whatever the firmware's own calibration was.
 */

#include "efi/clock.h"
#include "efi/acpi.h"
#include "efi/fw.h"
#include "efi/guarded.h"
#include "arch/counter.h"
#include "arch/io.h"
#include "lib/fmt.h"
#include "probes/platform.h"

/* The calibration policy (window count and length, core clock chains) is
   arch/counter.h's, shared with the Linux build. */
#define PM_TIMER_HZ 3579545ull
#define WINDOWS COUNTER_CAL_WINDOWS
#define WINDOW_PM_TICKS (PM_TIMER_HZ * COUNTER_CAL_WINDOW_MS / 1000)
#define STALL_US (COUNTER_CAL_WINDOW_MS * 1000)
/* One PM timer tick of a window, in ppm, rounded up (14 for 20 ms). */
#define WINDOW_TICK_PPM ((1000000ull + WINDOW_PM_TICKS - 1) / WINDOW_PM_TICKS)

static struct plat_clock clock;
static char source[256], core_source[128];
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

struct pm_window {
	struct acpi_pm_timer timer;
	uint64_t hz[WINDOWS];
	int stuck;                /* the timer did not advance in time */
};

/* Far beyond a window at any TSC rate below 200 GHz, yet a few seconds at
   most: a PM timer port that reads a constant (a timer the chipset left
   off) must end in a fallback, not a hang with interrupts off. */
#define PM_DEADLINE_TICKS (1ull << 32)

/* Each window starts on a PM timer edge, so the count is exact to one tick
   (WINDOW_TICK_PPM) at both ends. */
static void pm_windows(void *arg)
{
	struct pm_window *w = arg;
	uint32_t mask = w->timer.bits == 32 ? 0xffffffffu : 0xffffffu;

	for (int i = 0; i < WINDOWS; i++) {
		uint32_t p0 = io_read32(w->timer.port) & mask, p1;
		uint64_t t0 = counter_read(), t1, elapsed;

		while (((p1 = io_read32(w->timer.port) & mask)) == p0)
			if (counter_read() - t0 > PM_DEADLINE_TICKS)
				goto stuck;
		t0 = counter_read();
		do {
			elapsed = ((io_read32(w->timer.port) & mask) - p1) & mask;
			t1 = counter_read();
			if (t1 - t0 > PM_DEADLINE_TICKS)
				goto stuck;
		} while (elapsed < WINDOW_PM_TICKS);
		w->hz[i] = (t1 - t0) * PM_TIMER_HZ / elapsed;
	}
	return;
stuck:
	w->stuck = 1;
}

/* Median of the windows, and its uncertainty: half their spread plus the
   one-tick quantisation of a window. */
static uint64_t median_hz(uint64_t *hz, uint32_t *ppm, uint64_t *spread)
{
	uint64_t median;

	sort(hz, WINDOWS);
	median = hz[WINDOWS / 2];
	*spread = hz[WINDOWS - 1] - hz[0];
	*ppm = (uint32_t)(*spread * 1000000ull / (2 * median) + WINDOW_TICK_PPM);
	return median;
}

static void record(uint64_t *hz, const char *how)
{
	uint64_t spread;

	clock.ticks_per_s = median_hz(hz, &clock.uncertainty_ppm, &spread);
	mp_snprintf(source, sizeof source, "%s, median of %d windows, spread %llu Hz",
		    how, WINDOWS, (unsigned long long)spread);
}

/* 0 with the windows measured, -1 when there is no usable PM timer (the
   reason in why[]). */
static int pm_timer_windows(struct pm_window *w, char *why, size_t why_len)
{
	w->stuck = 0;
	if (acpi_find_pm_timer(&w->timer)) {
		mp_snprintf(why, why_len, "the ACPI tables describe no I/O-port PM timer");
		return -1;
	}
	if (guarded_run(pm_windows, w) != 0 || w->stuck) {
		mp_snprintf(why, why_len, "the ACPI PM timer at port 0x%x did not advance",
			    w->timer.port);
		return -1;
	}
	return 0;
}

static int calibrate_pm_timer(char *why, size_t why_len)
{
	struct pm_window w;
	char how[96];

	if (pm_timer_windows(&w, why, why_len))
		return -1;
	mp_snprintf(how, sizeof how, "calibrated against the ACPI PM timer (port 0x%x, %d-bit)",
		    w.timer.port, w.timer.bits);
	record(w.hz, how);
	return 0;
}

/* CPUID states a rate; the PM timer, where there is one, says how well the
   stated rate holds: their difference is the uncertainty reported. Without
   a PM timer only the statement's own rounding is known (16h gives whole
   MHz; 15h's crystal is taken at its rating). */
static void use_cpuid_rate(uint64_t hz, enum counter_rate_source leaf)
{
	const char *how = counter_rate_source_name(leaf);
	struct pm_window w;
	uint64_t pm_hz, spread;
	uint32_t pm_ppm;
	char why[96];

	clock.ticks_per_s = hz;
	if (pm_timer_windows(&w, why, sizeof why) == 0) {
		pm_hz = median_hz(w.hz, &pm_ppm, &spread);
		uint64_t diff = pm_hz > hz ? pm_hz - hz : hz - pm_hz;
		clock.uncertainty_ppm = (uint32_t)(diff * 1000000ull / hz) + pm_ppm;
		mp_snprintf(source, sizeof source, "TSC rate from %s; the ACPI PM timer "
			    "measures %llu Hz, %llu ppm apart", how, (unsigned long long)pm_hz,
			    (unsigned long long)(diff * 1000000ull / hz));
		return;
	}
	if (leaf == COUNTER_RATE_WHOLE_MHZ) {
		clock.uncertainty_ppm = (uint32_t)(500000000000ull / hz);
		mp_snprintf(source, sizeof source, "TSC rate from %s, not cross-checked (%s); "
			    "uncertainty: its rounding to 1 MHz", how, why);
	} else {
		clock.uncertainty_ppm = 0;
		mp_snprintf(source, sizeof source, "TSC rate from %s, the crystal's nominal "
			    "rating, not cross-checked (%s): its uncertainty is unknown, not 0",
			    how, why);
	}
}

static void calibrate_stall(const char *why_not_pm)
{
	uint64_t hz[WINDOWS];
	char how[200];

	for (int i = 0; i < WINDOWS; i++) {
		uint64_t t0 = counter_read();
		uefi_call_wrapper(fw_bs->Stall, 1, STALL_US);
		hz[i] = (counter_read() - t0) * (1000000ull / STALL_US);
	}
	mp_snprintf(how, sizeof how, "calibrated against the firmware's Stall() (%s; only as "
		    "good as the firmware's own calibration)", why_not_pm);
	record(hz, how);
}

struct add_chain { uint64_t best; };

static void run_add_chain(void *arg)
{
	struct add_chain *c = arg;

	c->best = ~0ull;
	for (int i = 0; i < CORE_CLOCK_RUNS; i++) {
		uint64_t t = add_chain_ticks(CORE_CLOCK_ADDS);
		if (t < c->best)
			c->best = t;
	}
}

uint64_t clock_add_chain_hz(void)
{
	struct add_chain c;

	guarded_run(run_add_chain, &c);
	return c.best ? CORE_CLOCK_ADDS * clock.ticks_per_s / c.best : 0;
}

static void measure_core_clock(void)
{
	clock.core_hz = clock_add_chain_hz();
	mp_snprintf(core_source, sizeof core_source,
		    "%llu dependent adds, best of %d, one cycle each", CORE_CLOCK_ADDS,
		    CORE_CLOCK_RUNS);
	clock.core_source = core_source;
}

void clock_init(void)
{
	enum counter_rate_source leaf;
	uint64_t hz = counter_hz_stated(&leaf);
	char why[96];

	clock.invariant = counter_invariant();
	clock.source = source;
	clock.counter = counter_name();
	if (hz)
		use_cpuid_rate(hz, leaf);
	else if (calibrate_pm_timer(why, sizeof why))
		calibrate_stall(why);
	measure_core_clock();
	start_ticks = counter_read();
}
