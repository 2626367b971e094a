/* TLB levels from the tlb probe's curves (see tlb_levels.h). */

#include "analysis/tlb_levels.h"
#include "lib/fmt.h"
#include "core/platform.h"
#include "core/probe.h"

/* ---- Constants -------------------------------------------------------- */

/* A first plateau this much above the 4 KiB curve's is a TLB level that the
   larger pages miss where 4 KiB pages hit. */
#define HOST_PAGE_FIRST_RISE 1.30

/* ---- Private Functions ------------------------------------------------ */

static int same(const char *a, const char *b)
{
	return a && b && mp_strcmp(a, b) == 0;
}

static int curve_slot(const struct tlb_curves *t, unsigned page_shift)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->chase[i].page_shift == page_shift)
			return (int)i;
	return -1;
}

/* The control at n lines: from the largest page size that measured it,
   since its packed lines then span the fewest pages (no TLB share of its
   own). 0 when no control has n. */
static int control_at(const struct tlb_curves *t, uint64_t n, double *ns, double *cycles)
{
	for (size_t i = t->n; i-- > 0;)
		for (size_t k = 0; k < t->control[i].n; k++)
			if (t->control[i].pt[k].bytes == n) {
				*ns = t->control[i].pt[k].ns;
				*cycles = t->control[i].pt[k].cycles;
				return 1;
			}
	return 0;
}

/* Insertion sort of a few values, then the middle one. */
static double median(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double key = v[i];
		size_t j = i;
		while (j > 0 && v[j - 1] > key) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = key;
	}
	return (n & 1) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* The control's level over a plateau's page counts: the median of the
   control at those counts, like the plateau's own level. 0 when the
   control has none of them (a CSV without control rows). */
static int control_level(const struct tlb_curves *t, const struct curve *c,
			 const struct plateau *p, double *ns, double *cycles)
{
	double v_ns[EDGES_MAX_POINTS], v_cy[EDGES_MAX_POINTS];
	size_t n = 0;

	for (size_t k = p->first; k <= p->last; k++)
		if (control_at(t, c->pt[k].bytes, &v_ns[n], &v_cy[n]))
			n++;
	if (!n)
		return 0;
	*ns = median(v_ns, n);
	*cycles = median(v_cy, n);
	return 1;
}

/* Where the step from lo up to hi crosses half its height once the
   control's rise is taken out: each point of c less the control at its
   count (the control's level over lo added back, so lo reads as before),
   points with no control kept as they are, and hi's level lowered by the
   control's rise. The caches' own step, which the control shares (the
   lines, one per page, filling a cache), then no longer places the
   TLB's. */
static int crossing_less_control(const struct tlb_curves *t, const struct curve *c,
				 const struct plateau *lo, const struct plateau *hi,
				 double control_lo, double control_rise, struct edge_crossing *est)
{
	static struct curve extra;
	struct plateau lo2 = *lo, hi2 = *hi;

	extra = *c;
	for (size_t k = 0; k < c->n; k++) {
		double ns, cycles;

		if (control_at(t, c->pt[k].bytes, &ns, &cycles))
			extra.pt[k].ns = c->pt[k].ns - ns + control_lo;
	}
	hi2.ns = hi->ns - control_rise;
	return edges_crossing(&extra, &lo2, &hi2, est);
}

/* The level for the step from plateau lo up to hi of page size i's chase,
   when the control does not match its rise; 0 (nothing written) when the
   caches' share explains it or the step cannot be placed. */
static int step_level(const struct tlb_curves *t, size_t i, const struct plateau *lo,
		      const struct plateau *hi, struct level *l)
{
	const struct curve *c = &t->chase[i];
	double rise_ns = hi->ns - lo->ns, rise_cy = hi->cycles - lo->cycles;
	double lo_ns = 0, lo_cy, hi_ns, hi_cy, share_ns = rise_ns, share_cy = rise_cy;
	struct edge_crossing est;
	unsigned shift = c->page_shift;

	if (control_level(t, c, lo, &lo_ns, &lo_cy) && control_level(t, c, hi, &hi_ns, &hi_cy)) {
		share_ns -= hi_ns - lo_ns;
		share_cy -= hi_cy - lo_cy;
	}
	if (share_ns < rise_ns * TLB_MIN_SHARE)
		return 0;
	/* A step the control shares a good part of: placed on the chase less
	   the control. On an Emerald Rapids VM the 2 MiB chase rose from 4.0
	   ns at 768 pages to 9.0 at 832, its 768 lines filling the 48 KiB L1d
	   (the control rose 1.8 to 5.9 there), while the TLB's own extra
	   climbed from 7 cycles at 768 to 37 by 1536 pages, crossing half way
	   at 1024 .. 1152: the chase's crossing had named a TLB of 768. */
	if (rise_ns - share_ns > rise_ns * TLB_CONTROL_PLACES
		    ? crossing_less_control(t, c, lo, hi, lo_ns, rise_ns - share_ns, &est) != 0
		    : edges_crossing(c, lo, hi, &est) != 0)
		return 0;
	mp_memset(l, 0, sizeof *l);
	l->kind = LEVEL_TLB;
	mp_strlcpy(l->name, "TLB", sizeof l->name);
	l->page_shift = shift;
	l->entries = est.estimate;
	level_set_crossing(l, &est, shift);
	l->ns = lo->ns;
	l->cycles = lo->cycles;
	l->increase_ns = share_ns;
	l->increase_cycles = lo->cycles > 0 && hi->cycles > 0 ? share_cy : 0;
	l->points = (unsigned)(lo->last - lo->first + 1);
	l->seen_in = 1 << i;
	return 1;
}

/* A step into a climb: past the last plateau the chase jumps by
   EDGES_RISE_FACTOR or more from one point to the next and then keeps
   climbing with no plateau of its own, as the page walks of a last-level
   TLB's misses leave the caches while the pages grow. The jump is that
   TLB's edge all the same. *upper becomes the point after the jump, its
   reading the level (what missing costs there, a lower bound further on).
   0 when the curve has no such jump. */
static int climb_step(const struct curve *c, const struct plateau *last, struct plateau *upper)
{
	double ns[EDGES_MAX_POINTS], cycles[EDGES_MAX_POINTS];

	curve_smoothed(c, ns, cycles);
	for (size_t k = last->last; k + 1 < c->n; k++)
		if (ns[k + 1] >= ns[k] * EDGES_RISE_FACTOR) {
			upper->first = upper->last = k + 1;
			upper->ns = c->pt[k + 1].ns < ns[k + 1] ? ns[k + 1] : c->pt[k + 1].ns;
			upper->cycles = c->pt[k + 1].cycles < cycles[k + 1] ? cycles[k + 1]
									 : c->pt[k + 1].cycles;
			return 1;
		}
	return 0;
}

/* Whether the sweep ran more than an octave past the climb's first point,
   so that its jump is a step with a reading past it. Nearer the sweep's end
   the jump may be the start of a climb of walks, or a TLB whose step the
   sweep cuts in two, and the crossing alone names no size (the level is
   marked near_sweep_end; analysis.c keeps it only where a claim lies in
   its bracket). On an Emerald Rapids VM the quick sweep of 2 MiB pages
   ends at 1024 pages (2 GiB): five runs in a row read 4.5 ns to 512
   pages, then 6.4 to 10.8 at 768 and 13.8 to 17.3 at 1024, and named a
   TLB of 512, 640, 768, 768 or none, where the full sweep's curve steps
   at 1024 .. 1152 and levels off at 18-20 ns by 1280 pages. A step may
   itself spread over an octave, so a reading just an octave past its
   first point can still be on it: a sixth run's refined points put its
   jump at 480 .. 512 (4.8 to 7.2 ns, then 9.3 at 768 and 17.0 at 1024,
   the sweep's end), and with an octave enough it was carded "L2 TLB
   2 MiB 480 ... differs". */
static int climb_measured(const struct curve *c, const struct plateau *climb)
{
	return c->pt[c->n - 1].bytes > 2 * c->pt[climb->first].bytes;
}

/* One page size's levels: every step between plateaus of the chase whose
   rise the control does not match, and a last step into a climb
   (climb_step) where the sweep ends climbing. A pause inside a step is no
   plateau (curve_drop_pauses): a TLB's step read at fine counts stalls
   where some entries already miss (a Zen 4 VM's L2 TLB, 3072 entries,
   read 6 ns to 2048 pages, 11 at 2816 and 3072, 24 from 3840; its 72-entry
   L1 DTLB with 2 MiB pages 1.1 ns to 60, 1.7-1.9 at 64 and 72, 13 from
   80), and each stall made a TLB level of its own, in some runs only. */
static size_t find_in_curve(const struct tlb_curves *t, size_t i, struct level *out, size_t max)
{
	const struct curve *c = &t->chase[i];
	struct plateau p[EDGES_MAX_PLATEAUS], climb;
	size_t np = curve_drop_pauses(c, p, curve_plateaus(c, p, EDGES_MAX_PLATEAUS)), count = 0;
	uint64_t at_least;
	int climbs = np && tlb_open_end(t, i, &at_least) && climb_step(c, &p[np - 1], &climb);
	/* Before a climb the last plateau is judged by the climb's first
	   point above it: a pause there too, the step runs from the plateau
	   below it into the climb (the L2 TLB above, in a quick run, read 6 ns
	   to 2560 pages, 12-14 at 2816 and 3072, then climbed from 20 at 4096:
	   one step of 2560 .. 4096, not a TLB of 2560 and another of 3072). */
	size_t paused = climbs && np >= 2 && curve_is_pause(c, &p[np - 2], &p[np - 1], &climb);

	for (size_t k = 0; k + 1 + paused < np && count < max; k++)
		count += (size_t)step_level(t, i, &p[k], &p[k + 1], &out[count]);
	if (climbs && count < max && step_level(t, i, &p[np - 1 - paused], &climb, &out[count]))
		out[count++].near_sweep_end = !climb_measured(c, &climb);
	return count;
}

static const struct level *last_level_of(const struct level *levels, size_t n, unsigned shift)
{
	const struct level *last = 0;

	for (size_t k = 0; k < n; k++)
		if (levels[k].page_shift == shift && (!last || levels[k].entries > last->entries))
			last = &levels[k];
	return last;
}

/* Whether every level of the larger pages has the entries of a level of
   4 KiB pages, and there is at least one. */
static int same_entries(const struct level *levels, size_t n, unsigned shift)
{
	size_t found = 0;

	for (size_t k = 0; k < n; k++) {
		int match = 0;
		if (levels[k].page_shift != shift)
			continue;
		for (size_t j = 0; j < n; j++)
			match |= levels[j].page_shift == PAGE_SHIFT_4K &&
				 levels[j].entries == levels[k].entries;
		if (!match)
			return 0;
		found++;
	}
	return found > 0;
}

/* Whether CPUID claims the larger pages a TLB whose entries no 4 KiB TLB
   has, so that a real TLB for them would have shown another edge. */
static int claims_differ(const struct cache_claims *c, unsigned shift)
{
	for (unsigned i = 0; i < c->ntlbs; i++) {
		int also_4k = 0;
		if (!tlb_loads_use(&c->tlb[i], shift))
			continue;
		for (unsigned j = 0; j < c->ntlbs; j++)
			also_4k |= tlb_loads_use(&c->tlb[j], PAGE_SHIFT_4K) &&
				   c->tlb[j].entries == c->tlb[i].entries;
		if (!also_4k)
			return 1;
	}
	return 0;
}

/* The first plateau's level, and the page count it starts at. */
static double first_plateau_ns(const struct curve *c, uint64_t *from)
{
	struct plateau p[EDGES_MAX_PLATEAUS];

	if (!curve_plateaus(c, p, EDGES_MAX_PLATEAUS))
		return 0;
	*from = c->pt[p[0].first].bytes;
	return p[0].ns;
}

/* ---- Public Functions ------------------------------------------------- */

const struct level *tlb_first_level(const struct level *levels, size_t n, unsigned shift)
{
	const struct level *first = 0;

	for (size_t k = 0; k < n; k++)
		if (levels[k].kind == LEVEL_TLB && levels[k].page_shift == shift &&
		    (!first || levels[k].entries < first->entries))
			first = &levels[k];
	return first;
}

int tlb_curves_add_row(struct tlb_curves *t, const struct result_row *row)
{
	int chase = same(row->variant, "chase"), k;
	uint64_t n;

	if (probe_rows_read(row->probe) != ROWS_TLB_CURVE || (!chase && !same(row->variant, "control")) ||
	    !row->page_shift || row->page_shift > 40 || !row->working_set_bytes)
		return -1;
	n = chase ? row->working_set_bytes >> row->page_shift
		  : row->working_set_bytes / ROW_CHASE_SLOT_BYTES;
	k = curve_slot(t, row->page_shift);
	if (k < 0) {
		if (t->n >= EDGES_MAX_CURVES) {
			t->ignored_rows++;
			return -1;
		}
		/* Kept in ascending page size. */
		k = (int)t->n;
		while (k > 0 && t->chase[k - 1].page_shift > row->page_shift) {
			t->chase[k] = t->chase[k - 1];
			t->control[k] = t->control[k - 1];
			mp_memcpy(t->verified[k], t->verified[k - 1], sizeof t->verified[k]);
			k--;
		}
		curve_init(&t->chase[k], row->page_shift);
		curve_init(&t->control[k], row->page_shift);
		t->verified[k][0] = 0;
		t->n++;
	}
	if (!t->verified[k][0] && row->pages_verified)
		mp_strlcpy(t->verified[k], row->pages_verified, sizeof t->verified[k]);
	if (!n || curve_add(chase ? &t->chase[k] : &t->control[k], n, row->ns, row->cycles) != 0) {
		t->ignored_rows++;
		return -1;
	}
	t->rows++;
	return 0;
}

size_t tlb_levels_find(const struct tlb_curves *t, struct level *out, size_t max)
{
	size_t count = 0;

	for (size_t i = 0; i < t->n; i++)
		count += find_in_curve(t, i, out + count, max - count);
	return count;
}

int tlb_open_end(const struct tlb_curves *t, size_t i, uint64_t *at_least)
{
	const struct curve *c = &t->chase[i];
	double ns[EDGES_MAX_POINTS], cycles[EDGES_MAX_POINTS], rise, lo_ns, lo_cy, end_ns, end_cy;
	struct plateau p[EDGES_MAX_PLATEAUS], end;
	size_t np = curve_plateaus(c, p, EDGES_MAX_PLATEAUS);

	if (!np || p[np - 1].last + 1 >= c->n)
		return 0;
	curve_smoothed(c, ns, cycles);
	rise = ns[c->n - 1] - p[np - 1].ns;
	if (ns[c->n - 1] < p[np - 1].ns * EDGES_RISE_FACTOR)
		return 0;
	/* The control over the plateau against the control at the end. */
	end.first = end.last = c->n - 1;
	if (control_level(t, c, &p[np - 1], &lo_ns, &lo_cy) &&
	    control_level(t, c, &end, &end_ns, &end_cy) &&
	    rise - (end_ns - lo_ns) < rise * TLB_MIN_SHARE)
		return 0;
	*at_least = c->pt[p[np - 1].last].bytes;
	return 1;
}

/* Whether these pages' first TLB level shows entries of their own: other
   entries than the 4 KiB pages' first level (small), and a miss an L2 TLB
   catches (no dearer than TLB_WALK_MISS_FACTOR times small's). A host's
   small pages would make its entries 4 KiB ones and its misses walks; so
   a dearer walk past the last edge is then no sign of them. In a guest
   each large data page's walk needs its own host entry where 4 KiB pages
   share one: an Emerald Rapids VM's full run read its 2 MiB pages' 32
   entries at +7.4 cycles (4 KiB: 96, +6.8) and then a last edge of +19.3
   ns against 4 KiB pages' 12.7, and the sign joined its L3 into memory
   ("L3 not seen"). */
static int own_first_level(const struct level *levels, size_t nlevels, unsigned shift,
			   const struct level *small)
{
	const struct level *lead = tlb_first_level(levels, nlevels, shift);

	return lead && small && lead->entries != small->entries && small->increase_cycles > 0 &&
	       lead->increase_cycles <= small->increase_cycles * TLB_WALK_MISS_FACTOR;
}

unsigned tlb_host_page_signs(const struct tlb_curves *t, const struct level *levels,
			     size_t nlevels, const struct cache_claims *claims,
			     char *text, size_t size)
{
	struct mp_text o = { text, size, 0 };
	int small = curve_slot(t, PAGE_SHIFT_4K);
	const struct level *small_last = last_level_of(levels, nlevels, PAGE_SHIFT_4K);
	const struct level *small_level = tlb_first_level(levels, nlevels, PAGE_SHIFT_4K), *lead;
	unsigned signs = 0;

	if (size)
		text[0] = 0;
	if (small < 0)
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		unsigned shift = t->chase[i].page_shift;
		const struct level *last = last_level_of(levels, nlevels, shift);
		uint64_t small_from = 0, from = 0;
		double small_first = first_plateau_ns(&t->chase[small], &small_from);
		double first = first_plateau_ns(&t->chase[i], &from);
		char page[24];

		if (shift == PAGE_SHIFT_4K)
			continue;
		mp_format_bytes(page, sizeof page, 1ull << shift);
		if (claims && claims->ntlbs && same_entries(levels, nlevels, shift) &&
		    claims_differ(claims, shift)) {
			mp_append(&o, "  %s pages: the same TLB entries as 4 KiB pages, where the claims "
				 "give other TLBs for them\n", page);
			signs++;
		}
		if (small_first > 0 && first > small_first * HOST_PAGE_FIRST_RISE) {
			mp_append(&o, "  %s pages: even %llu pages read %.2f ns, %.2fx the 4 KiB "
				 "pages' first plateau: they already miss a TLB that 4 KiB pages "
				 "hit\n", page, (unsigned long long)from, first,
				 first / small_first);
			signs++;
		}
		if (claims && small_level && (lead = tlb_first_level(levels, nlevels, shift)) &&
		    tlb_claimed_entries(claims, shift) > lead->entries &&
		    small_level->increase_cycles > 0 &&
		    lead->increase_cycles > small_level->increase_cycles * TLB_WALK_MISS_FACTOR &&
		    lead->increase_cycles >= TLB_WALK_MIN_CYCLES) {
			mp_append(&o, "  %s pages: missing the first TLB level (%llu entries) costs "
				 "%.1f cycles, %.1fx the 4 KiB pages' first miss, though the claims give "
				 "a TLB of %u entries for them: a walk, as the host's small pages "
				 "make it\n", page, (unsigned long long)lead->entries,
				 lead->increase_cycles,
				 lead->increase_cycles / small_level->increase_cycles,
				 tlb_claimed_entries(claims, shift));
			signs++;
		}
		if (last && small_last && last->increase_ns > small_last->increase_ns * 1.5 &&
		    !own_first_level(levels, nlevels, shift, small_level)) {
			mp_append(&o, "  %s pages: the last edge adds %.2f ns, more than 4 KiB "
				 "pages' %.2f ns, though a walk for larger pages has a level "
				 "less\n", page, last->increase_ns, small_last->increase_ns);
			signs++;
		}
	}
	return signs;
}

int tlb_write_svg(const struct tlb_curves *t, const struct level *levels, size_t nlevels,
		  svg_write_fn write, void *ctx)
{
	static double xs[EDGES_MAX_CURVES][EDGES_MAX_POINTS], ys[EDGES_MAX_CURVES][EDGES_MAX_POINTS];
	static char labels[EDGES_MAX_CURVES][32], mark_text[EDGES_MAX_LEVELS][64];
	struct svg_series series[EDGES_MAX_CURVES];
	struct svg_marker marks[EDGES_MAX_LEVELS];
	size_t nmarks = 0;
	struct svg_chart chart = {
		"memprobe: cycles per load by pages touched (one line per page), one curve per "
		"page size",
		"pages touched (log2 scale)", "core cycles per load (log scale)", 0,
		series, t->n, marks, 0, 1,
	};

	for (size_t i = 0; i < t->n; i++) {
		char page[24];
		int cycles = t->chase[i].n && t->chase[i].pt[0].cycles > 0;

		mp_format_bytes(page, sizeof page, 1ull << t->chase[i].page_shift);
		mp_snprintf(labels[i], sizeof labels[i], "%s pages%s", page, cycles ? "" : " (ns)");
		for (size_t k = 0; k < t->chase[i].n; k++) {
			xs[i][k] = (double)t->chase[i].pt[k].bytes;
			ys[i][k] = cycles ? t->chase[i].pt[k].cycles : t->chase[i].pt[k].ns;
		}
		series[i].label = labels[i];
		series[i].n = t->chase[i].n;
		series[i].x = xs[i];
		series[i].y = ys[i];
	}
	for (size_t k = 0; k < nlevels && nmarks < EDGES_MAX_LEVELS; k++) {
		const struct level *l = &levels[k];
		if (l->kind != LEVEL_TLB)
			continue;
		mp_snprintf(mark_text[nmarks], sizeof mark_text[nmarks], "%s %llu entries", l->name,
			    (unsigned long long)l->entries);
		marks[nmarks].x = (double)l->entries;
		marks[nmarks].label = mark_text[nmarks];
		marks[nmarks].series = curve_slot(t, l->page_shift);
		marks[nmarks].dashed = 1;
		nmarks++;
	}
	chart.nmarkers = nmarks;
	return svg_write_chart(&chart, write, ctx);
}

int tlb_loads_use(const struct tlb_desc *t, unsigned page_shift)
{
	return (t->kind == TLB_DATA || t->kind == TLB_LOAD || t->kind == TLB_UNIFIED) &&
	       (t->pages & tlb_page_bit(page_shift));
}

const struct tlb_desc *tlb_claimed_largest(const struct cache_claims *c, unsigned page_shift)
{
	const struct tlb_desc *most = NULL;

	for (unsigned i = 0; i < c->ntlbs; i++)
		if (tlb_loads_use(&c->tlb[i], page_shift) &&
		    (!most || c->tlb[i].entries > most->entries))
			most = &c->tlb[i];
	return most;
}

unsigned tlb_claimed_entries(const struct cache_claims *c, unsigned page_shift)
{
	const struct tlb_desc *most = tlb_claimed_largest(c, page_shift);

	return most ? most->entries : 0;
}

unsigned tlb_claimed_entries_max(unsigned page_shift, const char **source)
{
	static struct cache_claims live;
	const struct tlb_desc *most;

	plat_cache_claims(&live);
	most = tlb_claimed_largest(&live, page_shift);
	if (source)
		*source = most && most->source ? most->source : "no source";
	return most ? most->entries : 0;
}
