/* Converting platform ticks into nanoseconds and core cycles. Every figure
 * is reported in both: ns are comparable across machines, cycles across
 * clock speeds, and a TSC tick is neither (its rate is not the core's).
 */
#ifndef MEMPROBE_TIMEBASE_H
#define MEMPROBE_TIMEBASE_H

#include <stdint.h>

double ticks_to_ns(uint64_t ticks);
/* Through plat_core_hz: the clock of the last timed section where the CPU
   counts its cycles, else the add-chain clock measured before the probe. */
double ns_to_cycles(double ns);
/* Ticks that last about `ms` milliseconds, for sizing a trial by time. */
uint64_t ms_to_ticks(double ms);
/* Whole repetitions, at least one, that last about `target` ticks, from
   `done` of them having taken `ticks` (a warm-up's): sizes a trial. */
uint64_t reps_for_ticks(uint64_t target, uint64_t ticks, uint64_t done);
/* a * b / c in integers, for code built without floating point (efi/'s
   clock over a section): exact while c < 2^30, else a and c are halved
   together, a relative error under 2^-29; b must stay below 2^34. */
uint64_t mul_div_u64(uint64_t a, uint64_t b, uint64_t c);

#endif
