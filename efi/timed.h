/* Entering and leaving the app's own machine state (docs/PAGING.md,
 * "Entering and leaving"), and reading MSRs that may not exist.
 */
#ifndef MEMPROBE_TIMED_H
#define MEMPROBE_TIMED_H

#include <stdint.h>

/* Loads the app's IDT (once built) for the duration of fn, at TPL_HIGH_LEVEL
   with interrupts off; with_tables also loads the app's CR3. Returns 0, or
   -1 when fn raised an exception (the fault recorded by arch guard). */
int timed_enter(void (*fn)(void *), void *arg, int with_tables);

/* 0 and *value, or -1 when reading the MSR raised #GP (absent on this CPU
   or under this hypervisor); the firmware's handler would hang instead. */
int msr_read_safely(uint32_t msr, uint64_t *value);
/* 0, or -1 when writing the MSR raised #GP. */
int msr_write_safely(uint32_t msr, uint64_t value);

void timed_init(void);

#endif
