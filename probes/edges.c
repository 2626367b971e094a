/* Plateau and edge detection over latency curves, and the attribution of
 * edges to caches or TLBs (see edges.h and docs/METHOD.md).
 */
#include "probes/edges.h"
#include "probes/fmt.h"

// Constants

/* An edge found in one curve, between two of its plateaus. */
struct curve_edge {
	size_t curve;
	uint64_t below, above;    /* last size on the lower plateau, first size past it */
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

// Private Functions

static int is_finite_positive(double v)
{
	/* NaN fails every comparison; the bound rejects infinity. */
	return v > 0.0 && v < 1e300;
}

/* The envelope is non-decreasing, so a plateau's points are already sorted
   and the median is the middle one. */
static double median_sorted(const double *v, size_t first, size_t last)
{
	size_t n = last - first + 1, mid = first + n / 2;

	return (n & 1) ? v[mid] : (v[mid - 1] + v[mid]) / 2.0;
}

/* A point whose own reading lies far above what a later size read was
   disturbed: the envelope bounds it, but two such points side by side
   must not make a plateau, so an unsteady point stands alone. */
static int is_steady(const struct curve *c, const double *ns, size_t k)
{
	return c->pt[k].ns <= ns[k] * (1.0 + EDGES_PLATEAU_TOLERANCE);
}

static void set_level(struct plateau *p, const double *ns, const double *cycles)
{
	p->ns = median_sorted(ns, p->first, p->last);
	p->cycles = median_sorted(cycles, p->first, p->last);
}

static int brackets_overlap(const struct curve_edge *a, const struct curve_edge *b)
{
	/* Adjacent sweep points overlap at their shared size: one point of
	   slack, since an edge read at 32-48 KiB in one curve and 48-64 KiB in
	   another is one capacity seen through two grids of noise. */
	return a->below <= b->above && b->below <= a->above;
}

/* A curve can only say "no edge here" where it has plateaus on both sides
   of the sizes: a curve that ends, or turns to unsteady points, before the
   upper size has not judged the edge at all. */
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
	return low && high;
}

/* Where between two plateaus the edge stands. A sharp step has no points
   between them; a spread one (set conflicts near capacity, a TLB step
   running into a cache step) has transition points, and the edge is put
   where the curve crosses the geometric mean of the two levels: the last
   point still nearer the lower level (on the log scale the chart uses) is
   the largest size that still behaved like it. */
static void edge_bracket(const struct curve *c, const double *ns, const struct plateau *lo,
			 const struct plateau *hi, uint64_t *below, uint64_t *above)
{
	size_t k = lo->last + 1;

	while (k < hi->first && ns[k] * ns[k] < lo->ns * hi->ns)
		k++;
	*below = c->pt[k - 1].bytes;
	*above = c->pt[k].bytes;
}

static size_t find_edges(const struct curve *curves, size_t ncurves,
			 const struct curve_plateau_set *ps, struct curve_edge *edges)
{
	double ns[EDGES_MAX_POINTS], cycles[EDGES_MAX_POINTS];
	size_t nedges = 0;

	for (size_t i = 0; i < ncurves; i++) {
		const struct plateau *p = ps[i].p;

		curve_envelope(&curves[i], ns, cycles);
		for (size_t k = 0; k + 1 < ps[i].n && nedges < MAX_EDGES; k++) {
			struct curve_edge *e = &edges[nedges++];
			e->curve = i;
			edge_bracket(&curves[i], ns, &p[k], &p[k + 1], &e->below, &e->above);
			e->lower = p[k];
			e->upper = p[k + 1];
			e->cluster = -1;
		}
	}
	return nedges;
}

/* Distance between two edges on the size axis, as a ratio >= 1. */
static double edge_distance(const struct curve_edge *a, const struct curve_edge *b)
{
	double x = (double)a->below + (double)a->above, y = (double)b->below + (double)b->above;

	return x > y ? x / y : y / x;
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
			    curve_judges(&curves[i], &ps[i], edges[a].below, edges[a].above))
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

/* The member seen with the largest pages: its curve has the fewest TLB
   effects mixed into the cache levels' latencies. */
static int reference_member(const struct curve *curves, const struct cluster *c)
{
	int ref = -1;

	for (size_t i = 0; i < EDGES_MAX_CURVES; i++)
		if (c->member[i] >= 0 &&
		    (ref < 0 || curves[i].page_shift > curves[ref].page_shift))
			ref = (int)i;
	return c->member[ref];
}

static const struct curve_edge *add_cache_level(struct hierarchy *h, const struct curve *curves,
						const struct curve_edge *edges,
						const struct cluster *c, enum level_kind kind)
{
	const struct curve_edge *ref = &edges[reference_member(curves, c)];
	uint64_t below = 0, above = UINT64_MAX;
	struct level *l = new_level(h);

	if (!l)
		return 0;
	/* Every curve saw the same capacity: it fit at the largest "below" and
	   missed at the smallest "above". Where the two grids disagree by a
	   point, the reference curve's own bracket stands. */
	for (size_t i = 0; i < EDGES_MAX_CURVES; i++) {
		if (c->member[i] < 0)
			continue;
		if (edges[c->member[i]].below > below)
			below = edges[c->member[i]].below;
		if (edges[c->member[i]].above < above)
			above = edges[c->member[i]].above;
	}
	if (below >= above) {
		below = ref->below;
		above = ref->above;
	}
	l->kind = kind;
	l->page_shift = curves[ref->curve].page_shift;
	l->size_bytes = below;
	l->next_bytes = above;
	l->ns = ref->lower.ns;
	l->cycles = ref->lower.cycles;
	l->points = (unsigned)(ref->lower.last - ref->lower.first + 1);
	l->seen_in = c->seen;
	return ref;
}

/* An edge missing from some curve is a TLB edge, unless one of its curves
   would need fewer than EDGES_MIN_TLB_ENTRIES entries to explain it: then it
   is a cache edge that a nearby TLB edge hid in the smaller pages' curve. */
static int is_hidden_cache_edge(const struct curve *curves, const struct curve_edge *edges,
				const struct cluster *c)
{
	for (size_t i = 0; i < EDGES_MAX_CURVES; i++)
		if (c->member[i] >= 0 &&
		    (edges[c->member[i]].below >> curves[i].page_shift) < EDGES_MIN_TLB_ENTRIES)
			return 1;
	return 0;
}

static void add_tlb_level(struct hierarchy *h, const struct curve *curves,
			  const struct curve_edge *e, int seen)
{
	struct level *l = new_level(h);

	if (!l)
		return;
	l->kind = LEVEL_TLB;
	mp_strlcpy(l->name, "TLB", sizeof l->name);
	l->page_shift = curves[e->curve].page_shift;
	l->size_bytes = e->below;
	l->next_bytes = e->above;
	l->entries = e->below >> l->page_shift;
	l->ns = e->upper.ns;
	l->cycles = e->upper.cycles;
	l->increase_ns = e->upper.ns - e->lower.ns;
	l->increase_cycles = e->upper.cycles - e->lower.cycles;
	l->points = (unsigned)(e->upper.last - e->upper.first + 1);
	l->seen_in = seen;
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

/* Names the cache sequence, chains the increases, and appends the top:
   the plateau above the last edge in the reference curve. */
static void finish_sequence(struct hierarchy *h, size_t nseq, const struct curve *curves,
			    const struct curve_edge *last_edge, const struct curve *top_curve)
{
	unsigned cache_no = 0, edge_no = 0;
	struct plateau p[EDGES_MAX_PLATEAUS];
	struct level *top;

	sort_by_size(h->level, nseq);
	for (size_t i = 0; i < nseq; i++) {
		struct level *l = &h->level[i];
		if (l->kind == LEVEL_CACHE)
			mp_snprintf(l->name, sizeof l->name, "L%u", ++cache_no);
		else
			mp_snprintf(l->name, sizeof l->name, "edge %u", ++edge_no);
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
		top->next_bytes = curves[last_edge->curve].pt[last_edge->upper.last].bytes;
		top->points = (unsigned)(last_edge->upper.last - last_edge->upper.first + 1);
	} else if (curve_plateaus(top_curve, p, EDGES_MAX_PLATEAUS)) {
		/* No edge at all: the sweep stayed on one plateau. */
		top->ns = p[0].ns;
		top->cycles = p[0].cycles;
		top->size_bytes = top_curve->pt[p[0].first].bytes;
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

// Public Functions

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

void curve_envelope(const struct curve *c, double *ns_out, double *cycles_out)
{
	double ns_min = 0.0, cy_min = 0.0;

	for (size_t k = c->n; k-- > 0;) {
		if (k == c->n - 1 || c->pt[k].ns < ns_min)
			ns_min = c->pt[k].ns;
		if (k == c->n - 1 || c->pt[k].cycles < cy_min)
			cy_min = c->pt[k].cycles;
		ns_out[k] = ns_min;
		cycles_out[k] = cy_min;
	}
}

size_t curve_plateaus(const struct curve *c, struct plateau *out, size_t max)
{
	double ns[EDGES_MAX_POINTS], cycles[EDGES_MAX_POINTS];
	size_t count = 0, start = 0;

	if (!c->n || !max)
		return 0;
	curve_envelope(c, ns, cycles);
	for (size_t k = 1; k <= c->n; k++) {
		struct plateau p;

		if (k < c->n && is_steady(c, ns, start) && is_steady(c, ns, k) &&
		    ns[k] <= ns[start] * (1.0 + EDGES_PLATEAU_TOLERANCE))
			continue;
		/* The run [start, k-1] closes. */
		p.first = start;
		p.last = k - 1;
		start = k;
		if (p.last - p.first + 1 < EDGES_MIN_PLATEAU_POINTS)
			continue;
		set_level(&p, ns, cycles);
		/* The rise is judged across the gap, from the last point of the
		   plateau below to the first of this one: comparing the levels
		   instead lets a slow drift, split into short runs, read as a
		   staircase of edges. */
		if (count && ns[p.first] < ns[out[count - 1].last] * EDGES_RISE_FACTOR) {
			/* Drift, not an edge: one plateau, transition points and all. */
			out[count - 1].last = p.last;
			set_level(&out[count - 1], ns, cycles);
			continue;
		}
		if (count < max)
			out[count++] = p;
	}
	return count;
}

void hierarchy_find(const struct curve *curves, size_t ncurves, struct hierarchy *h)
{
	static struct curve_edge edges[MAX_EDGES];
	static struct cluster cl[MAX_EDGES];
	static struct curve_plateau_set ps[EDGES_MAX_CURVES];
	const struct curve_edge *last_edge = 0;
	const struct curve *top_curve = 0;
	size_t nedges, ncl, nseq;

	h->nlevels = 0;
	h->truncated = 0;
	if (ncurves > EDGES_MAX_CURVES) {
		ncurves = EDGES_MAX_CURVES;
		h->truncated = 1;
	}
	h->attributed = ncurves > 1;
	for (size_t i = 0; i < ncurves; i++)
		if (!top_curve || curves[i].page_shift > top_curve->page_shift)
			top_curve = &curves[i];

	for (size_t i = 0; i < ncurves; i++)
		ps[i].n = curve_plateaus(&curves[i], ps[i].p, EDGES_MAX_PLATEAUS);
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
		else if (is_hidden_cache_edge(curves, edges, &cl[k]))
			ref = add_cache_level(h, curves, edges, &cl[k], LEVEL_CACHE);
		if (ref && (!last_edge || ref->below > last_edge->below))
			last_edge = ref;
	}
	nseq = h->nlevels;
	finish_sequence(h, nseq, curves, last_edge, top_curve);

	/* Then the TLB edges: seen in some curves, not all that judged them. */
	for (size_t k = 0; k < ncl; k++) {
		if (cl[k].seen == cl[k].judged || is_hidden_cache_edge(curves, edges, &cl[k]))
			continue;
		for (size_t i = 0; i < ncurves; i++)
			if (cl[k].member[i] >= 0)
				add_tlb_level(h, curves, &edges[cl[k].member[i]], cl[k].seen);
	}
}
