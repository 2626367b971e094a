/* The working-set grid that the latency and bandwidth probes sweep, and a
 * buffer for a sweep's largest size, so both probes measure at the same
 * sizes and cap a sweep that does not fit in the same words.
 */
#ifndef MEMPROBE_SWEEP_H
#define MEMPROBE_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include "probes/config.h"
#include "probes/platform.h"

/* The k-th size of the grid, in bytes, ascending: k = 0 is 4 KiB, k = 32
   is 512 MiB (the seed's sweep), then powers of two to 1 TiB. */
uint64_t sweep_bytes(unsigned k);
/* The grid's sizes. */
unsigned sweep_count(void);

/* The smallest grid size at or above the larger of floor and four times
   largest_cache (the last grid size when none is). */
uint64_t sweep_auto_top(uint64_t floor, uint64_t largest_cache);
/* The largest data or unified cache of the claims, bytes; 0 none. */
struct cache_claims;
uint64_t sweep_largest_cache(const struct cache_claims *claims);
/* The latency sweep's top before memory caps it: max_size, or with max_size
   = auto, sweep_auto_top of the profile's LATENCY_TOP_* and the largest
   cache CPUID claims (that claim in *largest; 0 when max_size is set or
   nothing is claimed). */
uint64_t latency_sweep_top(const struct config *c, uint64_t *largest);

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

/* One line after a sweep's refinement (probes/refine.h): how many points
   it added and each edge as the points now stand, sharp (pinned), smeared
   or open, with the sizes that bracket it (page counts when pages). */
struct refine_point;
void sweep_refine_report(const char *probe, const char *page_name,
			 const struct refine_point *pt, size_t n, uint64_t unit,
			 unsigned added, int pages);

#endif
