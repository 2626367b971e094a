/* Plateaus and edges of latency curves, and what each edge is.
 *
 * One curve per page size: load latency against working set. A plateau is a
 * run of consecutive sizes whose latencies agree within a tolerance; an edge
 * is a rise between plateaus past a factor (the approach of Manegold's
 * Calibrator). Single-point outliers are smoothed away first (a 3-point
 * running median), and an edge stands where the curve crosses half the
 * step's height on the log scale, snapped to a plausible capacity, so no one
 * noisy point decides a level or its size. Across page sizes an edge is
 * attributed: a cache edge stands at the same working set in every curve, a
 * TLB edge moves or vanishes with larger pages. docs/METHOD.md explains the
 * tolerances and why.
 *
 * Pure and freestanding (no libc, no libm): arrays in, arrays out; no
 * platform, no CPUID (analysis.c holds the claims up against these levels).
 */
#ifndef MEMPROBE_EDGES_H
#define MEMPROBE_EDGES_H

#include <stddef.h>
#include <stdint.h>

/* A point joins a plateau while it is within this fraction above the
   plateau's first (lowest) point. */
#define EDGES_PLATEAU_TOLERANCE 0.15
/* Neighbouring plateaus that rise by less than this factor across their
   gap are one plateau: the boundary was drift, not an edge (unless the
   drift has doubled the level below: edges.c, NEXT_LEVEL_FACTOR). A reading this
   far above what a later size read was disturbed and joins no plateau. */
#define EDGES_RISE_FACTOR 1.30
/* A plateau this far or more above the level below it stands as memory
   stands above the last cache (a VM's small L3 share over its L2 does too,
   so it is a sign, never proof, that the plateau is memory's). */
#define EDGES_MEMORY_OVER_CACHE 4.0
/* Fewer points than this are a transition between plateaus (or noise),
   never a level of their own. */
#define EDGES_MIN_PLATEAU_POINTS 2
/* A TLB with fewer entries than this is not believed: such an "edge" in a
   large-page curve is a cache edge the smaller pages did not separate. */
#define EDGES_MIN_TLB_ENTRIES 8

/* A curve's points: room for another program's fine grid (lmbench's
   lat_mem_rd steps a sixteenth of an octave, 512 bytes to 256 MiB: about
   230 sizes). */
#define EDGES_MAX_POINTS 256
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
	double ns, cycles;        /* its level: the median of its steady points'
				     readings, single-point outliers smoothed away */
};

/* Empties c for page_shift. */
void curve_init(struct curve *c, unsigned page_shift);
/* Adds one measurement, keeping the order; a size given twice keeps the
   lower reading, since noise only ever adds time. Non-finite or
   non-positive latencies and a zero size are ignored (returns -1). */
int curve_add(struct curve *c, uint64_t bytes, double ns, double cycles);

/* The curve the detector reads: single-point outliers smoothed away, then
   the non-decreasing envelope of that. The smoothing is a 3-point median
   where one reading is out of line, taken in two passes so that where two
   outliers meet the lower reading wins (noise mostly adds time): each
   reading above both neighbours comes down to the larger of them, then each
   reading below both neighbours comes up to the smaller. Monotone runs and
   sharp steps pass unchanged. At the ends (Tukey's end-point rule, raising
   only) a reading below both its smoothed neighbour and the line through the
   two comes up to the lower of them, so one low last reading cannot drag the
   envelope down. ns and cycles are smoothed each on its own; out[] has c->n
   entries. Fewer than three points: the envelope of the readings. */
void curve_smoothed(const struct curve *c, double *ns_out, double *cycles_out);

/* The plateaus of one curve (runs of curve_smoothed's values), ascending;
   consecutive ones rise by at least EDGES_RISE_FACTOR across their gap, or
   by drift to twice the level below, so each boundary is an edge. A plateau's level is the median of its steady
   points' readings, outliers smoothed away, taken before the envelope.
   Returns the count. */
size_t curve_plateaus(const struct curve *c, struct plateau *out, size_t max);

/* Drops the pauses from c's n plateaus p (as curve_plateaus found them),
   in place, and returns how many are left: a plateau between two others
   that spans less than an octave and lies within twice of the level below
   or above, or ends short of twice the size where the one below ends, is
   a stall inside one step (some sets, or some entries, already
   missing), not a level; neighbouring short plateaus within twice of each
   other are first one stretch. The first plateau stays; the last stays
   unless it lies within twice of the one below while that one stands four
   times or more above its own lower neighbour: memory read with more page
   walks, which joins the plateau below. */
size_t curve_drop_pauses(const struct curve *c, struct plateau *p, size_t n);

/* curve_drop_pauses's rule for one plateau p between `below` and `above`:
   p spans less than an octave and lies within twice of either's level, or
   ends short of twice the size where `below` ends.
   `above` may be a single point made a plateau (where the curve climbs on
   past its last plateau, tlb_levels.c). */
int curve_is_pause(const struct curve *c, const struct plateau *below, const struct plateau *p,
		   const struct plateau *above);

/* The plausible capacity nearest x: the nearest, in log2, of 2^k and
   3 * 2^(k-1), i.e. 1, 2, 3, 4, 6, 8, 12, 16, 24, ... (ties go to the
   smaller). Works for any count: bytes, or TLB entries (pages). 0 for
   x <= 0 or NaN; 2^63 for x at or past it. */
uint64_t edges_snap_capacity(double x);

/* Where one step of a curve stands. x is the curve's `bytes` field, in
   whatever unit it counts (bytes; or pages, for a curve built of entry
   counts). */
struct edge_crossing {
	double at;                /* x where the smoothed curve crosses the step's half height */
	uint64_t below;           /* largest sweep x still before the crossing */
	uint64_t next;            /* smallest sweep x at or past it */
	size_t below_index;       /* index of below in the curve (next: + 1) */
	uint64_t estimate;        /* the capacity named: see edges_crossing */
	uint64_t fit;             /* largest x still within tolerance of the lower level */
	uint64_t miss;            /* smallest x within tolerance of the upper level */
};

/* Locates the step from plateau `lower` up to plateau `upper` of curve c.

   Contract: lower and upper index points of c (first <= last < c->n,
   lower->first < upper->last), ideally as curve_plateaus returned them;
   their ns fields are the levels used (the caller may put its own there),
   finite, with 0 < lower->ns < upper->ns. Only ns is read, never cycles.
   The sizes may be in any unit: a TLB analysis passes entry counts.

   - Half height: the geometric mean of the two levels (half the step on
     a log scale).
   - at: where curve_smoothed's values cross it, searched from lower->first
     to upper->last, interpolated linearly in log2(x) against log(latency)
     between the two sweep points that straddle it, `below` and `next`.
   - fit, miss: the last point before the crossing whose reading (outliers
     smoothed away, before the envelope, as the levels are taken) lies
     within EDGES_PLATEAU_TOLERANCE of the lower level, and the first at or
     past it within that of the upper level. The capacity lies in
     [fit, miss); the points between read part way up.
   - estimate: of the sizes measured in [fit, miss) that lie within 1/16
     of a plausible capacity (edges_snap_capacity), those capacities within
     [fit, miss), the one nearest `at` in log2 (ties to the smaller). So a
     sharp step is named at its last fitting point however the grid falls,
     and a size read part way up can be named itself. When no measured size
     qualifies: the plausible capacity in [fit, miss) nearest `at`; failing
     that, edges_snap_capacity(at).

   Returns 0, or -1 (out untouched) when the contract is broken or the
   curve does not reach the half height by upper->last (hierarchy_find
   then places the step at the gap between the plateaus). */
int edges_crossing(const struct curve *c, const struct plateau *lower,
		   const struct plateau *upper, struct edge_crossing *out);

/* How a level's capacity was named (struct level.method). */
enum level_method {
	METHOD_NONE,              /* no capacity: the top level */
	METHOD_SHARP,             /* a sharp step: the last size before the rise */
	METHOD_CROSSING,          /* the half-height crossing of the step, snapped */
	METHOD_PLACEMENT_FIT,     /* a smeared step: the best fit of a set-associative
				     cache whose page frames are placed at random */
};

/* "sharp step", "half-height crossing", "random-placement fit", "-". */
const char *level_method_name(enum level_method m);

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
	uint64_t size_bytes;      /* the capacity or reach: edges_crossing's estimate
				     (top: the first size of its plateau) */
	uint64_t below_bytes;     /* largest sweep size still before the crossing
				     (top: the first size, as size_bytes) */
	uint64_t next_bytes;      /* smallest sweep size past the crossing (top: last size) */
	double ns, cycles;        /* cache/edge/top: the level's own plateau, below its
				     edge; TLB: the plateau below the edge too, the
				     latency while within the TLB's reach */
	double increase_ns;       /* cache/edge/top: over the level below; TLB: the
				     cost added past the edge (upper - lower plateau) */
	double increase_cycles;
	uint64_t entries;         /* TLB: size_bytes >> page_shift */
	unsigned points;          /* sweep points on the plateau the latency is from */
	int seen_in;              /* bit i: curve i showed this edge */
	enum level_method method; /* how size_bytes was named */
	uint64_t range_lo, range_hi;  /* the capacity lies in [range_lo, range_hi]
				     (a sharp step: size_bytes and the next
				     size; top: 0, 0) */
	int smeared;              /* the step spread over more than one sweep
				     interval (random frame placement) */
	int named_by_claim;       /* size_bytes is CPUID's claim, which lies in
				     [range_lo, range_hi]; the readings alone
				     named another size there (analysis/analysis.c) */
	uint64_t read_bytes;      /* named_by_claim: the size the readings named */
	const char *walk;         /* TLB: NULL, or why this step is the page
				     walks' entries leaving the caches and not
				     a TLB (named "walks"; analysis/analysis.c) */
	int near_sweep_end;       /* TLB: a jump into a climb within an octave
				     of the sweep's end (tlb_levels.c): a level
				     only where a claim lies in its bracket */
};

/* A step only the smaller pages' curve showed, past which that curve read
   no slower than the larger pages' (hierarchy_find): neither a cache level
   nor a TLB's, kept so the report can say so. */
#define EDGES_MAX_UNSHARED 4
/* How far above the larger pages' curve the smaller pages' must read, at
   the median of the sizes past a step only it shows, for that step to be a
   TLB's (hierarchy_find). */
#define TLB_KEEPS_ABOVE 1.10
struct unshared_step {
	uint64_t bytes;           /* where the step stood (its crossing) */
	unsigned page_shift;      /* the curve that showed it */
	unsigned judge_shift;     /* the larger pages' curve that did not */
	uint64_t tlb_floor;       /* set aside as needing fewer entries than this,
				     the trusted claims' floor (fewest_tlb_entries);
				     0: for reading past it within TLB_KEEPS_ABOVE
				     of the larger pages' curve */
};

/* A step in memory's latency that the host's page walks made, not a cache
   (analysis/analysis.c, join_walk_climb): its bracket and the latency
   either side of it. */
struct walk_climb {
	uint64_t bytes, range_lo, range_hi;
	double from_ns, to_ns;
	uint64_t tlb_reach;       /* the 4 KiB pages' largest TLB reach it lies past */
	int reach_claimed;        /* 1: that reach is the claims' (no tlb probe
				     rows), 0: the tlb probe's levels' */
	double over_below;        /* the plateau below it over the cache level below that */
};

/* A cache step whose range lay within the range of the level below it,
   joined into that level (hierarchy_find): kept so the report can say so. */
#define EDGES_MAX_JOINED 4
struct joined_step {
	uint64_t bytes, range_lo, range_hi;
	double ns;                /* its plateau's latency */
	uint64_t into_bytes;      /* the size of the level it joined */
	int past_claims;          /* 0: within the range of the level below
				     (edges.c); 1: past every claimed cache,
				     inside the last one's claimed size, under a
				     hypervisor (analysis.c, join_past_claims) */
};

struct hierarchy {
	struct level level[EDGES_MAX_LEVELS];
	size_t nlevels;
	struct unshared_step unshared[EDGES_MAX_UNSHARED];
	size_t nunshared;
	struct walk_climb climb;  /* climb.bytes 0: none */
	struct joined_step joined[EDGES_MAX_JOINED];
	size_t njoined;
	int attributed;           /* 0: one page size, cache and TLB not separable */
	int truncated;
};

/* Names l's capacity from a crossing: size_bytes, below_bytes, next_bytes,
   method (METHOD_CROSSING), range [fit, miss] and smeared (points read part
   way up between fit and miss). x counts units of 2^unit_shift bytes (0 for
   a curve of bytes, the page shift for one of TLB entries). */
void level_set_crossing(struct level *l, const struct edge_crossing *x, unsigned unit_shift);

/* The median, over the sizes in [from, to] both curves measured, of
   small's reading over large's (curves sorted by size, as curve_add keeps
   them); 0 when no size is in both. *count (NULL: not wanted) gets how
   many sizes were. */
double curves_ratio(const struct curve *small, const struct curve *large, uint64_t from,
		    uint64_t to, size_t *count);
/* The same in cycles, each point's by its own section's clock, where both
   points of a size have them (else that size's ns): two curves measured
   a minute apart on a host that moved the core's clock 10 % read 10 %
   apart in ns at every size, and the same in cycles. */
double curves_cycles_ratio(const struct curve *small, const struct curve *large,
			   uint64_t from, uint64_t to);

/* The data and unified cache capacities the CPU claims, bytes, for the one
   rule that reads them: one curve alone keeps a step under
   NEXT_LEVEL_FACTOR whose bracket holds a claim (edges.c,
   join_close_levels). And, per page size, the fewest entries of any data
   TLB claimed for those pages where the claim can be trusted (no
   hypervisor, or the vendor's documented figures): a step in that page
   size's curve needing fewer entries is no TLB's (is_hidden_cache_edge). */
#define EDGES_MAX_CLAIMS 8
struct edge_tlb_floor {
	unsigned page_shift, entries;
};
struct edge_claims {
	uint64_t bytes[EDGES_MAX_CLAIMS];
	size_t n;
	struct edge_tlb_floor fewest_tlb[EDGES_MAX_CLAIMS];
	size_t ntlb;
};

/* Finds and attributes the edges of up to EDGES_MAX_CURVES curves (any order
   of page sizes), with the claimed caches (NULL: none). Cache levels come
   first in size order, then the top level, then TLB edges by page size and
   reach. */
void hierarchy_find(const struct curve *curves, size_t ncurves, const struct edge_claims *claims,
		    struct hierarchy *h);

#endif
