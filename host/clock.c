/* The TSC's rate and the core clock, measured once per run.
 *
 * The rate comes from CPUID 15h/16h when the CPU describes it, else from
 * timing the TSC against CLOCK_MONOTONIC_RAW (the kernel's clock without NTP
 * slewing, so a correction in progress cannot skew the rate). Either way the
 * calibration runs: when CPUID gave the rate, the calibration's disagreement
 * with it is the reported uncertainty.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch/counter.h"
#include "host/host.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

/* The calibration policy (window count and length, core clock chains) is
   arch/counter.h's, shared with the bare-metal build. */
#define CALIBRATION_WINDOWS COUNTER_CAL_WINDOWS
#define CALIBRATION_WINDOW_NS (COUNTER_CAL_WINDOW_MS * 1000000ll)

/* ---- Private Data ----------------------------------------------------- */

static struct plat_clock clock_facts;
static char clock_source[384];
static char core_source[160];
static int clock_measured;

/* ---- Private Functions ------------------------------------------------ */

static int64_t raw_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (int64_t)t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* One clock reading bracketed by two TSC readings: the TSC midpoint is the
   instant of the clock reading, give or take half the bracket. Of a few
   tries the tightest bracket wins, so a preemption in between is dropped. */
static void paired_reading(int64_t *ns, uint64_t *tsc, uint64_t *gap)
{
	uint64_t best_gap = UINT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t before = counter_read();
		int64_t now = raw_ns();
		uint64_t after = counter_read();

		if (after - before < best_gap) {
			best_gap = after - before;
			*ns = now;
			*tsc = before + (after - before) / 2;
		}
	}
	*gap = best_gap;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* TSC ticks per second over several short windows: the median resists a
   window disturbed by preemption. The uncertainty is the spread of the
   middle windows plus what the reading brackets allow: windows that agree
   perfectly still cannot place their ends closer than a bracket. */
static uint64_t calibrate_tsc(uint32_t *spread_ppm, uint32_t *bracket_ppm)
{
	uint64_t rates[CALIBRATION_WINDOWS], widest_gap = 0;
	int w;

	for (w = 0; w < CALIBRATION_WINDOWS; w++) {
		int64_t ns0, ns1;
		uint64_t tsc0, tsc1, gap0, gap1;

		paired_reading(&ns0, &tsc0, &gap0);
		do
			paired_reading(&ns1, &tsc1, &gap1);
		while (ns1 - ns0 < CALIBRATION_WINDOW_NS);
		rates[w] = (uint64_t)((double)(tsc1 - tsc0) * 1e9 / (double)(ns1 - ns0));
		if (gap0 + gap1 > widest_gap)
			widest_gap = gap0 + gap1;
	}
	qsort(rates, CALIBRATION_WINDOWS, sizeof *rates, compare_u64);
	/* Half the range of the middle five: the two extremes are the windows
	   most likely to have been cut by a preemption. */
	*spread_ppm = (uint32_t)((double)(rates[CALIBRATION_WINDOWS - 2] - rates[1]) / 2 * 1e6 /
				 (double)rates[CALIBRATION_WINDOWS / 2]);
	/* Each end is known to half its bracket; rounded up to whole ppm. */
	*bracket_ppm = (uint32_t)((double)widest_gap / 2 * 1e9 / (double)rates[CALIBRATION_WINDOWS / 2] /
				  (double)CALIBRATION_WINDOW_NS * 1e6) + 1;
	return rates[CALIBRATION_WINDOWS / 2];
}

/* Best of several: an add chain can only be slowed (by an interrupt, a
   frequency step in progress), never sped up. */
static uint64_t measure_core_hz(uint64_t ticks_per_s)
{
	add_chain_ticks(CORE_CLOCK_ADDS);   /* untimed: wakes the core out of a low P-state */
	return add_chain_hz(CORE_CLOCK_ADDS, add_chain_best_ticks(CORE_CLOCK_ADDS, CORE_CLOCK_RUNS),
			    ticks_per_s);
}

static void measure(void)
{
	char kernel_clock[64] = "unknown", how[256];
	const char *cpuid_how, *circular;
	enum counter_rate_source cpuid_leaf;
	uint64_t cpuid_hz = counter_hz_stated(&cpuid_leaf);
	uint32_t spread_ppm, bracket_ppm;
	uint64_t calibrated = calibrate_tsc(&spread_ppm, &bracket_ppm);

	cpuid_how = counter_rate_source_name(cpuid_leaf);
	host_read_text("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		       kernel_clock, sizeof kernel_clock);
	/* With the TSC as the kernel's clocksource, CLOCK_MONOTONIC_RAW is the
	   TSC scaled by the kernel's own estimate of its rate: the calibration
	   then reads that estimate back, and can be no better than it. */
	circular = !strcmp(kernel_clock, "tsc")
		? ", itself TSC-based, so this reads back the kernel's TSC rate" : "";
	snprintf(how, sizeof how,
		 "CLOCK_MONOTONIC_RAW (clocksource %s%s), median of %d x %lld ms windows, "
		 "spread +-%u ppm, reading brackets +-%u ppm",
		 kernel_clock, circular, CALIBRATION_WINDOWS, CALIBRATION_WINDOW_NS / 1000000,
		 spread_ppm, bracket_ppm);
	if (cpuid_hz) {
		double off = ((double)calibrated - (double)cpuid_hz) / (double)cpuid_hz * 1e6;
		clock_facts.ticks_per_s = cpuid_hz;
		clock_facts.uncertainty_ppm = (uint32_t)(off < 0 ? -off : off) + spread_ppm + bracket_ppm;
		snprintf(clock_source, sizeof clock_source,
			 "TSC, rate from %s; %s measured %+.0f ppm from it", cpuid_how, how, off);
	} else {
		clock_facts.ticks_per_s = calibrated;
		clock_facts.uncertainty_ppm = spread_ppm + bracket_ppm;
		snprintf(clock_source, sizeof clock_source,
			 "TSC, rate %s; calibrated against %s", cpuid_how, how);
	}
	clock_facts.source = clock_source;
	clock_facts.counter = counter_name();
	clock_facts.invariant = counter_invariant();
	clock_facts.invariant_source = counter_invariant_source();
	clock_facts.core_hz = measure_core_hz(clock_facts.ticks_per_s);
	snprintf(core_source, sizeof core_source,
		 "dependent-add chain (one add per cycle), best of %d runs of %llu adds",
		 CORE_CLOCK_RUNS, CORE_CLOCK_ADDS / 64 * 64);
	clock_facts.core_source = core_source;
}

/* ---- Public Functions ------------------------------------------------- */

/* A process cannot read APERF/MPERF (the msr driver needs root and one
   CPU pinned): the add chain is measured again before each probe, and
   around each timed section (SECTION_CLOCK_RUNS), whose clock the rows
   written after it use. */
static uint64_t refreshed_core_hz, section_core_hz, section_before_hz;

uint64_t plat_core_hz(void)
{
	if (section_core_hz)
		return section_core_hz;
	return refreshed_core_hz ? refreshed_core_hz : plat_clock()->core_hz;
}

void plat_core_clock_refresh(char *how, size_t size)
{
	refreshed_core_hz = measure_core_hz(plat_clock()->ticks_per_s);
	section_core_hz = 0;   /* this probe's rows start from the clock now */
	snprintf(how, size, "no APERF/MPERF readable under Linux: the add-chain clock around "
		 "each timed section (the best of %d chains of %llu adds before it and after it, "
		 "averaged); at the probe's start %llu MHz", SECTION_CLOCK_RUNS,
		 SECTION_CLOCK_ADDS, (unsigned long long)(refreshed_core_hz / 1000000));
}

void host_clock_section_begin(void)
{
	section_before_hz = add_chain_section_hz(plat_clock()->ticks_per_s);
}

void host_clock_section_end(void)
{
	uint64_t hz = add_chain_section_mean(section_before_hz,
					     add_chain_section_hz(plat_clock()->ticks_per_s));

	if (hz)
		section_core_hz = hz;
}

const struct plat_clock *plat_clock(void)
{
	if (!clock_measured) {
		measure();
		clock_measured = 1;
	}
	return &clock_facts;
}
