/* What the CPU says about its timestamp counter, and the dependent-add chain
 * that turns TSC ticks into core cycles.
 */
#ifndef MEMPROBE_TSC_H
#define MEMPROBE_TSC_H

#include <stdint.h>

/* CPUID 8000_0007h EDX[8]: the TSC ticks at one rate in every P-, C- and
   T-state. Without it a TSC figure may be a clock-throttled one. */
int tsc_invariant(void);

/* The TSC rate from CPUID 15h (crystal ratio) or, failing that, 16h (base
   frequency, MHz); 0 when the CPU describes neither. *how names the leaf. */
uint64_t tsc_hz_from_cpuid(const char **how);

/* TSC ticks taken by `adds` dependent register additions (rounded down to a
   multiple of 64). Each add waits for the one before it, one core cycle
   apiece on every x86 core of the last two decades, so adds / seconds is the
   core clock whatever the TSC's own rate. */
uint64_t add_chain_ticks(uint64_t adds);

#endif
