/* Cache levels read from the bandwidth probe's curves, beside the latency
 * curves' levels, and bandwidth.svg.
 *
 * Bandwidth steps down where a working set leaves a cache, as latency steps
 * up there. The edge detector (edges.h) reads the fastest read variant's
 * time per 64-byte line, which rises at those steps as a latency curve
 * does, so the same robust detector finds them; the report then holds
 * each bandwidth edge against the latency edges, agreeing or not.
 *
 * Pure: rows in, levels, text, JSON and SVG out.
 */
#ifndef MEMPROBE_BANDWIDTH_LEVELS_H
#define MEMPROBE_BANDWIDTH_LEVELS_H

#include <stddef.h>
#include "lib/fmt.h"
#include "lib/svg.h"
#include "results/columns.h"
#include "analysis/edges.h"

/* Variants (4 operations x a few vector sets) times page sizes. */
#define BANDWIDTH_MAX_SERIES 48
/* The sweep has 33 sizes. */
#define BANDWIDTH_MAX_POINTS 40
/* A bandwidth edge agrees with a latency edge when their capacities are
   within this factor: one step of the sweep's grid (4, 6, 8, 12, ...) is
   1.5x or less, so agreeing edges stand at the same or a neighbouring size. */
#define BANDWIDTH_AGREE_FACTOR 1.5

/* One variant at one page size: GB/s by working set, ascending. */
struct bandwidth_series {
	char variant[24];         /* "read_avx2" */
	unsigned page_shift;
	size_t n;
	double bytes[BANDWIDTH_MAX_POINTS];
	double gb_per_s[BANDWIDTH_MAX_POINTS];
	double ns[BANDWIDTH_MAX_POINTS];      /* per 64-byte line */
	double cycles[BANDWIDTH_MAX_POINTS];
};

/* An all-zero struct is empty (struct analysis is zeroed whole). */
struct bandwidth_curves {
	struct bandwidth_series series[BANDWIDTH_MAX_SERIES];
	size_t nseries;
	unsigned rows, ignored_rows;
	/* bandwidth_levels_find's result. */
	char levels_from[24];     /* the read variant the levels are read from */
	struct curve curve[EDGES_MAX_CURVES];
	size_t ncurves;
	struct hierarchy h;
};

/* Takes a bandwidth row; -1 for any other row, or one that does not fit or
   has no usable figure (counted in ignored_rows). */
int bandwidth_curves_add_row(struct bandwidth_curves *b, const struct result_row *row);

/* The levels: of the one-CPU read variants (an all-core variant, _xN,
   shares each working set over N CPUs, so its per-core caches' edges
   stand at N times their size), the one with the highest GB/s anywhere
   (the widest vectors the CPU ran well) gives one curve of ns per line per
   page size, and hierarchy_find reads its edges. */
void bandwidth_levels_find(struct bandwidth_curves *b);

/* The report's table: each cache edge of the latency curves (`latency`,
   hierarchy_find's result; NULL or none when there were no latency rows)
   beside the bandwidth edge nearest it, "agrees" within
   BANDWIDTH_AGREE_FACTOR, else "differs"; edges only one of them shows are
   listed as such. */
void bandwidth_levels_print(const struct bandwidth_curves *b, const struct hierarchy *latency,
			    const struct mp_printer *p);

/* The bandwidth edge the report holds latency level l (one of latency's
   cache edges) against: the nearest one, within 4x, that no smaller
   latency edge took. NULL when none. */
const struct level *bandwidth_edge_of(const struct bandwidth_curves *b,
				      const struct hierarchy *latency, const struct level *l);

/* The hierarchy's bandwidth object's members: levels_from, and each edge with its
   capacity, GB/s below it and the latency edge it was held against. */
struct json;
void bandwidth_levels_json(struct json *j, const struct bandwidth_curves *b,
			   const struct hierarchy *latency);

/* bandwidth.svg: GB/s by working set, one panel per operation (read,
   write, copy, ntwrite), one curve per vector set and page size in it, the
   bandwidth edges marked. -1 when there was nothing to draw. */
int bandwidth_write_svg(const struct bandwidth_curves *b, svg_write_fn write, void *ctx);

#endif
