/* The timebase (TSC) and the core clock, calibrated once at start-up. */
#ifndef MEMPROBE_CLOCK_H
#define MEMPROBE_CLOCK_H

/* Finds the TSC rate and the core clock once, keeping them (and how they
   were found) for plat_clock(); prints nothing itself (the run's header
   does). Never fails: Stall() is the last resort. Call after fw_init. */
void clock_init(void);

#endif
