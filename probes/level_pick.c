/* The working sets per level that the mlp and tails probes measure at (see
 * level_pick.h): the latency probe's cache levels when it ran earlier in
 * this run, since a VM's claims can name caches the guest never sees, and
 * the claims otherwise.
 */

#include "probes/level_pick.h"
#include "analysis/analysis.h"
#include "lib/base2.h"
#include "lib/fmt.h"
#include "lib/machine.h"
#include "probes/chase.h"
#include "probes/sweep.h"

/* ---- Private Functions ------------------------------------------------ */

/* bytes down to the sweep's grid of eighths of an octave (a multiple of
   the largest power of two at most an eighth of it): 12 KiB, not 12928
   bytes, in the report, and a size the latency probe may have read. */
static uint64_t eighth_floor(uint64_t bytes)
{
	uint64_t unit = CHASE_SLOT;

	while (unit * 16 <= bytes)
		unit *= 2;
	return bytes / unit * unit;
}

/* Half of a cache as the next level, or where the latency curve drew the
   level's plateau over [from, to] (bytes; 0: not known) and half lies past
   its middle on a log scale, that middle; whole lines, none past the room
   left for memory, none below two lines. Half of a level whose step is
   smeared lies on the step: on the Zen 5 VM the L2 (1 MiB) read 3.9 ns
   over 64-384 KiB and 4.7 at 512 KiB, its half, where the tails probe's
   median read 4.5 against the latency probe's 5.7 (a mean over loads, the
   step's slower ones in it); the L1's half, 24 KiB, read 1.24 against a
   plateau of 1.13. */
static void pick_cache(struct level_picks *p, const char *name, uint64_t size_bytes,
		       double latency_ns, double latency_cycles, uint64_t from, uint64_t to)
{
	struct level_pick *l = &p->level[p->count];
	uint64_t bytes = size_bytes / 2;

	if (p->count == LEVEL_PICKS_MAX - 1 || size_bytes < 2 * CHASE_SLOT)
		return;
	if (from && to > from) {
		double middle = base2_exp((base2_log((double)from) + base2_log((double)to)) / 2);

		if (middle < (double)bytes)
			bytes = eighth_floor((uint64_t)middle);
	}
	mp_strlcpy(l->name, name, sizeof l->name);
	l->bytes = bytes / CHASE_SLOT * CHASE_SLOT;
	l->latency_ns = latency_ns;
	l->latency_cycles = latency_cycles;
	p->count++;
}

/* The first working set of the latency curve at 1 << page_shift; 0 none. */
static uint64_t curve_start(const struct analysis *a, unsigned page_shift)
{
	for (size_t c = 0; c < a->ncurves; c++)
		if (a->curve[c].page_shift == page_shift && a->curve[c].n)
			return a->curve[c].pt[0].bytes;
	return 0;
}

/* The cache levels the latency probe's curves named, each level's plateau
   from the first size past the level below (the curve's first size for
   the first) to the last size before its own step; memory's latency from
   their top level. */
static void caches_from_latency(struct level_picks *p, const struct analysis *before)
{
	uint64_t from = 0;
	int first = 1;

	for (size_t i = 0; i < before->h.nlevels; i++) {
		const struct level *l = &before->h.level[i];

		if (l->kind == LEVEL_TOP) {
			p->top_ns = l->ns;
			p->top_cycles = l->cycles;
		}
		if (l->kind != LEVEL_CACHE)
			continue;
		if (first)
			from = curve_start(before, l->page_shift);
		first = 0;
		pick_cache(p, l->name, l->size_bytes, l->ns, l->cycles, from, l->below_bytes);
		from = l->next_bytes;
		if (l->size_bytes > p->largest_found)
			p->largest_found = l->size_bytes;
	}
}

/* The data and unified caches the CPU claims, one per level. */
static void caches_from_claims(struct level_picks *p, const struct cache_claims *claims)
{
	for (unsigned n = 1; n <= 4; n++)
		for (unsigned i = 0; i < claims->ncaches; i++) {
			const struct cache_desc *d = &claims->cache[i];
			char name[8];

			if (d->level != n || (d->kind != CACHE_DATA && d->kind != CACHE_UNIFIED))
				continue;
			mp_snprintf(name, sizeof name, "L%u", n);
			pick_cache(p, name, d->size_bytes, 0, 0, 0, 0);
			break;
		}
}

/* ---- Public Functions ------------------------------------------------- */

void level_picks_caches(struct level_picks *p, const struct analysis *before,
			const struct cache_claims *claims)
{
	*p = (struct level_picks){ .largest_claimed = claims_largest_cache(claims) };
	if (before && before->ncurves)
		caches_from_latency(p, before);
	p->from = "the latency probe's cache levels in this run";
	if (p->largest_found)
		return;
	p->count = 0;
	p->top_ns = 0;
	p->top_cycles = 0;
	caches_from_claims(p, claims);
	p->from = before && before->ncurves ?
		"the caches the CPU claims (the latency probe's curves named no cache level)" :
		"the caches the CPU claims (the latency probe did not run before it)";
	if (!p->count)
		p->from = "no cache known (nothing claimed, the latency probe named none)";
}

unsigned level_picks_add_memory(struct level_picks *p, uint64_t bytes)
{
	unsigned dropped = 0;
	struct level_pick *m;

	bytes = bytes / CHASE_SLOT * CHASE_SLOT;
	while (p->count && p->level[p->count - 1].bytes >= bytes) {
		p->count--;
		dropped++;
	}
	m = &p->level[p->count++];
	mp_strlcpy(m->name, "memory", sizeof m->name);
	m->bytes = bytes;
	m->latency_ns = p->top_ns;
	m->latency_cycles = p->top_cycles;
	return dropped;
}

/* The latency curve point of these pages nearest `bytes` within an
   eighth of an octave either way; NULL when none is that near. */
static const struct curve_point *point_near(const struct analysis *before, unsigned page_shift,
					    uint64_t bytes)
{
	/* 2^(1/8), as a ratio of sizes: the refinement's finest step. */
	const double eighth = 1.0905077326652577;
	const struct curve_point *best = NULL;
	double best_ratio = eighth;

	for (size_t i = 0; before && bytes && i < before->ncurves; i++) {
		const struct curve *c = &before->curve[i];

		if (c->page_shift != page_shift)
			continue;
		for (size_t k = 0; k < c->n; k++) {
			double r = (double)c->pt[k].bytes / (double)bytes;

			r = r < 1 ? 1 / r : r;
			if (c->pt[k].bytes && r <= best_ratio) {
				best_ratio = r;
				best = &c->pt[k];
			}
		}
	}
	return best;
}

double level_pick_latency_at(const struct analysis *before, unsigned page_shift,
			     uint64_t bytes)
{
	const struct curve_point *p = point_near(before, page_shift, bytes);

	return p && p->bytes == bytes ? p->ns : 0;
}

double level_pick_cycles_at(const struct analysis *before, unsigned page_shift,
			    uint64_t bytes)
{
	const struct curve_point *p = point_near(before, page_shift, bytes);

	return p && p->bytes == bytes ? p->cycles : 0;
}

double level_pick_latency_between(const struct analysis *before, unsigned page_shift,
				  uint64_t bytes, uint64_t *lo, uint64_t *hi, double *cycles)
{
	const struct curve_point *below = NULL, *above = NULL;
	double f;

	*lo = *hi = 0;
	*cycles = 0;
	for (size_t i = 0; before && bytes && i < before->ncurves; i++) {
		const struct curve *c = &before->curve[i];

		if (c->page_shift != page_shift)
			continue;
		for (size_t k = 0; k < c->n; k++) {
			const struct curve_point *pt = &c->pt[k];

			if (pt->bytes && pt->bytes < bytes && (!below || pt->bytes > below->bytes))
				below = pt;
			if (pt->bytes > bytes && (!above || pt->bytes < above->bytes))
				above = pt;
		}
	}
	if (!below || !above || above->bytes > 2 * below->bytes)
		return 0;
	f = (base2_log((double)bytes) - base2_log((double)below->bytes)) /
	    (base2_log((double)above->bytes) - base2_log((double)below->bytes));
	*lo = below->bytes;
	*hi = above->bytes;
	if (below->cycles > 0 && above->cycles > 0)
		*cycles = below->cycles + f * (above->cycles - below->cycles);
	return below->ns + f * (above->ns - below->ns);
}

double level_pick_latency_near(const struct analysis *before, unsigned page_shift,
			       uint64_t bytes, uint64_t *at)
{
	const struct curve_point *p = point_near(before, page_shift, bytes);

	*at = p ? p->bytes : 0;
	return p ? p->ns : 0;
}

void level_pick_between_text(char *buf, size_t size, uint64_t lo, uint64_t hi)
{
	char lo_text[24], hi_text[24];

	mp_format_bytes(lo_text, sizeof lo_text, lo);
	mp_format_bytes(hi_text, sizeof hi_text, hi);
	mp_snprintf(buf, size, "between %s and %s", lo_text, hi_text);
}
