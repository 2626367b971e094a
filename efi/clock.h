/* The timebase (TSC) and the core clock, calibrated once at start-up. */
#ifndef MEMPROBE_CLOCK_H
#define MEMPROBE_CLOCK_H

/* Prints what it found; never fails (Stall() is the last resort). */
void clock_init(void);

#endif
