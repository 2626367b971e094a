/* The working-set grid that the latency and bandwidth probes sweep, a
 * buffer for a sweep's largest size, and the sweep of one curve, grid then
 * refinement, that the latency, tlb and bandwidth probes share: so the
 * probes measure at the same sizes, cap a sweep that does not fit in the
 * same words and refine their edges the same way.
 */
#ifndef MEMPROBE_SWEEP_H
#define MEMPROBE_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include "lib/table.h"
#include "core/config.h"
#include "analysis/edges.h"
#include "core/platform.h"
#include "analysis/refine.h"

/* The k-th size of the grid, in bytes, ascending: k = 0 is 4 KiB, k = 32
   is 512 MiB (the seed's sweep), then quarter octaves to 1 TiB. */
uint64_t sweep_bytes(unsigned k);
/* The grid's sizes. */
unsigned sweep_count(void);

/* Whether grid size k is left out of a sweep whose largest claimed cache
   is largest_cache and whose largest size is top: a midpoint (not a power
   of two) past twice that cache, where no cache's edge can stand and the
   curve is memory's own, and any quarter point past the seed's 512 MiB;
   never top itself, memory's one point past four times the cache where
   the grid has a midpoint there (a 6, 12, 24 or 300 MiB L3: 24, 48, 96 MiB
   or 1.25 GiB). When nothing is claimed every size to 512 MiB stays. */
int sweep_grid_skips(unsigned k, uint64_t largest_cache, uint64_t top);

/* How many times the largest cache a working set must be for no cache to
   hold any of it. */
#define SWEEP_PAST_CACHES_FACTOR 4u

/* SWEEP_PAST_CACHES_FACTOR times largest_cache, the working set from which
   no cache can hold any of it (saturating; 0 for 0). */
uint64_t sweep_past_caches(uint64_t largest_cache);
/* The smallest grid size at or above the larger of floor and
   sweep_past_caches(largest_cache) (the last grid size when none is). */
uint64_t sweep_auto_top(uint64_t floor, uint64_t largest_cache);
/* The latency sweep's top before memory caps it: max_size, or with max_size
   = auto, sweep_auto_top of the profile's LATENCY_TOP_* and the largest
   cache the CPU claims (that claim in *largest; 0 when max_size is set or
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

/* A working set cannot be faster to chase than a larger one in the same
   buffer: a point this much slower than a larger size was disturbed (on a
   VM, a neighbour taking the shared cache for a while), and is measured
   again, at most this many times. */
#define SWEEP_REVISIT_RISE 1.15
#define SWEEP_REVISIT_PASSES 2
/* And at most this share of the grid's cost in all (a point costs its size
   times its reading, as refinement counts it: refine.h): on the Zen 5 VM,
   whose memory latency moves from one working set to the next, the 4 KiB
   curve measured 256 MiB twice more and 1 GiB once more, 32 s against the
   grid's 71 s, and the readings moved up as often as down. A point the
   budget leaves is said so, and reads as measured. */
#define SWEEP_REVISIT_COST_SHARE 0.25

/* The most points of one curve, grid and refinement together: no more
   than the analysis keeps of a curve (EDGES_MAX_POINTS, checked in
   sweep.c), which keeps room for other programs' finer grids. */
#define SWEEP_POINTS_MAX 96

/* How one curve of a sweep, a page size's or a variant's, is measured:
   the probe's part. */
struct sweep_spec {
	const char *name;           /* the refinement line's: "latency", "bandwidth, read_avx2" */
	const char *page_name;      /* page_size_name's */
	uint64_t unit;              /* refined sizes are multiples of it (1: page counts) */
	int pages;                  /* x counts pages, not bytes */
	int refine;                 /* 0: the grid alone, no refinement */
	int revisit;                /* 1: measure again a point a larger size beat (sweep_curve_run) */
	const char *progress;       /* progress lines (progress.h) under this name; NULL: none */
	/* Measures one point: its row and table line, its reading in *y;
	   point is "grid" or "refined" (the sweep_point column). 0, or -1
	   when it failed (reported). */
	int (*measure)(void *ctx, uint64_t x, const char *point, double *y);
	void *ctx;
};

/* One curve: its spec, its grid and the points measured. Large: keep it
   static (the firmware's stack is small). */
struct sweep_curve {
	struct sweep_spec spec;
	uint64_t grid[SWEEP_POINTS_MAX];   /* ascending */
	size_t ngrid;
	/* The points measured so far, ascending in x: for measure to read
	   as it goes, and the curve's readings once run. */
	struct refine_point pt[SWEEP_POINTS_MAX];
	size_t n;
};

/* Starts a curve: spec copied, no grid point and no point measured. */
void sweep_curve_begin(struct sweep_curve *s, const struct sweep_spec *spec);
/* Adds x, above the points added before, to the curve's grid; past
   SWEEP_POINTS_MAX points it is left out (the analysis keeps no more). */
void sweep_grid_add(struct sweep_curve *s, uint64_t x);

/* The curve as a table under caption: each grid point measured in order,
   then, with refine, the sizes refinement proposes (refine.h) and one
   line with how many it added and each edge as the points now stand,
   sharp, smeared or open, with the sizes (or page counts) that bracket
   it. With revisit, after the grid and again after refinement, a point
   whose reading is over SWEEP_REVISIT_RISE times a larger size's is
   measured again (point "revisited"), at most SWEEP_REVISIT_PASSES times
   and within SWEEP_REVISIT_COST_SHARE of the grid's cost, its reading the
   least; a line says how many were, and how many the budget left. A point that fails stops the curve: a fault or a broken cycle at
   one size means the buffer cannot be trusted for the others either.
   0, or -1 when a point failed. */
int sweep_curve_run(struct sweep_curve *s, const struct table *shape, const char *caption);

#endif
