/* The core clock of the figures on bare metal (see core_clock.h). */

#include "efi/core_clock.h"
#include "efi/clock.h"
#include "efi/guarded.h"
#include "lib/fmt.h"
#include "core/platform.h"
#include "core/timebase.h"

/* ---- Constants -------------------------------------------------------- */

/* A section shorter than this says little about the clock (the MSR reads
   themselves take a few hundred cycles): the last longer one's clock stays. */
#define SECTION_TICKS_MIN 100000u

/* ---- Private Data ----------------------------------------------------- */

static int counted;          /* APERF/MPERF readable */
static uint64_t core_hz;     /* the last section's, or the add chain's */
static uint64_t reference_permille;   /* APERF/MPERF over the last section */

/* ---- Public Functions ------------------------------------------------- */

void core_clock_init(void)
{
	counted = core_cycles_available(guarded_run);
	core_hz = plat_clock()->core_hz;
}

void core_clock_before(struct core_clock_mark *m)
{
	if (!counted) {
		m->chain_hz = add_chain_section_hz(plat_clock()->ticks_per_s);
		return;
	}
	core_cycles_read(&m->cycles);
	m->ticks = plat_ticks();
}

void core_clock_after(const struct core_clock_mark *m)
{
	struct core_cycles now;
	uint64_t ticks, actual, reference;

	if (!counted) {
		uint64_t hz = add_chain_section_mean(m->chain_hz,
						     add_chain_section_hz(plat_clock()->ticks_per_s));

		if (hz)
			core_hz = hz;
		return;
	}
	ticks = plat_ticks() - m->ticks;
	core_cycles_read(&now);
	actual = now.actual - m->cycles.actual;
	reference = now.reference - m->cycles.reference;
	if (ticks < SECTION_TICKS_MIN || !actual || !reference)
		return;
	/* With interrupts off the core never leaves C0 inside a section, so
	   its cycles over the section's time are its clock. */
	core_hz = mul_div_u64(actual, plat_clock()->ticks_per_s, ticks);
	reference_permille = mul_div_u64(actual, 1000, reference);
}

uint64_t plat_core_hz(void) { return core_hz; }

void plat_core_clock_refresh(char *how, size_t size)
{
	if (counted) {
		if (reference_permille)
			mp_snprintf(how, size, "APERF over each timed section (CPUID 6 ECX[0]); "
				    "the last ran at %llu MHz, %llu.%llu%% of its MPERF reference",
				    (unsigned long long)(core_hz / 1000000),
				    (unsigned long long)(reference_permille / 10),
				    (unsigned long long)(reference_permille % 10));
		else
			mp_snprintf(how, size, "APERF over each timed section (CPUID 6 ECX[0])");
		return;
	}
	core_hz = clock_add_chain_hz();
	mp_snprintf(how, size, "%s: the add-chain clock around each timed section (the best "
		    "of %d chains of %llu adds before it and after it, averaged); at the probe's "
		    "start %llu MHz", core_cycles_missing, SECTION_CLOCK_RUNS, SECTION_CLOCK_ADDS,
		    (unsigned long long)(core_hz / 1000000));
}
