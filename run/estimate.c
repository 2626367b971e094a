/* A probe's length from its counted work (see estimate.h). The pace is a
 * fixed reference, not this machine's: the estimate is a starting point
 * that the progress lines correct with the probes done, so a machine
 * slower or busier than the reference is seen within the first probe
 * rather than hidden behind a tuned constant. Only where the work runs
 * is this machine's: which of its claimed caches holds each working set.
 */

#include "run/estimate.h"
#include "core/platform.h"
#include "core/probe.h"
#include "lib/fmt.h"
#include "lib/machine.h"

/* A reference machine's pace in its first, second and further data
   caches: a dependent load (about 6, 18 and 120 cycles at 3 GHz), and a
   byte streamed (about 100, 50 and 20 GB/s from one core). Memory's is
   ESTIMATE_LOAD_NS and ESTIMATE_STREAM_NS. */
struct pace {
	double load_ns;
	double stream_ns_per_byte;
};

static const struct pace cache_pace[] = {
	{ 2.0, 0.01 },
	{ 6.0, 0.02 },
	{ 40.0, 0.05 },
};

_Static_assert(sizeof cache_pace / sizeof cache_pace[0] == ESTIMATE_CACHE_LEVELS,
	       "a pace for each cache level the estimate tells apart");

/* ---- Private Functions ------------------------------------------------ */

/* The pace of work over working sets of at most `bytes`: that of the
   first claimed data or unified cache level holding it (the third for any
   beyond), memory's past them all. */
static struct pace pace_at(const struct cache_claims *claims, uint64_t bytes)
{
	unsigned below = 0;

	for (unsigned level = 1; level <= 8; level++) {
		int claimed = 0, holds = 0;

		for (unsigned i = 0; i < claims->ncaches; i++) {
			const struct cache_desc *d = &claims->cache[i];

			if (d->level != level || d->kind == CACHE_INSTRUCTION)
				continue;
			claimed = 1;
			holds |= d->size_bytes >= bytes;
		}
		if (holds)
			return cache_pace[below < ESTIMATE_CACHE_LEVELS ? below
								: ESTIMATE_CACHE_LEVELS - 1];
		below += (unsigned)claimed;
	}
	return (struct pace){ ESTIMATE_LOAD_NS, ESTIMATE_STREAM_NS };
}

/* ---- Public Functions ------------------------------------------------- */

void estimate_how(char *buf, size_t size)
{
	mp_snprintf(buf, size, "the configuration's work at a reference pace: a load %.0f, %.0f "
		    "and %.0f ns in the claimed caches, %.0f ns from memory; %.0f GB/s streamed "
		    "from memory, %.0f GB/s to fill buffers; refined as the probes finish",
		    cache_pace[0].load_ns, cache_pace[1].load_ns, cache_pace[2].load_ns,
		    ESTIMATE_LOAD_NS, 1.0 / ESTIMATE_STREAM_NS, 1.0 / ESTIMATE_BYTE_NS);
}

double estimate_cost_ms(const struct probe_cost *cost, const struct cache_claims *claims)
{
	double ns = cost->bytes * ESTIMATE_BYTE_NS;

	for (unsigned k = 0; k < PROBE_COST_BINS; k++) {
		struct pace p;

		if (!cost->loads[k] && !cost->streamed[k])
			continue;
		p = pace_at(claims, (uint64_t)1 << k);
		ns += cost->loads[k] * p.load_ns + cost->streamed[k] * p.stream_ns_per_byte;
	}
	return ESTIMATE_PROBE_MS + cost->ms + ns / 1e6;
}

double estimate_probe_ms(const struct config *c, unsigned id)
{
	static struct probe_cost cost;
	static struct cache_claims claims;

	if (id >= PROBE_COUNT || !probe_registry[id]->cost)
		return 0;
	mp_memset(&cost, 0, sizeof cost);
	probe_registry[id]->cost(c, &cost);
	plat_cache_claims(&claims);
	return estimate_cost_ms(&cost, &claims);
}
