/* The core clock of the figures on bare metal (core/platform.h's
 * plat_core_hz): APERF/MPERF read around every timed section where the CPU
 * has them, short add chains before and after every timed section where
 * not (arch/counter.h's SECTION_CLOCK_RUNS).
 */
#ifndef MEMPROBE_EFI_CORE_CLOCK_H
#define MEMPROBE_EFI_CORE_CLOCK_H

#include "arch/counter.h"

/* Asks the CPU whether its cycle counts are readable. Needs clock_init. */
void core_clock_init(void);

/* Inside a timed section's guarded state, around the section: the counts
   and the counter before it, then the clock over it. Firmware-free. */
struct core_clock_mark {
	struct core_cycles cycles;
	uint64_t ticks;
	uint64_t chain_hz;   /* without the counts: the add-chain clock before */
};
void core_clock_before(struct core_clock_mark *m);
void core_clock_after(const struct core_clock_mark *m);

#endif
