/* From latency rows to the hierarchy table, its JSON and latency.svg (see
 * analysis.h; the detector is edges.c, its method docs/METHOD.md).
 */
#include "analysis/analysis.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "core/platform.h"
#include "results/report_html.h"
#include "results/report_table.h"
#include "core/probe.h"

/* ---- Constants -------------------------------------------------------- */

#define MAX_MARKERS EDGES_MAX_LEVELS
/* Memory's figures start at this many times the largest cache (claimed or
   found): analysis_memory_floor. */
#define MEMORY_FLOOR_FACTOR 4

const char analysis_heading[] = "memory hierarchy, read from the latency and tlb curves";

/* ---- Private Data ----------------------------------------------------- */

static struct analysis run_analysis;
static int run_analysed;        /* analysis_run has consumed the rows */

/* ---- Private Functions ------------------------------------------------ */

static int same(const char *a, const char *b)
{
	return a && b && mp_strcmp(a, b) == 0;
}

/* A claim agrees when it is the capacity named (size_bytes, the snapped
   half-height crossing), lies between the sweep sizes either side of the
   crossing, or lies in the level's range (the last size that fit .. the
   first that missed; the placement fit's range), both ends included: the
   readings cannot place it closer. The range, not the crossing's bracket
   alone: a point read part way up moves the bracket from run to run (a
   72-entry L1 DTLB read 60 .. 64 by one run, 72 .. 80 by the next), and
   the claim must agree with both readings, as both allow it. */
static int in_bracket(uint64_t v, const struct level *l)
{
	if (v >= l->range_lo && v <= l->range_hi)
		return 1;
	if (l->method == METHOD_PLACEMENT_FIT)
		return 0;
	return v == l->size_bytes || (v >= l->below_bytes && v <= l->next_bytes);
}

/* A level whose readings allow the claimed size is named by it
   (named_by_claim says so): inside its range the readings cannot choose,
   and a name chosen from them (the simplest capacity near the range's
   middle, the measured size nearest the crossing) moves with every
   disturbed point, while the claim is the same in every run. A level whose
   readings rule the claim out keeps its measured name. */
static void name_by_claim(struct level *l, uint64_t claim_bytes)
{
	if (l->size_bytes == claim_bytes)
		return;
	l->read_bytes = l->size_bytes;
	l->size_bytes = claim_bytes;
	if (l->kind == LEVEL_TLB)
		l->entries = claim_bytes >> l->page_shift;
	l->named_by_claim = 1;
}

/* A load chase sees data and unified caches, not instruction caches. */
static const struct cache_desc *claimed_cache(const struct cache_claims *c, unsigned level)
{
	const struct cache_desc *unified = 0;

	for (unsigned i = 0; i < c->ncaches; i++) {
		if (c->cache[i].level != level)
			continue;
		if (c->cache[i].kind == CACHE_DATA)
			return &c->cache[i];
		if (c->cache[i].kind == CACHE_UNIFIED)
			unified = &c->cache[i];
	}
	return unified;
}

static unsigned claimed_cache_levels(const struct cache_claims *c)
{
	unsigned top = 0;

	for (unsigned i = 0; i < c->ncaches; i++)
		if (c->cache[i].kind != CACHE_INSTRUCTION && c->cache[i].level > top)
			top = c->cache[i].level;
	return top;
}

const struct cache_desc *analysis_unread_claim(const struct analysis *a, unsigned level)
{
	unsigned read = 0;

	if (!a->have_claims || analysis_emulated(a))
		return 0;
	for (size_t i = 0; i < a->h.nlevels; i++)
		read += a->h.level[i].kind == LEVEL_CACHE || a->h.level[i].kind == LEVEL_EDGE;
	if (level < 32 && (a->skipped_claims >> level & 1))
		return claimed_cache(&a->claims, level);
	for (unsigned n = 0; n < 32; n++)
		read += a->skipped_claims >> n & 1;
	return level > read && level <= claimed_cache_levels(&a->claims)
		? claimed_cache(&a->claims, level) : 0;
}

static uint64_t tlb_reach(const struct tlb_desc *t, unsigned page_shift)
{
	return (uint64_t)t->entries << page_shift;
}

static int curve_index(const struct analysis *a, unsigned page_shift)
{
	for (size_t i = 0; i < a->ncurves; i++)
		if (a->curve[i].page_shift == page_shift)
			return (int)i;
	return -1;
}

static uint64_t sweep_max(const struct analysis *a, unsigned page_shift)
{
	int i = curve_index(a, page_shift);

	return i >= 0 && a->curve[i].n ? a->curve[i].pt[a->curve[i].n - 1].bytes : 0;
}

static void page_name(char *buf, size_t size, unsigned page_shift)
{
	mp_format_bytes(buf, size, 1ull << page_shift);
}

static void check_cache(struct analysis *a, struct level *l, struct level_check *chk,
			unsigned number)
{
	chk->cache = a->have_claims ? claimed_cache(&a->claims, number) : 0;
	if (!chk->cache)
		return;
	chk->verdict = in_bracket(chk->cache->size_bytes, l) ? VERDICT_AGREES : VERDICT_DIFFERS;
	if (chk->verdict == VERDICT_AGREES)
		name_by_claim(l, chk->cache->size_bytes);
}

/* An edge seen with one page size only may be a cache's or a TLB's; it is
   named and shown as the next cache level, so it agrees with the cache
   claim that lies in its bracket, if any does, and is never held against
   a TLB's claim: a run stopped before its 2 MiB curve once matched an "L3
   ~16 MiB" against the L2 TLB's 8 MiB reach and printed "agrees". The
   claim of the cache of its own number (the n-th level, Ln) is looked at
   first and, lying in the range, names it as check_cache's does: another
   program's curve, read alone, places a smeared step only to a range, and
   the cache of that number is what it most likely is. A lower number's
   claim is never its own: an "L4 256 MiB" past a VM's moving L3 once
   showed the L3's 508 MiB claim and "agrees" on its card line. The first
   edge alone may hold a higher number's claim, the levels below showing
   no step of their own: lmbench's stride reads on an Emerald Rapids VM,
   served by the L2's prefetchers, read 1.70 to 1.75 ns to 48 KiB and 1.9
   to 2.5 to 2 MiB, and the one edge, at 2 MiB, was "L1 2 MiB" with the
   L2's claim of 2 MiB listed as having no edge; it is L2 now, and L1 is
   the claim stepped over (analysis_unread_claim; the report lists it
   with no edge). The level's name is set from number, the levels
   stepped over counted. Returns how many were. */
static unsigned check_edge(struct analysis *a, struct level *l, struct level_check *chk,
			   unsigned number)
{
	unsigned top;

	/* Its place in the sequence, levels stepped over included. */
	mp_snprintf(l->name, sizeof l->name, "L%u", number);
	if (!a->have_claims)
		return 0;
	top = claimed_cache_levels(&a->claims);
	for (unsigned n = number; n <= top && n < 32; n++) {
		const struct cache_desc *claim = claimed_cache(&a->claims, n);

		if (!claim || !in_bracket(claim->size_bytes, l))
			continue;
		/* Not its own number only when no level read so far is a
		   cache of this curve's: the first edge stepping over
		   levels whose steps did not show. */
		if (n > number && number > 1)
			break;
		chk->cache = claim;
		chk->verdict = VERDICT_AGREES;
		name_by_claim(l, claim->size_bytes);
		mp_snprintf(l->name, sizeof l->name, "L%u", n);
		for (unsigned k = number; k < n; k++)
			a->skipped_claims |= 1u << k;
		return n - number;
	}
	return 0;
}

/* A TLB level named after claimed TLB t's level: "L1 DTLB", "L2 TLB". */
static void name_by_tlb(struct level *l, const struct tlb_desc *t)
{
	mp_snprintf(l->name, sizeof l->name, t->level == 1 ? "L%u DTLB" : "L%u TLB", t->level);
}

/* A TLB edge takes the name of the claimed TLB whose reach it brackets;
   without one it stays "TLB" and differs from the claims for its pages. */
static void check_tlb(struct analysis *a, struct level *l, struct level_check *chk)
{
	if (!a->have_claims)
		return;
	for (unsigned i = 0; i < a->claims.ntlbs; i++) {
		const struct tlb_desc *t = &a->claims.tlb[i];
		if (!tlb_loads_use(t, l->page_shift))
			continue;
		if (in_bracket(tlb_reach(t, l->page_shift), l)) {
			chk->tlb = t;
			chk->verdict = VERDICT_AGREES;
			name_by_tlb(l, t);
			name_by_claim(l, tlb_reach(t, l->page_shift));
			return;
		}
		chk->verdict = VERDICT_DIFFERS;
	}
}

static void name_top(struct analysis *a, struct level *top, unsigned caches, unsigned edges)
{
	unsigned below = caches + edges;

	if (!below)
		mp_strlcpy(top->name, "whole sweep", sizeof top->name);
	else if (!a->have_claims || below >= claimed_cache_levels(&a->claims))
		mp_strlcpy(top->name, "memory", sizeof top->name);
	else
		mp_snprintf(top->name, sizeof top->name, "beyond L%u", below);
}

/* Whether the largest TLB claimed for these pages holds without a level
   to match it: read from a CPU with no hypervisor, or the vendor's
   documented figures for the model (no register a hypervisor filled).
   Under a hypervisor the registers can be its fiction (a Zen 5 VM's CPUID
   says 128 entries for a 4096-entry L2 TLB), so a level must agree first.
   An Emerald Rapids VM's latency-only run named a "TLB 7680" (30 MiB,
   +151 cycles) past the documented 2048-entry STLB, where the 4 KiB and
   2 MiB curves read the VM's moving L3 share apart, and put it on the
   card. */
static int tlb_claim_trusted(const struct analysis *a, unsigned page_shift)
{
	const struct tlb_desc *most = tlb_claimed_largest(&a->claims, page_shift);

	return most && (!a->claims.hypervisor || most->documented);
}

/* Whether a TLB level of these pages agreed with a claim of `entries`. */
static int tlb_claim_found(const struct analysis *a, unsigned page_shift, unsigned entries)
{
	for (size_t i = 0; i < a->h.nlevels; i++)
		if (a->h.level[i].kind == LEVEL_TLB && a->h.level[i].page_shift == page_shift &&
		    a->check[i].verdict == VERDICT_AGREES && a->check[i].tlb &&
		    a->check[i].tlb->entries == entries)
			return 1;
	return 0;
}

/* Whether TLB level i steps out of a climb: a TLB level of its pages lies
   below it, and the stretch between the two steps, from the first count
   that fully missed the TLB below (its range's top) to the last that fit
   this level (its range's bottom), spans less than an octave. Past the
   last TLB the walks' entries leave the caches one after another as the
   pages grow, so the curve climbs with at most short pauses; a real TLB
   has a plateau below its edge from the reach of the TLB below it (an
   octave or more: 64 to 2048 entries, 72 to 3072, 96 to 4096). A Zen 5
   run read 66 ns at 6144 and 8192 pages, 82 at 12288 and 518 at 16384,
   past its 4096-entry L2 TLB: a level at 12288 whose plateau is 6144 ..
   8192. */
static int steps_in_climb(const struct analysis *a, size_t i)
{
	const struct level *l = &a->h.level[i], *below = 0;

	for (size_t k = 0; k < a->h.nlevels; k++) {
		const struct level *o = &a->h.level[k];

		if (o->kind == LEVEL_TLB && o->page_shift == l->page_shift &&
		    o->entries < l->entries && (!below || o->entries > below->entries))
			below = o;
	}
	return below && below->range_hi && l->range_lo < 2 * below->range_hi;
}

/* The least miss cost of any page size's first TLB level (the fewest
   entries), in cycles: where a second TLB holds those pages, an L1 DTLB
   miss that hits it; 0 when no TLB level has a positive cost. */
static double least_first_miss(const struct analysis *a)
{
	double least = 0;

	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *l = &a->h.level[i];

		if (l->kind == LEVEL_TLB &&
		    tlb_first_level(a->h.level, a->h.nlevels, l->page_shift) == l &&
		    l->increase_cycles > 0 && (!least || l->increase_cycles < least))
			least = l->increase_cycles;
	}
	return least;
}

/* Whether a TLB level of level i's pages, below it, misses into a walk
   (analysis_miss_walks), so every step past it is the walks'. On this
   project's Zen 5 VM a 2 MiB page's L1
   DTLB miss cost 59-81 cycles against 4 KiB pages' 7 (an L2 TLB hit): the
   host backs the guest with small pages, and the 2 MiB pages' next step
   (512 or 768 pages) was the walks' leaving the caches, carded as a TLB in
   two runs of three. On bare metal an L1 DTLB miss costs about the same
   with either page size (Emerald Rapids: 2.57 and 2.52 ns), and this
   never fires. */
static int misses_walk_below(const struct analysis *a, size_t i)
{
	const struct level *l = &a->h.level[i];

	for (size_t k = 0; k < a->h.nlevels; k++) {
		const struct level *o = &a->h.level[k];

		if (o->kind == LEVEL_TLB && o->page_shift == l->page_shift &&
		    o->entries < l->entries && analysis_miss_walks(a, k))
			return 1;
	}
	return 0;
}

/* Leaves out the TLB levels whose jump lies within an octave of the
   sweep's end (near_sweep_end) where no claim agreed with them: the sweep
   cannot tell such a jump from the start of a climb of walks, and the
   report's open end ("its entries are at least") says what it read. A
   claim in the jump's bracket names it, as the L2 TLB's 2048 entries do
   where a quick sweep stops at 4096 pages; one past the last TLB a level
   matched stays, named walks (name_walk_steps). */
static void drop_open_jumps(struct analysis *a)
{
	size_t kept = 0;

	for (size_t i = 0; i < a->h.nlevels; i++) {
		if (a->h.level[i].kind == LEVEL_TLB && a->h.level[i].near_sweep_end &&
		    !a->h.level[i].walk && a->check[i].verdict != VERDICT_AGREES)
			continue;
		a->h.level[kept] = a->h.level[i];
		a->check[kept++] = a->check[i];
	}
	a->h.nlevels = kept;
}

/* A TLB step that is the page walks' and no TLB's is named "walks", held
   against no claim, listed in system.json apart from the levels and left
   off the card. Two ways to tell:
   - past the largest TLB that CPUID claims for its pages, once a level
     has agreed with that claim (its whole range above the claim): no TLB
     is left to miss (on this project's Zen 4 VM, past its 3072-entry L2
     TLB, a step at 4608, 6144 or 8192 pages from one run to the next, or
     none);
   - where no level agreed with the largest claim (no claims, or a
     hypervisor's wrong ones: a Zen 5 VM's CPUID says 128 entries for a
     4096-entry L2 TLB), from the curve alone: a step out of a climb
     (steps_in_climb);
   - past a level of its pages whose misses already walk
     (misses_walk_below). */
static void name_walk_steps(struct analysis *a)
{
	for (size_t i = 0; i < a->h.nlevels; i++) {
		struct level *l = &a->h.level[i];
		unsigned largest;
		int found;

		if (l->kind != LEVEL_TLB || a->check[i].verdict == VERDICT_AGREES)
			continue;
		largest = a->have_claims ? tlb_claimed_entries(&a->claims, l->page_shift) : 0;
		found = largest && tlb_claim_found(a, l->page_shift, largest);
		if (found || (largest && tlb_claim_trusted(a, l->page_shift))) {
			if ((l->range_lo >> l->page_shift) <= largest)
				continue;
			l->walk = found ? "past the largest claimed TLB, which a level matched"
					: "past the largest claimed TLB, a claim no hypervisor made";
		} else if (steps_in_climb(a, i)) {
			l->walk = "a step out of a climb with no plateau below it";
		} else if (misses_walk_below(a, i)) {
			l->walk = "past a level whose misses cost a walk already";
		} else {
			continue;
		}
		mp_strlcpy(l->name, "walks", sizeof l->name);
		a->check[i].verdict = VERDICT_NO_CLAIM;
		a->check[i].tlb = 0;
	}
}

/* The entries of the agreeing TLB levels of these pages nearest below and
   above `entries` (0 and UINT64_MAX where none lies there). */
static void agreed_around(const struct analysis *a, unsigned page_shift, uint64_t entries,
			  uint64_t *lo, uint64_t *hi)
{
	*lo = 0;
	*hi = UINT64_MAX;
	for (size_t k = 0; k < a->h.nlevels; k++) {
		const struct level *o = &a->h.level[k];

		if (o->kind != LEVEL_TLB || o->page_shift != page_shift ||
		    a->check[k].verdict != VERDICT_AGREES)
			continue;
		if (o->entries < entries && o->entries > *lo)
			*lo = o->entries;
		if (o->entries > entries && o->entries < *hi)
			*hi = o->entries;
	}
}

/* The one claimed TLB of these pages whose entries lie in (lo, hi), no
   level agreeing with it; 0 where none or several do. */
static const struct tlb_desc *lone_claim_between(const struct analysis *a, unsigned page_shift,
						 uint64_t lo, uint64_t hi)
{
	const struct tlb_desc *found = 0;

	for (unsigned i = 0; i < a->claims.ntlbs; i++) {
		const struct tlb_desc *t = &a->claims.tlb[i];

		if (!tlb_loads_use(t, page_shift) || t->entries <= lo || t->entries >= hi ||
		    tlb_claim_found(a, page_shift, t->entries))
			continue;
		if (found)
			return 0;
		found = t;
	}
	return found;
}

/* How many TLB levels of these pages (walks aside) that no claim agreed
   with lie in (lo, hi). */
static unsigned unmatched_between(const struct analysis *a, unsigned page_shift, uint64_t lo,
				  uint64_t hi)
{
	unsigned n = 0;

	for (size_t k = 0; k < a->h.nlevels; k++) {
		const struct level *o = &a->h.level[k];

		n += o->kind == LEVEL_TLB && !o->walk && o->page_shift == page_shift &&
		     a->check[k].verdict != VERDICT_AGREES && o->entries > lo && o->entries < hi;
	}
	return n;
}

/* A TLB level that no claim brackets is held against the claim of its
   place, where there is exactly one: the only claimed TLB of its pages
   between the agreeing levels either side of it, with it the only level
   there. An Emerald Rapids VM's 2 MiB curve climbed from about 800 pages
   to 1536 under the documented 2048-entry STLB, with the 32-entry L1
   DTLB agreeing below; the card said "TLB 2 MiB ~1024 ... - differs",
   differing from nothing it named. It now says "L2 TLB ... 2048 differs".
   Where two claims or two levels share the gap, which belongs to which is
   a guess, and the level keeps no claim. */
static void hold_gap_claims(struct analysis *a)
{
	for (size_t i = 0; a->have_claims && i < a->h.nlevels; i++) {
		struct level *l = &a->h.level[i];
		const struct tlb_desc *t;
		uint64_t lo, hi;

		if (l->kind != LEVEL_TLB || l->walk || a->check[i].verdict == VERDICT_AGREES)
			continue;
		agreed_around(a, l->page_shift, l->entries, &lo, &hi);
		t = lone_claim_between(a, l->page_shift, lo, hi);
		if (!t || unmatched_between(a, l->page_shift, lo, hi) != 1)
			continue;
		a->check[i].tlb = t;
		a->check[i].verdict = VERDICT_DIFFERS;
		name_by_tlb(l, t);
	}
}

/* The largest reach of a TLB level of 4 KiB pages (walks aside); 0 when
   none was found. */
static uint64_t small_pages_reach(const struct analysis *a)
{
	uint64_t reach = 0;

	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *l = &a->h.level[i];

		if (l->kind == LEVEL_TLB && !l->walk && l->page_shift == PAGE_SHIFT_4K &&
		    l->size_bytes > reach)
			reach = l->size_bytes;
	}
	return reach;
}

/* The last cache level below the top, and the one below it; 0 when the
   sequence has fewer than two. */
static size_t last_cache(const struct analysis *a, size_t *below)
{
	size_t last = 0, n = 0;

	for (size_t i = 0; i < a->h.nlevels; i++)
		if (a->h.level[i].kind == LEVEL_CACHE || a->h.level[i].kind == LEVEL_EDGE) {
			*below = last;
			last = i;
			n++;
		}
	return n >= 2 ? last : 0;
}

/* Names the top again after a join took cache levels out of the sequence
   below it: memory, or where the claims have more levels, "beyond Ln". */
static void rename_top(struct analysis *a)
{
	unsigned caches = 0, edges = 0;

	for (size_t i = 0; i < a->h.nlevels; i++) {
		struct level *t = &a->h.level[i];

		caches += t->kind == LEVEL_CACHE;
		edges += t->kind == LEVEL_EDGE;
		if (t->kind == LEVEL_TOP)
			name_top(a, t, caches, edges);
	}
}

/* Whether cache level i is numbered past every cache the CPU claims,
   under a hypervisor: a guest has no cache its CPU does not claim. */
static int past_claimed_caches(const struct analysis *a, size_t i)
{
	unsigned number = 0;

	if (!a->have_claims || !a->claims.hypervisor)
		return 0;
	for (size_t k = 0; k <= i; k++)
		number += a->h.level[k].kind == LEVEL_CACHE || a->h.level[k].kind == LEVEL_EDGE;
	return number > claimed_cache_levels(&a->claims);
}

/* Under a host that backs the guest with small pages (host_page_signs, or
   for a run without the tlb probe what climb_reach allows), a TLB holds
   the host's 4 KiB translations whatever the guest's page size, so past the 4 KiB pages' largest TLB reach every load of either curve
   walks, and memory's latency climbs as the walks' entries leave the
   caches. The last cache level is that climb's step, not a cache, when
   its whole bracket lies past that reach (or, numbered past every claimed
   cache, its size does) and its plateau already stands
   EDGES_MEMORY_OVER_CACHE above the level below it, as memory does: it
   joins the top, and hierarchy.climb keeps it for the report. A full run
   on the Zen 5 VM read memory at 171 ns from 10 to 128 MiB with 2 MiB
   pages, 11x its L3, then 395 ns past 512 MiB: its step at 128 MiB
   (10 MiB .. 1.25 GiB) straddled the 16 MiB reach, stayed a level past
   the claims, and joined the L3 as the guest's share, whose range then
   held the 508 MiB claim: "L3 ~508 MiB agrees". On the Zen
   5 VM one quick run of two carded "L4 ~128 MiB" (40 .. 384 MiB, 186 ns,
   10x its 17.7 ns L3, past a 24 MiB reach) under memory's 431 ns. A real
   level past L3 (an eDRAM or a memory-side cache) stands under 4x the L3,
   and on bare metal this never runs (reach 0). */
static void join_walk_climb(struct analysis *a, uint64_t reach, int reach_claimed)
{
	size_t below = 0, c = last_cache(a, &below), top = a->h.nlevels;
	struct level *l, *t;

	for (size_t i = 0; i < a->h.nlevels; i++)
		if (a->h.level[i].kind == LEVEL_TOP)
			top = i;
	if (!c || top == a->h.nlevels || !reach)
		return;
	l = &a->h.level[c];
	t = &a->h.level[top];
	if ((l->range_lo <= reach && !past_claimed_caches(a, c)) || l->size_bytes <= reach ||
	    a->h.level[below].ns <= 0 || l->ns < a->h.level[below].ns * EDGES_MEMORY_OVER_CACHE)
		return;
	a->h.climb = (struct walk_climb){ l->size_bytes, l->range_lo, l->range_hi, l->ns, t->ns,
					  reach, reach_claimed, l->ns / a->h.level[below].ns };
	t->ns = l->ns;
	t->cycles = l->cycles;
	t->increase_ns = l->increase_ns;
	t->increase_cycles = l->increase_cycles;
	t->size_bytes = t->below_bytes = a->h.level[below].next_bytes;
	t->points += l->points;
	for (size_t i = c; i + 1 < a->h.nlevels; i++) {
		a->h.level[i] = a->h.level[i + 1];
		a->check[i] = a->check[i + 1];
	}
	a->h.nlevels--;
	rename_top(a);
}

/* The 4 KiB pages' reach past which join_walk_climb may join the last
   cache level to memory; 0 where it may not. With the tlb probe's rows,
   only under a host whose small pages those rows show (host_page_signs),
   and the reach its levels read. Without them (a latency-only run) no
   host sign can be read, so only a guest's last cache level that no
   claim names (a level past every claimed one, which a walk climb is and
   a guest's share of a claimed cache is not), past the reach the claims
   give 4 KiB pages. On the Zen 5 VM a latency-only quick run carded "L4
   ~512 MiB" (176 MiB .. 1.25 GiB, 178 ns, 11x its L3) past CPUID's claims
   of L1, L2 and L3, under memory's 441 ns. */
static uint64_t climb_reach(const struct analysis *a, int *claimed)
{
	size_t below = 0, c = last_cache(a, &below);

	*claimed = 0;
	if (a->host_page_signs)
		return small_pages_reach(a);
	if (a->tlb.n || !a->have_claims || !a->claims.hypervisor || !c || a->check[c].cache)
		return 0;
	*claimed = 1;
	return (uint64_t)tlb_claimed_entries(&a->claims, PAGE_SHIFT_4K) << PAGE_SHIFT_4K;
}

/* Under a hypervisor, the cache levels numbered past the last claimed
   cache whose sizes lie inside its claimed size: the guest's share of
   that cache, read as more than one step where the share moved within the
   run or lines of it hit part of the time. A guest has no cache the CPU
   does not claim. Each joins the level numbered as that claim, which
   keeps its latency and whose range reaches over theirs, and is kept in
   joined_steps; its verdict is checked again over the wider range. Only
   when every cache level past it qualifies, so no later level would need
   a new number; after join_walk_climb, which takes a climb of walks to
   memory first. On the Zen 5 VM one quick run carded "L3 ~2 MiB" (1.25 ..
   4.5 MiB, 12.2 ns) and "L4 ~7 MiB" (6.25 .. 7 MiB, 25.8 ns) past CPUID's
   three levels, where its other runs read one L3 of 6 to 12 MiB. */
static void join_past_claims(struct analysis *a)
{
	unsigned n = a->have_claims && a->claims.hypervisor ? claimed_cache_levels(&a->claims) : 0;
	const struct cache_desc *last = n ? claimed_cache(&a->claims, n) : 0;
	size_t into = a->h.nlevels, kept, seen = 0;
	struct level *l;

	if (!last)
		return;
	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *o = &a->h.level[i];

		if (o->kind != LEVEL_CACHE && o->kind != LEVEL_EDGE)
			continue;
		if (++seen == n)
			into = i;
		else if (seen > n && o->size_bytes >= last->size_bytes)
			return;
	}
	if (into == a->h.nlevels || seen <= n)
		return;
	l = &a->h.level[into];
	for (size_t i = kept = into + 1; i < a->h.nlevels; i++) {
		const struct level *o = &a->h.level[i];

		if (o->kind == LEVEL_CACHE || o->kind == LEVEL_EDGE) {
			if (a->h.njoined < EDGES_MAX_JOINED)
				a->h.joined[a->h.njoined++] = (struct joined_step){
					o->size_bytes, o->range_lo, o->range_hi, o->ns, l->size_bytes, 1 };
			l->range_hi = o->range_hi > l->range_hi ? o->range_hi : l->range_hi;
			l->smeared = 1;
			l->seen_in |= o->seen_in;
			continue;
		}
		a->h.level[kept] = *o;
		a->check[kept++] = a->check[i];
	}
	a->h.nlevels = kept;
	a->check[into] = (struct level_check){ 0 };
	if (l->kind == LEVEL_CACHE)
		check_cache(a, l, &a->check[into], n);
	else
		check_edge(a, l, &a->check[into], n);
	for (size_t i = 0; i < a->h.nlevels; i++) {
		struct level *t = &a->h.level[i];

		if (t->kind == LEVEL_TOP) {
			t->increase_ns = t->ns - l->ns;
			t->increase_cycles = t->cycles - l->cycles;
		}
	}
	rename_top(a);
}

/* Whether a measured level already agreed with this claim (for a TLB: in
   the curve of this page size). */
static int claim_matched(const struct analysis *a, const struct cache_desc *c,
			 const struct tlb_desc *t, unsigned page_shift)
{
	for (size_t i = 0; i < a->h.nlevels; i++)
		if (a->check[i].verdict == VERDICT_AGREES &&
		    ((c && a->check[i].cache == c) ||
		     (t && a->check[i].tlb == t && a->h.level[i].page_shift == page_shift)))
			return 1;
	return 0;
}

static void describe_ways(char *buf, size_t size, unsigned ways, int at_least)
{
	if (ways == 0)
		mp_strlcpy(buf, "fully assoc.", size);
	else if (ways == WAYS_UNSTATED)
		mp_strlcpy(buf, "ways unstated", size);
	else
		mp_snprintf(buf, size, "%s%u-way", at_least ? ">=" : "", ways);
}

static void describe_claim(char *buf, size_t size, const struct level_check *chk)
{
	char a[24], w[24], pages[16];

	if (chk->cache) {
		mp_format_bytes(a, sizeof a, chk->cache->size_bytes);
		describe_ways(w, sizeof w, chk->cache->ways, chk->cache->ways_at_least);
		mp_snprintf(buf, size, "L%u %s %s, %s, %u B lines", chk->cache->level, a,
			    cache_kind_name(chk->cache->kind), w, chk->cache->line_bytes);
	} else if (chk->tlb) {
		tlb_pages_name(chk->tlb->pages, pages);
		describe_ways(w, sizeof w, chk->tlb->ways, chk->tlb->ways_at_least);
		mp_snprintf(buf, size, "L%u %s TLB %s: %u entries, %s", chk->tlb->level,
			    tlb_kind_name(chk->tlb->kind), pages, chk->tlb->entries, w);
	} else {
		mp_strlcpy(buf, "-", size);
	}
}

/* Which register said so ("CPUID 8000_001Dh", "CLIDR_EL1/CCSIDR_EL1"), or
   NULL with no claim. */
static const char *claim_source(const struct level_check *chk)
{
	return chk->cache ? chk->cache->source : chk->tlb ? chk->tlb->source : NULL;
}

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_AGREES: return "agrees";
	case VERDICT_DIFFERS: return "differs";
	case VERDICT_EMULATED: return "emulated";
	case VERDICT_NO_CLAIM: break;
	}
	return "-";
}

const char *level_kind_name(enum level_kind k)
{
	switch (k) {
	case LEVEL_CACHE: return "cache";
	case LEVEL_TLB: return "tlb";
	case LEVEL_EDGE: return "edge";
	case LEVEL_TOP: return "top";
	}
	return "?";
}

/* "+8.05" or "-" for the first level, which has nothing below it. */
static void increase_text(char *buf, size_t size, double v, int first)
{
	if (first)
		mp_strlcpy(buf, "-", size);
	else
		mp_snprintf(buf, size, "%s%.2f", v < 0 ? "" : "+", v);
}

/* How the level's capacity was read, in a word or two for the table. */
static const char *level_read_as(const struct level *l)
{
	if (l->kind == LEVEL_TOP)
		return "";
	if (l->named_by_claim)
		return "the claim";
	switch (l->method) {
	case METHOD_SHARP: return "sharp";
	case METHOD_CROSSING: return l->smeared ? "smeared" : "crossing";
	case METHOD_PLACEMENT_FIT: return "smeared fit";
	case METHOD_NONE: break;
	}
	return "-";
}

/* "4.03", or "-" where the rows carried no cycle figure. */
static void cycles_text(char *buf, size_t size, double cycles)
{
	if (cycles > 0)
		mp_snprintf(buf, size, "%.2f", cycles);
	else
		mp_strlcpy(buf, "-", size);
}

/* The hierarchy: a row per cache level, edge and the top. */
static const struct table_column level_columns[] = {
	{ "level", NULL, 12, 1, 0 },
	{ "size", NULL, 9, 0, 0 },
	{ "lies in", NULL, 20, 1, 2 },
	{ "read as", NULL, 11, 1, 0 },
	{ "ns", NULL, 8, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "+cycles", NULL, 9, 0, 0 },
	{ "points", NULL, 6, 0, 0 },
	{ "curve", NULL, 7, 1, 2 },
	{ "claim", NULL, 40, 1, 0 },
	{ "verdict", NULL, 0, 1, 0 },
};
static const struct table level_table = TABLE_OF(level_columns, "  ");

/* The TLB levels, a row each. */
static const struct table_column tlb_columns[] = {
	{ "TLB", NULL, 12, 1, 0 },
	{ "pages", NULL, 7, 1, 0 },
	{ "entries", NULL, 8, 0, 0 },
	{ "reach", NULL, 9, 0, 0 },
	{ "pages between", NULL, 18, 1, 2 },
	{ "ns", NULL, 8, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "+ns", NULL, 9, 0, 0 },
	{ "+cycles", NULL, 9, 0, 0 },
	{ "claim", NULL, 40, 1, 2 },
	{ "verdict", NULL, 0, 1, 0 },
};
static const struct table tlb_table = TABLE_OF(tlb_columns, "  ");

/* "8 MiB (7.25 MiB .. 8 MiB": a step's size and the start of its bracket,
   which the caller closes. */
static void step_text(char *buf, size_t size, uint64_t at, uint64_t lo, uint64_t hi)
{
	char a[24], l[24], h[24];

	mp_format_bytes(a, sizeof a, at);
	mp_format_bytes(l, sizeof l, lo);
	mp_format_bytes(h, sizeof h, hi);
	mp_snprintf(buf, size, "%s (%s .. %s", a, l, h);
}

/* The steps hierarchy_find joined into the level below them. */
static void print_joined(const struct hierarchy *h, const struct mp_printer *p)
{
	char at[80], into[24];

	for (size_t k = 0; k < h->njoined; k++) {
		const struct joined_step *j = &h->joined[k];

		step_text(at, sizeof at, j->bytes, j->range_lo, j->range_hi);
		mp_format_bytes(into, sizeof into, j->into_bytes);
		if (j->past_claims)
			mp_print(p, "  a step at %s, %.2f ns below it) past every cache CPUID claims, "
			    "inside the last one's claimed size, under a hypervisor: the guest's "
			    "share of that cache read as another step, not a level of its own, and "
			    "joined to the %s level\n", at, j->ns, into);
		else
			mp_print(p, "  a step at %s, %.2f ns below it) within the range of the %s "
			    "level below it: that level's smeared step read at another height, not "
			    "a level of its own, and joined to it\n", at, j->ns, into);
	}
}

/* join_walk_climb's step, where there was one. */
static void print_climb(const struct walk_climb *w, const struct mp_printer *p)
{
	char at[80], reach[24];

	if (!w->bytes)
		return;
	step_text(at, sizeof at, w->bytes, w->range_lo, w->range_hi);
	mp_format_bytes(reach, sizeof reach, w->tlb_reach);
	if (w->reach_claimed)
		mp_print(p, "  memory climbs: a step at %s), %.2f ns to %.2f ns, past the %s that "
		    "CPUID's 4 KiB TLBs reach and every claimed cache, out of a plateau %.1fx the "
		    "level below it: read as the host's page walks, not a cache level (no tlb "
		    "probe ran to show the host's pages)\n",
		    at, w->from_ns, w->to_ns, reach, w->over_below);
	else
		mp_print(p, "  memory climbs: a step at %s), %.2f ns to %.2f ns, past the %s that "
		    "4 KiB pages' TLBs reach, out of a plateau %.1fx the level below it: the host's "
		    "page walks (its small pages back this guest), not a cache level\n",
		    at, w->from_ns, w->to_ns, reach, w->over_below);
}

/* The top level where its working sets start under the memory floor
   (analysis_memory_floor): a cache could hold part of them, so the table's
   "memory" there is the curve's top plateau, not a figure past every
   cache; said, as the card says it. */
static void print_top_floor(const struct analysis *a, const struct mp_printer *p)
{
	uint64_t floor = analysis_memory_floor(a);
	char from[24], at[24], to[24];

	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *l = &a->h.level[i];

		if (l->kind != LEVEL_TOP || !floor || l->size_bytes >= floor)
			continue;
		mp_format_bytes(from, sizeof from, l->size_bytes);
		mp_format_bytes(at, sizeof at, floor);
		mp_format_bytes(to, sizeof to, l->next_bytes);
		if (l->next_bytes >= floor)
			mp_print(p, "  %s: from %s, under %s (four times the largest cache, claimed "
				 "or found), where a cache could still hold part of a working set: "
				 "memory's figures come from %s up\n", l->name, from, at, at);
		else
			mp_print(p, "  %s: from %s to %s, all under %s (four times the largest cache, "
				 "claimed or found): a cache could hold part of every working set, so "
				 "no figure of memory's comes from it\n", l->name, from, to, at);
	}
}

static void print_sequence(const struct analysis *a, const struct mp_printer *p)
{
	char size[24], below[24], next[24], page[24], inc[24], cyc[24], claim[96];
	int first = 1;

	report_table_begin(&level_table, "memory hierarchy: cache levels and edges", p);
	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *l = &a->h.level[i];
		char between[48];

		if (l->kind == LEVEL_TLB)
			continue;
		mp_format_bytes(size, sizeof size, l->size_bytes);
		mp_format_bytes(next, sizeof next, l->next_bytes);
		page_name(page, sizeof page, l->page_shift);
		increase_text(inc, sizeof inc, l->increase_cycles, first || l->cycles <= 0);
		cycles_text(cyc, sizeof cyc, l->cycles);
		describe_claim(claim, sizeof claim, &a->check[i]);
		if (l->kind == LEVEL_TOP) {
			mp_snprintf(between, sizeof between, "from %s to %s", size, next);
		} else {
			mp_format_bytes(below, sizeof below, l->range_lo);
			mp_format_bytes(next, sizeof next, l->range_hi);
			mp_snprintf(between, sizeof between, "%s .. %s", below, next);
		}
		report_table_cell("%s", l->name);
		report_table_cell("%s", l->kind == LEVEL_TOP ? "" : size);
		report_table_cell("%s", between);
		report_table_cell("%s", level_read_as(l));
		report_table_cell("%.2f", l->ns);
		report_table_cell("%s", cyc);
		report_table_cell("%s", inc);
		report_table_cell("%u", l->points);
		report_table_cell("%s", page);
		report_table_cell("%s", claim);
		report_table_cell("%s", verdict_name(analysis_verdict(a, i)));
		report_table_row(0);
		first = 0;
	}
	report_table_end();
	print_top_floor(a, p);
	print_joined(&a->h, p);
	print_climb(&a->h.climb, p);
}

/* The TLB levels: the tlb probe's where it ran (entries measured in pages,
   the control's share taken out), else the edges that moved with the
   latency curves' page size. */
static void print_tlbs(const struct analysis *a, const struct mp_printer *p)
{
	char size[24], page[24], inc_ns[24], inc[24], cyc[24], claim[96], between[48];
	int any = 0;

	if (a->tlb.n)
		mp_print(p, "\n  TLB levels, read from the tlb probe (one line per page; ns and cycles: "
		    "loads within the reach; +ns, +cycles: the miss cost its edge adds, the "
		    "control's share taken out):\n");
	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *l = &a->h.level[i];

		if (l->kind != LEVEL_TLB)
			continue;
		if (!any)
			report_table_begin(&tlb_table, "memory hierarchy: TLB levels", p);
		any = 1;
		mp_format_bytes(size, sizeof size, l->size_bytes);
		page_name(page, sizeof page, l->page_shift);
		describe_claim(claim, sizeof claim, &a->check[i]);
		mp_snprintf(between, sizeof between, "%llu .. %llu",
			    (unsigned long long)(l->below_bytes >> l->page_shift),
			    (unsigned long long)(l->next_bytes >> l->page_shift));
		increase_text(inc_ns, sizeof inc_ns, l->increase_ns, 0);
		increase_text(inc, sizeof inc, l->increase_cycles, l->cycles <= 0);
		cycles_text(cyc, sizeof cyc, l->cycles);
		report_table_cell("%s", l->name);
		report_table_cell("%s", page);
		report_table_cell("%llu", (unsigned long long)l->entries);
		report_table_cell("%s", size);
		report_table_cell("%s", between);
		report_table_cell("%.2f", l->ns);
		report_table_cell("%s", cyc);
		report_table_cell("%s", inc_ns);
		report_table_cell("%s", inc);
		report_table_cell("%s", claim);
		report_table_cell("%s", verdict_name(analysis_verdict(a, i)));
		report_table_row(0);
	}
	if (any)
		report_table_end();
	for (size_t k = 0; k < a->tlb.n; k++) {
		const struct curve *c = &a->tlb.chase[k];
		uint64_t at_least;

		if (!tlb_open_end(&a->tlb, k, &at_least))
			continue;
		page_name(page, sizeof page, c->page_shift);
		mp_print(p, "  %s pages: the TLB share still climbs at the sweep's end, %llu pages, "
		    "with no plateau past it (the control does not climb with it): one more "
		    "TLB level, or walks leaving the caches, past the sweep; its entries are at "
		    "least %llu\n", page,
		    (unsigned long long)c->pt[c->n - 1].bytes, (unsigned long long)at_least);
	}
	if (!any && a->tlb.n)
		mp_print(p, "  no TLB edge in the tlb probe's curves: every step there was the caches' "
		    "(the control rose as much), or the sweep ended first\n");
	else if (!any && a->h.attributed) {
		mp_print(p, "  no TLB edge: %s\n", a->h.nunshared
		    ? "what one page size showed alone was the caches' (below)"
		    : "every edge stands at the same working set with every page size");
		if (a->have_claims && a->claims.hypervisor)
			mp_print(p, "  (under a hypervisor a TLB entry covers at most the host's page, so "
			    "if the host backs this guest with 4 KiB pages, large guest pages\n"
			    "  cannot enlarge the TLB reach, and TLB edges stand still like cache "
			    "edges)\n");
	}
	for (size_t k = 0; k < a->h.nunshared; k++) {
		const struct unshared_step *u = &a->h.unshared[k];
		char judge[16], at[24], why[128];

		page_name(page, sizeof page, u->page_shift);
		page_name(judge, sizeof judge, u->judge_shift);
		mp_format_bytes(at, sizeof at, u->bytes);
		if (u->tlb_floor)
			mp_snprintf(why, sizeof why, "at fewer than %llu pages, half the fewest "
				    "entries of any TLB the claims give those pages",
				    (unsigned long long)u->tlb_floor);
		else
			mp_snprintf(why, sizeof why, "past which %s pages read within %.0f%% of %s "
				    "pages", page, (TLB_KEEPS_ABOVE - 1) * 100, judge);
		mp_print(p, "  a step at %s in the %s curve that the %s curve does not show, %s: a "
		    "cache step placed otherwise in the two buffers, not a TLB's\n", at, page, judge,
		    why);
	}
	if (a->host_page_signs)
		mp_print(p, "  under a hypervisor, the host's pages may cap the reach of larger guest "
		    "pages; the data show it:\n%s", a->host_pages);
}

static void print_unmatched(const struct analysis *a, const struct mp_printer *p)
{
	char size[24], page[24], pages[16];
	unsigned levels = a->ncurves ? claimed_cache_levels(&a->claims) : 0;
	uint64_t top = a->ncurves ? sweep_max(a, a->curve[a->ncurves - 1].page_shift) : 0;
	size_t ncurves = a->tlb.n ? a->tlb.n : a->ncurves;
	int header = 0;

#define HEADER() do { if (!header++) mp_print(p, "  claims with no edge at their size:\n"); } while (0)
	for (unsigned lv = 1; lv <= levels; lv++) {
		const struct cache_desc *c = claimed_cache(&a->claims, lv);
		if (!c || claim_matched(a, c, 0, 0))
			continue;
		HEADER();
		mp_format_bytes(size, sizeof size, c->size_bytes);
		/* An edge needs a plateau past it: a capacity within half a
		   step of the last size cannot show. */
		mp_print(p, "    L%u %s %s: %s\n", lv, size, cache_kind_name(c->kind),
		    c->size_bytes * 3 / 2 > top ? "at or beyond the end of the sweep"
						: "no edge there");
	}
	for (unsigned i = 0; i < a->claims.ntlbs; i++) {
		const struct tlb_desc *t = &a->claims.tlb[i];
		for (size_t k = 0; k < ncurves; k++) {
			const struct curve *tc = a->tlb.n ? &a->tlb.chase[k] : 0;
			unsigned shift = tc ? tc->page_shift : a->curve[k].page_shift;
			uint64_t reach = tlb_reach(t, shift);
			/* The tlb probe's sweep ends at its last page count. */
			uint64_t end = tc ? (tc->n ? tc->pt[tc->n - 1].bytes << shift : 0)
					  : sweep_max(a, shift);
			if (!tlb_loads_use(t, shift) || claim_matched(a, 0, t, shift))
				continue;
			HEADER();
			tlb_pages_name(t->pages, pages);
			mp_format_bytes(size, sizeof size, reach);
			page_name(page, sizeof page, shift);
			mp_print(p, "    L%u %s TLB %s, %u entries = %s reach with %s pages: %s\n", t->level,
			    tlb_kind_name(t->kind), pages, t->entries, size, page,
			    reach * 3 / 2 > end ? "at or beyond the end of the sweep"
						: "no edge there in that curve");
		}
	}
#undef HEADER
}

static int produce_latency(svg_write_fn write, void *write_ctx, const void *arg)
{
	return analysis_write_svg(arg, write, write_ctx);
}

/* The tlb probe measures TLB levels directly: they replace the TLB edges
   that the latency curves' page sizes imply, which are inferred. */
static void use_tlb_probe_levels(struct hierarchy *h, const struct tlb_curves *t)
{
	size_t kept = 0;

	for (size_t i = 0; i < h->nlevels; i++)
		if (h->level[i].kind != LEVEL_TLB)
			h->level[kept++] = h->level[i];
	h->nlevels = kept + tlb_levels_find(t, h->level + kept, EDGES_MAX_LEVELS - kept);
	if (h->nlevels == EDGES_MAX_LEVELS)
		h->truncated = 1;   /* perhaps more levels than the table holds */
}

static int produce_tlb(svg_write_fn write, void *write_ctx, const void *arg)
{
	return analysis_write_tlb_svg(arg, write, write_ctx);
}

static int produce_pagewalk(svg_write_fn write, void *write_ctx, const void *arg)
{
	return pagewalk_write_svg(&((const struct analysis *)arg)->pw, write, write_ctx);
}

static int produce_bandwidth(svg_write_fn write, void *write_ctx, const void *arg)
{
	return analysis_write_bandwidth_svg(arg, write, write_ctx);
}

/* Every chart of the analysis, with the reader whose rows it draws. */
static const struct {
	const char *file;
	enum probe_rows_read from;
	chart_produce_fn produce;
} charts[] = {
	{ "latency.svg", ROWS_LATENCY_CURVE, produce_latency },
	{ "tlb.svg", ROWS_TLB_CURVE, produce_tlb },
	{ "pagewalk.svg", ROWS_LATENCY_CURVE, produce_pagewalk },
	{ "bandwidth.svg", ROWS_BANDWIDTH, produce_bandwidth },
};

/* A run's chart into its folder. */
static int run_chart(void *ctx, const char *file, chart_produce_fn produce,
		     const struct analysis *a)
{
	(void)ctx;
	chart_file(file, produce, a);
	return 0;
}

/* The "walks" array: the TLB steps that are the page walks' (name_walk_steps),
   apart from the levels. */
static void walks_json(struct json *j, const struct analysis *a)
{
	json_array_begin(j, "walks");
	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *l = &a->h.level[i];
		if (!l->walk)
			continue;
		json_object_begin(j, 0);
		json_u64(j, "page_size", 1ull << l->page_shift);
		json_u64(j, "pages", l->entries);
		json_u64(j, "size_bytes", l->size_bytes);
		json_u64(j, "edge_below_bytes", l->below_bytes);
		json_u64(j, "edge_next_bytes", l->next_bytes);
		json_double(j, "ns", l->ns);
		json_double(j, "increase_ns", l->increase_ns);
		json_double(j, "increase_cycles", l->increase_cycles);
		json_string(j, "why", l->walk);
		json_object_end(j);
	}
	json_array_end(j);
}

/* ---- Public Functions ------------------------------------------------- */

void analysis_init(struct analysis *a)
{
	mp_memset(a, 0, sizeof *a);
}

int analysis_add_row(struct analysis *a, const struct result_row *row)
{
	int k;

	enum probe_rows_read read = probe_rows_read(row->probe);

	if (read == ROWS_TLB_CURVE)
		return tlb_curves_add_row(&a->tlb, row);
	if (read == ROWS_BANDWIDTH)
		return bandwidth_curves_add_row(&a->bw, row);
	if (read != ROWS_LATENCY_CURVE || !same(row->variant, "chase") || !row->page_shift ||
	    !row->working_set_bytes)
		return -1;
	k = curve_index(a, row->page_shift);
	if (k < 0) {
		if (a->ncurves >= EDGES_MAX_CURVES) {
			a->ignored_rows++;
			return -1;
		}
		/* Kept in ascending page size: the chart and the table list them so. */
		k = (int)a->ncurves;
		while (k > 0 && a->curve[k - 1].page_shift > row->page_shift) {
			a->curve[k] = a->curve[k - 1];
			mp_memcpy(a->verified[k], a->verified[k - 1], sizeof a->verified[k]);
			k--;
		}
		curve_init(&a->curve[k], row->page_shift);
		a->verified[k][0] = 0;
		a->ncurves++;
	}
	if (!a->verified[k][0] && row->pages_verified)
		mp_strlcpy(a->verified[k], row->pages_verified, sizeof a->verified[k]);
	if (curve_add(&a->curve[k], row->working_set_bytes, row->ns, row->cycles) != 0) {
		a->ignored_rows++;
		return -1;
	}
	a->rows++;
	return 0;
}

void analysis_set_claims(struct analysis *a, const struct cache_claims *claims,
			 const char *source)
{
	a->claims = *claims;
	a->have_claims = 1;
	a->claims_source = source;
}

/* The fewest entries of the data TLBs a's claims give for these pages
   that can be trusted (no hypervisor, or the vendor's documented
   figures: a hypervisor's registers can claim more than the core has);
   0 when none. */
static unsigned fewest_trusted_tlb(const struct analysis *a, unsigned page_shift)
{
	unsigned fewest = 0;

	for (unsigned i = 0; a->have_claims && i < a->claims.ntlbs; i++) {
		const struct tlb_desc *t = &a->claims.tlb[i];

		if (tlb_loads_use(t, page_shift) && (!a->claims.hypervisor || t->documented) &&
		    t->entries && (!fewest || t->entries < fewest))
			fewest = t->entries;
	}
	return fewest;
}

/* The data and unified caches a's claims name, and the fewest trusted
   data TLB entries per page size, for hierarchy_find; none without
   claims. */
static void edge_claims_of(const struct analysis *a, struct edge_claims *e)
{
	static const unsigned shifts[] = { PAGE_SHIFT_4K, PAGE_SHIFT_2M, PAGE_SHIFT_1G };

	e->n = e->ntlb = 0;
	for (unsigned i = 0; a->have_claims && i < a->claims.ncaches && e->n < EDGES_MAX_CLAIMS; i++)
		if (a->claims.cache[i].kind != CACHE_INSTRUCTION)
			e->bytes[e->n++] = a->claims.cache[i].size_bytes;
	for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; k++) {
		unsigned fewest = fewest_trusted_tlb(a, shifts[k]);

		if (fewest)
			e->fewest_tlb[e->ntlb++] = (struct edge_tlb_floor){ shifts[k], fewest };
	}
}

void analysis_compute(struct analysis *a)
{
	unsigned caches = 0, edges = 0;
	uint64_t reach;
	int reach_claimed;
	struct edge_claims claimed;

	a->skipped_claims = 0;
	edge_claims_of(a, &claimed);
	hierarchy_find(a->curve, a->ncurves, &claimed, &a->h);
	if (a->tlb.n)
		use_tlb_probe_levels(&a->h, &a->tlb);
	pagewalk_compute(a->curve, a->ncurves, &a->pw);
	bandwidth_levels_find(&a->bw);
	for (size_t i = 0; i < a->h.nlevels; i++) {
		struct level *l = &a->h.level[i];
		struct level_check *chk = &a->check[i];

		chk->verdict = VERDICT_NO_CLAIM;
		chk->cache = 0;
		chk->tlb = 0;
		switch (l->kind) {
		case LEVEL_CACHE:
			check_cache(a, l, chk, ++caches);
			break;
		case LEVEL_EDGE:
			edges++;
			edges += check_edge(a, l, chk, caches + edges);
			break;
		case LEVEL_TLB:
			check_tlb(a, l, chk);
			break;
		case LEVEL_TOP:
			name_top(a, l, caches, edges);
			break;
		}
	}
	name_walk_steps(a);
	drop_open_jumps(a);
	hold_gap_claims(a);
	a->host_page_signs = a->have_claims && a->claims.hypervisor
		? tlb_host_page_signs(&a->tlb, a->h.level, a->h.nlevels, &a->claims,
				      a->host_pages, sizeof a->host_pages)
		: 0;
	reach = climb_reach(a, &reach_claimed);
	join_walk_climb(a, reach, reach_claimed);
	join_past_claims(a);
	a->computed = 1;
}

int analysis_emulated(const struct analysis *a)
{
	return a->have_claims && claims_emulated(&a->claims);
}

uint64_t analysis_floor_of(uint64_t largest)
{
	return largest > UINT64_MAX / MEMORY_FLOOR_FACTOR ? UINT64_MAX
							  : largest * MEMORY_FLOOR_FACTOR;
}

uint64_t analysis_memory_floor(const struct analysis *a)
{
	uint64_t largest = a->have_claims ? claims_largest_cache(&a->claims) : 0;

	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *l = &a->h.level[i];

		if ((l->kind == LEVEL_CACHE || (l->kind == LEVEL_EDGE && !a->have_claims)) &&
		    l->size_bytes > largest)
			largest = l->size_bytes;
	}
	return analysis_floor_of(largest);
}

int analysis_miss_walks(const struct analysis *a, size_t i)
{
	const struct level *l = &a->h.level[i];
	double least;

	if (l->kind != LEVEL_TLB || l->increase_cycles < TLB_WALK_MIN_CYCLES)
		return 0;
	least = least_first_miss(a);
	return least > 0 && l->increase_cycles > TLB_WALK_MISS_FACTOR * least;
}

enum verdict analysis_verdict(const struct analysis *a, size_t i)
{
	enum verdict v = a->check[i].verdict;

	return v != VERDICT_NO_CLAIM && analysis_emulated(a) ? VERDICT_EMULATED : v;
}

void analysis_print(const struct analysis *a, analysis_print_fn print, void *ctx)
{
	struct mp_printer p = { print, ctx };
	char page[24];

	mp_print(&p, "\n== %s ==\n", analysis_heading);
	if (analysis_empty(a)) {
		mp_print(&p, "no latency, tlb or bandwidth rows: nothing to read\n");
		return;
	}
	for (size_t i = 0; i < a->ncurves; i++) {
		page_name(page, sizeof page, a->curve[i].page_shift);
		mp_print(&p, "  curve: %s pages, %zu sizes%s; %s\n", page, a->curve[i].n,
		    a->curve[i].truncated ? " (more were given than the detector holds)" : "",
		    a->verified[i][0] ? a->verified[i] : "pages not verified");
	}
	for (size_t i = 0; i < a->tlb.n; i++) {
		const struct curve *c = &a->tlb.chase[i];
		page_name(page, sizeof page, c->page_shift);
		mp_print(&p, "  tlb curve: %s pages, %zu page counts (%llu .. %llu), %zu control points; "
		    "%s\n", page, c->n, (unsigned long long)(c->n ? c->pt[0].bytes : 0),
		    (unsigned long long)(c->n ? c->pt[c->n - 1].bytes : 0), a->tlb.control[i].n,
		    a->tlb.verified[i][0] ? a->tlb.verified[i] : "pages not verified");
	}
	mp_print(&p, "  plateau: points within %.0f%% of its first; edge: a rise of %.2fx or more "
	    "between plateaus of >= %d points; a cache edge stands in every curve, a TLB edge "
	    "moves with the page size (docs/METHOD.md)\n", EDGES_PLATEAU_TOLERANCE * 100,
	    EDGES_RISE_FACTOR, EDGES_MIN_PLATEAU_POINTS);
	if (a->have_claims) {
		char sources[160];
		claims_sources(&a->claims, sources, sizeof sources);
		mp_print(&p, "  claims: %s, read from %s\n", a->claims_source,
			 sources[0] ? sources : "no register (none listed)");
		if (analysis_emulated(a))
			mp_print(&p, "  emulated CPU (QEMU's TCG): the timings are the emulator's, "
			    "so no level is held to its claim: each verdict says emulated\n");
	} else {
		mp_print(&p, "  claims: none recorded; measured levels shown alone\n");
	}
	if (a->ncurves) {
		if (!a->h.attributed && !a->tlb.n)
			mp_print(&p, "  one page size only: an edge cannot be told apart as a cache "
			    "capacity or a TLB reach (run with pages=4k,2m, or the tlb probe)\n");
		print_sequence(a, &p);
	} else {
		mp_print(&p, "  no latency rows: cache levels not read\n");
	}
	print_tlbs(a, &p);
	if (a->have_claims)
		print_unmatched(a, &p);
	if (a->h.truncated || a->ignored_rows || a->tlb.ignored_rows)
		mp_print(&p, "  note: %u rows left out (more page sizes or sizes than the detector "
		    "holds, or unusable figures)%s\n", a->ignored_rows + a->tlb.ignored_rows,
		    a->h.truncated ? "; levels cut at the table's size" : "");
	if (a->ncurves)
		pagewalk_print(&a->pw, print, ctx);
	bandwidth_levels_print(&a->bw, a->ncurves ? &a->h : 0, &p);
	if (a->bw.ignored_rows)
		mp_print(&p, "  note: %u bandwidth rows left out (more variants or sizes than "
		    "the analysis holds, or no usable figure)\n", a->bw.ignored_rows);
}

int analysis_write_svg(const struct analysis *a, svg_write_fn write, void *ctx)
{
	static double xs[EDGES_MAX_CURVES][EDGES_MAX_POINTS], ys[EDGES_MAX_CURVES][EDGES_MAX_POINTS];
	static char labels[EDGES_MAX_CURVES][32], mark_text[MAX_MARKERS][64];
	struct svg_series series[EDGES_MAX_CURVES];
	struct svg_marker marks[MAX_MARKERS];
	size_t nmarks = 0;
	struct svg_chart chart = {
		"memprobe: load-to-use latency by working set, one curve per page size",
		"working set (log2 scale)", "ns per load (log scale)", 1,
		series, a->ncurves, marks, 0, 1,
	};

	for (size_t i = 0; i < a->ncurves; i++) {
		char page[24];
		page_name(page, sizeof page, a->curve[i].page_shift);
		mp_snprintf(labels[i], sizeof labels[i], "%s pages", page);
		for (size_t k = 0; k < a->curve[i].n; k++) {
			xs[i][k] = (double)a->curve[i].pt[k].bytes;
			ys[i][k] = a->curve[i].pt[k].ns;
		}
		series[i].label = labels[i];
		series[i].n = a->curve[i].n;
		series[i].x = xs[i];
		series[i].y = ys[i];
	}
	for (size_t i = 0; i < a->h.nlevels && nmarks < MAX_MARKERS; i++) {
		const struct level *l = &a->h.level[i];
		char size[24];
		if (l->kind == LEVEL_TOP)
			continue;
		mp_format_bytes(size, sizeof size, l->size_bytes);
		if (l->kind == LEVEL_TLB)
			mp_snprintf(mark_text[nmarks], sizeof mark_text[nmarks],
				    "%s %s (%llu entries)", l->name, size,
				    (unsigned long long)l->entries);
		else
			mp_snprintf(mark_text[nmarks], sizeof mark_text[nmarks], "%s %s", l->name, size);
		marks[nmarks].x = (double)l->size_bytes;
		marks[nmarks].label = mark_text[nmarks];
		marks[nmarks].series = l->kind == LEVEL_TLB ? curve_index(a, l->page_shift) : -1;
		marks[nmarks].dashed = l->kind == LEVEL_TLB;
		nmarks++;
	}
	chart.nmarkers = nmarks;
	return svg_write_chart(&chart, write, ctx);
}

int analysis_write_bandwidth_svg(const struct analysis *a, svg_write_fn write, void *ctx)
{
	return bandwidth_write_svg(&a->bw, write, ctx);
}

int analysis_write_tlb_svg(const struct analysis *a, svg_write_fn write, void *ctx)
{
	return tlb_write_svg(&a->tlb, a->h.level, a->h.nlevels, write, ctx);
}

void analysis_json(struct json *j, const struct analysis *a)
{
	char text[96];
	int first = 1;

	json_string(j, "method", "plateaus and edges of the latency curves; docs/METHOD.md");
	json_double(j, "plateau_tolerance", EDGES_PLATEAU_TOLERANCE);
	json_double(j, "rise_factor", EDGES_RISE_FACTOR);
	json_u64(j, "min_plateau_points", EDGES_MIN_PLATEAU_POINTS);
	json_bool(j, "attributed", a->h.attributed);
	json_array_begin(j, "curves");
	for (size_t i = 0; i < a->ncurves; i++) {
		json_object_begin(j, 0);
		json_u64(j, "page_size", 1ull << a->curve[i].page_shift);
		json_u64(j, "sizes", a->curve[i].n);
		json_string(j, "pages_verified", a->verified[i]);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "tlb_curves");
	for (size_t i = 0; i < a->tlb.n; i++) {
		const struct curve *c = &a->tlb.chase[i];
		json_object_begin(j, 0);
		json_u64(j, "page_size", 1ull << c->page_shift);
		json_u64(j, "page_counts", c->n);
		json_u64(j, "first_pages", c->n ? c->pt[0].bytes : 0);
		json_u64(j, "last_pages", c->n ? c->pt[c->n - 1].bytes : 0);
		json_u64(j, "control_points", a->tlb.control[i].n);
		json_string(j, "pages_verified", a->tlb.verified[i]);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "levels");
	for (size_t i = 0; i < a->h.nlevels; i++) {
		const struct level *l = &a->h.level[i];
		if (l->walk)
			continue;   /* no level: in "walks" below */
		json_object_begin(j, 0);
		json_string(j, "name", l->name);
		json_string(j, "kind", level_kind_name(l->kind));
		json_u64(j, l->kind == LEVEL_TOP ? "from_bytes" : "size_bytes", l->size_bytes);
		if (l->kind != LEVEL_TOP)
			json_u64(j, "edge_below_bytes", l->below_bytes);
		json_u64(j, l->kind == LEVEL_TOP ? "to_bytes" : "edge_next_bytes", l->next_bytes);
		json_double(j, "ns", l->ns);
		json_double(j, "cycles", l->cycles);
		if (l->kind == LEVEL_TLB || !first) {
			json_double(j, "increase_ns", l->increase_ns);
			json_double(j, "increase_cycles", l->increase_cycles);
		}
		json_u64(j, "points", l->points);
		if (l->kind != LEVEL_TOP) {
			json_string(j, "method", level_method_name(l->method));
			json_u64(j, "range_lo_bytes", l->range_lo);
			json_u64(j, "range_hi_bytes", l->range_hi);
			json_bool(j, "smeared", l->smeared);
		}
		json_u64(j, "page_size", 1ull << l->page_shift);
		if (l->kind == LEVEL_TLB)
			json_u64(j, "entries", l->entries);
		describe_claim(text, sizeof text, &a->check[i]);
		json_string(j, "claim", text);
		if (claim_source(&a->check[i]))
			json_string(j, "claim_source", claim_source(&a->check[i]));
		json_string(j, "verdict", verdict_name(analysis_verdict(a, i)));
		json_object_end(j);
		if (l->kind != LEVEL_TLB)
			first = 0;
	}
	json_array_end(j);
	walks_json(j, a);
	json_array_begin(j, "joined_steps");
	for (size_t k = 0; k < a->h.njoined; k++) {
		json_object_begin(j, 0);
		json_u64(j, "size_bytes", a->h.joined[k].bytes);
		json_u64(j, "range_lo_bytes", a->h.joined[k].range_lo);
		json_u64(j, "range_hi_bytes", a->h.joined[k].range_hi);
		json_double(j, "ns", a->h.joined[k].ns);
		json_u64(j, "joined_bytes", a->h.joined[k].into_bytes);
		json_string(j, "why", a->h.joined[k].past_claims ? "past the claimed caches"
								 : "within the range below");
		json_object_end(j);
	}
	json_array_end(j);
	if (a->h.climb.bytes) {
		json_object_begin(j, "walk_climb");
		json_u64(j, "size_bytes", a->h.climb.bytes);
		json_u64(j, "range_lo_bytes", a->h.climb.range_lo);
		json_u64(j, "range_hi_bytes", a->h.climb.range_hi);
		json_double(j, "from_ns", a->h.climb.from_ns);
		json_double(j, "to_ns", a->h.climb.to_ns);
		json_u64(j, "tlb_reach_bytes", a->h.climb.tlb_reach);
		json_string(j, "tlb_reach_from", a->h.climb.reach_claimed ? "claims" : "tlb probe");
		json_object_end(j);
	}
	json_array_begin(j, "unshared_steps");
	for (size_t k = 0; k < a->h.nunshared; k++) {
		json_object_begin(j, 0);
		json_u64(j, "size_bytes", a->h.unshared[k].bytes);
		json_u64(j, "page_size", 1ull << a->h.unshared[k].page_shift);
		json_u64(j, "not_in_page_size", 1ull << a->h.unshared[k].judge_shift);
		json_u64(j, "tlb_floor_pages", a->h.unshared[k].tlb_floor);
		json_object_end(j);
	}
	json_array_end(j);
	if (a->host_page_signs)
		json_string(j, "host_pages_may_cap_reach", a->host_pages);
	pagewalk_json(j, &a->pw);
	if (a->bw.ncurves) {
		json_object_begin(j, probe_def_bandwidth.config.name);
		bandwidth_levels_json(j, &a->bw, a->ncurves ? &a->h : 0);
		json_object_end(j);
	}
	if (a->have_claims) {
		json_object_begin(j, "claims");
		json_string(j, "source", a->claims_source);
		claims_describe(j, &a->claims);
		json_object_end(j);
	}
}

int analysis_has(const struct analysis *a, enum probe_rows_read from)
{
	switch (from) {
	case ROWS_LATENCY_CURVE: return a->ncurves > 0;
	case ROWS_TLB_CURVE: return a->tlb.n > 0;
	case ROWS_BANDWIDTH: return a->bw.nseries > 0;
	case ROWS_C2C:
	case ROWS_MLP:
	case ROWS_LOADED:
	case ROWS_TAILS:
	case ROWS_UNREAD: return 0;
	}
	return 0;
}

int analysis_empty(const struct analysis *a)
{
	return !analysis_has(a, ROWS_LATENCY_CURVE) && !analysis_has(a, ROWS_TLB_CURVE) &&
	       !analysis_has(a, ROWS_BANDWIDTH);
}

int analysis_charts(const struct analysis *a, analysis_chart_fn fn, void *ctx)
{
	for (size_t i = 0; i < sizeof charts / sizeof *charts; i++) {
		int rc = analysis_has(a, charts[i].from) ? fn(ctx, charts[i].file, charts[i].produce, a)
							 : 0;
		if (rc)
			return rc;
	}
	return 0;
}

void analysis_take_row(const struct result_row *row)
{
	if (run_analysed) {
		analysis_init(&run_analysis);
		run_analysed = 0;
	}
	analysis_add_row(&run_analysis, row);
}

void analysis_run(void)
{
	static struct cache_claims live;
	run_analysed = 1;
	if (analysis_empty(&run_analysis))
		return;
	plat_cache_claims(&live);
	analysis_set_claims(&run_analysis, &live, "this CPU's registers");
	analysis_compute(&run_analysis);
	report_html_section(analysis_heading);
	analysis_print(&run_analysis, report_put, 0);
	analysis_charts(&run_analysis, run_chart, 0);
}

const struct analysis *analysis_current(void)
{
	return run_analysed && run_analysis.computed ? &run_analysis : 0;
}

const struct analysis *analysis_so_far(void)
{
	static struct analysis now;
	static struct cache_claims live;

	if (run_analysed || analysis_empty(&run_analysis))
		return 0;
	/* A byte copy: the EFI app's memcpy is a plain loop, and this runs
	   between probes, never in a timed section. */
	mp_memcpy(&now, &run_analysis, sizeof now);
	plat_cache_claims(&live);
	analysis_set_claims(&now, &live, "this CPU's registers");
	analysis_compute(&now);
	return &now;
}

void analysis_describe(struct json *j)
{
	if (!run_analysed || analysis_empty(&run_analysis))
		return;
	json_object_begin(j, "hierarchy");
	analysis_json(j, &run_analysis);
	json_object_end(j);
}
