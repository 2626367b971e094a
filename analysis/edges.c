/* Plateau and edge detection over latency curves, and the attribution of
 * edges to caches or TLBs (see edges.h and docs/METHOD.md).
 */
#include "analysis/edges.h"
#include "lib/fmt.h"
#include "analysis/placement.h"
#include "lib/median.h"
#include "lib/base2.h"

/* ---- Constants -------------------------------------------------------- */

_Static_assert(EDGES_MAX_POINTS <= PLACEMENT_MAX_POINTS, "a step's fit takes a whole curve");

/* No cache is less than twice as large, nor less than twice as slow, as
   the one below it (a VM's usable L3 at 30 ns stands over L2's 12). The
   rules below that tell a level from a pause, from drift or from a TLB's
   step on one curve all lean on it. */
#define NEXT_LEVEL_FACTOR 2.0

/* The widest a step's middle may be, from the last point of the plateau
   below to the first of the one above, for the step to be told from drift
   when its middle points closed a run of their own (step_inside). */
#define STEP_TRANSITION_OCTAVES 1.0

/* An edge found in one curve, between two of its plateaus. */
struct curve_edge {
	size_t curve;
	struct edge_crossing x;   /* where it stands (x.below, x.next bracket the crossing) */
	struct plateau lower, upper;
	int cluster;              /* index of the cluster it joined, -1 none yet */
};

#define MAX_EDGES (EDGES_MAX_CURVES * EDGES_MAX_PLATEAUS)

/* Every curve's plateaus, found once. */
struct curve_plateau_set {
	struct plateau p[EDGES_MAX_PLATEAUS];
	size_t n;
};

/* The same edge seen in several curves (at most one edge per curve). */
struct cluster {
	int member[EDGES_MAX_CURVES];   /* index into the edge list, -1 absent */
	int seen, judged;               /* curve bits: showed it, could have */
};

/* ---- Private Functions ------------------------------------------------ */

static int is_finite_positive(double v)
{
	/* NaN fails every comparison; the bound rejects infinity. */
	return v > 0.0 && v < 1e300;
}

/* The median of v[first..last] over the points with use[k] set (at most
   EDGES_MAX_POINTS); 0 when none is. */
static double median_used(const double *v, const unsigned char *use, size_t first, size_t last)
{
	double w[EDGES_MAX_POINTS];
	size_t n = 0;

	for (size_t k = first; k <= last; k++)
		if (use[k])
			w[n++] = v[k];
	return n ? median_of(w, n) : 0.0;
}

/* A lone spike: a reading above both neighbours, which agree with each
   other within the plateau tolerance (it sits on a plateau). */
static int is_lone_spike(const struct curve *c, size_t k)
{
	double a, b, hi, lo;

	if (k == 0 || k + 1 >= c->n)
		return 0;
	a = c->pt[k - 1].ns;
	b = c->pt[k + 1].ns;
	hi = a > b ? a : b;
	lo = a > b ? b : a;
	return c->pt[k].ns > hi && hi <= lo * (1.0 + EDGES_PLATEAU_TOLERANCE);
}

/* A point whose own reading lies far above what a later size read, by as
   much as an edge rises, was disturbed: the envelope bounds it, but two such
   points side by side must not make a plateau, so an unsteady point stands
   alone. Less than that is noise a plateau absorbs. A lone spike on a
   plateau is not unsteady either: the smoothing removed it, and its plateau
   stays whole. */
static int is_steady(const struct curve *c, const double *ns, size_t k)
{
	return c->pt[k].ns < ns[k] * EDGES_RISE_FACTOR || is_lone_spike(c, k);
}

/* The 3-point median of a single outlier, in two passes so that where two
   outliers meet the lower reading wins (noise mostly adds time): first each
   reading above both neighbours comes down to the larger of them (spikes),
   then each reading below both neighbours of that comes up to the smaller
   (dips). A monotone run or a sharp step has neither and passes unchanged.
   At the ends a spike is left alone (the envelope bounds a high first
   reading; a high last one cannot be told from a step), and a reading below
   both its smoothed neighbour and the line through its two smoothed
   neighbours comes up to the lower of those (Tukey's end-point rule,
   raising only). n >= 3. */
static void smooth_outliers(const double *v, size_t n, double *tmp, double *out)
{
	for (size_t k = 1; k + 1 < n; k++) {
		double hi = v[k - 1] > v[k + 1] ? v[k - 1] : v[k + 1];
		tmp[k] = v[k] > hi ? hi : v[k];
	}
	tmp[0] = v[0];
	tmp[n - 1] = v[n - 1];
	for (size_t k = 1; k + 1 < n; k++) {
		double lo = tmp[k - 1] < tmp[k + 1] ? tmp[k - 1] : tmp[k + 1];
		out[k] = tmp[k] < lo ? lo : tmp[k];
	}
	{
		double line = 3.0 * out[1] - 2.0 * out[2];
		double floor = line < out[1] ? line : out[1];
		out[0] = tmp[0] < floor ? floor : tmp[0];
		line = 3.0 * out[n - 2] - 2.0 * out[n - 3];
		floor = line < out[n - 2] ? line : out[n - 2];
		out[n - 1] = tmp[n - 1] < floor ? floor : tmp[n - 1];
	}
}

/* In place, on a fine grid: two readings side by side below both their
   neighbours, the four within an octave, come up to the smaller
   neighbour. No level is narrower than an octave (NEXT_LEVEL_FACTOR), so
   such a pair is no level's: yet the envelope below would carry it down
   over the whole plateau before it. lmbench's stride reads on an Emerald
   Rapids VM read 2.33 and 2.32 ns at 1.25 and 1.375 MiB, inside an L2
   that read 2.6 to 3.2 from 74 KiB to 1.8 MiB, and pulled that whole
   plateau to 2.33, within 1.3x of L1's 1.88: no step. On coarser grids
   two points span an octave and stay as read. */
static void raise_pair_dips(const struct curve *c, double *v)
{
	for (size_t k = 1; k + 2 < c->n; k++) {
		double lo = v[k - 1] < v[k + 2] ? v[k - 1] : v[k + 2];

		if (v[k] < lo && v[k + 1] < lo &&
		    c->pt[k + 2].bytes <= 2 * c->pt[k - 1].bytes)
			v[k] = v[k + 1] = lo;
	}
}

/* In place: each value the minimum over it and every later one. */
static void envelope_in_place(double *v, size_t n)
{
	if (n < 2)
		return;
	for (size_t k = n - 1; k-- > 0;)
		if (v[k + 1] < v[k])
			v[k] = v[k + 1];
}

/* curve_smoothed: the smoothed readings (ns, cycles), and before the
   envelope (pre_ns, pre_cycles; may be null). */
static void smooth_all(const struct curve *c, double *ns, double *cycles, double *pre_ns,
		       double *pre_cycles)
{
	double raw[EDGES_MAX_POINTS], tmp[EDGES_MAX_POINTS];

	for (size_t k = 0; k < c->n; k++) {
		ns[k] = c->pt[k].ns;
		cycles[k] = c->pt[k].cycles;
	}
	if (c->n >= 3) {
		for (size_t k = 0; k < c->n; k++)
			raw[k] = c->pt[k].ns;
		smooth_outliers(raw, c->n, tmp, ns);
		for (size_t k = 0; k < c->n; k++)
			raw[k] = c->pt[k].cycles;
		smooth_outliers(raw, c->n, tmp, cycles);
	}
	for (size_t k = 0; k < c->n; k++) {
		if (pre_ns)
			pre_ns[k] = ns[k];
		if (pre_cycles)
			pre_cycles[k] = cycles[k];
	}
	/* The levels' medians (pre_ns) keep such pairs; only the envelope
	   is spared them. */
	raise_pair_dips(c, ns);
	raise_pair_dips(c, cycles);
	if (c->n) {
		envelope_in_place(ns, c->n);
		envelope_in_place(cycles, c->n);
	}
}

static void smooth(const struct curve *c, double *ns, double *cycles)
{
	smooth_all(c, ns, cycles, 0, 0);
}

/* The plausible capacities: 1, 2, 3, 4, 6, 8, 12, ... (2^k and 3 * 2^(k-1)).
   The smallest one at or above v (v >= 1, below 2^63). */
static uint64_t plausible_at_or_above(uint64_t v)
{
	for (uint64_t p = 1; p <= (1ull << 62); p <<= 1) {
		if (p >= v)
			return p;
		if (p >= 2 && p + p / 2 >= v)
			return p + p / 2;
	}
	return 1ull << 63;
}

/* The largest plausible capacity below v, 0 when none (v <= 1). */
static uint64_t plausible_below(uint64_t v)
{
	uint64_t best = 0;

	for (uint64_t p = 1; p < v && p <= (1ull << 62); p <<= 1) {
		best = p;
		if (p >= 2 && p + p / 2 < v)
			best = p + p / 2;
	}
	return best;
}

static double log_distance(double a, double b)
{
	double d = base2_log(a) - base2_log(b);

	return d < 0.0 ? -d : d;
}

/* The simple capacity in [lo, hi] nearest c in log2: a power of two if one
   lies there, else 3 * 2^k, else 5 * 2^k or 7 * 2^k; 0 when none does. */
static uint64_t simple_capacity_in(uint64_t lo, uint64_t hi, double c)
{
	static const unsigned odd[] = { 1, 3, 5, 7 };
	static const unsigned from[] = { 0, 1, 2, 2 };   /* class index of each odd */

	for (unsigned cls = 0; cls < 3; cls++) {
		uint64_t best = 0;
		for (unsigned o = 0; o < 4; o++) {
			if (from[o] != cls)
				continue;
			for (unsigned k = 0; k < 62; k++) {
				uint64_t v = (uint64_t)odd[o] << k;
				if (v > hi)
					break;
				if (v < lo)
					continue;
				if (!best || log_distance((double)v, c) < log_distance((double)best, c))
					best = v;
			}
		}
		if (best)
			return best;
	}
	return 0;
}

/* A measured size stands for a plausible capacity when it lies within this
   factor of it (32000 bytes for 32 KiB, 24567 KiB for 24 MiB; not 600 KiB
   for 512 KiB). */
#define NEAR_PLAUSIBLE 1.0625

/* The capacity named for a crossing (edges_crossing's rule). Of the sizes
   measured in [fit, miss), those standing for a plausible capacity within
   [x[fit], x[miss]): the one nearest `at`. None: the plausible capacity in
   that range nearest `at`; none there either: the one nearest `at`. */
static uint64_t name_capacity(const struct curve *c, size_t fit, size_t miss, double at)
{
	uint64_t lo = c->pt[fit].bytes, hi = c->pt[miss].bytes, best = 0, s;

	for (size_t k = fit; k < miss; k++) {
		double x = (double)c->pt[k].bytes;
		s = edges_snap_capacity(x);
		if (s < lo || s >= hi || s == best || x > (double)s * NEAR_PLAUSIBLE ||
		    x * NEAR_PLAUSIBLE < (double)s)
			continue;
		/* Ascending sizes give ascending snaps: a tie keeps the smaller. */
		if (!best || log_distance((double)s, at) < log_distance((double)best, at))
			best = s;
	}
	if (best)
		return best;
	/* The plausible capacities in range nearest `at` from either side. */
	s = edges_snap_capacity(at);
	if (s >= lo && s < hi)
		return s;
	if (s < lo) {
		uint64_t up = plausible_at_or_above(lo);
		if (up < hi)
			return up;
	} else {
		uint64_t down = plausible_below(hi);
		if (down >= lo)
			return down;
	}
	/* None in range (72 fit, 80 missed: Zen 4's 72-entry L1 DTLB): a
	   simple size the readings allow, else the last size that fit, never
	   a plausible one they rule out (64, when 72 read as fitting). */
	{
		uint64_t simple = simple_capacity_in(lo, hi > lo ? hi - 1 : lo, at);
		return simple ? simple : lo;
	}
}

/* A plateau's level: the median of its steady points' readings, outliers
   smoothed away but before the envelope (which under noise sits at a run's
   lowest readings rather than its middle); disturbed points inside a
   merged plateau do not vote. */
static void set_level(struct plateau *p, const double *ns, const double *cycles,
		      const unsigned char *steady)
{
	p->ns = median_used(ns, steady, p->first, p->last);
	p->cycles = median_used(cycles, steady, p->first, p->last);
}

/* The same step seen through two curves: their transitions overlap, from
   the last size that still read the lower level to the first that read the
   upper one (so adjacent sweep brackets, 32-48 KiB in one curve and
   48-64 KiB in another, match: one capacity seen through two grids of
   noise), or both name the same size. */
static int brackets_overlap(const struct curve_edge *a, const struct curve_edge *b)
{
	return (a->x.fit <= b->x.miss && b->x.fit <= a->x.miss) ||
	       a->x.estimate == b->x.estimate;
}

/* Whether c climbs on through `above` to its end with no plateau: every
   point past its last plateau lies in none, reads more than the one
   before (within CLIMB_NOISE), two or more lie at or past `above`, and the
   last reads EDGES_RISE_FACTOR or more above that plateau. A step into a
   level ends on a plateau; a curve that climbs on for as long as it was
   measured is reading page walks leaving the caches (a VM's nested walks,
   with the host's small pages under the guest's large ones), and has seen
   no level there. */
#define CLIMB_NOISE 0.98
static int climbs_past(const struct curve *c, const struct curve_plateau_set *ps,
		       uint64_t above)
{
	const struct plateau *last = ps->n ? &ps->p[ps->n - 1] : 0;
	size_t count = 0;

	if (!last || c->pt[last->last].bytes >= above)
		return 0;
	for (size_t i = last->last + 1; i < c->n; i++) {
		if (c->pt[i].ns < c->pt[i - 1].ns * CLIMB_NOISE)
			return 0;
		count += c->pt[i].bytes >= above;
	}
	return count >= 2 && c->pt[c->n - 1].ns >= last->ns * EDGES_RISE_FACTOR;
}

/* A curve can only say "no edge here" where it has plateaus on both sides
   of the sizes, or a plateau below and a climb with none past the upper
   size (climbs_past): a curve that ends, or turns to unsteady points that
   later level off, before the upper size has not judged the edge at all.
   On this project's Zen 5 VM the 2 MiB curve read 153 ns from 9 to 128 MiB
   and then 194, 243, 303, 384 and 449 ns to 2 GiB while the 4 KiB curve
   paused at 322-337 ns at 704 MiB-1 GiB: judged by neither, that pause was
   a cache level, "L4 ~256 MiB". */
static int curve_judges(const struct curve *c, const struct curve_plateau_set *ps,
			uint64_t below, uint64_t above)
{
	int low = 0, high = 0;

	for (size_t k = 0; k < ps->n; k++) {
		if (c->pt[ps->p[k].first].bytes <= below)
			low = 1;
		if (c->pt[ps->p[k].last].bytes >= above)
			high = 1;
	}
	return low && (high || climbs_past(c, ps, above));
}

/* The step placed at the gap between two plateaus: half way, in log2,
   between the lower's last size and the upper's first. */
static void gap_crossing(const struct curve *c, const struct plateau *lower,
			 const struct plateau *upper, struct edge_crossing *x)
{
	double a = (double)c->pt[lower->last].bytes, b = (double)c->pt[upper->first].bytes;

	x->at = a * base2_exp((base2_log(b) - base2_log(a)) / 2.0);
	x->below = c->pt[lower->last].bytes;
	x->next = c->pt[upper->first].bytes;
	x->below_index = lower->last;
	x->fit = x->below;
	x->miss = x->next;
	x->estimate = name_capacity(c, lower->last, upper->first, x->at);
}

/* A plateau between two others that spans less than an octave, and rises
   less than twice from the one below or to the one above, or ends short
   of twice where the one below ends, is a pause inside one step, not a
   level: a smeared step read at fine intervals stalls where some sets have
   just overflowed, a TLB's reach can stall a cache's step the same way,
   and on a VM a neighbour taking the shared L3 for a while stalls its step
   at a level of its own (a Zen 4 VM read 40-46 ns at 8-10 MiB between an
   L3 of 17 ns to 7 MiB and memory's 108 ns and more). No cache is less
   than twice the one below it (NEXT_LEVEL_FACTOR), so a real level's
   plateau spans an octave or more and ends at twice the one below or
   further. Removing the pause leaves one step from the plateau below to
   the one above. */

static int is_short(const struct curve *c, const struct plateau *p)
{
	return c->pt[p->last].bytes < 2 * c->pt[p->first].bytes;
}

/* curve_is_pause's test past the span: p stands less than
   NEXT_LEVEL_FACTOR above below or under above, or ends short of twice
   where below ends. Above below: over the higher of its level and what
   it reached at its last point (smoothed), for a plateau that drift
   joined ends above its median: multichase on the Zen 5 VM read its L3
   share moving from 8.6 to 20.8 ns over 1-6 MiB (level 14.0), then
   25-33 ns to 10 MiB, an "L4" 2.2x the median and 1.5x the end
   (tests/data/other-multichase-3.txt). */
static int pause_between(const struct curve *c, const struct plateau *below,
			 const struct plateau *p, const struct plateau *above)
{
	double ns[EDGES_MAX_POINTS], cycles[EDGES_MAX_POINTS], reached;

	smooth(c, ns, cycles);
	reached = ns[below->last] > below->ns ? ns[below->last] : below->ns;
	return p->ns < reached * NEXT_LEVEL_FACTOR || above->ns < p->ns * NEXT_LEVEL_FACTOR ||
	       (double)c->pt[p->last].bytes < NEXT_LEVEL_FACTOR * (double)c->pt[below->last].bytes;
}

int curve_is_pause(const struct curve *c, const struct plateau *below, const struct plateau *p,
		   const struct plateau *above)
{
	return is_short(c, p) && pause_between(c, below, p, above);
}

/* Whether plateau p ends the sweep on two points, the second over
   END_CLIMB above the first: the curve had not levelled off when the sweep
   stopped. Past memory that is the page walks climbing on, however far:
   the Zen 5 VM's 2 MiB curve read 174 ns from 8 to 448 MiB, then 286 at
   512 MiB, 352 at 1 GiB and 401 at 2 GiB (nested walks), and the last two,
   within the plateau tolerance of each other, made a level "L5 ~512 MiB"
   past memory, 2.2x it. */
#define END_CLIMB 1.10
static int climbs_at_end(const struct curve *c, const struct plateau *p)
{
	return p->last + 1 == c->n && p->last == p->first + 1 &&
	       c->pt[p->last].ns > c->pt[p->first].ns * END_CLIMB;
}

size_t curve_drop_pauses(const struct curve *c, struct plateau *p, size_t n)
{
	unsigned char stretch[EDGES_MAX_PLATEAUS] = { 0 };
	size_t kept = 0;

	/* Neighbouring short plateaus within NEXT_LEVEL_FACTOR of each other
	   are one stretch (a small level read through noise), at the lower's
	   level. */
	for (size_t k = 0; k < n; k++) {
		struct plateau *prev = kept ? &p[kept - 1] : 0;
		if (prev && kept > 1 && k + 1 < n && is_short(c, prev) && is_short(c, &p[k]) &&
		    p[k].ns < prev->ns * NEXT_LEVEL_FACTOR) {
			prev->last = p[k].last;
			stretch[kept - 1] = 1;
			continue;
		}
		p[kept++] = p[k];
	}
	n = kept;
	kept = 0;
	for (size_t k = 0; k < n; k++) {
		struct plateau q = p[k];
		int interior = k > 0 && k + 1 < n;
		/* A level of its own stands at least NEXT_LEVEL_FACTOR above
		   the one below it and below the one above (a cache is several
		   times faster than the next; a VM's small usable L3 between L2
		   and memory is one); a pause inside a step is not. A stretch of
		   short plateaus is judged as short too, however far it reaches:
		   on the Zen 5 VM a full run's 2 MiB curve read 7.55-8.35 ns at
		   896 KiB-1 MiB and 13.6-14.0 at 1.25-1.75 MiB, L2's smeared
		   tail, which joined made an octave long "L3 ~2 MiB" at 7.95 ns,
		   1.9x L2. The next plateau is read before any is moved:
		   kept <= k. */
		if (interior && (stretch[k] ? pause_between(c, &p[k - 1], &q, &p[k + 1])
					    : curve_is_pause(c, &p[k - 1], &q, &p[k + 1])))
			continue;
		p[kept++] = q;
	}
	/* The last step rises less than twice over a level that already
	   stands four times or more above its own lower one, as memory
	   stands above the last cache: that is memory read with more page
	   walks as the working set outgrows the TLBs' reach (a VM's nested
	   walks rise by half), not a level past memory. A cache's own next
	   level is more than twice as slow. */
	if (kept >= 3 &&
	    (p[kept - 1].ns < p[kept - 2].ns * NEXT_LEVEL_FACTOR || climbs_at_end(c, &p[kept - 1])) &&
	    p[kept - 2].ns >= p[kept - 3].ns * EDGES_MEMORY_OVER_CACHE) {
		p[kept - 2].last = p[kept - 1].last;
		kept--;
	}
	return kept;
}

/* The fastest a dependent load from memory has been seen to answer is
   about 60 ns (desktop parts with tuned DRAM; servers read 90-140 ns),
   and the slowest last-level cache about 33 ns (Golden Cove servers'
   mesh L3; an eDRAM L4 about 40): a plateau under this is a cache's,
   whatever it stands over. On the Zen 5 VM one quick run's 2 MiB curve
   read its L3 share at 15.9 ns over 1.4-2 MiB, 4.2x its L2, then 144 ns
   from 3.3 MiB: joined as memory entered in a climb, the card lost its
   L3 and the detailed table read "beyond L2 from 1408 KiB, 15.93 ns"
   (tests/data/zen5-vm-quick-15.csv). */
#define MEMORY_MIN_NS 45.0

/* Memory entered in a climb: a plateau that stands EDGES_MEMORY_OVER_CACHE
   (4x) or more above the one below it, as memory stands above the last
   cache, but spans less than an octave with the curve still rising past
   it. No cache is slower than memory, so nothing past it is a level:
   what climbs on is memory read with more page walks as the working set
   outgrows the TLBs' reach and the walks' own entries leave the caches
   (and, on a VM, a neighbour's load). Its plateau and every one above it
   join into one, the top, at its level. Returns how many are left. Two
   held-out curves of a Zen 5 VM read 27 ns at 1.5-2 MiB, 118 ns at 4-5
   MiB, then 470-750 ns from 13 MiB on (a random chase), and 26 ns to 4
   MiB, 208 ns at 15-17 MiB, 430 ns at 19-43 MiB and 761 ns from 48 MiB
   (another): each step past the first at memory's height was a level
   before. A plateau an octave or longer is a level read under noise,
   never joined here (curve_drop_pauses's last-step rule holds for it).
   Nor is one under MEMORY_MIN_NS: four times the L2 is also where a VM's
   small share of its L3 stands, and no memory answers that fast. */
static size_t join_memory_climb(const struct curve *c, struct plateau *p, size_t n)
{
	for (size_t k = 1; k + 1 < n; k++)
		if (is_short(c, &p[k]) && p[k].ns >= MEMORY_MIN_NS &&
		    p[k].ns >= p[k - 1].ns * EDGES_MEMORY_OVER_CACHE) {
			p[k].last = p[n - 1].last;
			return k + 1;
		}
	return n;
}

static size_t find_edges(const struct curve *curves, size_t ncurves,
			 const struct curve_plateau_set *ps, struct curve_edge *edges)
{
	size_t nedges = 0;

	for (size_t i = 0; i < ncurves; i++) {
		const struct plateau *p = ps[i].p;

		for (size_t k = 0; k + 1 < ps[i].n && nedges < MAX_EDGES; k++) {
			struct curve_edge *e = &edges[nedges];
			/* Consecutive plateaus rise past EDGES_RISE_FACTOR across
			   their gap, so the curve crosses their half height but
			   where noise lifted the upper level past all the upper
			   plateau read: then the gap itself stands for the step. */
			if (edges_crossing(&curves[i], &p[k], &p[k + 1], &e->x) != 0)
				gap_crossing(&curves[i], &p[k], &p[k + 1], &e->x);
			e->curve = i;
			e->lower = p[k];
			e->upper = p[k + 1];
			e->cluster = -1;
			nedges++;
		}
	}
	return nedges;
}

/* Distance between two edges on the size axis, as a ratio >= 1. */
static double edge_distance(const struct curve_edge *a, const struct curve_edge *b)
{
	return a->x.at > b->x.at ? a->x.at / b->x.at : b->x.at / a->x.at;
}

static size_t cluster_edges(const struct curve *curves, size_t ncurves,
			    const struct curve_plateau_set *ps, struct curve_edge *edges,
			    size_t nedges, struct cluster *cl)
{
	size_t ncl = 0;

	for (size_t a = 0; a < nedges; a++) {
		struct cluster *c;

		if (edges[a].cluster >= 0)
			continue;
		c = &cl[ncl];
		for (size_t i = 0; i < EDGES_MAX_CURVES; i++)
			c->member[i] = -1;
		c->member[edges[a].curve] = (int)a;
		edges[a].cluster = (int)ncl;
		/* From every other curve, the nearest unclaimed edge that overlaps. */
		for (size_t i = 0; i < ncurves; i++) {
			int best = -1;
			if (i == edges[a].curve)
				continue;
			for (size_t b = 0; b < nedges; b++) {
				if (edges[b].curve != i || edges[b].cluster >= 0 ||
				    !brackets_overlap(&edges[a], &edges[b]))
					continue;
				if (best < 0 || edge_distance(&edges[a], &edges[b]) <
				    edge_distance(&edges[a], &edges[best]))
					best = (int)b;
			}
			if (best >= 0) {
				c->member[i] = best;
				edges[best].cluster = (int)ncl;
			}
		}
		c->seen = c->judged = 0;
		for (size_t i = 0; i < ncurves; i++) {
			if (c->member[i] >= 0)
				c->seen |= 1 << i;
			if (c->member[i] >= 0 ||
			    curve_judges(&curves[i], &ps[i], edges[a].x.below, edges[a].x.next))
				c->judged |= 1 << i;
		}
		ncl++;
	}
	return ncl;
}

static struct level *new_level(struct hierarchy *h)
{
	struct level *l;

	if (h->nlevels >= EDGES_MAX_LEVELS) {
		h->truncated = 1;
		return 0;
	}
	l = &h->level[h->nlevels++];
	mp_memset(l, 0, sizeof *l);
	return l;
}

/* A member whose crossing lies this far past the reference's shows that
   the reference's step came early. */
#define LATER_EDGE_FACTOR 1.25

/* The member seen with the largest pages: its curve has the fewest TLB
   effects mixed into the cache levels' latencies. Unless another member
   crosses clearly later: a disturbance (another tenant sharing the core's
   cache, a trial interrupted at every try) and TLB misses only ever pull a
   step earlier, never later, so the latest crossing is the cache's own. */
static int reference_member(const struct curve *curves, const struct curve_edge *edges,
			    const struct cluster *c)
{
	int ref = -1, latest = -1;

	for (size_t i = 0; i < EDGES_MAX_CURVES; i++) {
		if (c->member[i] < 0)
			continue;
		if (ref < 0 || curves[i].page_shift > curves[ref].page_shift)
			ref = (int)i;
		if (latest < 0 || edges[c->member[i]].x.at > edges[c->member[latest]].x.at)
			latest = (int)i;
	}
	if (edges[c->member[latest]].x.at > edges[c->member[ref]].x.at * LATER_EDGE_FACTOR)
		ref = latest;
	return c->member[ref];
}

/* Points each side of a step that the placement fit reads besides the
   transition: enough of each plateau to pin its level, few enough that a
   long plateau does not outvote the step. */
#define FIT_PLATEAU_POINTS 3

/* A sixteenth of v's power of two (1 for v < 32). */
static uint64_t sixteenth_of(uint64_t v)
{
	uint64_t p = 1;

	while (p <= v / 2)
		p <<= 1;
	return p >= 16 ? p / 16 : 1;
}

/* v to a sixteenth of its power of two, down or up: a range's ends as a
   person reads them (416 KiB, not 419617 bytes). */
static uint64_t round_sixteenth(uint64_t v, int up)
{
	uint64_t p = sixteenth_of(v);

	return (up ? v + p - 1 : v) / p * p;
}

/* The simplest capacity in [lo, hi], nearest c in log2 (simple_capacity_in);
   where none is simple, c itself to a sixteenth of its power of two. A
   smeared step pins its capacity only to a range; within it the readings
   cannot choose, and real caches come in these sizes far more often than
   in others. */
static uint64_t simplest_capacity(uint64_t lo, uint64_t hi, uint64_t c)
{
	uint64_t v = simple_capacity_in(lo, hi, c);

	return v ? v : round_sixteenth(c + sixteenth_of(c) / 2, 0);
}

/* The index of the sweep point at `bytes` in c (it is one of them). */
static size_t index_of(const struct curve *c, uint64_t bytes)
{
	size_t k = 0;

	while (k + 1 < c->n && c->pt[k].bytes < bytes)
		k++;
	return k;
}

/* The placement fit over one step of curve c (placement.h): the points
   from FIT_PLATEAU_POINTS before the last that fit to as many past the
   first that missed, readings outliers smoothed away. *part_way: the
   points read part way up. 0, or -1 when the step is sharp (none part way)
   or the fit refused the window. */
static int fit_step(const struct curve *c, const struct plateau *lower,
		    const struct plateau *upper, const struct edge_crossing *x,
		    struct placement_fit *fit, unsigned *part_way)
{
	double ns[EDGES_MAX_POINTS], cycles[EDGES_MAX_POINTS], pre[EDGES_MAX_POINTS];
	uint64_t xs[EDGES_MAX_POINTS];
	double ys[EDGES_MAX_POINTS];
	size_t first, last, n = 0, fit_at, miss_at;

	smooth_all(c, ns, cycles, pre, 0);
	/* The step runs from the last point that still read the lower level
	   to the first that read the upper one (the crossing's fit and miss):
	   a plateau found by chaining may start inside a step. */
	fit_at = index_of(c, x->fit);
	miss_at = index_of(c, x->miss);
	*part_way = (unsigned)(miss_at - fit_at - 1);
	if (!*part_way)
		return -1;
	first = fit_at >= lower->first + FIT_PLATEAU_POINTS ? fit_at - FIT_PLATEAU_POINTS
							     : lower->first;
	last = miss_at + FIT_PLATEAU_POINTS <= upper->last ? miss_at + FIT_PLATEAU_POINTS
							  : upper->last;
	for (size_t k = first; k <= last; k++) {
		xs[n] = c->pt[k].bytes;
		ys[n++] = pre[k];
	}
	return placement_fit(xs, ys, n, lower->ns, upper->ns, 1ull << c->page_shift, fit);
}

/* The simplest capacity nearest the middle (in log2) of [lo, hi]. */
static uint64_t middle_capacity(uint64_t lo, uint64_t hi)
{
	return simplest_capacity(lo, hi, (uint64_t)base2_exp((base2_log((double)lo) +
							       base2_log((double)hi)) / 2.0));
}

/* Whether a cache whose step no simple size explains is the plausible
   capacity `miss`, which missed at its own size: the last size that fit
   stands for it (within NEAR_PLAUSIBLE). A buffer as large as a cache
   shares it with the program's other lines, and a physically indexed
   one with its pages' uneven spread over the sets: multichase on an
   Emerald Rapids VM read 40.6 ns at 7.55 MiB and 125.9 at 8 MiB, a VM's
   L3 share once named "7917760 B". */
static int full_at_own_size(uint64_t fit, uint64_t miss)
{
	return edges_snap_capacity((double)miss) == miss &&
	       (double)fit * NEAR_PLAUSIBLE >= (double)miss;
}

/* Names a cache level's capacity from its step in curve c. A sharp step
   (no point part way up): the crossing's bracket, named by the simplest
   capacity in [fit, miss), else the first size that missed where the
   cache was full at its own size (full_at_own_size), else the last size
   that fit. A step with two
   points or more part way up: the placement fit over it (placement.h), its
   range, and the simplest capacity in that range. With one: the crossing's
   estimate, in a range that holds the fit's and the bracket. The step is
   "smeared" when it spread over two points or more whatever the cause
   (random victims spread a step too), or the fit says random placement
   made its one point. */
static void name_cache_step(struct level *l, const struct curve *c, const struct plateau *lower,
			    const struct plateau *upper, const struct edge_crossing *x)
{
	struct placement_fit fit;
	unsigned part_way;

	level_set_crossing(l, x, 0);
	if (fit_step(c, lower, upper, x, &fit, &part_way) != 0) {
		if (part_way) {
			l->smeared = part_way >= 2;
			return;   /* the crossing's name stands */
		}
		l->method = METHOD_SHARP;
		l->smeared = 0;
		l->size_bytes = x->miss > x->fit
			? simplest_capacity(x->fit, x->miss - 1, x->fit) : x->fit;
		if (l->size_bytes >= x->miss || l->size_bytes < x->fit)
			l->size_bytes = full_at_own_size(x->fit, x->miss) ? x->miss : x->fit;
		return;
	}
	l->smeared = part_way >= 2 || fit.smeared;
	/* One point part way up is as well explained by a sharp step anywhere
	   between the points either side of it as by any smear: the crossing
	   names it (a point read part way up may be the capacity itself,
	   filled exactly), and the range takes in both. Where loads fall at
	   random inside the working set (another program's pattern) such a
	   point lies past the capacity, its loads hitting C/S of the time,
	   and the crossing names too large a size (tinymembench's 48 KiB L1,
	   read at 32 and 64 KiB, is named 64 KiB); the range still holds it.
	   Naming the middle of the fit's range instead broke the chase's
	   case, a capacity point read part way up (tests/unit/test_edges.c). */
	fit.range_lo = round_sixteenth(fit.range_lo, 0);
	fit.range_hi = round_sixteenth(fit.range_hi, 1);
	if (part_way == 1) {
		l->range_lo = fit.range_lo < x->fit ? fit.range_lo : x->fit;
		l->range_hi = fit.range_hi > x->miss ? fit.range_hi : x->miss;
		/* No plausible capacity between the points, an odd one: the
		   simplest size there rather than one the points rule out. */
		if (l->size_bytes < x->fit || l->size_bytes >= x->miss)
			l->size_bytes = simplest_capacity(x->fit, x->miss - 1, (uint64_t)x->at);
		return;
	}
	l->method = METHOD_PLACEMENT_FIT;
	l->range_lo = fit.range_lo;
	l->range_hi = fit.range_hi;
	/* Nearest the middle of the range (in log2), not the best fit: one
	   buffer is one draw of the random layout, which moves the best fit
	   by a third either way, while the range holds what every draw that
	   fits the readings allows. */
	l->size_bytes = middle_capacity(l->range_lo, l->range_hi);
}

static const struct curve_edge *add_cache_level(struct hierarchy *h, const struct curve *curves,
						const struct curve_edge *edges,
						const struct cluster *c, enum level_kind kind)
{
	const struct curve_edge *ref = &edges[reference_member(curves, edges, c)];
	struct level *l = new_level(h);

	if (!l)
		return 0;
	/* Size and bracket from the reference curve alone: with the largest
	   pages its step is the cache's own, the fewest TLB misses mixed in
	   (with 4 KiB pages the L1 DTLB's reach pulls the L2 step early), unless
	   another curve's step came clearly later (reference_member). The
	   other curves only confirmed that the step is there. */
	l->kind = kind;
	l->page_shift = curves[ref->curve].page_shift;
	name_cache_step(l, &curves[ref->curve], &ref->lower, &ref->upper, &ref->x);
	l->ns = ref->lower.ns;
	l->cycles = ref->lower.cycles;
	l->points = (unsigned)(ref->lower.last - ref->lower.first + 1);
	l->seen_in = c->seen;
	return ref;
}

/* The fewest entries a step of a TLB of these pages can read as:
   EDGES_MIN_TLB_ENTRIES, or half the fewest of any data TLB trusted
   claims give for them where that is more (edge_claims.fewest_tlb). Half:
   a smeared step's crossing can read under the TLB's entries (the 96-entry
   L1 DTLB's crossing lies anywhere in 96 .. 128), never at half of them. */
static uint64_t fewest_tlb_entries(const struct edge_claims *claims, unsigned page_shift)
{
	uint64_t fewest = EDGES_MIN_TLB_ENTRIES;

	for (size_t i = 0; claims && i < claims->ntlb; i++)
		if (claims->fewest_tlb[i].page_shift == page_shift &&
		    claims->fewest_tlb[i].entries / 2 > fewest)
			fewest = claims->fewest_tlb[i].entries / 2;
	return fewest;
}

/* Whether edge e of curve i needs fewer entries than any TLB of its
   pages has (fewest_tlb_entries): no TLB's. */
static int under_tlb_floor(const struct curve *curves, const struct curve_edge *e, size_t i,
			   const struct edge_claims *claims)
{
	return (e->x.estimate >> curves[i].page_shift) <
	       fewest_tlb_entries(claims, curves[i].page_shift);
}

/* An edge missing from some curve is a TLB edge, unless one of its curves
   would need fewer than EDGES_MIN_TLB_ENTRIES entries to explain it, or
   the largest pages' curve (top) fewer than any TLB of its pages trusted
   claims give (fewest_tlb_entries): then it is a cache edge that a
   nearby TLB edge hid in the smaller pages' curve, or that the two
   buffers' placements moved. An Emerald Rapids VM's `probes=latency` run
   read its L3 share's step at 10 .. 11 MiB with 4 KiB pages and at 20 ..
   22 MiB with 2 MiB pages; the 2 MiB one, 12 pages, under half the 32 of the
   documented L1 DTLB, was carded "TLB 2 MiB ~12 ... differs" with "L3 not
   seen". A smaller pages' step under the claims' floor is no cache level
   for that alone: another run's 4 KiB curve smeared its L1 step from 32
   KiB (a busy sibling thread's share of the L1d, 8 pages against the 96
   of the L1 DTLB) while the 2 MiB curve stepped at 48 KiB; it is set
   aside as a step the curves placed apart (hierarchy_find). */
static int is_hidden_cache_edge(const struct curve *curves, const struct curve_edge *edges,
				const struct cluster *c, const struct edge_claims *claims,
				size_t top)
{
	for (size_t i = 0; i < EDGES_MAX_CURVES; i++)
		if (c->member[i] >= 0 &&
		    under_tlb_floor(curves, &edges[c->member[i]], i, i == top ? claims : NULL))
			return 1;
	return 0;
}

/* What a TLB miss adds stays: past a TLB's reach every load of the smaller
   pages misses it, so their curve reads above the larger pages' at every
   larger working set (until the larger pages miss too). A step that only
   the smaller pages' curve shows, past which that curve reads within
   TLB_KEEPS_ABOVE of the larger pages' curve at the median of the sizes
   both measured, was a cache step placed otherwise in the two buffers (a
   VM's host frames give each buffer its own smear), not a TLB's. With
   latency curves alone the Zen 5 VM named such steps "TLB 4 KiB 2048"
   (the 4 KiB curve's L3 step at 8 MiB, the 2 MiB curve's at 12 MiB; past
   16 MiB the curves read within 4 % of each other) and "131072". Fewer
   than two shared sizes past the step: not judged, kept. */
static int keeps_above(const struct curve *small, const struct curve *large, uint64_t from)
{
	size_t n;
	double q = curves_ratio(small, large, from, UINT64_MAX, &n);

	return n < 2 || q >= TLB_KEEPS_ABOVE;
}

/* The curve of the largest pages that judged cluster c's edge and did not
   show it; NULL when none. */
static const struct curve *judge_without(const struct curve *curves, size_t ncurves,
					 const struct cluster *c)
{
	const struct curve *best = 0;

	for (size_t i = 0; i < ncurves; i++)
		if ((c->judged & ~c->seen & (1 << i)) &&
		    (!best || curves[i].page_shift > best->page_shift))
			best = &curves[i];
	return best;
}

/* Edge e as a TLB level of its curve; the level, or NULL with no room. */
static struct level *add_tlb_level(struct hierarchy *h, const struct curve *curves,
				   const struct curve_edge *e, int seen)
{
	struct level *l = new_level(h);

	if (!l)
		return NULL;
	l->kind = LEVEL_TLB;
	mp_strlcpy(l->name, "TLB", sizeof l->name);
	l->page_shift = curves[e->curve].page_shift;
	level_set_crossing(l, &e->x, 0);
	l->entries = e->x.estimate >> l->page_shift;
	/* The latency while within the TLB's reach, and what missing it adds. */
	l->ns = e->lower.ns;
	l->cycles = e->lower.cycles;
	l->increase_ns = e->upper.ns - e->lower.ns;
	l->increase_cycles = e->upper.cycles - e->lower.cycles;
	l->points = (unsigned)(e->lower.last - e->lower.first + 1);
	l->seen_in = seen;
	return l;
}

/* Sorts the cache/edge levels by size (insertion sort: a handful). */
static void sort_by_size(struct level *l, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct level key = l[i];
		size_t j = i;
		while (j > 0 && l[j - 1].size_bytes > key.size_bytes) {
			l[j] = l[j - 1];
			j--;
		}
		l[j] = key;
	}
}

/* Joins each cache level whose whole range lies within the range of the
   level below it into that level, and returns how many are left. Such a
   level names no capacity of its own: its step is the lower level's
   smeared step read at another height. On the Zen 5 VM the guest's share
   of the L3 moved within one run (6 MiB read 39.8, 47.0 and 121 ns, 7 MiB
   37.3, 87.8 and 141), and a quick run carded "L3 ~4 MiB" (2.5 .. 8 MiB,
   13 ns) and "L4 ~8 MiB" (7.25 .. 8 MiB, 37 ns). The lower level keeps its
   latency; its range reaches over both. Levels sorted by size. */
static size_t join_contained(struct hierarchy *h, size_t nseq)
{
	size_t kept = 0;

	for (size_t i = 0; i < nseq; i++) {
		struct level *below = kept ? &h->level[kept - 1] : 0, *l = &h->level[i];

		if (below && below->range_hi && l->range_hi && l->range_lo >= below->range_lo &&
		    l->range_hi <= below->range_hi) {
			if (h->njoined < EDGES_MAX_JOINED)
				h->joined[h->njoined++] = (struct joined_step){
					l->size_bytes, l->range_lo, l->range_hi, l->ns, below->size_bytes,
					0 };
			below->smeared = 1;
			below->seen_in |= l->seen_in;
			continue;
		}
		h->level[kept++] = *l;
	}
	return kept;
}

/* Names the cache sequence, chains the increases, and appends the top:
   the plateau above the last edge in the reference curve. */
static void finish_sequence(struct hierarchy *h, size_t nseq, const struct curve *curves,
			    const struct curve_edge *last_edge, const struct curve *top_curve)
{
	unsigned cache_no = 0;
	struct plateau p[EDGES_MAX_PLATEAUS];
	struct level *top;

	sort_by_size(h->level, nseq);
	nseq = h->nlevels = join_contained(h, nseq);
	for (size_t i = 0; i < nseq; i++) {
		struct level *l = &h->level[i];
		/* An edge that only one curve could judge (or the only curve)
		   is taken for the next cache level all the same; its kind,
		   LEVEL_EDGE, says it was not attributed. */
		mp_snprintf(l->name, sizeof l->name, "L%u", ++cache_no);
		if (i) {
			l->increase_ns = l->ns - h->level[i - 1].ns;
			l->increase_cycles = l->cycles - h->level[i - 1].cycles;
		}
	}
	if (!top_curve)
		return;
	top = new_level(h);
	if (!top)
		return;
	top->kind = LEVEL_TOP;
	mp_strlcpy(top->name, "top", sizeof top->name);
	top->page_shift = top_curve->page_shift;
	if (last_edge) {
		top->ns = last_edge->upper.ns;
		top->cycles = last_edge->upper.cycles;
		top->size_bytes = curves[last_edge->curve].pt[last_edge->upper.first].bytes;
		top->below_bytes = top->size_bytes;
		top->next_bytes = curves[last_edge->curve].pt[last_edge->upper.last].bytes;
		top->points = (unsigned)(last_edge->upper.last - last_edge->upper.first + 1);
	} else if (curve_plateaus(top_curve, p, EDGES_MAX_PLATEAUS)) {
		/* No edge at all: the sweep stayed on one plateau. */
		top->ns = p[0].ns;
		top->cycles = p[0].cycles;
		top->size_bytes = top_curve->pt[p[0].first].bytes;
		top->below_bytes = top->size_bytes;
		top->next_bytes = top_curve->pt[p[0].last].bytes;
		top->points = (unsigned)(p[0].last - p[0].first + 1);
	} else {
		h->nlevels--;
		return;
	}
	if (nseq) {
		top->increase_ns = top->ns - h->level[nseq - 1].ns;
		top->increase_cycles = top->cycles - h->level[nseq - 1].cycles;
	}
}

/* ---- Public Functions ------------------------------------------------- */

const char *level_method_name(enum level_method m)
{
	switch (m) {
	case METHOD_SHARP: return "sharp step";
	case METHOD_CROSSING: return "half-height crossing";
	case METHOD_PLACEMENT_FIT: return "random-placement fit";
	case METHOD_NONE: break;
	}
	return "-";
}

void level_set_crossing(struct level *l, const struct edge_crossing *x, unsigned unit_shift)
{
	l->size_bytes = x->estimate << unit_shift;
	l->below_bytes = x->below << unit_shift;
	l->next_bytes = x->next << unit_shift;
	l->method = METHOD_CROSSING;
	l->range_lo = x->fit << unit_shift;
	l->range_hi = x->miss << unit_shift;
	l->smeared = x->fit < x->below || x->miss > x->next;
}

/* How compare_of sets two curves' points of one size against each other. */
enum point_compare {
	RATIO_NS,                 /* small over large, ns */
	RATIO_CYCLES,             /* the same in cycles where both have them */
	EXTRA_NS,                 /* small less large, ns */
};

/* The median over the sizes both curves measured in [from, to] of how
   `how` sets small's point against large's; their count in *count (when
   count); 0 when none. */
static double compare_of(const struct curve *small, const struct curve *large, uint64_t from,
			 uint64_t to, size_t *count, enum point_compare how)
{
	double ratio[EDGES_MAX_POINTS];
	size_t n = 0, j = 0;

	for (size_t i = 0; i < small->n && small->pt[i].bytes <= to; i++) {
		const struct curve_point *a = &small->pt[i], *b;

		if (a->bytes < from)
			continue;
		while (j < large->n && large->pt[j].bytes < a->bytes)
			j++;
		if (j == large->n || large->pt[j].bytes != a->bytes)
			continue;
		b = &large->pt[j];
		if (how == EXTRA_NS)
			ratio[n++] = a->ns - b->ns;
		else
			ratio[n++] = how == RATIO_CYCLES && a->cycles > 0 && b->cycles > 0
				     ? a->cycles / b->cycles : a->ns / b->ns;
	}
	if (count)
		*count = n;
	return n ? median_of(ratio, n) : 0;
}

/* What a TLB miss adds stays (keeps_above): past the edge the smaller
   pages' curve reads the miss over the larger pages' at every size, so a
   step that rose by more than stays held a cache's step too, which the two
   buffers placed apart, and the level's miss cost is what stays: the
   median of small less large over the sizes both measured from `from` on
   (two at least), where that is less than the step's rise. cycles scale
   with ns. An Emerald Rapids VM's `probes=latency` run read its 4 KiB
   pages' STLB step at 10 .. 11 MiB as +237 cycles, the L3 share's step
   with it (the 2 MiB curve's came at 20 MiB); past it the 4 KiB curve
   stayed a median 21 ns over the 2 MiB one, and the tlb probe reads the
   miss at +37 cycles. */
static void miss_what_stays(struct level *l, const struct curve *small,
			    const struct curve *large, uint64_t from)
{
	size_t n;
	double stays = compare_of(small, large, from, UINT64_MAX, &n, EXTRA_NS);

	if (n < 2 || stays <= 0 || stays >= l->increase_ns || l->increase_ns <= 0)
		return;
	l->increase_cycles *= stays / l->increase_ns;
	l->increase_ns = stays;
}

double curves_ratio(const struct curve *small, const struct curve *large, uint64_t from,
		    uint64_t to, size_t *count)
{
	return compare_of(small, large, from, to, count, RATIO_NS);
}

double curves_cycles_ratio(const struct curve *small, const struct curve *large,
			   uint64_t from, uint64_t to)
{
	return compare_of(small, large, from, to, 0, RATIO_CYCLES);
}

void curve_init(struct curve *c, unsigned page_shift)
{
	c->page_shift = page_shift;
	c->n = 0;
	c->truncated = 0;
}

int curve_add(struct curve *c, uint64_t bytes, double ns, double cycles)
{
	size_t at = 0;

	if (!bytes || !is_finite_positive(ns))
		return -1;
	if (!is_finite_positive(cycles))
		cycles = 0.0;
	while (at < c->n && c->pt[at].bytes < bytes)
		at++;
	if (at < c->n && c->pt[at].bytes == bytes) {
		if (ns < c->pt[at].ns) {
			c->pt[at].ns = ns;
			c->pt[at].cycles = cycles;
		}
		return 0;
	}
	if (c->n >= EDGES_MAX_POINTS) {
		c->truncated = 1;
		return -1;
	}
	for (size_t i = c->n; i > at; i--)
		c->pt[i] = c->pt[i - 1];
	c->pt[at].bytes = bytes;
	c->pt[at].ns = ns;
	c->pt[at].cycles = cycles;
	c->n++;
	return 0;
}

void curve_smoothed(const struct curve *c, double *ns_out, double *cycles_out)
{
	smooth(c, ns_out, cycles_out);
}

/* Runs that rise less than EDGES_RISE_FACTOR across each gap are drift,
   joined into the plateau below, unless the run stands NEXT_LEVEL_FACTOR
   above that plateau's level: then the drift, added up, is a step spread
   over many sizes. A plateau chained through a whole level read as one:
   lmbench's stride reads on a Zen 5 VM rose by drift from L2's 9-14 ns
   through L3's 20-35 ns, and one plateau from 60 KiB to 60 MiB hid L2. */

/* A climb between two plateaus that spans at least this many octaves and
   rises this many times over is more than one step: random reads inside
   the working set (tinymembench) hit a cache of C bytes with C/S of their
   loads at S, so a step spreads over octaves, and on a power-of-two grid
   the next cache's plateau shows only as a stretch that rises less than
   the slopes around it (its hit share still falling). On this project's
   Zen 5 VM, on a quiet day, such a run read 2.9, 3.5 and 4.5 ns at 128,
   256 and 512 KiB (its L2) and 14 and 16.4 at 2 and 4 MiB (its L3)
   between an L1 plateau and memory's, with no two points within the
   plateau tolerance (tests/data/other-tinymembench-3.txt). X-Mem's chase,
   8-byte words in a random order, does the same: on an Emerald Rapids VM
   its L2 read 3.7, 4.4, 5.2 and 7.0 ns over 128 KiB .. 1 MiB between an
   L1 of 1.6 ns and a mixed 9.5 at 2-4 MiB, a climb six times over
   (tests/data/other-xmem-emr-1.txt). A chase's own steps span an octave
   or two; memory's climb under a host's small pages rises three times at
   most (tests/data/zen5-vm-quick-4.csv). */
#define CLIMB_SPLIT_OCTAVES 4.0
#define CLIMB_SPLIT_RISE 4.0

/* A stretch of a climb rises less than this from point to point. On
   random reads a small cache's plateau still climbs as its hit share
   falls: a Zen 5-like L3 of four times the L2 reads 11 and 14.3 ns at
   2 and 4 MiB, between steps of 2.2x and 5.8x. */
#define CLIMB_STRETCH_RISE 1.4

/* The stretch of the climb from `from` (before end): each point under
   CLIMB_STRETCH_RISE over the one before, the whole under
   NEXT_LEVEL_FACTOR; its last index, or `from` when it has one point. */
static size_t climb_stretch(const double *ns, const unsigned char *steady, size_t from,
			    size_t end)
{
	size_t k = from;

	while (k + 1 < end && steady[k + 1] && ns[k + 1] < ns[k] * CLIMB_STRETCH_RISE &&
	       ns[k + 1] <= ns[from] * NEXT_LEVEL_FACTOR)
		k++;
	return k;
}

/* The stretches of the climb from plateau lo to index end (the next
   plateau's first point, or the curve's end, n_points) that stand
   EDGES_RISE_FACTOR over what lies below them and under the point after
   them, as plateaus, into found (room for max); their count. The point
   after may be the next plateau's first: a stretch that climbs into it
   by a step is a level of its own (X-Mem's L2, above). */
static size_t climb_plateaus(const double *ns, const double *pre_ns, const double *pre_cycles,
			     const unsigned char *steady, const struct plateau *lo, size_t end,
			     size_t n_points, struct plateau *found, size_t max)
{
	size_t n = 0, below = lo->last;

	for (size_t k = lo->last + 1; k < end && n < max; k++) {
		size_t last;

		if (!steady[k] || ns[k] < ns[below] * EDGES_RISE_FACTOR)
			continue;
		last = climb_stretch(ns, steady, k, end);
		if (last == k || last + 1 >= n_points || ns[last + 1] < ns[last] * EDGES_RISE_FACTOR)
			continue;
		found[n].first = k;
		found[n].last = last;
		set_level(&found[n], pre_ns, pre_cycles, steady);
		n++;
		below = last;
		k = last;
	}
	return n;
}

/* Splits each long, steep climb of c after a plateau of out (count of
   them, room for max), to the next plateau or to the sweep's end, at its
   flatter stretches (CLIMB_SPLIT_OCTAVES, CLIMB_SPLIT_RISE); the new
   count. A sweep that ends in a climb (another program's that stops
   short of memory) keeps what lies past its last stretch unread. */
static size_t split_climbs(const struct curve *c, const double *ns, const double *pre_ns,
			   const double *pre_cycles, const unsigned char *steady,
			   struct plateau *out, size_t count, size_t max)
{
	for (size_t i = 0; i < count; i++) {
		struct plateau found[EDGES_MAX_PLATEAUS];
		const struct plateau *lo = &out[i];
		size_t end = i + 1 < count ? out[i + 1].first : c->n, n;
		double octaves, rise;

		if (end <= lo->last + 1)
			continue;
		octaves = base2_log((double)c->pt[end - 1].bytes / (double)c->pt[lo->last].bytes);
		rise = (i + 1 < count ? out[i + 1].ns : ns[end - 1]) / lo->ns;
		if (octaves < CLIMB_SPLIT_OCTAVES || rise < CLIMB_SPLIT_RISE)
			continue;
		n = climb_plateaus(ns, pre_ns, pre_cycles, steady, lo, end, c->n, found, max - count);
		if (!n)
			continue;
		for (size_t k = count; k-- > i + 1;)
			out[k + n] = out[k];
		for (size_t k = 0; k < n; k++)
			out[i + 1 + k] = found[k];
		count += n;
		i += n;
	}
	return count;
}

/* Where plateau p, made of runs joined as drift, holds a step instead:
   the last point of a flat stretch from p's first (within
   EDGES_PLATEAU_TOLERANCE of it) and the first point of a flat stretch
   to p's last, the second's first reading EDGES_RISE_FACTOR or more over
   the first's last, the step's middle between them at most
   STEP_TRANSITION_OCTAVES and narrower than either stretch. Returns 1 and
   the two indices, else 0. A smeared step's middle points can read within
   the plateau tolerance of each other and close a run of their own, and
   across that run's gap the rise looked like drift: lmbench's stride reads
   on an Emerald Rapids VM went 1.76 to 1.88 ns up to 48 KiB, 2.27 to 2.61
   over 52 to 72 KiB, then 2.64 to 2.92 (smoothed) to 1.8 MiB, read as one
   plateau. A slow drift rises as fast over every stretch, so no flat
   stretch of it is as wide as the rise of 1.3x it would need between
   two; ns are smoothed, so they never fall. */
static int step_inside(const struct curve *c, const double *ns, const struct plateau *p,
		       size_t *below, size_t *above)
{
	size_t j = p->first, k;
	double middle;

	while (j < p->last && ns[j + 1] <= ns[p->first] * (1.0 + EDGES_PLATEAU_TOLERANCE))
		j++;
	for (k = j + 1; k <= p->last && ns[k] < ns[j] * EDGES_RISE_FACTOR; k++)
		;
	if (k > p->last || j - p->first + 1 < EDGES_MIN_PLATEAU_POINTS ||
	    p->last - k + 1 < EDGES_MIN_PLATEAU_POINTS ||
	    ns[p->last] > ns[k] * (1.0 + EDGES_PLATEAU_TOLERANCE))
		return 0;
	middle = base2_log((double)c->pt[k].bytes / (double)c->pt[j].bytes);
	if (middle > STEP_TRANSITION_OCTAVES ||
	    middle >= base2_log((double)c->pt[j].bytes / (double)c->pt[p->first].bytes) ||
	    middle >= base2_log((double)c->pt[p->last].bytes / (double)c->pt[k].bytes))
		return 0;
	*below = j;
	*above = k;
	return 1;
}

/* Each plateau that holds a step (step_inside) split in two at it, the
   step's middle points in neither; the new count. */
static size_t split_steps(const struct curve *c, const double *ns, const double *pre_ns,
			  const double *pre_cycles, const unsigned char *steady,
			  struct plateau *out, size_t count, size_t max)
{
	for (size_t i = 0; i < count && count < max; i++) {
		size_t below, above;

		if (!step_inside(c, ns, &out[i], &below, &above))
			continue;
		for (size_t k = count; k-- > i + 1;)
			out[k + 1] = out[k];
		out[i + 1].first = above;
		out[i + 1].last = out[i].last;
		out[i].last = below;
		set_level(&out[i], pre_ns, pre_cycles, steady);
		set_level(&out[i + 1], pre_ns, pre_cycles, steady);
		count++;
	}
	return count;
}

size_t curve_plateaus(const struct curve *c, struct plateau *out, size_t max)
{
	double ns[EDGES_MAX_POINTS], cycles[EDGES_MAX_POINTS];
	double pre_ns[EDGES_MAX_POINTS], pre_cycles[EDGES_MAX_POINTS];
	unsigned char steady[EDGES_MAX_POINTS];
	size_t count = 0, start = 0;

	if (!c->n || !max)
		return 0;
	smooth_all(c, ns, cycles, pre_ns, pre_cycles);
	for (size_t k = 0; k < c->n; k++)
		steady[k] = (unsigned char)is_steady(c, ns, k);
	for (size_t k = 1; k <= c->n; k++) {
		struct plateau p;

		if (k < c->n && steady[start] && steady[k] &&
		    ns[k] <= ns[start] * (1.0 + EDGES_PLATEAU_TOLERANCE))
			continue;
		/* The run [start, k-1] closes. */
		p.first = start;
		p.last = k - 1;
		start = k;
		if (p.last - p.first + 1 < EDGES_MIN_PLATEAU_POINTS)
			continue;
		set_level(&p, pre_ns, pre_cycles, steady);
		/* The rise is judged across the gap, from the last point of the
		   plateau below to the first of this one: comparing the levels
		   instead lets a slow drift, split into short runs, read as a
		   staircase of edges. Drift that has doubled the level below
		   is a step (NEXT_LEVEL_FACTOR). */
		if (count && ns[p.first] < ns[out[count - 1].last] * EDGES_RISE_FACTOR &&
		    p.ns < out[count - 1].ns * NEXT_LEVEL_FACTOR) {
			/* Drift, not an edge: one plateau, transition points and all. */
			out[count - 1].last = p.last;
			set_level(&out[count - 1], pre_ns, pre_cycles, steady);
			continue;
		}
		if (count < max)
			out[count++] = p;
	}
	count = split_steps(c, ns, pre_ns, pre_cycles, steady, out, count, max);
	return split_climbs(c, ns, pre_ns, pre_cycles, steady, out, count, max);
}

uint64_t edges_snap_capacity(double x)
{
	double p = 1.0;

	if (!(x > 0.0))                        /* also NaN */
		return 0;
	if (x >= 9223372036854775808.0)        /* 2^63 */
		return 1ull << 63;
	if (x <= 1.0)
		return 1;
	while (p * 2.0 <= x)
		p *= 2.0;
	/* p <= x < 2p. Nearest in log2 between neighbours a < b: below
	   sqrt(ab), so compare squares: p and 1.5p meet at p^2 * 1.5, 1.5p and
	   2p at p^2 * 3 (1 and 2 at 2: there is no 1.5). */
	if (p < 2.0)
		return x * x <= 2.0 ? 1 : 2;
	if (x * x <= p * p * 1.5)
		return (uint64_t)p;
	if (x * x <= p * p * 3.0)
		return (uint64_t)(p * 1.5);
	return (uint64_t)(p * 2.0);
}

int edges_crossing(const struct curve *c, const struct plateau *lower,
		   const struct plateau *upper, struct edge_crossing *out)
{
	double ns[EDGES_MAX_POINTS], cycles[EDGES_MAX_POINTS], pre[EDGES_MAX_POINTS];
	double lo, hi, half, t, y0, y1, x0, x1, at;
	size_t j, fit, miss, end;

	if (!c || !lower || !upper || !out || c->n < 2 || c->n > EDGES_MAX_POINTS)
		return -1;
	if (lower->first > lower->last || lower->last >= c->n || upper->first > upper->last ||
	    upper->last >= c->n || lower->first >= upper->last)
		return -1;
	lo = lower->ns;
	hi = upper->ns;
	if (!is_finite_positive(lo) || !is_finite_positive(hi) || !(hi > lo))
		return -1;
	smooth_all(c, ns, cycles, pre, 0);
	end = upper->last;
	/* The half height, sqrt(lo * hi), compared as squares: the smoothed
	   curve is non-decreasing, so it crosses once. */
	if (ns[lower->first] * ns[lower->first] >= lo * hi)
		return -1;
	for (j = lower->first + 1; j <= end && ns[j] * ns[j] < lo * hi; j++)
		;
	if (j > end)
		return -1;

	/* Linear in log2(x) against log(latency) between j-1 and j. */
	half = (base2_log(lo) + base2_log(hi)) / 2.0;
	y0 = base2_log(ns[j - 1]);
	y1 = base2_log(ns[j]);
	t = y1 > y0 ? (half - y0) / (y1 - y0) : 1.0;
	if (t < 0.0)
		t = 0.0;
	if (t > 1.0)
		t = 1.0;
	x0 = base2_log((double)c->pt[j - 1].bytes);
	x1 = base2_log((double)c->pt[j].bytes);
	at = (double)c->pt[j - 1].bytes * base2_exp(t * (x1 - x0));

	/* What fit and what missed: the points whose readings (outliers
	   smoothed away, before the envelope, as the levels are taken) lie
	   within the plateau tolerance of the lower or the upper level. Looked
	   for outward from the crossing: the last fitting point before it, the
	   first missing one at or past it. What lies between read part way up
	   and may be the capacity itself, partly missed. */
	fit = j - 1;
	while (fit > lower->first && pre[fit] > lo * (1.0 + EDGES_PLATEAU_TOLERANCE))
		fit--;
	miss = j;
	while (miss < end && pre[miss] * (1.0 + EDGES_PLATEAU_TOLERANCE) < hi)
		miss++;

	out->at = at;
	out->below = c->pt[j - 1].bytes;
	out->next = c->pt[j].bytes;
	out->below_index = j - 1;
	out->fit = c->pt[fit].bytes;
	out->miss = c->pt[miss].bytes;
	out->estimate = name_capacity(c, fit, miss, at);
	return 0;
}

/* Whether a claimed cache's capacity lies in the step from plateau lower
   to upper: at or past lower's last size (less a tenth, for a grid's
   rounding: lmbench's 0.04688 MiB is 49157 bytes) and at or before
   upper's first, for a cache is full at its own size (full_at_own_size):
   X-Mem's random reads on an Emerald Rapids VM read its 2 MiB L2 at
   11.3 ns, with the 4 MiB past it. */
static int claim_in_step(const struct curve *c, const struct plateau *lower,
			 const struct plateau *upper, const struct edge_claims *claims)
{
	for (size_t i = 0; claims && i < claims->n; i++)
		if ((double)c->pt[lower->last].bytes <= (double)claims->bytes[i] * 1.1 &&
		    claims->bytes[i] <= c->pt[upper->first].bytes)
			return 1;
	return 0;
}

/* One curve alone (another program's, or one page size): neighbouring
   plateaus whose levels lie less than NEXT_LEVEL_FACTOR apart are one
   level, for no cache is less than twice as slow as the one below it.
   What stood between them was a TLB's reach (a page-thrashing chase's L1
   DTLB at 384 KiB on the Zen 5 VM, its L2 1 MiB past it) or noise on a
   smeared approach; with two page sizes the comparison tells a TLB's step
   apart instead. A step whose bracket holds a claimed cache's capacity is
   that cache's and stays: reads a prefetcher serves can make the next
   level look less than twice as slow (lmbench's 128-byte stride on an
   Emerald Rapids VM read L1 at 1.86 ns to 48 KiB and L2 at 2.6 to 3.2).
   The joined plateau takes the upper one's level, what the next step
   rises from. Returns the new count. */
static size_t join_close_levels(const struct curve *c, struct plateau *p, size_t n,
				const struct edge_claims *claims)
{
	size_t out = 0;

	for (size_t k = 0; k < n; k++) {
		if (out && p[k].ns < p[out - 1].ns * NEXT_LEVEL_FACTOR &&
		    !claim_in_step(c, &p[out - 1], &p[k], claims)) {
			p[out - 1].last = p[k].last;
			p[out - 1].ns = p[k].ns;
			p[out - 1].cycles = p[k].cycles;
			continue;
		}
		p[out++] = p[k];
	}
	return out;
}

void hierarchy_find(const struct curve *curves, size_t ncurves, const struct edge_claims *claims,
		    struct hierarchy *h)
{
	static struct curve_edge edges[MAX_EDGES];
	static struct cluster cl[MAX_EDGES];
	static struct curve_plateau_set ps[EDGES_MAX_CURVES];
	const struct curve_edge *last_edge = 0;
	const struct curve *top_curve = 0;
	size_t nedges, ncl, nseq, top = 0;

	h->nlevels = 0;
	h->nunshared = 0;
	h->climb = (struct walk_climb){ 0 };
	h->njoined = 0;
	h->truncated = 0;
	if (ncurves > EDGES_MAX_CURVES) {
		ncurves = EDGES_MAX_CURVES;
		h->truncated = 1;
	}
	h->attributed = ncurves > 1;
	for (size_t i = 0; i < ncurves; i++)
		if (!top_curve || curves[i].page_shift > top_curve->page_shift) {
			top_curve = &curves[i];
			top = i;
		}

	for (size_t i = 0; i < ncurves; i++) {
		ps[i].n = curve_plateaus(&curves[i], ps[i].p, EDGES_MAX_PLATEAUS);
		/* Only the largest pages' curve, which names the caches: with
		   smaller pages a short plateau is a TLB's signature, which the
		   comparison of the curves attributes. */
		if (&curves[i] == top_curve)
			ps[i].n = join_memory_climb(&curves[i], ps[i].p,
						    curve_drop_pauses(&curves[i], ps[i].p,
								      ps[i].n));
	}
	if (ncurves == 1)
		ps[0].n = join_close_levels(&curves[0], ps[0].p, ps[0].n, claims);
	nedges = find_edges(curves, ncurves, ps, edges);
	ncl = cluster_edges(curves, ncurves, ps, edges, nedges, cl);

	/* First the level sequence: edges every judging curve shows. The top
	   sits above the highest of them, in its reference curve. */
	for (size_t k = 0; k < ncl; k++) {
		int judged = cl[k].judged, seen = cl[k].seen;
		int alone = (judged & (judged - 1)) == 0;
		const struct curve_edge *ref = 0;

		if (seen == judged)
			ref = add_cache_level(h, curves, edges, &cl[k],
					      alone ? LEVEL_EDGE : LEVEL_CACHE);
		else if (is_hidden_cache_edge(curves, edges, &cl[k], claims, top))
			ref = add_cache_level(h, curves, edges, &cl[k], LEVEL_CACHE);
		if (ref && (!last_edge || ref->x.at > last_edge->x.at))
			last_edge = ref;
	}
	nseq = h->nlevels;
	finish_sequence(h, nseq, curves, last_edge, top_curve);

	/* Then the TLB edges: seen in some curves, not all that judged them. */
	for (size_t k = 0; k < ncl; k++) {
		if (cl[k].seen == cl[k].judged ||
		    is_hidden_cache_edge(curves, edges, &cl[k], claims, top))
			continue;
		const struct curve *judge = judge_without(curves, ncurves, &cl[k]);

		for (size_t i = 0; i < ncurves; i++) {
			const struct curve_edge *e = cl[k].member[i] >= 0 ? &edges[cl[k].member[i]] : 0;

			if (!e)
				continue;
			/* Judged by a larger pages' curve that did not show it. */
			int judged = judge && judge->page_shift > curves[i].page_shift;
			int under = under_tlb_floor(curves, e, i, claims);
			struct level *l;

			if (judged && (under || !keeps_above(&curves[i], judge, e->x.next))) {
				if (h->nunshared < EDGES_MAX_UNSHARED)
					h->unshared[h->nunshared++] = (struct unshared_step){
						e->x.estimate, curves[i].page_shift, judge->page_shift,
						under ? fewest_tlb_entries(claims, curves[i].page_shift)
						      : 0 };
				continue;
			}
			l = add_tlb_level(h, curves, e, cl[k].seen);
			if (l && judged)
				miss_what_stays(l, &curves[i], judge, e->x.next);
		}
	}
}
