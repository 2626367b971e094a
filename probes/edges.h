/* Plateaus and edges of latency curves, and what each edge is.
 *
 * One curve per page size: load latency against working set. A plateau is a
 * run of consecutive sizes whose latencies agree within a tolerance; an edge
 * is a rise between plateaus past a factor (the approach of Manegold's
 * Calibrator). Across page sizes an edge is attributed: a cache edge stands
 * at the same working set in every curve, a TLB edge moves or vanishes with
 * larger pages. docs/METHOD.md explains the tolerances and why.
 *
 * Pure: arrays in, arrays out; no platform, no CPUID (analysis.c holds the
 * claims up against these levels).
 */
#ifndef MEMPROBE_EDGES_H
#define MEMPROBE_EDGES_H

#include <stddef.h>
#include <stdint.h>

/* A point joins a plateau while it is within this fraction above the
   plateau's first (lowest) point. */
#define EDGES_PLATEAU_TOLERANCE 0.15
/* Neighbouring plateaus whose levels differ by less than this factor are
   one plateau: the boundary was drift, not an edge. */
#define EDGES_RISE_FACTOR 1.30
/* Fewer points than this are a transition between plateaus (or noise),
   never a level of their own. */
#define EDGES_MIN_PLATEAU_POINTS 2
/* A TLB with fewer entries than this is not believed: such an "edge" in a
   large-page curve is a cache edge the smaller pages did not separate. */
#define EDGES_MIN_TLB_ENTRIES 8

#define EDGES_MAX_POINTS 96
#define EDGES_MAX_PLATEAUS 32
#define EDGES_MAX_CURVES 3
#define EDGES_MAX_LEVELS 24

struct curve_point {
	uint64_t bytes;
	double ns;
	double cycles;            /* 0 when unknown */
};

/* One page size's sweep, ascending by bytes, one point per size. */
struct curve {
	unsigned page_shift;
	size_t n;
	struct curve_point pt[EDGES_MAX_POINTS];
	int truncated;            /* more sizes were offered than fit */
};

struct plateau {
	size_t first, last;       /* indices into the curve */
	double ns, cycles;        /* its level: the median of its points */
};

/* Empties c for page_shift. */
void curve_init(struct curve *c, unsigned page_shift);
/* Adds one measurement, keeping the order; a size given twice keeps the
   lower reading, since noise only ever adds time. Non-finite or
   non-positive latencies and a zero size are ignored (returns -1). */
int curve_add(struct curve *c, uint64_t bytes, double ns, double cycles);

/* The latency a size must at least have had: the minimum over it and every
   larger size. A larger working set can never be faster in truth, so a
   point above a later one carries noise. out[] has c->n entries. */
void curve_envelope(const struct curve *c, double *ns_out, double *cycles_out);

/* The plateaus of one curve, ascending; consecutive ones differ by at least
   EDGES_RISE_FACTOR, so each boundary is an edge. Returns the count. */
size_t curve_plateaus(const struct curve *c, struct plateau *out, size_t max);

enum level_kind {
	LEVEL_CACHE,              /* an edge in every page size's curve */
	LEVEL_TLB,                /* an edge that moved or vanished with larger pages */
	LEVEL_EDGE,               /* one page size only: cannot be told apart */
	LEVEL_TOP,                /* above the last cache edge (memory, usually) */
};

struct level {
	enum level_kind kind;
	char name[16];            /* "L1", "L2", "TLB", "edge", "memory" */
	unsigned page_shift;      /* TLB/edge: its curve; cache/top: where latency came from */
	uint64_t size_bytes;      /* largest size still below the edge (top: first size) */
	uint64_t next_bytes;      /* smallest size past the edge (top: last size) */
	double ns, cycles;        /* cache/top: the level's plateau; TLB/edge: past the edge */
	double increase_ns;       /* over the level below (TLB/edge: the penalty) */
	double increase_cycles;
	uint64_t entries;         /* TLB: size_bytes >> page_shift */
	unsigned points;          /* sweep points on the plateau the latency is from */
	int seen_in;              /* bit i: curve i showed this edge */
};

struct hierarchy {
	struct level level[EDGES_MAX_LEVELS];
	size_t nlevels;
	int attributed;           /* 0: one page size, cache and TLB not separable */
	int truncated;
};

/* Finds and attributes the edges of up to EDGES_MAX_CURVES curves (any order
   of page sizes). Cache levels come first in size order, then the top level,
   then TLB edges by page size and reach. */
void hierarchy_find(const struct curve *curves, size_t ncurves, struct hierarchy *h);

#endif
