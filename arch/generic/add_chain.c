/* The add chain's best of several runs, on every architecture (see
 * arch/counter.h). */

#include "arch/counter.h"

uint64_t add_chain_best_ticks(uint64_t adds, unsigned runs)
{
	uint64_t best = 0;

	for (unsigned i = 0; i < runs; i++) {
		uint64_t ticks = add_chain_ticks(adds);

		if (ticks && (!best || ticks < best))
			best = ticks;
	}
	return best;
}

/* In 64 bits: CORE_CLOCK_ADDS (2^22) times a counter rate under 2^34 Hz
   (17 GHz) stays under 2^56; no division helper is linked into the EFI
   image for anything wider. */
uint64_t add_chain_hz(uint64_t adds, uint64_t ticks, uint64_t ticks_per_s)
{
	if (!ticks)
		return 0;
	return adds / 64 * 64 * ticks_per_s / ticks;
}

uint64_t add_chain_section_hz(uint64_t ticks_per_s)
{
	return add_chain_hz(SECTION_CLOCK_ADDS,
			    add_chain_best_ticks(SECTION_CLOCK_ADDS, SECTION_CLOCK_RUNS), ticks_per_s);
}

uint64_t add_chain_section_mean(uint64_t before_hz, uint64_t after_hz)
{
	return before_hz && after_hz ? (before_hz + after_hz) / 2 : before_hz + after_hz;
}
