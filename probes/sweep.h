/* The working-set grid that the latency and bandwidth probes sweep, and a
 * buffer for a sweep's largest size, so both probes measure at the same
 * sizes and cap a sweep that does not fit in the same words.
 */
#ifndef MEMPROBE_SWEEP_H
#define MEMPROBE_SWEEP_H

#include <stdint.h>
#include "probes/platform.h"

/* The k-th size of the grid, in bytes, ascending: 33 sizes, k = 0 is 4 KiB,
   k = 32 is 512 MiB. */
uint64_t sweep_bytes(unsigned k);

/* Indices [first, last] of the grid inside [min_bytes, max_bytes]; 0 when
   none is, 1 otherwise. */
int sweep_range(uint64_t min_bytes, uint64_t max_bytes, unsigned *first, unsigned *last);

/* A buffer of sweep_bytes(*last) (the largest size of the sweep) for
   `probe`; when that cannot be had, *last comes down to the largest size
   that fits now and the report says so. page_sizes.c reports the
   platform's reasons. 0 on success, 1 when the page size is unavailable
   (skipped), -1 on failure (reported). */
int sweep_buffer_get(const char *probe, struct plat_buffer *buf, unsigned shift,
		     const char *page_name, unsigned first, unsigned *last);

#endif
