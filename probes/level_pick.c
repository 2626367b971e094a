/* The working sets per level that the mlp and tails probes measure at (see
 * level_pick.h): the latency probe's cache levels when it ran earlier in
 * this run, since a VM's claims can name caches the guest never sees, and
 * the claims otherwise.
 */

#include "probes/level_pick.h"
#include "analysis/analysis.h"
#include "lib/fmt.h"
#include "lib/machine.h"
#include "probes/chase.h"
#include "probes/sweep.h"

/* ---- Private Functions ------------------------------------------------ */

/* Half of a cache as the next level, whole lines; none past the room left
   for memory, none below two lines. */
static void pick_cache(struct level_picks *p, const char *name, uint64_t size_bytes,
		       double latency_ns)
{
	struct level_pick *l = &p->level[p->count];

	if (p->count == LEVEL_PICKS_MAX - 1 || size_bytes < 2 * CHASE_SLOT)
		return;
	mp_strlcpy(l->name, name, sizeof l->name);
	l->bytes = size_bytes / 2 / CHASE_SLOT * CHASE_SLOT;
	l->latency_ns = latency_ns;
	p->count++;
}

/* The cache levels the latency probe's curves named; memory's latency
   from their top level. */
static void caches_from_latency(struct level_picks *p, const struct analysis *before)
{
	for (size_t i = 0; i < before->h.nlevels; i++) {
		const struct level *l = &before->h.level[i];

		if (l->kind == LEVEL_TOP)
			p->top_ns = l->ns;
		if (l->kind != LEVEL_CACHE)
			continue;
		pick_cache(p, l->name, l->size_bytes, l->ns);
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
			pick_cache(p, name, d->size_bytes, 0);
			break;
		}
}

/* ---- Public Functions ------------------------------------------------- */

void level_picks_caches(struct level_picks *p, const struct analysis *before,
			const struct cache_claims *claims)
{
	*p = (struct level_picks){ .largest_claimed = sweep_largest_cache(claims) };
	if (before && before->ncurves)
		caches_from_latency(p, before);
	p->from = "the latency probe's cache levels in this run";
	if (p->largest_found)
		return;
	p->count = 0;
	p->top_ns = 0;
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
	return dropped;
}

double level_pick_latency_at(const struct analysis *before, unsigned page_shift,
			     uint64_t bytes)
{
	uint64_t at;
	double ns = level_pick_latency_near(before, page_shift, bytes, &at);

	return at == bytes ? ns : 0;
}

double level_pick_latency_near(const struct analysis *before, unsigned page_shift,
			       uint64_t bytes, uint64_t *at)
{
	/* 2^(1/8), as a ratio of sizes: the refinement's finest step. */
	const double eighth = 1.0905077326652577;
	double best_ns = 0, best_ratio = eighth;

	*at = 0;
	for (size_t i = 0; before && bytes && i < before->ncurves; i++) {
		const struct curve *c = &before->curve[i];

		if (c->page_shift != page_shift)
			continue;
		for (size_t k = 0; k < c->n; k++) {
			double r = (double)c->pt[k].bytes / (double)bytes;

			r = r < 1 ? 1 / r : r;
			if (c->pt[k].bytes && r <= best_ratio) {
				best_ratio = r;
				best_ns = c->pt[k].ns;
				*at = c->pt[k].bytes;
			}
		}
	}
	return best_ns;
}
