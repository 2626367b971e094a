/* The median of a set of figures, and how far one figure lies from it: the
 * pure part of `memprobe fleet`'s outlier marking (a machine's figure held
 * against the median of the machines like it). Freestanding.
 */
#ifndef MEMPROBE_LIB_MEDIAN_H
#define MEMPROBE_LIB_MEDIAN_H

#include <stddef.h>

/* The median of v[0..n): the middle value, or for an even n the mean of the
   two middle ones. Reorders v. n must be at least 1. */
double median_of(double *v, size_t n);

/* v's k-th smallest value (k < n, counted from 0): k = n / 10 is the
   tenth percentile's rank. Reorders v. */
double kth_smallest(double *v, size_t n, size_t k);

/* value's distance from median in percent of median, signed: +25 for a
   figure a quarter above. 0 when both are 0; a median of 0 with another
   value reads +-1e9 percent (far off, never a division by zero). */
double median_off_percent(double value, double median);

/* 1 when value lies more than limit_percent (>= 0) from median, either
   way; a value exactly limit_percent off is not marked. */
int median_differs(double value, double median, double limit_percent);

#endif
