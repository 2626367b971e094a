/* The timebase (TSC) and the core clock, calibrated once at start-up. */
#ifndef MEMPROBE_CLOCK_H
#define MEMPROBE_CLOCK_H

#include <stdint.h>
#include "core/config.h"

/* Finds the TSC rate and the core clock once, keeping them (and how they
   were found) for plat_clock(); prints nothing itself (the run's header
   does). With clock.reference = auto it never fails (Stall() is the last
   resort); a reference asked for by name that is absent or stuck is -1 with
   the reason printed, and then no probe may run. Call after fw_init. */
int clock_init(const struct config *c);
/* The core clock by the add chain (arch/counter.h), measured now: 0 when
   the chain took no time. Needs clock_init. */
uint64_t clock_add_chain_hz(void);

#endif
