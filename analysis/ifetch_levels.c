/* Reading the ifetch curves. A chain's curve is read with its control's
 * rise taken out: at each jump count, the control's lowest reading plus
 * (test - control). What the control shares with the test (its jumps, so
 * the branch predictor's load; for the page chain its lines, so the L1i
 * and L2 filling) cancels; what only the test has (the lines of a line
 * chain, the pages of a page chain) stays, and edges.h's plateaus find
 * its steps.
 */

#include "analysis/edges.h"
#include "analysis/ifetch_levels.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/median.h"

/* ---- Private Functions ------------------------------------------------ */

static int same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* The static name for a row's variant, or NULL for none of ifetch's. */
static const char *variant_of(const char *v)
{
	static const char *const names[] = { IFETCH_VARIANT_FETCH, IFETCH_VARIANT_LINE,
		IFETCH_VARIANT_LINE_CONTROL, IFETCH_VARIANT_PAGE, IFETCH_VARIANT_PAGE_CONTROL };

	for (size_t i = 0; v && i < sizeof names / sizeof names[0]; i++)
		if (same(v, names[i]))
			return names[i];
	return NULL;
}

/* Whether s is of this variant, pages and CPU. */
static int series_is(const struct ifetch_series *s, const char *variant, unsigned page_shift,
		     int cpu)
{
	return same(s->variant, variant) && s->page_shift == page_shift && s->cpu == cpu;
}

/* The nth (0, 1, ...) series of this variant, pages and CPU (-1: the
   run's own); a chain run again on one CPU twice has two. */
static const struct ifetch_series *series_nth(const struct ifetch_rows *r, const char *variant,
					      unsigned page_shift, int cpu, size_t nth)
{
	for (size_t i = 0; i < r->nseries; i++)
		if (series_is(&r->s[i], variant, page_shift, cpu) && nth-- == 0)
			return &r->s[i];
	return NULL;
}

/* The run's own series of this variant and pages. */
static const struct ifetch_series *series_of(const struct ifetch_rows *r, const char *variant,
					     unsigned page_shift)
{
	return series_nth(r, variant, page_shift, -1, 0);
}

/* Which of its kind (series_nth) r->s[i] is. */
static size_t series_rank(const struct ifetch_rows *r, size_t i)
{
	size_t nth = 0;

	for (size_t k = 0; k < i; k++)
		nth += series_is(&r->s[k], r->s[i].variant, r->s[i].page_shift, r->s[i].cpu);
	return nth;
}

/* The series a row of this variant, pages and CPU joins: the last of its
   kind, or NULL for a new one. A run again on a CPU starts over from the
   fewest jumps, so a row whose point is not past the last one's starts a
   new series there (the run's own rows go in order wherever they fall). */
static struct ifetch_series *series_for(struct ifetch_rows *r, const char *variant,
					unsigned page_shift, int cpu, uint64_t x)
{
	struct ifetch_series *last = NULL;

	for (size_t i = 0; i < r->nseries; i++)
		if (series_is(&r->s[i], variant, page_shift, cpu))
			last = &r->s[i];
	if (last && cpu >= 0 && last->n && x <= last->x[last->n - 1])
		return NULL;
	return last;
}

/* The index of x in s, or -1. */
static long index_of(const struct ifetch_series *s, uint64_t x)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->x[i] == x)
			return (long)i;
	return -1;
}

/* The test's curve with the control's rise taken out (jump counts the
   control lacks are left out): the control's lowest reading, its steady
   cost a jump, plus test - control. The call and return around each lap
   weigh on the smallest counts of both alike and cancel. With
   running_max, each difference is the largest so far: a line chain's
   control fills the L1i four times later than the chain, and from there
   its own rise would take the chain's step back out. */
static void adjusted_curve(const struct ifetch_series *test, const struct ifetch_series *ctrl,
			   int running_max, struct curve *out)
{
	double base = 0, most = -1e300;

	for (size_t i = 0; i < ctrl->n; i++)
		if (base == 0 || ctrl->cycles[i] < base)
			base = ctrl->cycles[i];
	curve_init(out, test->page_shift);
	for (size_t i = 0; i < test->n; i++) {
		long k = index_of(ctrl, test->x[i]);
		double d;

		if (k < 0)
			continue;
		d = test->cycles[i] - ctrl->cycles[k];
		if (running_max && d < most)
			d = most;
		most = d;
		curve_add(out, test->x[i], base + d, base + d);
	}
}

/* Whether claim lies between the points around l's step: the readings
   allow it. */
static int brackets(const struct ifetch_level *l, uint64_t claim)
{
	return claim && claim >= l->count && claim <= l->next_count;
}

/* Holds l against claim: its verdict, and where the readings allow the
   claim (it lies between the points around the step) the level is named
   by it, as the data side's levels are (analysis.c): between two grid
   points the readings cannot choose. */
static void hold_against(struct ifetch_level *l, uint64_t claim, const char *source,
			 const struct cache_claims *claims)
{
	int allowed = brackets(l, claim);

	l->claim = claim;
	l->claim_source = source ? source : "";
	if (!claim)
		l->verdict = VERDICT_NO_CLAIM;
	else if (claims_emulated(claims))
		l->verdict = VERDICT_EMULATED;
	else
		l->verdict = allowed ? VERDICT_AGREES : VERDICT_DIFFERS;
	if (allowed) {
		l->named_by_claim = 1;
		l->count = claim;
	}
}

/* The first point of the climb from plateau lo to plateau hi that reads
   over the middle of their levels. A structure that holds n items of a
   random cycle hits all of them up to n, so its n lies below that point,
   though the plateau finder left the point in the climb: the Emerald
   Rapids VM's page chain read +1.3 cycles a jump at 128 pages, +10.7 at
   192 and +13.3 at 256, and its plateaus' bracket of 128 .. 384 let
   Intel's documented 256 entries agree. Past n the reading may stay under
   the middle for a while (a replacement that is not LRU keeps some hits:
   the Zen 5 VM's 2048-entry L2 ITLB read +12.5 of +36 at 3072 pages), so
   the point below the climb stays where the plateau ends. */
static uint64_t first_past_half(const struct curve *c, const struct plateau *lo,
				const struct plateau *hi)
{
	double middle = (lo->cycles + hi->cycles) / 2;
	size_t k = lo->last + 1;

	while (k < hi->first && c->pt[k].cycles < middle)
		k++;
	return c->pt[k].bytes;
}

/* The last point of the climb from plateau lo to hi still under a quarter
   of the step: the structure holds that many, a few stray entries aside.
   The chain's own n blocks fill n entries, but the harness's code (the
   timed loop, the call into the chain) holds one or two of the same sets,
   so at exactly n a set or two misses each lap: a tenth of the step, where
   a point past n reads half of it or more. The Emerald Rapids VM's page
   chain read +1.5 cycles a jump at 128 pages over its plateau, +12 at 192
   and +14 past, in runs whose ITLB share was 128 (a busy sibling thread):
   the plateau alone ended at 96. */
static uint64_t last_held(const struct curve *c, const struct plateau *lo,
			  const struct plateau *hi)
{
	double quarter = lo->cycles + (hi->cycles - lo->cycles) / 4;
	size_t k = lo->last;

	while (k + 1 < hi->first && c->pt[k + 1].cycles < quarter)
		k++;
	return c->pt[k].bytes;
}

/* Whether c ends in a climb past plateau p: two points or more past it,
   each over it by more than the plateau tolerance and by
   IFETCH_STEP_MIN_CYCLES at the end, the last the highest. Past a TLB's
   entries each jump walks, and a walk costs more as the pages grow and
   its own entries leave the caches, so the curve need not level off
   before the chain's end: on the Zen 5 VM the 4 KiB page chain read +2.4
   cycles a jump over its control at 2048 pages, then +12.4, +19.7, +24.8
   and +31.8 at 3072 .. 8192, no two within a plateau of each other, and
   the L2 ITLB of 2048 entries went unread ("claim with no step") in
   about half the runs. The end of such a climb is an upper plateau of
   one point, out[0], that no noise of one point can make. */
static int ends_in_climb(const struct curve *c, const struct plateau *p, struct plateau *out)
{
	size_t last = c->n - 1;

	if (p->last + 2 > last || c->pt[last].cycles - p->cycles < IFETCH_STEP_MIN_CYCLES)
		return 0;
	for (size_t k = p->last + 1; k <= last; k++)
		if (c->pt[k].cycles <= p->cycles * (1 + EDGES_PLATEAU_TOLERANCE) ||
		    c->pt[k].cycles > c->pt[last].cycles)
			return 0;
	*out = (struct plateau){ .first = last, .last = last, .ns = c->pt[last].ns,
				 .cycles = c->pt[last].cycles };
	return 1;
}

/* The steps of test over ctrl (running_max: adjusted_curve's), at most
   max, each with its height, from the plateau's last point to the climb's
   first_past_half; a step lower than IFETCH_STEP_MIN_CYCLES is not one.
   With end_climb, a climb past the last plateau to the chain's end
   (ends_in_climb) is a step too, marked climbing. */
static size_t steps(const struct ifetch_series *test, const struct ifetch_series *ctrl,
		    int running_max, int end_climb, struct ifetch_level *out, size_t max)
{
	static struct curve c;
	struct plateau p[EDGES_MAX_PLATEAUS + 1];
	size_t np, n = 0, below = 0;
	int climbing = 0;

	adjusted_curve(test, ctrl, running_max, &c);
	np = curve_plateaus(&c, p, EDGES_MAX_PLATEAUS);
	if (end_climb && np && ends_in_climb(&c, &p[np - 1], &p[np])) {
		np++;
		climbing = 1;
	}
	for (size_t i = 1; i < np && n < max; i++) {
		if (p[i].cycles - p[below].cycles < IFETCH_STEP_MIN_CYCLES)
			continue;
		out[n] = (struct ifetch_level){ .page_shift = test->page_shift,
			.number = (unsigned)n + 1, .count = last_held(&c, &p[i - 1], &p[i]),
			.next_count = first_past_half(&c, &p[i - 1], &p[i]),
			.miss_cycles = p[i].cycles - p[below].cycles, .claim_source = "",
			.climbing = climbing && i == np - 1 };
		below = i;
		n++;
	}
	return n;
}

static const struct cache_desc *claimed_l1i(const struct cache_claims *c)
{
	for (unsigned i = 0; i < c->ncaches; i++)
		if (c->cache[i].level == 1 && c->cache[i].kind == CACHE_INSTRUCTION)
			return &c->cache[i];
	return NULL;
}

static uint64_t claimed_cache(const struct cache_claims *c, unsigned level)
{
	for (unsigned i = 0; i < c->ncaches; i++)
		if (c->cache[i].level == level && c->cache[i].kind != CACHE_DATA)
			return c->cache[i].size_bytes;
	return 0;
}

/* An instruction (or unified) TLB for these pages: of this level, or
   with level 0, the first whose entries lie in [lo, hi]. */
static const struct tlb_desc *claimed_itlb(const struct cache_claims *c, unsigned level,
					   unsigned page_shift, uint64_t lo, uint64_t hi)
{
	for (unsigned i = 0; i < c->ntlbs; i++) {
		const struct tlb_desc *d = &c->tlb[i];

		if (!(d->pages & tlb_page_bit(page_shift)) ||
		    (d->kind != TLB_INSTRUCTION && d->kind != TLB_UNIFIED))
			continue;
		if (level ? d->level == level : d->entries >= lo && d->entries <= hi)
			return d;
	}
	return NULL;
}

/* Which of the line chain's n steps (bytes) is the L1i: the one whose
   bracket holds the claim, else the first. A front end shows more than
   one step before the L2: an op cache or a predictor level that the
   control does not cancel fills before the L1i (Emerald Rapids: +0.6
   cycles at 16-24 KiB, then the L1i's +1.5 past 32 KiB), and noise in
   the shortest chains can make a step of its own at a few KiB. Each is
   reported; the claim only chooses among steps that were read, so a
   CPU whose only step lies elsewhere still differs from it. */
static size_t l1i_of(const struct ifetch_level *s, size_t n, uint64_t claim)
{
	for (size_t i = 0; i < n; i++)
		if (brackets(&s[i], claim))
			return i;
	return 0;
}

/* Whether the claimed L1i is hidden behind the n steps: claimed, and the
   first step's last fast footprint lies past it, so no step can be the
   L1i's (l1i_of found none bracketing it). A chain that ran at one speed
   past the L1i's size did not fetch from the L1i there; calling the first
   step the L1i would name an op cache's reach L1i. */
static int l1i_hidden(const struct ifetch_level *s, size_t n, uint64_t claim)
{
	return claim && n && s[0].count > claim;
}

static void find_l1i(const struct ifetch_rows *r, const struct cache_claims *claims,
		     struct ifetch_findings *f)
{
	const struct ifetch_series *t, *k;
	const struct cache_desc *claim = claimed_l1i(claims);
	uint64_t claim_bytes = claim ? claim->size_bytes : 0;

	/* The smallest page size that ran: the fewest TLB misses aside. */
	for (unsigned shift = 12; shift <= 30 && !f->have_l1i; shift += 9) {
		size_t n;

		t = series_of(r, IFETCH_VARIANT_LINE, shift);
		k = series_of(r, IFETCH_VARIANT_LINE_CONTROL, shift);
		if (!t || !k)
			continue;
		n = steps(t, k, 1, 0, f->line_steps, IFETCH_MAX_LINE_STEPS);
		if (!n)
			continue;
		/* Jumps to bytes: one line each. */
		for (size_t i = 0; i < n; i++) {
			f->line_steps[i].count *= IFETCH_LINE_SLOT;
			f->line_steps[i].next_count *= IFETCH_LINE_SLOT;
		}
		f->nline_steps = n;
		f->l1i_step = l1i_of(f->line_steps, n, claim_bytes);
		/* An emulator's timings hold no op cache: its step is held
		   against the claim as any other, and says emulated. */
		if (!claims_emulated(claims) && l1i_hidden(f->line_steps, n, claim_bytes)) {
			f->l1i_step = n;
			f->l1i_hidden_to = f->line_steps[0].count;
			f->l1i_claim = claim_bytes;
			f->l1i_claim_source = claim->source ? claim->source : "";
			return;
		}
		f->l1i = f->line_steps[f->l1i_step];
		f->have_l1i = 1;
		hold_against(&f->l1i, claim_bytes, claim ? claim->source : NULL, claims);
	}
}

/* The highest level of instruction (or unified) TLB the CPU claims for
   these pages; 0 when none. */
static unsigned claimed_itlb_top_level(const struct cache_claims *c, unsigned page_shift)
{
	unsigned top = 0;

	for (unsigned level = 1; level <= 3; level++)
		if (claimed_itlb(c, level, page_shift, 0, 0))
			top = level;
	return top;
}

/* One page size's reading, from the run's own chain or one run again. */
struct chain_reading {
	struct ifetch_level tlbs[IFETCH_MAX_TLBS], walks[IFETCH_MAX_TLBS];
	size_t ntlbs, nwalks;
};

/* The steps of one page chain against its control and the claims, in
   *out. Past the last claimed TLB, once a step agreed with that claim,
   a further step is the page walks' (their entries leaving the caches as
   the pages grow), not a TLB: it is kept in walks[], reported, and never
   on the card, as the data side's walks (analysis/analysis.c). Only the
   last level's claim counts: a hypervisor's CPUID that claims 64 entries
   for both the L1 and the L2 ITLB (the Zen 5 VM, whose L2 ITLB held some
   2048) leaves its step past 64 a level that differs. */
static void chain_tlbs(const struct ifetch_series *t, const struct ifetch_series *k,
		       const struct cache_claims *claims, struct chain_reading *out)
{
	struct ifetch_level found[IFETCH_MAX_TLBS];
	unsigned shift = t->page_shift, top = claimed_itlb_top_level(claims, shift);
	int last_matched = 0;
	size_t n = steps(t, k, 0, 1, found, IFETCH_MAX_TLBS);

	out->ntlbs = out->nwalks = 0;
	for (size_t i = 0; i < n; i++) {
		struct ifetch_level *l = &found[i];
		/* The claim the reading allows, else the one of its number. */
		const struct tlb_desc *d = claimed_itlb(claims, 0, shift, l->count,
							l->next_count);

		l->read_again = t->cpu >= 0;
		l->cpu = t->cpu >= 0 ? (unsigned)t->cpu : 0;
		if (!last_matched) {
			if (!d)
				d = claimed_itlb(claims, l->number, shift, 0, 0);
			hold_against(l, d ? d->entries : 0, d ? d->source : NULL, claims);
			/* The first-level ITLB alone: a run's share moved
			   between 256 and 128 entries (32 and 16 for 2 MiB
			   pages) from one run to the next on the Emerald
			   Rapids VM as its fetch rate halved with them. */
			l->half_claim = l->verdict == VERDICT_DIFFERS && d &&
					d->kind == TLB_INSTRUCTION && brackets(l, l->claim / 2);
		}
		l->past_last_tlb = last_matched;
		/* Walks: past the last claimed TLB once a step matched it, or
		   a climb with no plateau above it whose bracket holds no
		   claimed TLB's entries (under a hypervisor the Zen 5 VM's 2
		   MiB chain climbed from 192 or 512 pages, short of the 2048
		   entries documented). */
		if (last_matched || (l->climbing && l->verdict != VERDICT_AGREES)) {
			out->walks[out->nwalks++] = *l;
			continue;
		}
		last_matched = d && l->verdict == VERDICT_AGREES && d->level == top;
		out->tlbs[out->ntlbs++] = *l;
	}
}

/* Whether a reading's first step agrees with its claim. */
static int first_agrees(const struct chain_reading *c)
{
	return c->ntlbs && c->tlbs[0].number == 1 && c->tlbs[0].verdict == VERDICT_AGREES;
}

/* The chains of these pages run again on other CPUs, in the order they
   ran, read into *out: the first whose first step agrees with its claim
   (with cpu and own_count set), returning 1; else 0, with *halves the
   reruns whose first step read half the claim too. The run's own chain
   (own) read its first step at half the claim: a busy sibling thread
   shares the ITLB of the core it ran on, and the Emerald Rapids VM's
   vCPU 1 read 128 entries in four runs of twenty where, just after, vCPU
   0 read the 256 claimed in each. */
static int rerun_agreeing(const struct ifetch_rows *r, unsigned shift,
			  const struct cache_claims *claims, const struct chain_reading *own,
			  struct chain_reading *out, unsigned *halves)
{
	*halves = 0;
	for (size_t i = 0; i < r->nseries; i++) {
		const struct ifetch_series *t = &r->s[i], *k;

		if (t->cpu < 0 || t->page_shift != shift || !same(t->variant, IFETCH_VARIANT_PAGE) ||
		    !(k = series_nth(r, IFETCH_VARIANT_PAGE_CONTROL, shift, t->cpu,
				     series_rank(r, i))))
			continue;
		chain_tlbs(t, k, claims, out);
		if (first_agrees(out)) {
			for (size_t j = 0; j < out->ntlbs; j++)
				out->tlbs[j].own_count = j == 0 ? own->tlbs[0].count : 0;
			return 1;
		}
		*halves += out->ntlbs && out->tlbs[0].half_claim;
	}
	return 0;
}

/* Each page size's steps against the claims (chain_tlbs), from the run's
   own page chain; where its first step read half the claim and a chain
   run again on another CPU read the claim, from that one, which says so. */
static void find_tlbs(const struct ifetch_rows *r, const struct cache_claims *claims,
		      struct ifetch_findings *f)
{
	static struct chain_reading own, again;

	for (unsigned shift = 12; shift <= 30; shift += 9) {
		const struct ifetch_series *t = series_of(r, IFETCH_VARIANT_PAGE, shift);
		const struct ifetch_series *k = series_of(r, IFETCH_VARIANT_PAGE_CONTROL, shift);
		const struct chain_reading *use = &own;
		unsigned halves = 0;

		if (!t || !k)
			continue;
		chain_tlbs(t, k, claims, &own);
		if (own.ntlbs && own.tlbs[0].half_claim) {
			if (rerun_agreeing(r, shift, claims, &own, &again, &halves))
				use = &again;
			else
				own.tlbs[0].reruns_half = halves;
		}
		for (size_t i = 0; i < use->ntlbs && f->ntlbs < IFETCH_MAX_TLBS; i++)
			f->tlb[f->ntlbs++] = use->tlbs[i];
		for (size_t i = 0; i < use->nwalks && f->nwalks < IFETCH_MAX_TLBS; i++)
			f->walks[f->nwalks++] = use->walks[i];
	}
}

/* The claimed instruction (or unified) TLBs of each page size the page
   chain ran with that no step was held against (find_tlbs), each with the
   chain's last page count. */
static void find_unseen(const struct ifetch_rows *r, const struct cache_claims *claims,
			struct ifetch_findings *f)
{
	for (unsigned shift = 12; shift <= 30; shift += 9) {
		const struct ifetch_series *t = series_of(r, IFETCH_VARIANT_PAGE, shift);

		for (unsigned i = 0; t && t->n && i < claims->ntlbs; i++) {
			const struct tlb_desc *d = &claims->tlb[i];
			int held = 0;

			if (!(d->pages & tlb_page_bit(shift)) ||
			    (d->kind != TLB_INSTRUCTION && d->kind != TLB_UNIFIED))
				continue;
			for (size_t k = 0; k < f->ntlbs; k++)
				held |= f->tlb[k].page_shift == shift && f->tlb[k].claim == d->entries;
			if (!held && f->nunseen < IFETCH_MAX_TLBS)
				f->unseen[f->nunseen++] = (struct ifetch_unseen){ shift, d->level,
					d->entries, d->source, t->x[t->n - 1], claims_emulated(claims) };
		}
	}
}

/* The median of s's field over footprints in (lo, hi]; 0 with none. */
static double median_between(const struct ifetch_series *s, const double *field, uint64_t lo,
			     uint64_t hi)
{
	double v[IFETCH_MAX_POINTS];
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->x[i] > lo && s->x[i] <= hi)
			v[n++] = field[i];
	return n ? median_of(v, n) : 0;
}

static void find_fetch(const struct ifetch_rows *r, const struct cache_claims *claims,
		       struct ifetch_findings *f)
{
	const struct cache_desc *l1i = claimed_l1i(claims);
	uint64_t l1 = l1i ? l1i->size_bytes : 32768, l2 = claimed_cache(claims, 2);

	if (!l2)
		l2 = 16 * l1;
	/* The page size whose sleds read the most from L1i, the larger on a
	   tie. A footprint that fits the L1i fits every ITLB, so no page
	   size slows it; what can is a sibling thread that the host runs on
	   the same core for a while, which halves a thread's fetch: on an
	   Emerald Rapids VM two runs of five read their 2 MiB sleds at 11.7
	   to 13 B/cycle up to 6 KiB or further, and 24 beyond, while the 4
	   KiB sleds of the same runs read 24 throughout. Both figures come
	   from the one series. */
	for (unsigned shift = 30; shift >= 12; shift -= 9) {
		const struct ifetch_series *s = series_of(r, IFETCH_VARIANT_FETCH, shift);
		double from_l1i = s ? median_between(s, s->bytes_per_cycle, 0, l1) : 0;

		if (!s || !s->n || (f->fetch_page_shift && from_l1i <= f->fetch_l1i_bytes_per_cycle))
			continue;
		f->fetch_page_shift = shift;
		f->fetch_l1i_bytes_per_cycle = from_l1i;
		f->fetch_l1i_insns_per_cycle = median_between(s, s->insns_per_cycle, 0, l1);
		f->fetch_l2_bytes_per_cycle = median_between(s, s->bytes_per_cycle, 2 * l1, l2 / 2);
	}
}

static void level_json(struct json *j, const struct ifetch_level *l, const char *count_key)
{
	json_u64(j, count_key, l->count);
	json_u64(j, "next_point", l->next_count);
	json_bool(j, "named_by_claim", l->named_by_claim);
	json_double(j, "miss_cycles", l->miss_cycles);
	json_u64(j, "claim", l->claim);
	json_string(j, "claim_source", l->claim_source);
	json_string(j, "verdict", verdict_name(l->verdict));
}

/* What a step's miss cost is when the chain climbed on past it to its end
   (ifetch_level.climbing). */
#define CLIMBING_WORDS " at the chain's end, still climbing (walks cost more as the pages grow)"

/* One line of ifetch_print's, formatted, to print. */
static void say(analysis_print_fn print, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(analysis_print_fn print, void *ctx, const char *fmt, ...)
{
	static char line[1024];
	va_list ap;

	va_start(ap, fmt);
	mp_vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	print(ctx, line);
}

/* What line step i is, beside the L1i's (or, where the L1i was not seen,
   the first step's front-end cache). */
static const char *line_step_words(const struct ifetch_findings *f, size_t i)
{
	if (f->l1i_hidden_to)
		return i == 0 ? "the front-end cache ahead of the L1i that held the chain"
			      : "past it: the L2 or beyond, as code sees it";
	return i < f->l1i_step ? "before it: an op cache, a predictor level or noise in the "
				 "shortest chains"
			       : "past it: the L2 or beyond, as code sees it";
}

static void print_l1i(const struct ifetch_findings *f, analysis_print_fn print, void *ctx)
{
	if (f->have_l1i)
		say(print, ctx, "ifetch: L1i %llu bytes (next point %llu), miss +%.2f cycles a jump "
		    "over the control; claim %llu (%s): %s\n", (unsigned long long)f->l1i.count,
		    (unsigned long long)f->l1i.next_count, f->l1i.miss_cycles,
		    (unsigned long long)f->l1i.claim, f->l1i.claim_source,
		    verdict_name(f->l1i.verdict));
	else if (f->l1i_hidden_to)
		say(print, ctx, "ifetch: L1i not seen: the line chain ran as fast to %llu bytes, "
		    "past the %llu-byte L1i claimed (%s): a front-end cache ahead of the L1i (an "
		    "op cache holding each line's one jump) held it, and hides the L1i's own "
		    "step\n", (unsigned long long)f->l1i_hidden_to,
		    (unsigned long long)f->l1i_claim, f->l1i_claim_source);
	else
		say(print, ctx, "ifetch: no L1i step found in the line chain over its control\n");
	for (size_t i = 0; i < f->nline_steps; i++)
		if (i != f->l1i_step)
			say(print, ctx, "ifetch: the line chain's step %zu of %zu, not the L1i's: "
			    "%llu bytes (next point %llu), +%.2f cycles a jump (%s)\n", i + 1,
			    f->nline_steps, (unsigned long long)f->line_steps[i].count,
			    (unsigned long long)f->line_steps[i].next_count,
			    f->line_steps[i].miss_cycles, line_step_words(f, i));
}

static void print_tlbs(const struct ifetch_findings *f, analysis_print_fn print, void *ctx)
{
	for (size_t i = 0; i < f->ntlbs; i++) {
		const struct ifetch_level *t = &f->tlb[i];
		char claim[384], where[400];

		if (t->claim)
			mp_snprintf(claim, sizeof claim, "claim %llu (%s): %s%s",
				    (unsigned long long)t->claim, t->claim_source,
				    verdict_name(t->verdict), t->half_claim ? "; " IFETCH_HALF_WORDS : "");
		else
			mp_strlcpy(claim, "no claim: none in its bracket, none of its level",
				   sizeof claim);
		where[0] = 0;
		if (t->read_again && !t->own_count)
			mp_snprintf(where, sizeof where, "; read on CPU %u, from the chain run again "
				    "there", t->cpu);
		else if (t->read_again)
			mp_snprintf(where, sizeof where, "; read on CPU %u, where the chain ran again "
				    "because the run's own read %llu, half the claim (" IFETCH_HALF_WORDS
				    ")", t->cpu, (unsigned long long)t->own_count);
		else if (t->reruns_half)
			mp_snprintf(where, sizeof where, "; the chain ran again on %u other CPU%s, "
				    "which read half the claim too", t->reruns_half,
				    t->reruns_half == 1 ? "" : "s");
		say(print, ctx, "ifetch: ITLB step %u with %llu KiB pages: %llu entries (next point "
		    "%llu), miss +%.2f cycles a jump%s; %s%s\n", t->number,
		    (unsigned long long)(1ull << t->page_shift) / 1024, (unsigned long long)t->count,
		    (unsigned long long)t->next_count, t->miss_cycles,
		    t->climbing ? CLIMBING_WORDS : "", claim, where);
	}
	for (size_t i = 0; i < f->nwalks; i++)
		say(print, ctx, "ifetch: walks with %llu KiB pages: a step at %llu pages (next point "
		    "%llu), +%.2f cycles a jump%s, %s: the page walks' entries leaving the caches, "
		    "not a TLB (not on the card)\n",
		    (unsigned long long)(1ull << f->walks[i].page_shift) / 1024,
		    (unsigned long long)f->walks[i].count,
		    (unsigned long long)f->walks[i].next_count, f->walks[i].miss_cycles,
		    f->walks[i].climbing ? CLIMBING_WORDS : "",
		    f->walks[i].past_last_tlb ? "past the last claimed instruction TLB, which a "
						"step matched"
					      : "a climb whose bracket holds no claimed "
						"instruction TLB's entries");
	for (size_t i = 0; i < f->nunseen; i++)
		say(print, ctx, "ifetch: claim with no step, %llu KiB pages: level %u instruction "
		    "TLB of %u entries (%s); the page chain ran to %llu pages: %s\n",
		    (unsigned long long)(1ull << f->unseen[i].page_shift) / 1024,
		    f->unseen[i].level, f->unseen[i].entries, f->unseen[i].source,
		    (unsigned long long)f->unseen[i].chain_top, ifetch_unseen_why(&f->unseen[i]));
}

/* ---- Public Functions ------------------------------------------------- */

void ifetch_rows_init(struct ifetch_rows *r)
{
	r->nseries = 0;
}

void ifetch_rows_add(struct ifetch_rows *r, const struct result_row *row)
{
	const char *variant = variant_of(row->variant);
	int cpu = row->cpu.given ? (int)row->cpu.value : -1;
	uint64_t x = row->stride_bytes ? row->working_set_bytes / row->stride_bytes
				       : row->working_set_bytes;
	struct ifetch_series *s;
	size_t i;

	if (!row->probe || !same(row->probe, "ifetch") || !variant || !(row->cycles > 0))
		return;
	s = series_for(r, variant, row->page_shift, cpu, x);
	if (!s) {
		if (r->nseries == IFETCH_MAX_SERIES)
			return;
		s = &r->s[r->nseries++];
		*s = (struct ifetch_series){ .variant = variant, .page_shift = row->page_shift,
					     .cpu = cpu };
	}
	if (s->n == IFETCH_MAX_POINTS)
		return;
	for (i = s->n; i > 0 && s->x[i - 1] > x; i--) {
		s->x[i] = s->x[i - 1];
		s->cycles[i] = s->cycles[i - 1];
		s->bytes_per_cycle[i] = s->bytes_per_cycle[i - 1];
		s->insns_per_cycle[i] = s->insns_per_cycle[i - 1];
	}
	s->x[i] = x;
	s->cycles[i] = row->cycles;
	s->bytes_per_cycle[i] = row->bytes_per_cycle.given ? row->bytes_per_cycle.value : 0;
	s->insns_per_cycle[i] = row->insns_per_cycle.given ? row->insns_per_cycle.value : 0;
	s->n++;
}

const struct tlb_desc *ifetch_claimed_tlb_largest(const struct cache_claims *c,
						  unsigned page_shift)
{
	const struct tlb_desc *most = NULL;

	for (unsigned level = 1; level <= 3; level++) {
		const struct tlb_desc *d = claimed_itlb(c, level, page_shift, 0, 0);

		if (d && (!most || d->entries > most->entries))
			most = d;
	}
	return most;
}

void ifetch_find(const struct ifetch_rows *r, const struct cache_claims *claims,
		 struct ifetch_findings *f)
{
	*f = (struct ifetch_findings){ 0 };
	find_l1i(r, claims, f);
	find_tlbs(r, claims, f);
	find_unseen(r, claims, f);
	find_fetch(r, claims, f);
}

const char *ifetch_unseen_why(const struct ifetch_unseen *u)
{
	if (u->chain_top <= u->entries)
		return "the page chain stopped at or before its entries (ifetch.max_buffer or "
		       "memory), so its step cannot show";
	if (u->emulated)
		return "the CPU is emulated: the emulator's timings need not show its TLBs";
	return "the page chain ran past its entries and showed no step there: a miss too cheap "
	       "to read, or a claim that is not this core's";
}

void ifetch_json(struct json *j, const struct ifetch_findings *f)
{
	if (!f->have_l1i && !f->l1i_hidden_to && !f->ntlbs && !f->fetch_page_shift)
		return;
	json_object_begin(j, "ifetch");
	if (f->have_l1i) {
		json_object_begin(j, "l1i");
		level_json(j, &f->l1i, "size_bytes");
		json_object_end(j);
	}
	if (f->l1i_hidden_to) {
		json_object_begin(j, "l1i_not_seen");
		json_u64(j, "chain_fast_to_bytes", f->l1i_hidden_to);
		json_u64(j, "claim", f->l1i_claim);
		json_string(j, "claim_source", f->l1i_claim_source);
		json_object_end(j);
	}
	json_array_begin(j, "line_steps");
	for (size_t i = 0; i < f->nline_steps; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "bytes", f->line_steps[i].count);
		json_u64(j, "next_point", f->line_steps[i].next_count);
		json_double(j, "miss_cycles", f->line_steps[i].miss_cycles);
		json_bool(j, "l1i", f->have_l1i && i == f->l1i_step);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "itlbs");
	for (size_t i = 0; i < f->ntlbs; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "page_size", 1ull << f->tlb[i].page_shift);
		json_u64(j, "level", f->tlb[i].number);
		level_json(j, &f->tlb[i], "entries");
		json_u64(j, "reach_bytes", f->tlb[i].count << f->tlb[i].page_shift);
		json_bool(j, "climbing", f->tlb[i].climbing);
		json_bool(j, "half_claim", f->tlb[i].half_claim);
		if (f->tlb[i].read_again) {
			json_u64(j, "read_on_cpu", f->tlb[i].cpu);
			json_u64(j, "own_entries", f->tlb[i].own_count);
		}
		json_u64(j, "reruns_half", f->tlb[i].reruns_half);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "walks");
	for (size_t i = 0; i < f->nwalks; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "page_size", 1ull << f->walks[i].page_shift);
		json_u64(j, "pages", f->walks[i].count);
		json_u64(j, "next_point", f->walks[i].next_count);
		json_double(j, "miss_cycles", f->walks[i].miss_cycles);
		json_bool(j, "climbing", f->walks[i].climbing);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "itlb_claims_unseen");
	for (size_t i = 0; i < f->nunseen; i++) {
		const struct ifetch_unseen *u = &f->unseen[i];

		json_object_begin(j, NULL);
		json_u64(j, "page_size", 1ull << u->page_shift);
		json_u64(j, "level", u->level);
		json_u64(j, "entries", u->entries);
		json_string(j, "source", u->source ? u->source : "");
		json_u64(j, "chain_top_pages", u->chain_top);
		json_string(j, "why", ifetch_unseen_why(u));
		json_object_end(j);
	}
	json_array_end(j);
	json_object_begin(j, "fetch");
	json_u64(j, "page_size", f->fetch_page_shift ? 1ull << f->fetch_page_shift : 0);
	json_double(j, "l1i_bytes_per_cycle", f->fetch_l1i_bytes_per_cycle);
	json_double(j, "l1i_insns_per_cycle", f->fetch_l1i_insns_per_cycle);
	json_double(j, "l2_bytes_per_cycle", f->fetch_l2_bytes_per_cycle);
	json_object_end(j);
	json_object_end(j);
}

size_t ifetch_half_claims(const struct ifetch_findings *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->ntlbs; i++)
		n += (size_t)f->tlb[i].half_claim;
	return n;
}

size_t ifetch_read_elsewhere(const struct ifetch_findings *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->ntlbs; i++)
		n += (size_t)f->tlb[i].read_again;
	return n;
}

int ifetch_first_half(const struct ifetch_findings *f, unsigned page_shift)
{
	for (size_t i = 0; i < f->ntlbs; i++)
		if (f->tlb[i].page_shift == page_shift)
			return f->tlb[i].half_claim;
	return 0;
}

void ifetch_print(const struct ifetch_findings *f, analysis_print_fn print, void *ctx)
{
	print_l1i(f, print, ctx);
	print_tlbs(f, print, ctx);
	say(print, ctx, "ifetch: fetch %.2f bytes (%.2f instructions) a cycle up to the claimed "
	    "L1i, %.2f bytes a cycle between twice the L1i and half the L2 (op cache, L1i and L2 "
	    "as code sees them; no CPU claims a fetch rate)\n", f->fetch_l1i_bytes_per_cycle,
	    f->fetch_l1i_insns_per_cycle, f->fetch_l2_bytes_per_cycle);
}
