/* The timebase (TSC) and the core clock, calibrated once at start-up. */
#ifndef MEMPROBE_CLOCK_H
#define MEMPROBE_CLOCK_H

#include <stdint.h>

/* Finds the TSC rate and the core clock once, keeping them (and how they
   were found) for plat_clock(); prints nothing itself (the run's header
   does). Never fails: Stall() is the last resort. Call after fw_init. */
void clock_init(void);
/* The core clock by the add chain (arch/counter.h), measured now: 0 when
   the chain took no time. Needs clock_init. */
uint64_t clock_add_chain_hz(void);

#endif
