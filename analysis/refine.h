/* The adaptive sweep's decision: given the points a sweep has measured so
 * far, which sizes to measure next so that each edge of the curve is either
 * pinned to one refined interval (a sharp step) or shown to spread its rise
 * over several (a smeared one). Pure: arrays in, sizes out. The latency and
 * tlb probes call it after their coarse grid until it proposes nothing
 * (docs/METHOD.md, "Refinement").
 *
 * The refined sizes lie on the grid of eighths of an octave: between 2^k
 * and 2^(k+1) the sizes m * 2^(k-3), m = 8 .. 16 (so 1, 1.125, 1.25, ...,
 * 1.875 times a power of two), which holds the coarse grid's powers of two
 * and midpoints and the plausible capacities between them (1.25 MiB,
 * 1.875 MiB slices).
 */
#ifndef MEMPROBE_REFINE_H
#define MEMPROBE_REFINE_H

#include <stddef.h>
#include <stdint.h>

/* An interval rising by less than this is never split: noise of a few
   percent moves a reading that much. */
#define REFINE_STEP_RISE 1.10
/* A candidate edge: the rise over an interval and its neighbours on either
   side (one octave or more of the coarse grid) reaches this. Noise of
   +-10 % cannot (1.1 / 0.9 = 1.22); a real step rises 1.3x or more. */
#define REFINE_WINDOW_RISE 1.25
/* An interval holding at least this share of that window's rise (on the
   log scale) holds the edge, and is split further; one holding less is a
   part of a rise spread over several intervals: smeared. A capacity point
   read half way up shares its rise between two intervals, and both are
   split. */
#define REFINE_CONCENTRATED 0.45
/* At most this many refined points per curve, whatever the curve does. */
#define REFINE_MAX_POINTS 24
/* And at most this share of the grid's cost: a point costs about its size
   times its reading (a lap of a chase, a pass of a stream), so refining
   an edge near a sweep's top, where a point takes seconds, cannot double
   the sweep's time; what the budget leaves unsplit is reported open. */
#define REFINE_COST_SHARE 0.5

/* One measured point: x the size (bytes, or pages), y its reading (ns). */
struct refine_point {
	uint64_t x;
	double y;
};

enum refine_kind {
	REFINE_SHARP,             /* the rise lies within one refined interval
				     (or two around a point read part way up) */
	REFINE_SMEARED,           /* the rise spreads over several intervals */
	REFINE_OPEN,              /* not decided: a split is still proposed, or
				     the rise is in the sweep's last interval */
};

struct refine_edge {
	enum refine_kind kind;
	uint64_t below, above;    /* the sizes that bracket the rise */
	double rise;              /* reading at `above` over reading at `below` */
};

/* The eighth-octave grid point strictly between a and b (a < b) nearest
   their geometric mean, a multiple of unit; 0 when there is none. */
uint64_t refine_split(uint64_t a, uint64_t b, uint64_t unit);

/* Sizes to measure next (multiples of unit, ascending, none already
   measured), at most max, written to out; their count. pt holds n points,
   ascending in x, one per size. 0: every edge is pinned or smeared. The
   interval up to the last point is never split (nothing past it confirms
   its top reading). */
size_t refine_next(const struct refine_point *pt, size_t n, uint64_t unit,
		   uint64_t *out, size_t max);

/* The candidate edges as the points stand, ascending; their count (at most
   max written). */
size_t refine_edges(const struct refine_point *pt, size_t n, uint64_t unit,
		    struct refine_edge *out, size_t max);

/* What measuring n points costs, in the unit the budgets use: each
   point's size times its reading (a lap of a chase, a pass of a stream).
   REFINE_COST_SHARE of it bounds refinement; the sweep's revisits have a
   share of their own (probes/sweep.h). */
double refine_points_cost(const struct refine_point *pt, size_t n);

/* The whole refinement over a sweep's points: asks refine_next, measures
   each size it proposes with measure (0 and the reading in *y, or -1 to
   stop: a fault, a broken cycle), inserts the points in order, and again,
   until nothing is proposed, REFINE_MAX_POINTS were added, the next point
   would take the refinement's cost past REFINE_COST_SHARE of the points
   it was given (cost: size times reading, the next one's estimated from
   the point above it) or pt (room for cap points) is full. pt holds *n points, ascending in x. The number of
   points added, or -1 when measure failed. */
int refine_run(struct refine_point *pt, size_t *n, size_t cap, uint64_t unit,
	       int (*measure)(void *ctx, uint64_t x, double *y), void *ctx);

/* "sharp", "smeared", "open". */
const char *refine_kind_name(enum refine_kind k);

#endif
