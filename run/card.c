/* The card (see card.h, docs/OUTPUT.md "summary.txt").
 *
 * Static buffers only, like results.c: the card is built at the run's end,
 * when a probe buffer may still hold nearly all memory.
 */

#include "run/card.h"
#include "probes/geometry.h"
#include "probes/sweep.h"
#include "lib/fmt.h"
#include "core/platform.h"
#include "lib/json.h"
#include "lib/machine.h"
#include "lib/median.h"
#include "results/report_html.h"
#include "results/results.h"
#include "core/probe.h"

/* ---- Constants -------------------------------------------------------- */

#define LINE_BYTES 64.0
#define MAX_TRUST_TEXT 1024
/* The trust line's most lines, and the fewest it keeps when the levels
   and the bottom lines fill the card. */
#define CARD_TRUST_LINES 6
#define CARD_TRUST_MIN 2

/* ---- Private Data ----------------------------------------------------- */

static struct card_rows run_rows;
static struct card run_card;
static char run_text[CARD_TEXT_MAX];
static size_t run_len;
static int run_built;           /* card_run built run_card */
static char run_machine[CARD_LONG_LINE];
static char run_cpu[CARD_LONG_LINE];

/* ---- Private Functions ------------------------------------------------ */

static int same(const char *a, const char *b)
{
	return a && b && mp_strcmp(a, b) == 0;
}

/* ---- Noise ----------------------------------------------------------- */

/* The chase point of curve (tlb, page_shift) at bytes; with dir -1 or +1,
   the curve's nearest point below or above bytes instead. NULL if none. */
static const struct card_point *point_near(const struct card_rows *r, unsigned tlb,
					   unsigned page_shift, uint64_t bytes, int dir)
{
	const struct card_point *best = 0;

	for (size_t i = 0; r && i < r->npt; i++) {
		const struct card_point *p = &r->pt[i];

		if (p->tlb != tlb || p->page_shift != page_shift)
			continue;
		if (!dir && p->bytes == bytes)
			return p;
		if (dir < 0 && p->bytes < bytes && (!best || p->bytes > best->bytes))
			best = p;
		if (dir > 0 && p->bytes > bytes && (!best || p->bytes < best->bytes))
			best = p;
	}
	return best;
}

/* How far the point's own trials could move its reading, as a fraction:
   its spread (the best three trials' distance), or, where the size was
   measured twice (revisited), the distance between the two readings if
   that is larger. */
static double point_doubt(const struct card_point *p)
{
	double twice = p->ns > 0 ? p->ns_hi / p->ns - 1 : 0;

	return p->spread > twice ? p->spread : twice;
}

/* How far the trials could move a median of readings: the median of each
   reading moved up by its doubt, over the median of the readings, less 1.
   0 with no reading. */
static double median_move(const double *ns, const double *doubt, size_t n)
{
	static double v[CARD_MAX_PAIRS], up[CARD_MAX_PAIRS];
	double m;

	if (n > CARD_MAX_PAIRS)
		n = CARD_MAX_PAIRS;
	for (size_t i = 0; i < n; i++) {
		v[i] = ns[i];
		up[i] = ns[i] * (1 + doubt[i]);
	}
	if (!n || (m = median_of(v, n)) <= 0)
		return 0;
	return median_of(up, n) / m - 1;
}

/* How far the trials could move the latency of a plateau whose points
   lie in [from, to] of the curve: a plateau's level is the median of its
   points, so one noisy point cannot move it, and most of them must. */
static double plateau_move(const struct card_rows *r, unsigned tlb, unsigned page_shift,
			   uint64_t from, uint64_t to)
{
	static double ns[CARD_MAX_POINTS], doubt[CARD_MAX_POINTS];
	size_t n = 0;

	for (size_t i = 0; r && i < r->npt; i++) {
		const struct card_point *p = &r->pt[i];

		if (p->tlb == tlb && p->page_shift == page_shift && p->bytes >= from &&
		    p->bytes <= to && p->ns > 0) {
			ns[n] = p->ns;
			doubt[n++] = point_doubt(p);
		}
	}
	return median_move(ns, doubt, n);
}

/* Whether the trials at the two points around a step could carry its
   half-height crossing (between the level's ns and upper_ns) to another
   sweep interval that lies more than CARD_NOISY_MOVE from the size: the
   point before the crossing, read up by its doubt, reaching the half
   height, or the point past it, read down by its doubt, falling under. */
static int size_moves(const struct card_rows *r, const struct level *l, double upper_ns)
{
	unsigned tlb = l->kind == LEVEL_TLB;
	const struct card_point *b = point_near(r, tlb, l->page_shift, l->below_bytes, 0);
	const struct card_point *n = point_near(r, tlb, l->page_shift, l->next_bytes, 0);
	/* The half height is the geometric mean: compared squared. */
	double half2 = l->ns * upper_ns, size = (double)l->size_bytes, up, down;

	if (!b || !n || l->ns <= 0 || upper_ns <= l->ns)
		return 0;
	up = b->ns * (1 + point_doubt(b));
	down = n->ns / (1 + point_doubt(n));
	if (up * up >= half2) {
		/* The crossing would lie below b: at most b, or the point
		   before it when the size is b's. */
		const struct card_point *p = point_near(r, tlb, l->page_shift, b->bytes, -1);
		double to = size > (double)b->bytes ? (double)b->bytes : p ? (double)p->bytes : 0;

		if (to <= 0 || size / to > 1 + CARD_NOISY_MOVE)
			return 1;
	}
	return down * down < half2 && (double)n->bytes / size > 1 + CARD_NOISY_MOVE;
}

/* The levels either side of level i in its sequence: the caches, edges
   and the top form one, each page size's TLB levels (walks included)
   another. NULL where there is none. */
static void neighbours(const struct analysis *a, size_t i, const struct level **below,
		       const struct level **above)
{
	const struct level *l = &a->h.level[i];
	int tlb = l->kind == LEVEL_TLB;

	*below = *above = 0;
	for (size_t k = 0; k < a->h.nlevels; k++) {
		const struct level *o = &a->h.level[k];

		if ((o->kind == LEVEL_TLB) != tlb || (tlb && o->page_shift != l->page_shift))
			continue;
		if (k < i)
			*below = o;
		else if (k > i && !*above)
			*above = o;
	}
}

/* Whether TLB level l's miss cost is read off a pause in a climb: from
   the first point past its step (range_hi, the first within tolerance of
   the level above), the points that stay under `upper` (the plateau above
   as the analysis read it) by EDGES_PLATEAU_TOLERANCE span less than half
   an octave (MISS_PAUSE_SPAN) before the curve rises on, short of the next
   level's step (or of the sweep's end). The cost is that pause's height,
   and where the climb pauses moves from run to run: on the Zen 5 VM two
   quiet runs read the 4 KiB step past 4096 pages as +132 and +45 cycles,
   the first pausing at 149-156 cycles over 4608-5632 pages (0.3 octave),
   the second at 68 over 4608-5120, each then climbing to 240-285 by 16384
   pages. The Emerald Rapids machine's STLB step paused at 47-50 cycles
   over 2304-4096 pages (0.8 octave) before walks crept up to 66 by 16384,
   and read +9.59 and +9.61 ns in two runs: a steady figure, not starred.
   A sweep that ends on the pause has not shown it short, and is left
   alone. */
#define MISS_PAUSE_SPAN 1.4142135623730951   /* half an octave */
static int miss_in_climb(const struct card_rows *r, const struct level *l,
			 const struct level *above, double upper)
{
	uint64_t to = above ? above->below_bytes : UINT64_MAX;
	const struct card_point *first = point_near(r, 1, l->page_shift, l->range_hi, 0), *p, *last;

	if (!first)
		first = point_near(r, 1, l->page_shift, l->range_hi, 1);
	if (!first || upper <= 0)
		return 0;
	last = first;
	for (p = point_near(r, 1, l->page_shift, first->bytes, 1); p && p->bytes <= to;
	     p = point_near(r, 1, l->page_shift, p->bytes, 1)) {
		if (p->ns > upper * (1 + EDGES_PLATEAU_TOLERANCE))
			return (double)last->bytes < MISS_PAUSE_SPAN * (double)first->bytes;
		last = p;
	}
	return 0;
}

/* Whether a cache level's latency over [from, to] reads over
   CARD_NOISY_MOVE lower with smaller pages than with larger ones, at the
   median of the sizes both latency curves measured, in cycles
   (curves_cycles_ratio). Larger pages can only spare TLB
   misses, so smaller pages reading faster is the two buffers' placement:
   each is one draw of where its lines fall in a physically indexed cache,
   and another run draws again. On the Zen 5 VM one quiet run's L3 read
   15.6 ns from its 4 KiB curve, a third under its 2 MiB curve at the same
   sizes; the next two runs read 17.3 and 17.4. In ns a core clock that
   moved between the two curves read as placement: on the Emerald Rapids
   VM a quick run starred its L1 (a cache indexed within a 4 KiB page,
   where placement cannot matter), 5.0 cycles in both curves. */
static int placement_moves(const struct analysis *a, uint64_t from, uint64_t to)
{
	for (size_t s = 0; s < a->ncurves; s++)
		for (size_t l = 0; l < a->ncurves; l++) {
			double q = a->curve[s].page_shift < a->curve[l].page_shift
				? curves_cycles_ratio(&a->curve[s], &a->curve[l], from, to) : 0;

			if (q > 0 && q * (1 + CARD_NOISY_MOVE) < 1)
				return 1;
		}
	return 0;
}

/* Whether cache level i is a share of its cache that the guest of a
   hypervisor reads: it differs from its claim, and it is the last cache
   level the guest reads or its whole range lies below the claim. The
   guest does not get the cache the CPU claims, and the share it gets
   moves with where the host put its pages and with what its neighbours
   run (on the same core, a sibling thread's use of L1 and L2), none of
   which one run can see. On the Zen 5 VM five quiet quick runs over two
   days read its L3 at 14.9, 15.6, 17.3, 17.4 and 18.5 ns, two back to
   back 24 % apart with nothing in either run's readings to say so; the
   Zen 3 VM's at 4-16 MiB (NOTES.md). Of five quick runs back to back, the
   last two read the 48 KiB L1 at 40 and 32 KiB, both curves of the
   second smeared alike over 28 to 44 KiB. */
static int guest_share(const struct analysis *a, size_t i, const struct level *above)
{
	const struct level_check *chk = &a->check[i];

	return a->have_claims && a->claims.hypervisor && analysis_verdict(a, i) == VERDICT_DIFFERS &&
	       (!above || above->kind == LEVEL_TOP ||
		(chk->cache && a->h.level[i].range_hi < chk->cache->size_bytes));
}

/* Whether the range's end on one side of the claim stays there under the
   trials: the level's points strictly between the claim and that end of
   the step, each moved toward the other level by its doubt, still read
   as part way up (over EDGES_PLATEAU_TOLERANCE from the level they would
   have to join). above: the points past the claim, which would have to
   read as fitting (within the tolerance of ns, the level's own) to carry
   the range's low end past it; else those up to the claim, which would
   have to read as missing (within it of upper_ns). */
static int claim_end_holds(const struct card_rows *r, const struct level *l, uint64_t claim,
			   double upper_ns, int above)
{
	unsigned tlb = l->kind == LEVEL_TLB;

	for (size_t i = 0; r && i < r->npt; i++) {
		const struct card_point *p = &r->pt[i];

		if (p->tlb != tlb || p->page_shift != l->page_shift || p->ns <= 0)
			continue;
		if (above && p->bytes > claim && p->bytes < l->range_hi &&
		    p->ns / (1 + point_doubt(p)) <= l->ns * (1 + EDGES_PLATEAU_TOLERANCE))
			return 0;
		if (!above && p->bytes <= claim && p->bytes > l->range_lo &&
		    p->ns * (1 + point_doubt(p)) * (1 + EDGES_PLATEAU_TOLERANCE) >= upper_ns)
			return 0;
	}
	return 1;
}

/* Whether level i's size is its claim, held there by a range that the
   trials cannot move off it: the verdict agrees and the claim lies over
   CARD_NOISY_MOVE inside each end of the range (a smeared level's fit,
   a sharp step's two sweep sizes), or nearer, where the points between
   the claim and that end could not read otherwise (claim_end_holds).
   Such a level reads the claim in every run whose range still holds it
   (analysis.c's name_by_claim), so a crossing that a noisy point moves
   does not move its size. On the Zen 5 VM the L2's step smears over
   384 KiB to 1.5 MiB, a 704 KiB point read with a spread of 146 %, and
   the size read 1 MiB, its claim, in every one of nine quiet runs. On the
   Emerald Rapids VM the 96-entry L1 DTLB's step smears from 96 to 128
   pages, its claim the range's low end, and 104 pages read a third over
   the level with a spread of 1 %: three quick runs of five starred it
   for the crossing at 104 .. 112, a size the claim's name never takes. */
static int size_held_by_claim(const struct card_rows *r, const struct analysis *a, size_t i,
			      double upper_ns)
{
	const struct level *l = &a->h.level[i];
	const struct level_check *chk = &a->check[i];
	uint64_t claim = chk->cache ? chk->cache->size_bytes
		: chk->tlb ? (uint64_t)chk->tlb->entries << l->page_shift : 0;

	if (!claim || l->size_bytes != claim || analysis_verdict(a, i) != VERDICT_AGREES ||
	    claim < l->range_lo || claim > l->range_hi)
		return 0;
	return ((double)claim >= (double)l->range_lo * (1 + CARD_NOISY_MOVE) ||
		claim_end_holds(r, l, claim, upper_ns, 1)) &&
	       ((double)claim * (1 + CARD_NOISY_MOVE) <= (double)l->range_hi ||
		claim_end_holds(r, l, claim, upper_ns, 0));
}

/* Whether another page size's latency curve crosses cache level l's half
   height (between l->ns and upper_ns, from the level below's edge on) over
   CARD_NOISY_MOVE away from l's size: its first point surely past (read
   down by its doubt) at or under size / (1 + CARD_NOISY_MOVE), or its
   last point surely before (read up) at or over size x (1 +
   CARD_NOISY_MOVE). A cache is the same cache in every curve, so two
   curves that place it apart say the capacity moved while the run read
   it: a sibling thread's share of a core's cache, or a neighbour's. On the
   Zen 5 VM a latency quick run's 2 MiB curve stepped at 40 .. 44 KiB, a
   few minutes after its 4 KiB curve had held 48 KiB (1.21 ns) and stepped
   at 52 KiB; the card read L1 40 KiB, where other runs read 48. */
static int curves_disagree(const struct card_rows *r, const struct analysis *a,
			   const struct level *l, const struct level *below, double upper_ns)
{
	double half2 = l->ns * upper_ns, size = (double)l->size_bytes;
	uint64_t from = below ? below->next_bytes : 0;

	if (!r || l->ns <= 0 || upper_ns <= l->ns)
		return 0;
	for (size_t c = 0; c < a->ncurves; c++) {
		unsigned shift = a->curve[c].page_shift;
		const struct card_point *past = 0, *before = 0;

		for (size_t i = 0; shift != l->page_shift && i < r->npt; i++) {
			const struct card_point *p = &r->pt[i];
			double down = p->ns / (1 + point_doubt(p));

			if (!p->tlb && p->page_shift == shift && p->bytes >= from &&
			    down * down >= half2 && (!past || p->bytes < past->bytes))
				past = p;
		}
		for (size_t i = 0; past && i < r->npt; i++) {
			const struct card_point *p = &r->pt[i];
			double up = p->ns * (1 + point_doubt(p));

			if (!p->tlb && p->page_shift == shift && p->bytes >= from &&
			    p->bytes < past->bytes && up * up < half2 &&
			    (!before || p->bytes > before->bytes))
				before = p;
		}
		if (past && ((double)past->bytes * (1 + CARD_NOISY_MOVE) <= size ||
			     (before && (double)before->bytes >= size * (1 + CARD_NOISY_MOVE))))
			return 1;
	}
	return 0;
}

/* Whether the trials that decided cache or TLB level i could move its
   size or its latency by more than CARD_NOISY_MOVE. Its latency is decided
   by the points of its plateau (from the first past the edge below to the
   last before its own), its size by the two points around its edge
   (size_moves) against the plateau above (the next level's latency; for
   the last TLB, its own plus the miss cost) and, for a cache, by where
   the other page sizes' curves cross (curves_disagree), unless the claim
   holds it (size_held_by_claim); a TLB's miss cost by the plateau past
   its step (miss_in_climb). Two more that one run's trials
   cannot show, read from the run's own data: a cache level whose smaller
   pages read faster than its larger ones (placement_moves), a guest's
   share of a cache, differing from its claim (guest_share), and under a
   host whose small pages the data show (host_page_signs), a TLB level
   whose miss costs a walk (analysis_miss_walks): the host's two-level walk
   hangs on where the host's tables sit, which no guest holds still (the
   Zen 5 VM's 2 MiB L1 DTLB miss read 24.1, 19.4 and 16.5 ns in three quiet
   runs). Memory's: add_top. */
static int level_noisy(const struct card_rows *r, const struct analysis *a, size_t i)
{
	const struct level *l = &a->h.level[i], *below, *above;
	unsigned tlb = l->kind == LEVEL_TLB;
	double upper;

	neighbours(a, i, &below, &above);
	if (plateau_move(r, tlb, l->page_shift, below ? below->next_bytes : 0, l->below_bytes) >
	    CARD_NOISY_MOVE)
		return 1;
	if (!tlb && (placement_moves(a, below ? below->next_bytes : 0, l->below_bytes) ||
		     guest_share(a, i, above)))
		return 1;
	if (tlb && a->host_page_signs && analysis_miss_walks(a, i))
		return 1;
	upper = above ? above->ns : l->ns + l->increase_ns;
	if (!size_held_by_claim(r, a, i, upper) &&
	    (size_moves(r, l, upper) || (!tlb && curves_disagree(r, a, l, below, upper))))
		return 1;
	return tlb && miss_in_climb(r, l, above, upper);
}

/* ---- Bandwidth -------------------------------------------------------- */

/* The read series the bandwidth levels were read from, at its largest page
   size; NULL when bandwidth did not run. */
static const struct bandwidth_series *read_series(const struct bandwidth_curves *b)
{
	const struct bandwidth_series *best = 0;

	for (size_t i = 0; i < b->nseries; i++)
		if (b->levels_from[0] && same(b->series[i].variant, b->levels_from) &&
		    b->series[i].n && (!best || b->series[i].page_shift > best->page_shift))
			best = &b->series[i];
	return best;
}

/* The same variant on every core: levels_from followed by "_xN", the
   largest page size; NULL when none ran. */
static const struct bandwidth_series *all_core_series(const struct bandwidth_curves *b,
						      unsigned *cores)
{
	const struct bandwidth_series *best = 0;
	size_t n = mp_strlen(b->levels_from);

	for (size_t i = 0; n && i < b->nseries; i++) {
		const char *v = b->series[i].variant;
		unsigned count = 0;

		if (mp_strncmp(v, b->levels_from, n) || v[n] != '_' || v[n + 1] != 'x')
			continue;
		for (const char *p = v + n + 2; *p >= '0' && *p <= '9'; p++)
			count = count * 10 + (unsigned)(*p - '0');
		if (count > 1 && b->series[i].n &&
		    (!best || b->series[i].page_shift > best->page_shift)) {
			best = &b->series[i];
			*cores = count;
		}
	}
	return best;
}

/* The median of GB/s and of cycles per line over the series' points in
   (lo, hi]; the largest point at or below hi when none lies there. 0 when
   no point is at or below hi. */
static void level_bandwidth(const struct bandwidth_series *s, uint64_t lo, uint64_t hi,
			    double *gb, double *cycles)
{
	double g[BANDWIDTH_MAX_POINTS], c[BANDWIDTH_MAX_POINTS];
	size_t n = 0, last = s->n;

	*gb = *cycles = 0;
	for (size_t k = 0; k < s->n; k++) {
		if (s->bytes[k] <= (double)hi)
			last = k;
		if (s->bytes[k] > (double)lo && s->bytes[k] <= (double)hi) {
			g[n] = s->gb_per_s[k];
			c[n++] = s->cycles[k];
		}
	}
	if (!n && last < s->n) {
		g[n] = s->gb_per_s[last];
		c[n++] = s->cycles[last];
	}
	if (!n)
		return;
	*gb = median_of(g, n);
	*cycles = median_of(c, n);
}

/* Whether two ranges [lo, hi] meet. */
static int ranges_meet(uint64_t lo1, uint64_t hi1, uint64_t lo2, uint64_t hi2)
{
	return lo1 <= hi2 && lo2 <= hi1;
}

/* The latency and bandwidth edges of a cache level, held against each
   other: they agree when their ranges meet or they lie within
   BANDWIDTH_AGREE_FACTOR (the report's rule: one step of the bandwidth
   grid); else the level is uncertain, whatever the claim says (the two
   methods read two sizes, and the claim cannot choose between them). */
static void hold_bandwidth_edge(struct card_cache *k, const struct analysis *a,
				const struct level *l)
{
	const struct level *bw = bandwidth_edge_of(&a->bw, &a->h, l);
	uint64_t lat = l->named_by_claim ? l->read_bytes : l->size_bytes;
	uint64_t lo = l->range_lo ? l->range_lo : lat, hi = l->range_hi ? l->range_hi : lat;

	if (!bw || !bw->size_bytes || !lat)
		return;
	k->bw_edge_bytes = bw->size_bytes;
	if (ranges_meet(lo, hi, bw->range_lo ? bw->range_lo : bw->size_bytes,
			bw->range_hi ? bw->range_hi : bw->size_bytes))
		return;
	k->uncertain = (double)lat * BANDWIDTH_AGREE_FACTOR < (double)bw->size_bytes ||
		       (double)bw->size_bytes * BANDWIDTH_AGREE_FACTOR < (double)lat;
}

static void add_cache(struct card *c, const struct analysis *a, size_t i,
		      const struct card_rows *rows)
{
	const struct level *l = &a->h.level[i];
	const struct level_check *chk = &a->check[i];
	const struct bandwidth_series *s = read_series(&a->bw);
	const struct level *below, *above;
	struct card_cache *k;
	double cycles;

	if (c->ncaches >= CARD_MAX_CACHES)
		return;
	k = &c->cache[c->ncaches];
	mp_strlcpy(k->name, l->name, sizeof k->name);
	k->size_bytes = l->size_bytes;
	k->range_lo = l->range_lo;
	k->range_hi = k->edge_hi = l->range_hi;
	k->smeared = l->smeared;
	k->named_by_claim = l->named_by_claim;
	k->method = l->method;
	k->ns = l->ns;
	k->cycles = l->cycles;
	k->claim_bytes = chk->cache ? chk->cache->size_bytes : 0;
	k->verdict = analysis_verdict(a, i);
	neighbours(a, i, &below, &above);
	k->guest_share = guest_share(a, i, above);
	if (k->guest_share && k->claim_bytes > k->range_hi)
		k->range_hi = k->claim_bytes;
	k->noisy = level_noisy(rows, a, i);
	hold_bandwidth_edge(k, a, l);
	c->uncertain += k->uncertain;
	if (s) {
		/* Within the level, clear of the edges: above the level below,
		   up to half this one as its readings named it (a claim that
		   names a wide range's level, 32 MiB for a VM's usable L3 read
		   at 4 MiB, would take memory's points for the level's). */
		uint64_t lo = c->ncaches ? c->cache[c->ncaches - 1].size_bytes : 0;
		uint64_t size = l->named_by_claim ? l->read_bytes : l->size_bytes;

		level_bandwidth(s, lo, size / 2 > lo ? size / 2 : size, &k->gb_per_s, &cycles);
		k->bytes_per_cycle = cycles > 0 ? LINE_BYTES / cycles : 0;
	}
	c->noisy += k->noisy;
	c->smeared += k->smeared;
	c->ranged += k->smeared || k->named_by_claim || k->guest_share;
	c->ncaches++;
}

static void add_tlb(struct card *c, const struct analysis *a, size_t i,
		    const struct card_rows *rows)
{
	const struct level *l = &a->h.level[i];
	const struct level_check *chk = &a->check[i];
	struct card_tlb *t;

	if (c->ntlbs >= CARD_MAX_TLBS)
		return;
	t = &c->tlb[c->ntlbs];
	mp_strlcpy(t->name, l->name, sizeof t->name);
	t->page_shift = l->page_shift;
	t->entries = l->entries;
	t->reach_bytes = l->size_bytes;
	t->range_lo = l->range_lo >> l->page_shift;
	t->range_hi = l->range_hi >> l->page_shift;
	t->smeared = l->smeared;
	t->named_by_claim = l->named_by_claim;
	t->method = l->method;
	t->miss_ns = l->increase_ns;
	t->miss_cycles = l->increase_cycles;
	/* Only the claim of this level: a TLB no claim matched shows none
	   (its verdict says it differs from every claim for its pages). */
	t->claim_entries = chk->tlb ? chk->tlb->entries : 0;
	t->verdict = analysis_verdict(a, i);
	t->noisy = level_noisy(rows, a, i);
	c->noisy += t->noisy;
	c->smeared += t->smeared;
	c->ranged += t->smeared || t->named_by_claim;
	c->ntlbs++;
}

/* The latency curve of these pages; NULL when none. */
static const struct curve *latency_curve(const struct analysis *a, unsigned page_shift)
{
	for (size_t i = 0; i < a->ncurves; i++)
		if (a->curve[i].page_shift == page_shift)
			return &a->curve[i];
	return 0;
}

/* The top: memory's latency from the top level's curve at and past the
   floor, or, when the sweep stopped short of it, the level as the analysis
   read it, marked cached. */
static void add_top(struct card *c, const struct analysis *a, const struct level *l,
		    const struct card_rows *rows)
{
	const struct curve *cv = latency_curve(a, l->page_shift);
	double ns[EDGES_MAX_POINTS], cycles[EDGES_MAX_POINTS];
	struct level span = *l;
	size_t n = 0;

	c->have_top = 1;
	c->top_shift = l->page_shift;
	for (size_t k = 0; cv && c->memory_floor && k < cv->n; k++) {
		if (cv->pt[k].bytes < c->memory_floor)
			continue;
		if (!n)
			span.below_bytes = cv->pt[k].bytes;
		span.next_bytes = cv->pt[k].bytes;
		ns[n] = cv->pt[k].ns;
		cycles[n++] = cv->pt[k].cycles;
	}
	if (!n) {
		c->top_cached = 1;
		mp_strlcpy(c->top_name, l->name, sizeof c->top_name);
		c->top_from_bytes = l->size_bytes;
		c->top_to_bytes = cv && cv->n ? cv->pt[cv->n - 1].bytes : l->next_bytes;
		c->top_ns = l->ns;
		c->top_cycles = l->cycles;
		return;
	}
	mp_strlcpy(c->top_name, "memory", sizeof c->top_name);
	c->top_from_bytes = span.below_bytes;
	c->top_to_bytes = span.next_bytes;
	c->top_ns = median_of(ns, n);
	c->top_cycles = median_of(cycles, n);
	/* A median of the points at or past the floor: noisy when most of
	   them could move it (plateau_move), or when it stands over
	   CARD_NOISY_MOVE above the plateau the analysis read past the last
	   cache (l's own latency). Then the curve climbs on through memory:
	   the page walks leave the caches as the buffer grows, and what
	   memory's figure reads hangs on the size and, under a hypervisor, on
	   the host's tables. The Zen 5 VM's 2 MiB curve read 151-208 ns on
	   that plateau and climbed to 371-478 ns at 2 GiB in six quiet runs,
	   its memory figure moving 29 % between two of them; Emerald Rapids'
	   read 121-125 ns on it and 125-131 at 2 GiB. */
	c->top_noisy = plateau_move(rows, 0, l->page_shift, span.below_bytes, span.next_bytes) >
		       CARD_NOISY_MOVE || (l->ns > 0 && c->top_ns > l->ns * (1 + CARD_NOISY_MOVE));
	c->noisy += c->top_noisy;
}

/* The median GB/s of s's points at or past floor, the first of them in
   *from; 0 when none is (or floor is 0). */
static double read_past_floor(const struct bandwidth_series *s, uint64_t floor, uint64_t *from)
{
	double gb[BANDWIDTH_MAX_POINTS];
	size_t n = 0;

	for (size_t k = 0; floor && k < s->n; k++)
		if (s->bytes[k] >= (double)floor) {
			if (!n)
				*from = (uint64_t)s->bytes[k];
			gb[n++] = s->gb_per_s[k];
		}
	return n ? median_of(gb, n) : 0;
}

/* Memory's read bandwidth, one core and all, from the points at and past
   the floor; cached (the largest point's figure, kept off memory's line
   and figures) when the sweep stopped short of it. */
static void add_read(struct card *c, const struct analysis *a)
{
	const struct bandwidth_series *s = read_series(&a->bw), *all;
	uint64_t from = 0;

	if (!s)
		return;
	mp_strlcpy(c->read_variant, s->variant, sizeof c->read_variant);
	c->read_at_bytes = (uint64_t)s->bytes[s->n - 1];
	c->read_gb_one = read_past_floor(s, c->memory_floor, &c->read_from_bytes);
	if (!c->read_gb_one) {
		c->read_cached = 1;
		c->read_gb_one = s->gb_per_s[s->n - 1];
		c->read_from_bytes = c->read_at_bytes;
		return;
	}
	all = all_core_series(&a->bw, &c->all_cores);
	if (all)
		c->read_gb_all = read_past_floor(all, c->memory_floor, &from);
}

static void add_c2c(struct card *c, const struct card_rows *r)
{
	static double v[CARD_MAX_PAIRS];
	size_t n = r->nc2c;

	if (!n)
		return;
	c->c2c_min = c->c2c_max = r->c2c_ns[0];
	for (size_t i = 0; i < n; i++) {
		v[i] = r->c2c_ns[i];
		c->c2c_min = v[i] < c->c2c_min ? v[i] : c->c2c_min;
		c->c2c_max = v[i] > c->c2c_max ? v[i] : c->c2c_max;
	}
	c->c2c_pairs = r->c2c_pairs;
	c->c2c_median = median_of(v, n);
	c->c2c_noisy = median_move(r->c2c_ns, r->c2c_spread, n) > CARD_NOISY_MOVE;
}

/* The chase rows' clocks' tenth and ninetieth percentiles, and whether
   they span more than CARD_CLOCK_MOVE: a host or a turbo that moves the
   clock moves every ns figure with it while the cycles hold, and no
   level's trials can see that. */
static void add_clock(struct card *c, const struct card_rows *r)
{
	static double v[CARD_MAX_POINTS];
	size_t n = r->nclock;

	if (n < CARD_CLOCK_MIN_ROWS)
		return;
	mp_memcpy(v, r->clock_ghz, n * sizeof *v);
	c->clock_p10_ghz = kth_smallest(v, n, n / 10);
	c->clock_p90_ghz = kth_smallest(v, n, n - 1 - n / 10);
	c->clock_p50_ghz = median_of(v, n);
	c->clock_moved = c->clock_p90_ghz > c->clock_p10_ghz * (1 + CARD_CLOCK_MOVE);
}

/* Whether a busy line's figures (*have, of pages *shift) start over at
   a row of these pages: its first row, or a larger page size's. The
   largest page size's rows count, as for the memory line's latency (the
   fewest TLB misses mixed in), and the smaller pages' are left to the
   report. On an Emerald Rapids VM the card read "loaded p50 idle 232 ns
   (4K pages)" two lines under "memory latency 124.63 ns (... 2 MiB
   pages)": the 4 KiB chase's walks, not memory. */
static int larger_pages(int *have, unsigned *shift, unsigned page_shift)
{
	if (*have && page_shift <= *shift)
		return 0;
	*have = 1;
	*shift = page_shift;
	return 1;
}

/* A loaded row into the busy figures: the idle row, or a mix's point
   if it drew more than the mix's best so far, of the largest page size
   (larger_pages). */
static void busy_add_loaded(struct card_busy *b, const struct result_row *row)
{
	size_t m;

	if (larger_pages(&b->have_loaded, &b->loaded_shift, row->page_shift)) {
		b->idle_ns = 0;
		b->nmix = 0;
	}
	if (row->page_shift != b->loaded_shift || !(row->ns > 0))
		return;
	if (same(row->variant, "idle")) {
		b->idle_ns = row->ns;
		return;
	}
	for (m = 0; m < b->nmix && !same(b->mix[m].mix, row->variant); m++)
		;
	if (m == b->nmix) {
		if (m == CARD_MAX_MIXES)
			return;
		b->nmix++;
		mp_strlcpy(b->mix[m].mix, row->variant, sizeof b->mix[m].mix);
		b->mix[m].gb_per_s = -1;
	}
	if (row->load_gb_per_s.value > b->mix[m].gb_per_s) {
		b->mix[m].gb_per_s = row->load_gb_per_s.value;
		b->mix[m].ns = row->ns;
	}
}

/* A tails row into the busy figures: p50 and p99 of the largest working
   set at the largest page size (larger_pages). */
static void busy_add_tails(struct card_busy *b, const struct result_row *row)
{
	int p50 = same(row->variant, "p50"), p99 = same(row->variant, "p99");

	if (!(p50 || p99) || !(row->ns > 0))
		return;
	if (larger_pages(&b->have_tails, &b->tails_shift, row->page_shift)) {
		b->tails_bytes = 0;
		b->p50_ns = b->p99_ns = 0;
	}
	if (row->page_shift != b->tails_shift || row->working_set_bytes < b->tails_bytes)
		return;
	if (row->working_set_bytes > b->tails_bytes) {
		b->tails_bytes = row->working_set_bytes;
		b->p50_ns = b->p99_ns = 0;
	}
	if (p50)
		b->p50_ns = row->ns;
	else
		b->p99_ns = row->ns;
}

/* Lines of at most CARD_COLUMNS characters. */
struct lines {
	char line[2 * CARD_LINES][CARD_COLUMNS + 1];
	size_t n;
};

/* A line's text after its first card line, under the second column. */
#define CARD_INDENT "         "

/* How much of p goes on a line with `room` columns: all of it when it
   fits, else up to the last blank within room, so no word is cut (a
   single word longer than the line is cut at room: nothing else fits). */
static size_t wrap_cut(const char *p, size_t room)
{
	size_t cut = mp_strlen(p);

	if (cut <= room)
		return cut;
	for (cut = room; cut > 0 && p[cut] != ' '; cut--)
		;
	return cut ? cut : room;
}

/* One line of the card, or, when its text is longer than CARD_COLUMNS,
   as many as it takes, cut between words, each after the first under the
   second column (CARD_INDENT). */
static void line_add(struct lines *ls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line_add(struct lines *ls, const char *fmt, ...)
{
	char text[CARD_LONG_LINE + 2 * CARD_COLUMNS];
	const char *p = text, *lead = "";
	va_list ap;

	va_start(ap, fmt);
	mp_vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	do {
		size_t cut = wrap_cut(p, CARD_COLUMNS - mp_strlen(lead)), at;

		if (ls->n >= sizeof ls->line / sizeof *ls->line)
			return;
		mp_strlcpy(ls->line[ls->n], lead, sizeof ls->line[ls->n]);
		at = mp_strlen(lead);
		mp_strlcpy(ls->line[ls->n++] + at, p, cut + 1);
		p += cut;
		while (*p == ' ')
			p++;
		lead = CARD_INDENT;
	} while (*p);
}

/* "48 KiB", "-" for 0. */
static void bytes_or_dash(char *buf, size_t size, uint64_t v)
{
	if (v)
		mp_format_bytes(buf, size, v);
	else
		mp_strlcpy(buf, "-", size);
}

static void real_or_dash(char *buf, size_t size, const char *fmt, double v)
{
	if (v > 0)
		mp_snprintf(buf, size, fmt, v);
	else
		mp_strlcpy(buf, "-", size);
}

/* A name cut to fit its column. */
static void fit_name(char *buf, size_t width, const char *name)
{
	mp_strlcpy(buf, name, width + 1);
}

static const char *method_word(enum level_method m)
{
	switch (m) {
	case METHOD_SHARP: return "sharp";
	case METHOD_CROSSING: return "crossing";
	case METHOD_PLACEMENT_FIT: return "fit";
	case METHOD_NONE: break;
	}
	return "-";
}

/* A cache level's verdict word: "uncertain" where its latency and
   bandwidth edges disagree, else the claim's verdict. */
static const char *cache_verdict(const struct card_cache *k)
{
	return k->uncertain ? "uncertain" : verdict_name(k->verdict);
}

/* Whether any cache level has its ways measured: the ways column is shown
   only then (a run without the geometry probe would show "-" throughout). */
static int any_ways(const struct card *c)
{
	for (size_t i = 0; i < c->ncaches; i++)
		if (c->cache[i].ways)
			return 1;
	return 0;
}

/* Whether any cache level has its read bandwidth: the GB/s and B/cycle
   columns are shown only then (a run without the bandwidth probe would
   show "-" throughout). */
static int any_bandwidth(const struct card *c)
{
	for (size_t i = 0; i < c->ncaches; i++)
		if (c->cache[i].gb_per_s > 0)
			return 1;
	return 0;
}

/* The ways column's cell, blank-led to its width; "" when the column is
   left out. */
static void ways_cell(char *buf, size_t size, int shown, const char *text)
{
	if (shown)
		mp_snprintf(buf, size, " %4s", text);
	else
		buf[0] = 0;
}

/* The GB/s and B/cycle columns' cells, blank-led to their widths; "" when
   the columns are left out. */
static void bandwidth_cells(char *buf, size_t size, int shown, const char *gb, const char *bpc)
{
	if (shown)
		mp_snprintf(buf, size, " %7s %7s", gb, bpc);
	else
		buf[0] = 0;
}

static void cache_line(struct lines *ls, const struct card_cache *k, int show_ways,
		       int show_bandwidth)
{
	char name[9], size[24], ns[16], cyc[16], gb[16], bpc[16], claim[24], count[12], ways[16];
	char bw[40];

	fit_name(name, 8, k->name);
	mp_format_bytes(size, sizeof size, k->size_bytes);
	if (k->ways)
		mp_snprintf(count, sizeof count, "%u", k->ways);
	else
		mp_strlcpy(count, "-", sizeof count);
	ways_cell(ways, sizeof ways, show_ways, count);
	if (k->smeared || k->named_by_claim) {
		char s[24];
		mp_snprintf(s, sizeof s, "~%s", size);
		mp_strlcpy(size, s, sizeof size);
	}
	real_or_dash(ns, sizeof ns, "%.2f", k->ns);
	real_or_dash(cyc, sizeof cyc, "%.1f", k->cycles);
	real_or_dash(gb, sizeof gb, "%.1f", k->gb_per_s);
	real_or_dash(bpc, sizeof bpc, "%.2f", k->bytes_per_cycle);
	bytes_or_dash(claim, sizeof claim, k->claim_bytes);
	bandwidth_cells(bw, sizeof bw, show_bandwidth, gb, bpc);
	line_add(ls, "%-8s %10s %7s %6s%s%s %10s  %s%s", name, size, ns, cyc, ways, bw, claim,
		 cache_verdict(k), k->noisy ? " *" : "");
}

/* A claimed cache level no step was read as: its claim, dashes for the
   figures, "not seen". */
static void unread_line(struct lines *ls, const struct card_unread *u, int show_ways,
			int show_bandwidth)
{
	char claim[24], ways[16], bw[40];

	ways_cell(ways, sizeof ways, show_ways, "-");
	bandwidth_cells(bw, sizeof bw, show_bandwidth, "-", "-");
	mp_format_bytes(claim, sizeof claim, u->claim_bytes);
	line_add(ls, "%-8s %10s %7s %6s%s%s %10s  %s", u->name, "-", "-", "-", ways, bw, claim,
		 "not seen");
}

static void tlb_line(struct lines *ls, const struct card_tlb *t)
{
	char name[9], page[16], reach[24], miss[16], claim[16], entries[24];

	fit_name(name, 8, t->name);
	mp_format_bytes(page, sizeof page, 1ull << t->page_shift);
	mp_format_bytes(reach, sizeof reach, t->reach_bytes);
	mp_snprintf(entries, sizeof entries, "%s%llu",
		    t->smeared || t->named_by_claim ? "~" : "",
		    (unsigned long long)t->entries);
	real_or_dash(miss, sizeof miss, "%.1f", t->miss_cycles);
	if (t->claim_entries)
		mp_snprintf(claim, sizeof claim, "%u", t->claim_entries);
	else
		mp_strlcpy(claim, "-", sizeof claim);
	line_add(ls, "%-8s %7s %8s %10s %11s %11s  %s%s", name, page, entries, reach, miss, claim,
		 verdict_name(t->verdict), t->noisy ? " *" : "");
}

/* The trust items, "; "-joined, wrapped into at most max_lines lines of
   CARD_COLUMNS. */
static void trust_lines(struct lines *ls, const struct card *c, size_t max_lines)
{
	static char text[MAX_TRUST_TEXT];
	struct mp_text t = { text, sizeof text, 0 };
	char lo[24], hi[24];
	const char *p;
	size_t start = ls->n;

	text[0] = 0;
	if (c->noisy || c->c2c_noisy)
		mp_append(&t, "* another run may read it over %.0f%% otherwise: its trials, "
			  "placement, a guest's share or a climb of walks could move it (%u "
			  "figure%s)",
			  CARD_NOISY_MOVE * 100, c->noisy + c->c2c_noisy,
			  c->noisy + c->c2c_noisy == 1 ? "" : "s");
	else if (c->have_levels || c->c2c_pairs)
		mp_append(&t, "no figure's trials could move it by over %.0f%%",
			  CARD_NOISY_MOVE * 100);
	for (size_t i = 0; i < c->ncaches; i++) {
		const struct card_cache *k = &c->cache[i];
		char bw[24], claim[24];

		if (!k->uncertain)
			continue;
		mp_format_bytes_short(lo, sizeof lo, k->range_lo);
		mp_format_bytes_short(hi, sizeof hi, k->edge_hi);
		mp_format_bytes_short(bw, sizeof bw, k->bw_edge_bytes);
		if (k->claim_bytes)
			mp_format_bytes_short(claim, sizeof claim, k->claim_bytes);
		mp_append(&t, "%s%s uncertain: latency edge %s-%s, bandwidth edge %s, claim %s",
			  t.len ? "; " : "", k->name, lo, hi, bw, k->claim_bytes ? claim : "none");
	}
	if (c->run.known && !c->run.nmi_counted && !c->run.smi_counted)
		mp_append(&t, "%sNMIs and SMIs not counted", t.len ? "; " : "");
	else if (c->run.known) {
		char nmi[24], smi[24];

		if (c->run.nmi_counted)
			mp_snprintf(nmi, sizeof nmi, "%llu", (unsigned long long)c->run.nmi);
		else
			mp_strlcpy(nmi, "not counted", sizeof nmi);
		if (c->run.smi_counted)
			mp_snprintf(smi, sizeof smi, "%llu", (unsigned long long)c->run.smi);
		else
			mp_strlcpy(smi, "not counted", sizeof smi);
		mp_append(&t, "%sNMIs seen: %s, SMIs: %s", t.len ? "; " : "", nmi, smi);
	}
	if (c->run.trials_discarded)
		mp_append(&t, " (%llu trials measured again)",
			  (unsigned long long)c->run.trials_discarded);
	if (c->clock_moved)
		mp_append(&t, "%sthe core's clock read %.2f-%.2f GHz over the chases (their "
			  "middle 80%%): ns move with it, cycles do not", t.len ? "; " : "",
			  c->clock_p10_ghz, c->clock_p90_ghz);
	if (ifetch_half_claims(&c->ifetch))
		mp_append(&t, "%sITLB half: the claim's half, one thread's share where SMT "
			  "splits the ITLB and the other thread is busy", t.len ? "; " : "");
	if (ifetch_read_elsewhere(&c->ifetch))
		mp_append(&t, "%sITLB on CPU n: read again there, the run's own CPU having read "
			  "half the claim (a busy sibling thread's share)", t.len ? "; " : "");
	if (c->hypervisor)
		mp_append(&t, "%sunder a hypervisor", t.len ? "; " : "");
	/* The ranges last: the longest item, and report.txt's tables give
	   them all when the card cuts them. */
	if (c->ranged) {
		int first = 1;

		mp_append(&t, "%s~ smeared edge or the claimed size, the size within:",
			  t.len ? "; " : "");
		for (size_t i = 0; i < c->ncaches; i++) {
			const struct card_cache *k = &c->cache[i];
			if (!k->smeared && !k->named_by_claim && !k->guest_share)
				continue;
			mp_format_bytes_short(lo, sizeof lo, k->range_lo);
			mp_format_bytes_short(hi, sizeof hi, k->range_hi);
			mp_append(&t, "%s %s %s-%s (%s%s%s)", first ? "" : ",", k->name, lo, hi,
				  method_word(k->method), k->named_by_claim ? ", claimed" : "",
				  k->guest_share ? ", a guest's share: up to the claim" : "");
			first = 0;
		}
		for (size_t i = 0; i < c->ntlbs; i++) {
			const struct card_tlb *k = &c->tlb[i];
			if (!k->smeared && !k->named_by_claim)
				continue;
			mp_format_bytes_short(lo, sizeof lo, 1ull << k->page_shift);
			mp_append(&t, "%s %s %s %llu-%llu entries (%s%s)", first ? "" : ",", k->name,
				  lo, (unsigned long long)k->range_lo, (unsigned long long)k->range_hi,
				  method_word(k->method), k->named_by_claim ? ", claimed" : "");
			first = 0;
		}
	}
	if (!t.len)
		return;
	/* Words into lines: "trust: " and then an indent; at most
	   max_lines, the last ending in "..." when cut. */
	p = text;
	for (int first = 1; *p; first = 0) {
		if (ls->n - start == max_lines) {
			char *last = ls->line[ls->n - 1];
			size_t n = mp_strlen(last);

			/* Room for " ...", cut between words. */
			if (n > CARD_COLUMNS - 4)
				for (n = CARD_COLUMNS - 4; n > 7 && last[n] != ' '; n--)
					;
			mp_strlcpy(last + n, " ...", 5);
			break;
		}
		const char *lead = first ? "trust: " : "       ";
		size_t cut = wrap_cut(p, CARD_COLUMNS - mp_strlen(lead));
		char piece[CARD_COLUMNS + 1];

		mp_strlcpy(piece, p, cut + 1 < sizeof piece ? cut + 1 : sizeof piece);
		line_add(ls, "%s%s", lead, piece);
		p += cut;
		while (*p == ' ')
			p++;
	}
}

/* The instruction side's lines: the L1i, fetch bandwidth, each ITLB
   step, one line per page size (compact: its first step alone, and how
   many more report.txt gives). */
static void ifetch_lines(struct lines *ls, const struct card *c, int compact)
{
	const struct ifetch_findings *f = &c->ifetch;
	char size[16], claim[40], page[16];

	if (f->have_l1i) {
		mp_format_bytes_short(size, sizeof size, f->l1i.count);
		bytes_or_dash(claim, sizeof claim, f->l1i.claim);
		line_add(ls, "L1i      %s, miss +%.1f cycles/jump; claim %s, %s", size,
			 f->l1i.miss_cycles, claim, verdict_name(f->l1i.verdict));
	} else if (f->l1i_hidden_to) {
		mp_format_bytes_short(size, sizeof size, f->l1i_hidden_to);
		bytes_or_dash(claim, sizeof claim, f->l1i_claim);
		line_add(ls, "L1i      not seen: code ran as fast to %s, past the claim %s (an "
			 "op cache)", size, claim);
	}
	/* A footprint window with no point says so, never 0.0. */
	real_or_dash(size, sizeof size, "%.1f", f->fetch_l2_bytes_per_cycle);
	if (f->fetch_page_shift)
		line_add(ls, "fetch    %.1f B/cycle (%.2f insn/cycle) from L1i, %s from L2, "
			 "no claim", f->fetch_l1i_bytes_per_cycle,
			 f->fetch_l1i_insns_per_cycle, size);
	/* One line per page size, its steps in order: the first in words,
	   the others short. */
	for (size_t i = 0; i < f->ntlbs;) {
		char text[CARD_LONG_LINE];
		struct mp_text out = { text, sizeof text, 0 };
		unsigned shift = f->tlb[i].page_shift;

		mp_format_bytes_short(page, sizeof page, 1ull << shift);
		mp_append(&out, "ITLB %-4s", page);
		for (size_t first = i; i < f->ntlbs && f->tlb[i].page_shift == shift; i++) {
			const struct ifetch_level *t = &f->tlb[i];

			if (compact && i > first) {
				size_t more = 0;

				for (; i < f->ntlbs && f->tlb[i].page_shift == shift; i++)
					more++;
				mp_append(&out, " (+%zu)", more);
				break;
			}

			mp_format_bytes_short(size, sizeof size, t->count << t->page_shift);
			if (t->claim && t->read_again)
				mp_snprintf(claim, sizeof claim, "claim %llu, %s on CPU %u",
					    (unsigned long long)t->claim, verdict_name(t->verdict),
					    t->cpu);
			else if (t->claim)
				mp_snprintf(claim, sizeof claim, "claim %llu, %s%s",
					    (unsigned long long)t->claim, verdict_name(t->verdict),
					    t->half_claim ? " (half)" : "");
			else
				mp_strlcpy(claim, "no claim", sizeof claim);
			/* "+": read at the chain's end, still climbing. */
			mp_append(&out, i == first ? "%s%llu entries (%s), miss +%.1f%s cycles; %s"
				  : "%s%llu (%s) +%.1f%s; %s", i == first ? "" : " | ",
				  (unsigned long long)t->count, size, t->miss_cycles,
				  t->climbing ? "+" : "", claim);
		}
		line_add(ls, "%s", text);
	}
}

/* A loaded mix's name as the card gives it: "read3_write1" as "3:1"
   (reads to writes), "write_nt" as "nt write", others as they are. */
static void mix_short(char *buf, size_t size, const char *mix)
{
	const char *w = mix + 4;

	while (*w >= '0' && *w <= '9')
		w++;
	if (!mp_strcmp(mix, "write_nt"))
		mp_strlcpy(buf, "nt write", size);
	else if (!mp_strncmp(mix, "read", 4) && w > mix + 4 && !mp_strncmp(w, "_write", 6))
		mp_snprintf(buf, size, "%.*s:%s", (int)(w - mix - 4), mix + 4, w + 6);
	else
		mp_strlcpy(buf, mix, size);
}

/* The busy lines: the loaded curve (idle p50, then each mix's busiest
   point: its p50 at the most bandwidth drawn; compact: no page size, and
   the all-read and all-write mixes alone where either ran), memory's
   tail. */
static void busy_lines(struct lines *ls, const struct card_busy *b, uint64_t floor,
		       int tails_cached, int compact)
{
	char page[16], size[24], text[CARD_COLUMNS * 4], under[24];
	struct mp_text out = { text, sizeof text, 0 };
	int pure = 0;             /* compact, and a read or write mix to show alone */

	if (b->have_loaded && b->idle_ns > 0) {
		mp_format_bytes_short(page, sizeof page, 1ull << b->loaded_shift);
		mp_append(&out, "loaded   p50 idle %.0f ns", b->idle_ns);
		if (!compact)
			mp_append(&out, " (%s pages)", page);
		mp_append(&out, "%s", b->nmix ? "; busiest:" : "; no loader ran");
		for (size_t m = 0; m < b->nmix && compact; m++)
			pure |= !mp_strcmp(b->mix[m].mix, "read") || !mp_strcmp(b->mix[m].mix, "write");
		for (size_t m = 0, shown = 0; m < b->nmix; m++) {
			char mix[16];

			if (pure && mp_strcmp(b->mix[m].mix, "read") && mp_strcmp(b->mix[m].mix, "write"))
				continue;

			mix_short(mix, sizeof mix, b->mix[m].mix);
			mp_append(&out, shown++ ? ", %s %.0f at %.1f" : " %s %.0f ns at %.1f GB/s", mix,
				  b->mix[m].ns, b->mix[m].gb_per_s);
		}
		line_add(ls, "%s", text);
	}
	if (b->have_tails && b->p99_ns > 0) {
		mp_format_bytes(page, sizeof page, 1ull << b->tails_shift);
		mp_format_bytes(size, sizeof size, b->tails_bytes);
		mp_format_bytes(under, sizeof under, floor);
		if (tails_cached)
			line_add(ls, "tails    p99 %.1f ns, p50 %.1f ns at %s (%s pages): under 4 x "
				 "the largest cache (%s), not memory's", b->p99_ns, b->p50_ns, size,
				 page, under);
		else
			line_add(ls, "tails    memory p99 %.1f ns, p50 %.1f ns (%s, %s pages)",
				 b->p99_ns, b->p50_ns, size, page);
	}
}

/* One geometry figure on the card: "12 ways", with "(claim 8)" after it
   where the claim differs (not on an emulated CPU, whose figures are the
   emulator's), "-" for the number where not measurable. */
static void geometry_figure_text(struct mp_text *out, const struct geometry_figure *f,
				 const char *unit, int emulated)
{
	if (f->measured)
		mp_append(out, "%llu%s", (unsigned long long)f->measured, unit);
	else
		mp_append(out, "-%s", unit);
	if (f->verdict == GEOMETRY_DIFFERS && !emulated)
		mp_append(out, " (claim %llu)", (unsigned long long)f->claimed);
}

/* Counts a figure's verdict into agree (n[0]) and differ (n[1]). */
static void geometry_count(const struct geometry_figure *f, unsigned n[2])
{
	n[0] += f->verdict == GEOMETRY_AGREES;
	n[1] += f->verdict == GEOMETRY_DIFFERS;
}

/* The geometry line, where the probe ran: the line size and each cache
   level's ways x sets that were measured, what they say of the claims
   ("emulated" under TCG), then what was not measurable (report.txt says
   why); where nothing was, "geometry not measurable: line size, L1d, L2". */
static void geometry_line(struct lines *ls, const struct card *c)
{
	const struct geometry_results *g = &c->geometry;
	char text[CARD_LONG_LINE], none[64];
	struct mp_text out = { text, sizeof text, 0 }, unread = { none, sizeof none, 0 };
	unsigned n[2] = { 0, 0 }, shown = 0;

	if (!g->ran)
		return;
	mp_append(&out, "geometry");
	if (g->line.measured) {
		mp_append(&out, " line ");
		geometry_figure_text(&out, &g->line, " B", c->emulated);
		shown++;
	} else {
		mp_append(&unread, "line size");
	}
	geometry_count(&g->line, n);
	for (unsigned i = 0; i < g->nlevels; i++) {
		const struct geometry_level *l = &g->level[i];

		geometry_count(&l->ways, n);
		geometry_count(&l->sets, n);
		if (!l->ways.measured && !l->sets.measured) {
			mp_append(&unread, "%s%s", unread.len ? ", " : "", l->name);
			continue;
		}
		mp_append(&out, "%s%s ", shown++ ? ", " : " ", l->name);
		geometry_figure_text(&out, &l->ways, " ways", c->emulated);
		mp_append(&out, " x ");
		geometry_figure_text(&out, &l->sets, " sets", c->emulated);
	}
	if (!shown)
		mp_append(&out, " not measurable: %s", none);
	if (c->emulated)
		mp_append(&out, "; emulated");
	else if (n[1])
		mp_append(&out, "; %u differ%s from the claims", n[1], n[1] == 1 ? "s" : "");
	else if (n[0])
		mp_append(&out, "; as claimed");
	if (unread.len && shown)
		mp_append(&out, "; not measurable: %s", none);
	line_add(ls, "%s", text);
}

/* system.json's summary.geometry: one figure, its claim and verdict
   ("measured" and "claimed" left out where there is none). */
static void geometry_figure_json(struct json *j, const char *name,
				 const struct geometry_figure *f)
{
	json_object_begin(j, name);
	if (f->measured)
		json_u64(j, "measured", f->measured);
	if (f->claimed)
		json_u64(j, "claimed", f->claimed);
	json_string(j, "verdict", geometry_verdict_name(f->verdict));
	json_string(j, "how", f->why);
	json_object_end(j);
}

/* system.json's summary.geometry, where the probe ran. */
static void geometry_json(struct json *j, const struct geometry_results *g)
{
	if (!g->ran)
		return;
	json_object_begin(j, "geometry");
	geometry_figure_json(j, "line_bytes", &g->line);
	json_array_begin(j, "caches");
	for (unsigned i = 0; i < g->nlevels; i++) {
		json_object_begin(j, 0);
		json_string(j, "name", g->level[i].name);
		geometry_figure_json(j, "ways", &g->level[i].ways);
		geometry_figure_json(j, "sets", &g->level[i].sets);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "tlbs");
	for (unsigned i = 0; i < g->ntlbs; i++) {
		json_object_begin(j, 0);
		json_string(j, "name", g->tlb[i].name);
		json_u64(j, "page_size", 1ull << g->tlb[i].page_shift);
		geometry_figure_json(j, "ways", &g->tlb[i].ways);
		json_bool(j, "fully_associative", g->tlb[i].ways.full);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* The lines under the tables: cpu, machine, failed probes, memory, the
   instruction side, c2c, mlp, the busy lines (compact: ifetch_lines' and
   busy_lines' shorter forms, for a card whose levels would not fit). */
static void bottom_lines(struct lines *ls, const struct card *c, int compact)
{
	char from[24], at[24];

	if (c->cpu[0])
		line_add(ls, "%s", c->cpu);
	if (c->machine[0])
		line_add(ls, "%s", c->machine);
	/* A probe that failed says so before any figure: what is missing
	   below is missing for this reason, not because the machine has none. */
	for (unsigned i = 0; i < c->run.nfailed; i++)
		line_add(ls, "FAILED   %s", c->run.failed[i]);
	if (c->have_top) {
		mp_format_bytes(from, sizeof from, c->top_from_bytes);
		mp_format_bytes(at, sizeof at, c->top_to_bytes);
		if (!c->top_cached) {
			char page[16];

			mp_format_bytes(page, sizeof page, 1ull << c->top_shift);
			line_add(ls, "memory   latency %.2f ns, %.1f cycles (from %s, %s pages)%s",
				 c->top_ns, c->top_cycles, from, page, c->top_noisy ? " *" : "");
		}
		else if (!c->memory_floor)
			line_add(ls, "no edge  the whole sweep, from %s, reads %.2f ns, %.1f cycles",
				 from, c->top_ns, c->top_cycles);
		else
			line_add(ls, "memory   latency not measured: the sweep stopped at %s, inside "
				 "the caches", at);
	}
	if (c->read_gb_one > 0) {
		mp_format_bytes(from, sizeof from, c->read_from_bytes);
		mp_format_bytes(at, sizeof at, c->read_at_bytes);
		if (c->read_cached && c->memory_floor)
			line_add(ls, "memory   read not measured: the sweep stopped at %s, inside the "
				 "caches", at);
		else if (c->read_cached)
			line_add(ls, "read     %.1f GB/s one core at %s: no cache known, so not shown "
				 "to be memory", c->read_gb_one, at);
		else if (c->read_gb_all > 0)
			line_add(ls, "memory   read %.1f GB/s one core, %.1f GB/s %u cores (from %s)",
				 c->read_gb_one, c->read_gb_all, c->all_cores, from);
		else
			line_add(ls, "memory   read %.1f GB/s one core (from %s; all cores: %s)",
				 c->read_gb_one, from, c->all_cores ? "inside the caches" : "not run");
	}
	ifetch_lines(ls, c, compact);
	geometry_line(ls, c);
	if (c->c2c_pairs)
		line_add(ls, "c2c      one-way %.1f / %.1f / %.1f ns (min / median / max), %u "
			 "pair%s%s", c->c2c_min, c->c2c_median, c->c2c_max, c->c2c_pairs,
			 c->c2c_pairs == 1 ? "" : "s", c->c2c_noisy ? " *" : "");
	{
		char mlp[2][96];
		unsigned n = card_mlp_lines(&c->mlp, mlp, CARD_COLUMNS);

		for (unsigned i = 0; i < n; i++)
			line_add(ls, "%s", mlp[i]);
	}
	busy_lines(ls, &c->busy, c->memory_floor, c->tails_cached, compact);
}

/* system.json's "loaded" and "tails" members of the summary, where the
   card has them. */
static void busy_json(struct json *j, const struct card_busy *b, int tails_cached)
{
	if (b->have_loaded) {
		json_object_begin(j, "loaded");
		json_u64(j, "page_size", 1ull << b->loaded_shift);
		if (b->idle_ns > 0)
			json_double(j, "idle_ns", b->idle_ns);
		json_array_begin(j, "busiest");
		for (size_t m = 0; m < b->nmix; m++) {
			json_object_begin(j, 0);
			json_string(j, "mix", b->mix[m].mix);
			json_double(j, "load_gb_per_s", b->mix[m].gb_per_s);
			json_double(j, "ns", b->mix[m].ns);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	if (b->have_tails && b->p99_ns > 0) {
		json_object_begin(j, "tails");
		json_bool(j, "cached", tails_cached);
		json_u64(j, "page_size", 1ull << b->tails_shift);
		json_u64(j, "working_set_bytes", b->tails_bytes);
		json_double(j, "p50_ns", b->p50_ns);
		json_double(j, "p99_ns", b->p99_ns);
		json_object_end(j);
	}
}

/* The ifetch findings from its rows, against the analysis's claims (a
   may be NULL: none). */
static void add_ifetch(struct card *c, const struct analysis *a, const struct card_rows *rows)
{
	static const struct cache_claims none;

	ifetch_find(&rows->ifetch, a && a->have_claims ? &a->claims : &none, &c->ifetch);
}

/* ---- Public Functions ------------------------------------------------- */

void card_rows_add(struct card_rows *r, const struct result_row *row)
{
	enum probe_rows_read read = probe_rows_read(row->probe);

	struct card_point *p;

	ifetch_rows_add(&r->ifetch, row);
	if (read == ROWS_LOADED) {
		busy_add_loaded(&r->busy, row);
		return;
	}
	if (read == ROWS_TAILS) {
		busy_add_tails(&r->busy, row);
		return;
	}
	if (read == ROWS_MLP) {
		mlp_curves_add_row(&r->mlp, row);
		return;
	}
	if (read == ROWS_C2C && row->ns > 0) {
		if (r->nc2c < CARD_MAX_PAIRS) {
			r->c2c_spread[r->nc2c] = row->spread;
			r->c2c_ns[r->nc2c++] = row->ns;
		}
		r->c2c_pairs++;
		return;
	}
	if ((read != ROWS_LATENCY_CURVE && read != ROWS_TLB_CURVE) || !same(row->variant, "chase"))
		return;
	if (row->ns > 0 && row->cycles > 0 && r->nclock < CARD_MAX_POINTS)
		r->clock_ghz[r->nclock++] = row->cycles / row->ns;
	p = (struct card_point *)point_near(r, read == ROWS_TLB_CURVE, row->page_shift,
					    row->working_set_bytes, 0);
	if (p) {
		/* The same size again: the curve keeps the least reading. */
		p->ns_hi = row->ns > p->ns_hi ? row->ns : p->ns_hi;
		p->ns = row->ns < p->ns ? row->ns : p->ns;
		p->spread = row->spread > p->spread ? row->spread : p->spread;
	} else if (r->npt < CARD_MAX_POINTS) {
		r->pt[r->npt++] = (struct card_point){ read == ROWS_TLB_CURVE, row->page_shift,
			row->working_set_bytes, row->ns, row->ns, row->spread };
	}
}

/* The number of a level named "Ln", "Lnd" or "Lni" (n a digit or more);
   0 for any other name ("edge"). */
static unsigned level_number(const char *name)
{
	unsigned n = 0;

	if (name[0] != 'L')
		return 0;
	for (const char *p = name + 1; *p >= '0' && *p <= '9'; p++)
		n = n * 10 + (unsigned)(*p - '0');
	return n;
}

/* The claimed cache levels past the last one read, in order. */
static void add_unread(struct card *c, const struct analysis *a)
{
	const struct cache_desc *claim;

	for (unsigned lv = 1; lv <= CARD_MAX_CACHES && c->nunread < CARD_MAX_CACHES; lv++) {
		if (!(claim = analysis_unread_claim(a, lv)))
			continue;
		mp_snprintf(c->unread[c->nunread].name, sizeof c->unread[0].name, "L%u", lv);
		c->unread[c->nunread++].claim_bytes = claim->size_bytes;
	}
}

/* A tails working set under the memory floor is no memory's, whatever
   the probe's cap made of it (tails.max_buffer under 4 x the claims):
   the card says so and carries no memory tail; mlp's memory level the
   same (card_mlp_mark_floor). No floor, no mark. */
static void mark_under_floor(struct card *c)
{
	c->tails_cached = c->busy.have_tails && c->memory_floor &&
			  c->busy.tails_bytes < c->memory_floor;
	card_mlp_mark_floor(&c->mlp, c->memory_floor);
}

void card_build(struct card *c, const struct analysis *a, const struct card_rows *rows,
		const struct card_run *run)
{
	mp_memset(c, 0, sizeof *c);
	if (run)
		c->run = *run;
	if (rows) {
		add_c2c(c, rows);
		add_clock(c, rows);
		c->busy = rows->busy;
		add_ifetch(c, a, rows);
		card_mlp_build(&c->mlp, &rows->mlp, a ? &a->bw : NULL);
	}
	if (!a)
		return;
	c->hypervisor = a->have_claims && a->claims.hypervisor;
	c->emulated = analysis_emulated(a);
	c->have_levels = a->ncurves || a->tlb.n;
	c->memory_floor = analysis_memory_floor(a);
	mark_under_floor(c);
	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *l = &a->h.level[i];

		if (l->kind == LEVEL_CACHE || l->kind == LEVEL_EDGE) {
			add_cache(c, a, i, rows);
		} else if (l->kind == LEVEL_TLB) {
			/* The walks are no TLB's: the report lists them,
			   system.json apart, the card not at all. */
			if (!l->walk)
				add_tlb(c, a, i, rows);
		} else if (!c->have_top) {
			add_top(c, a, l, rows);
		}
	}
	add_unread(c, a);
	add_read(c, a);
}

/* How many levels of each table the card shows, in lines left once the
   heading, the bottom lines and the trust lines are counted: every level
   when they fit; else the first ones and a line counting the rest. A
   table with no level shown loses its heading too. */
static void levels_shown(const struct card *c, size_t room, size_t *caches, size_t *tlbs)
{
	size_t rows = c->ncaches + c->nunread;
	size_t headings = (rows ? 1 : 0) + (c->ntlbs ? 1 : 0);

	*caches = rows;
	*tlbs = c->ntlbs;
	if (rows + c->ntlbs + headings <= room)
		return;
	/* One line counts the levels left out; each table shown has its
	   heading. */
	room = room > 1 ? room - 1 : 0;
	*caches = rows && room > 1 ? (rows < room - 1 ? rows : room - 1) : 0;
	room -= *caches ? *caches + 1 : 0;
	*tlbs = c->ntlbs && room > 1 ? (c->ntlbs < room - 1 ? c->ntlbs : room - 1) : 0;
}

size_t card_format(const struct card *c, char *buf, size_t size)
{
	static struct lines body, trust;
	size_t fixed, spare, levels, rows, show_caches, show_tlbs, len = 0;
	struct mp_text out = { buf, size, 0 };

	body.n = trust.n = 0;
	bottom_lines(&body, c, 0);
	/* The heading (and the emulated line, or the no-level line) and the
	   bottom lines always show, in their compact forms where the levels
	   would not fit beside the full ones; the levels come next, and the
	   trust lines take what is left, at least CARD_TRUST_MIN of them, the
	   last ending in "..." when cut. */
	fixed = 1 + (c->emulated ? 1 : 0) + (c->have_levels ? 0 : 1);
	rows = c->ncaches + c->nunread;
	levels = rows + c->ntlbs + (rows ? 1 : 0) + (c->ntlbs ? 1 : 0);
	if (fixed + body.n + levels + CARD_TRUST_MIN > CARD_LINES) {
		body.n = 0;
		bottom_lines(&body, c, 1);
	}
	fixed += body.n;
	spare = CARD_LINES > fixed + levels ? CARD_LINES - fixed - levels : 0;
	trust_lines(&trust, c, spare < CARD_TRUST_MIN ? CARD_TRUST_MIN
			       : spare > CARD_TRUST_LINES ? CARD_TRUST_LINES : spare);
	levels_shown(c, CARD_LINES > fixed + trust.n ? CARD_LINES - fixed - trust.n : 0,
		     &show_caches, &show_tlbs);

	/* Before anything else: no figure below is the hardware's. */
	if (c->emulated)
		mp_append(&out, "%s\n", CARD_EMULATED_LINE);
	mp_append(&out, "== summary: the memory hierarchy, measured ==\n");
	if (!c->have_levels)
		mp_append(&out, "no latency or tlb rows: no cache or TLB level measured\n");
	if (show_caches) {
		struct lines ls = { .n = 0 };
		char ways[16], bw[40];

		ways_cell(ways, sizeof ways, any_ways(c), "ways");
		bandwidth_cells(bw, sizeof bw, any_bandwidth(c), "GB/s", "B/cycle");
		line_add(&ls, "%-8s %10s %7s %6s%s%s %10s  %s", "cache", "size", "ns", "cycles",
			 ways, bw, "claim", "verdict");
		mp_append(&out, "%s\n", ls.line[0]);
		for (size_t i = 0, k = 0, u = 0; i < show_caches; i++) {
			ls.n = 0;
			/* In level order: a claim one curve's first edge
			   stepped over ("L1 not seen") stands above that
			   edge's "L2". */
			if (k < c->ncaches && (u == c->nunread ||
					       level_number(c->cache[k].name) <
					       level_number(c->unread[u].name)))
				cache_line(&ls, &c->cache[k++], any_ways(c), any_bandwidth(c));
			else
				unread_line(&ls, &c->unread[u++], any_ways(c), any_bandwidth(c));
			for (size_t n = 0; n < ls.n; n++)
				mp_append(&out, "%s\n", ls.line[n]);
		}
	}
	if (show_tlbs) {
		struct lines ls = { .n = 0 };
		line_add(&ls, "%-8s %7s %8s %10s %11s %11s  %s", "TLB", "pages", "entries", "reach",
			 "miss cycles", "claim", "verdict");
		mp_append(&out, "%s\n", ls.line[0]);
		for (size_t i = 0; i < show_tlbs; i++) {
			ls.n = 0;
			tlb_line(&ls, &c->tlb[i]);
			for (size_t k = 0; k < ls.n; k++)
				mp_append(&out, "%s\n", ls.line[k]);
		}
	}
	if (show_caches + show_tlbs < rows + c->ntlbs)
		mp_append(&out, "(%zu more levels than the card holds: report.txt lists them)\n",
			  rows + c->ntlbs - show_caches - show_tlbs);
	for (size_t i = 0; i < body.n; i++)
		mp_append(&out, "%s\n", body.line[i]);
	for (size_t i = 0; i < trust.n; i++)
		mp_append(&out, "%s\n", trust.line[i]);
	len = out.len < size ? out.len : (size ? size - 1 : 0);
	return len;
}

void card_json(struct json *j, const struct card *c, const char *text)
{
	char line[CARD_COLUMNS + 1];

	json_array_begin(j, "lines");
	for (const char *p = text; p && *p;) {
		size_t n = 0;
		while (p[n] && p[n] != '\n')
			n++;
		mp_strlcpy(line, p, n + 1 < sizeof line ? n + 1 : sizeof line);
		json_string(j, 0, line);
		p += n + (p[n] == '\n');
	}
	json_array_end(j);
	json_array_begin(j, "caches");
	for (size_t i = 0; i < c->ncaches; i++) {
		const struct card_cache *k = &c->cache[i];
		json_object_begin(j, 0);
		json_string(j, "name", k->name);
		json_u64(j, "size_bytes", k->size_bytes);
		json_string(j, "method", level_method_name(k->method));
		json_u64(j, "range_lo_bytes", k->range_lo);
		json_u64(j, "range_hi_bytes", k->range_hi);
		json_bool(j, "smeared", k->smeared);
		json_bool(j, "named_by_claim", k->named_by_claim);
		json_bool(j, "guest_share", k->guest_share);
		json_double(j, "ns", k->ns);
		json_double(j, "cycles", k->cycles);
		if (k->ways)
			json_u64(j, "ways", k->ways);
		if (k->gb_per_s > 0) {
			json_double(j, "read_gb_per_s", k->gb_per_s);
			json_double(j, "read_bytes_per_cycle", k->bytes_per_cycle);
		}
		json_u64(j, "claim_bytes", k->claim_bytes);
		if (k->bw_edge_bytes)
			json_u64(j, "bandwidth_edge_bytes", k->bw_edge_bytes);
		json_string(j, "verdict", cache_verdict(k));
		json_bool(j, "noisy", k->noisy);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "caches_not_seen");
	for (size_t i = 0; i < c->nunread; i++) {
		json_object_begin(j, 0);
		json_string(j, "name", c->unread[i].name);
		json_u64(j, "claim_bytes", c->unread[i].claim_bytes);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "tlbs");
	for (size_t i = 0; i < c->ntlbs; i++) {
		const struct card_tlb *t = &c->tlb[i];
		json_object_begin(j, 0);
		json_string(j, "name", t->name);
		json_u64(j, "page_size", 1ull << t->page_shift);
		json_u64(j, "entries", t->entries);
		json_u64(j, "reach_bytes", t->reach_bytes);
		json_string(j, "method", level_method_name(t->method));
		json_u64(j, "range_lo_entries", t->range_lo);
		json_u64(j, "range_hi_entries", t->range_hi);
		json_bool(j, "smeared", t->smeared);
		json_bool(j, "named_by_claim", t->named_by_claim);
		json_double(j, "miss_ns", t->miss_ns);
		json_double(j, "miss_cycles", t->miss_cycles);
		json_u64(j, "claim_entries", t->claim_entries);
		json_string(j, "verdict", verdict_name(t->verdict));
		json_bool(j, "noisy", t->noisy);
		json_object_end(j);
	}
	json_array_end(j);
	if (c->have_top) {
		json_object_begin(j, "top");
		json_string(j, "name", c->top_name);
		json_u64(j, "from_bytes", c->top_from_bytes);
		json_u64(j, "page_size", 1ull << c->top_shift);
		json_u64(j, "to_bytes", c->top_to_bytes);
		json_u64(j, "memory_floor_bytes", c->memory_floor);
		json_bool(j, "cached", c->top_cached);
		json_double(j, "ns", c->top_ns);
		json_double(j, "cycles", c->top_cycles);
		json_bool(j, "noisy", c->top_noisy);
		json_object_end(j);
	}
	if (c->read_gb_one > 0) {
		json_object_begin(j, "memory_read");
		json_string(j, "variant", c->read_variant);
		json_u64(j, "from_bytes", c->read_from_bytes);
		json_u64(j, "working_set_bytes", c->read_at_bytes);
		json_u64(j, "memory_floor_bytes", c->memory_floor);
		json_bool(j, "cached", c->read_cached);
		json_double(j, "one_core_gb_per_s", c->read_gb_one);
		if (c->read_gb_all > 0) {
			json_double(j, "all_cores_gb_per_s", c->read_gb_all);
			json_u64(j, "cores", c->all_cores);
		}
		json_object_end(j);
	}
	if (c->c2c_pairs) {
		json_object_begin(j, probe_def_c2c.config.name);
		json_u64(j, "pairs", c->c2c_pairs);
		json_double(j, "min_ns", c->c2c_min);
		json_double(j, "median_ns", c->c2c_median);
		json_double(j, "max_ns", c->c2c_max);
		json_bool(j, "noisy", c->c2c_noisy);
		json_object_end(j);
	}
	busy_json(j, &c->busy, c->tails_cached);
	ifetch_json(j, &c->ifetch);
	geometry_json(j, &c->geometry);
	card_mlp_json(j, &c->mlp);
	json_object_begin(j, "trust");
	json_u64(j, "noisy_levels", c->noisy);
	json_u64(j, "smeared_levels", c->smeared);
	json_u64(j, "uncertain_levels", c->uncertain);
	if (c->run.known) {
		if (c->run.nmi_counted)
			json_u64(j, "nmi", c->run.nmi);
		if (c->run.smi_counted)
			json_u64(j, "smi", c->run.smi);
	}
	if (c->clock_p10_ghz > 0) {
		json_double(j, "clock_p10_ghz", c->clock_p10_ghz);
		json_double(j, "clock_p90_ghz", c->clock_p90_ghz);
		json_double(j, "clock_p50_ghz", c->clock_p50_ghz);
		json_bool(j, "clock_moved", c->clock_moved);
	}
	json_bool(j, "hypervisor", c->hypervisor);
	json_bool(j, "emulated", c->emulated);
	json_object_end(j);
}

/* card_mlp_figures' figures into card_figures' array. */
struct figure_sink {
	struct card_figure *out;
	size_t max, n;
};

static void figure_add(void *ctx, const char *name, double value)
{
	struct figure_sink *s = ctx;

	if (s->n < s->max && value > 0) {
		mp_strlcpy(s->out[s->n].name, name, sizeof s->out[s->n].name);
		s->out[s->n].starred = 0;   /* mlp's lines carry no star */
		s->out[s->n++].value = value;
	}
}

size_t card_figures(const struct card *c, struct card_figure *out, size_t max)
{
	size_t n = 0;
	char page[16];

	int starred = 0;   /* the star of the line the next figures are on */
#define FIGURE(value_, ...) do {                                              \
		if (n < max && (value_) > 0) {                                \
			mp_snprintf(out[n].name, sizeof out[n].name, __VA_ARGS__); \
			out[n].starred = starred;                             \
			out[n++].value = (value_);                            \
		}                                                             \
	} while (0)
	for (size_t i = 0; i < c->ncaches; i++) {
		const struct card_cache *k = &c->cache[i];
		starred = k->noisy;
		FIGURE((double)k->size_bytes / 1024, "%s KiB", k->name);
		FIGURE(k->ns, "%s ns", k->name);
		FIGURE(k->cycles, "%s cycles", k->name);
		starred = 0;   /* bandwidth: no star of its own */
		FIGURE(k->gb_per_s, "%s read GB/s", k->name);
	}
	for (size_t i = 0; i < c->ntlbs; i++) {
		const struct card_tlb *t = &c->tlb[i];
		mp_format_bytes(page, sizeof page, 1ull << t->page_shift);
		starred = t->noisy;
		FIGURE((double)t->entries, "%s %s entries", t->name, page);
		FIGURE(t->miss_cycles, "%s %s miss cycles", t->name, page);
	}
	/* A cached figure is no memory figure: compare and fleet never see it. */
	starred = c->top_noisy;
	if (c->have_top && !c->top_cached)
		FIGURE(c->top_ns, "%s ns", c->top_name);
	starred = 0;
	if (!c->read_cached) {
		FIGURE(c->read_gb_one, "memory read GB/s, one core");
		FIGURE(c->read_gb_all, "memory read GB/s, all cores");
	}
	starred = c->c2c_noisy;
	FIGURE(c->c2c_median, "c2c median ns");
	/* Beside the ns rows it moves: two runs whose clocks stand apart
	   read every ns apart by as much (the trust line's clock item). */
	FIGURE(c->clock_p50_ghz, "core clock GHz, the chases' median");
	starred = 0;
	if (c->ifetch.have_l1i) {
		FIGURE((double)c->ifetch.l1i.count / 1024, "L1i KiB");
		FIGURE(c->ifetch.l1i.miss_cycles, "L1i miss cycles");
	}
	FIGURE(c->ifetch.fetch_l1i_bytes_per_cycle, "fetch L1i B/cycle");
	FIGURE(c->ifetch.fetch_l2_bytes_per_cycle, "fetch L2 B/cycle");
	for (size_t i = 0; i < c->ifetch.ntlbs; i++) {
		const struct ifetch_level *t = &c->ifetch.tlb[i];
		mp_format_bytes(page, sizeof page, 1ull << t->page_shift);
		FIGURE((double)t->count, "ITLB%u %s entries", t->number, page);
		FIGURE(t->miss_cycles, "ITLB%u %s miss cycles", t->number, page);
	}
	if (c->busy.have_loaded) {
		FIGURE(c->busy.idle_ns, "loaded idle ns");
		for (size_t m = 0; m < c->busy.nmix; m++) {
			FIGURE(c->busy.mix[m].ns, "loaded %s ns at most GB/s", c->busy.mix[m].mix);
			FIGURE(c->busy.mix[m].gb_per_s, "loaded %s most GB/s", c->busy.mix[m].mix);
		}
	}
	if (c->busy.have_tails && !c->tails_cached)
		FIGURE(c->busy.p99_ns, "memory p99 ns");
	FIGURE((double)c->geometry.line.measured, "line bytes");
	for (unsigned i = 0; i < c->geometry.nlevels; i++) {
		FIGURE((double)c->geometry.level[i].ways.measured, "%s ways",
		       c->geometry.level[i].name);
		FIGURE((double)c->geometry.level[i].sets.measured, "%s sets",
		       c->geometry.level[i].name);
	}
#undef FIGURE
	{
		struct figure_sink sink = { out, max, n };

		card_mlp_figures(&c->mlp, figure_add, &sink);
		n = sink.n;
	}
	return n;
}

void card_take_row(const struct result_row *row)
{
	card_rows_add(&run_rows, row);
}

void card_add_geometry(struct card *c, const struct geometry_results *g)
{
	if (!g || !g->ran)
		return;
	c->geometry = *g;
	for (unsigned i = 0; i < g->nlevels; i++) {
		/* "L1d" is level 1, "L2" level 2. */
		unsigned number = level_number(g->level[i].name);
		char want[8];

		if (!g->level[i].ways.measured || number < 1 || number > 9)
			continue;
		mp_snprintf(want, sizeof want, "L%u", number);
		for (size_t k = 0; k < c->ncaches; k++)
			if (!mp_strcmp(c->cache[k].name, want))
				c->cache[k].ways = (unsigned)g->level[i].ways.measured;
	}
}

void card_run(const struct card_run *run)
{
	card_build(&run_card, analysis_current(), &run_rows, run);
	if (!analysis_current() || !analysis_current()->have_claims) {
		/* No curve the analysis reads: the claims are read here. */
		static struct cache_claims live;

		plat_cache_claims(&live);
		ifetch_find(&run_rows.ifetch, &live, &run_card.ifetch);
		/* c2c, loaded, bandwidth alone: their timings are the
		   emulator's as much as a curve's would be. */
		run_card.emulated = claims_emulated(&live);
		run_card.hypervisor = live.hypervisor;
		if (!run_card.memory_floor) {
			run_card.memory_floor = analysis_floor_of(claims_largest_cache(&live));
			mark_under_floor(&run_card);
		}
	}
	card_add_geometry(&run_card, run->geometry);
	mp_strlcpy(run_card.machine, run_machine, sizeof run_card.machine);
	mp_strlcpy(run_card.cpu, run_cpu, sizeof run_card.cpu);
	mp_memset(&run_rows, 0, sizeof run_rows);   /* a later run starts afresh */
	run_len = card_format(&run_card, run_text, sizeof run_text);
	run_built = 1;
	results_card(run_text, run_len);
}

void card_machine(const char *machine, const char *cpu)
{
	mp_strlcpy(run_machine, machine, sizeof run_machine);
	mp_strlcpy(run_cpu, cpu, sizeof run_cpu);
}

void card_print(void)
{
	if (!run_built)
		return;
	report_html_quiet(1);
	/* The blank line above it is the full console's: a quiet one keeps
	   its lines for the card (docs/OUTPUT.md, "The console"). */
	report_printf("\n");
	report_notice("%s", run_text);
	report_html_quiet(0);
}

void card_describe(struct json *j)
{
	if (!run_built)
		return;
	json_object_begin(j, "summary");
	card_json(j, &run_card, run_text);
	json_object_end(j);
}
