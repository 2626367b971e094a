/* Base-2 logarithms and powers of doubles without libm, for log-scaled
 * axes and for reading curves over sizes that double (the EFI app has no
 * libm). Freestanding.
 */
#ifndef MEMPROBE_LIB_BASE2_H
#define MEMPROBE_LIB_BASE2_H

#include <stdint.h>

/* log2 for doubles: exact at powers of two, within 1e-12 elsewhere;
   -infinity for 0, NaN for negatives and NaN. */
double base2_log(double x);

/* 2^y, within 1e-15 relative for |y| < 1000; 0 below that range (and for
   NaN), 1e300 above. */
double base2_exp(double y);

/* Whether v is a power of two (0 is not). */
int base2_is_power(uint64_t v);

#endif
