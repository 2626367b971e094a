/* The estimate of a run's length follows the configuration: each probe's
 * row counts more work for more trials, more page sizes, a larger sweep,
 * more CPUs streaming, and run/estimate.c prices it at its reference pace.
 * Through the host platform (its page sizes and CPUs), never timed.
 */

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/probe.h"
#include "lib/machine.h"
#include "probes/bandwidth_settings.h"
#include "run/estimate.h"

/* The quick profile's defaults, 4 KiB pages only. */
static void quick(struct config *c)
{
	config_defaults(c, PROFILE_QUICK);
	c->pages = PAGES_4K;
}

static void test_scaling(void)
{
	struct config c;
	double base, more;

	quick(&c);
	base = estimate_probe_ms(&c, PROBE_ID_LATENCY);
	CHECK(base > ESTIMATE_PROBE_MS, "latency is estimated beyond a probe's overhead (%.0f ms)",
	      base);
	/* Within 1 MiB every point's trials are whole laps, which the trial
	   count prices; past the caches a point's build and warm-up lap
	   outweigh its stretches, whatever max_trials says. */
	c.max_size = 1ull << 20;
	base = estimate_probe_ms(&c, PROBE_ID_LATENCY);
	c.max_trials *= 4;
	more = estimate_probe_ms(&c, PROBE_ID_LATENCY);
	CHECK(more > base * 1.5, "four times max_trials: a longer latency estimate (%.0f -> %.0f "
	      "ms)", base, more);

	quick(&c);
	c.max_size = 1ull << 20;
	base = estimate_probe_ms(&c, PROBE_ID_LATENCY);
	c.max_size = 64ull << 20;
	more = estimate_probe_ms(&c, PROBE_ID_LATENCY);
	CHECK(more > base, "a sweep to 64 MiB outlasts one to 1 MiB (%.0f -> %.0f ms)", base, more);

	quick(&c);
	base = estimate_probe_ms(&c, PROBE_ID_TLB);
	c.pages = PAGES_4K | PAGES_2M;
	more = estimate_probe_ms(&c, PROBE_ID_TLB);
	if (plat_buffer_max(21))
		CHECK(more > base * 1.2, "a second page size the platform gives adds to tlb's "
		      "estimate (%.0f -> %.0f ms)", base, more);
	else
		CHECK(more == base, "2 MiB pages the platform cannot give add nothing (%.0f, %.0f "
		      "ms)", base, more);
}

/* bandwidth.one_core beside a gang counts both passes; the gang alone
   counts one. */
static void test_bandwidth_passes(void)
{
	struct config c;
	double one, both;

	quick(&c);
	BANDWIDTH_SETTINGS(&c)->cores = 2;
	BANDWIDTH_SETTINGS(&c)->one_core = 0;
	one = estimate_probe_ms(&c, PROBE_ID_BANDWIDTH);
	BANDWIDTH_SETTINGS(&c)->one_core = 1;
	both = estimate_probe_ms(&c, PROBE_ID_BANDWIDTH);
	CHECK(both - ESTIMATE_PROBE_MS > 1.5 * (one - ESTIMATE_PROBE_MS),
	      "one core beside two: about twice the streaming (%.0f -> %.0f ms)", one, both);
}

/* Every probe this test knows counts something, so none of them is left
   out of the opening line's estimate (a probe whose row has no cost is
   named there as not estimated instead). */
static void test_every_probe(void)
{
	static const char *const names[] = { "latency", "fault", "tlb", "locality", "later",
					     "bandwidth", "cost", "c2c", "loaded", "geometry" };
	struct config c;
	unsigned missing = 0;

	config_defaults(&c, PROFILE_FULL);
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct probe_def *p = probe_by_name(names[i]);
		static struct probe_cost cost;
		int negative = 0;

		if (!p || !p->cost) {
			printf("# not estimated: %s\n", names[i]);
			missing++;
			continue;
		}
		memset(&cost, 0, sizeof cost);
		p->cost(&c, &cost);
		for (unsigned k = 0; k < PROBE_COST_BINS; k++)
			negative |= cost.loads[k] < 0 || cost.streamed[k] < 0;
		if (negative || cost.bytes < 0 || cost.ms < 0)
			missing++;
	}
	CHECK(missing == 0, "every probe's row counts its work (%u not)", missing);
}

/* A claimed cache of `bytes` at `level`, data or unified. */
static void claim(struct cache_claims *cl, unsigned level, enum cache_kind kind, uint64_t bytes)
{
	cl->cache[cl->ncaches++] = (struct cache_desc){ .level = level, .kind = kind,
							.size_bytes = bytes };
}

/* Each working set at the pace of the claimed level that holds it: a
   million loads in an L1 take a fiftieth of what they take from memory,
   a level past the second is priced as the third, an instruction cache
   holds no data, and with no claims everything is memory's. */
static void test_cache_pace(void)
{
	static struct cache_claims zen3, none;
	static struct probe_cost cost;
	double l1, l2, l3, memory, streamed, nothing;

	claim(&zen3, 1, CACHE_INSTRUCTION, 32 << 10);
	claim(&zen3, 1, CACHE_DATA, 32 << 10);
	claim(&zen3, 2, CACHE_UNIFIED, 512 << 10);
	claim(&zen3, 3, CACHE_UNIFIED, 32 << 20);
	nothing = estimate_cost_ms(&cost, &zen3);
	CHECK(nothing == ESTIMATE_PROBE_MS, "no work: the probe's own overhead (%.1f ms)",
	      nothing);
	probe_cost_loads(&cost, 1e6, 16 << 10);
	l1 = estimate_cost_ms(&cost, &zen3) - ESTIMATE_PROBE_MS;
	memset(&cost, 0, sizeof cost);
	probe_cost_loads(&cost, 1e6, 400 << 10);
	l2 = estimate_cost_ms(&cost, &zen3) - ESTIMATE_PROBE_MS;
	memset(&cost, 0, sizeof cost);
	probe_cost_loads(&cost, 1e6, 8 << 20);
	l3 = estimate_cost_ms(&cost, &zen3) - ESTIMATE_PROBE_MS;
	memset(&cost, 0, sizeof cost);
	probe_cost_loads(&cost, 1e6, PROBE_COST_MEMORY);
	memory = estimate_cost_ms(&cost, &zen3) - ESTIMATE_PROBE_MS;
	CHECK(memory > 99.9 && memory < 100.1 && l1 < memory / 40 && l1 < l2 && l2 < l3 &&
	      l3 < memory, "a million loads: %.1f ms in L1, %.1f in L2, %.1f in L3, %.1f from "
	      "memory", l1, l2, l3, memory);
	memset(&cost, 0, sizeof cost);
	probe_cost_loads(&cost, 1e6, 24 << 10);
	CHECK(estimate_cost_ms(&cost, &none) - ESTIMATE_PROBE_MS > 99.9,
	      "no claims: every working set memory's");
	memset(&cost, 0, sizeof cost);
	probe_cost_streamed(&cost, 1e9, 1ull << 30);
	streamed = estimate_cost_ms(&cost, &zen3) - ESTIMATE_PROBE_MS;
	probe_cost_streamed(&cost, 1e9, 16 << 10);
	CHECK(streamed > 99.9 && streamed < 100.1 &&
	      estimate_cost_ms(&cost, &zen3) - ESTIMATE_PROBE_MS < streamed * 1.2,
	      "a GB streamed from memory takes %.0f ms, from L1 a tenth as long", streamed);
	CHECK(probe_cost_bin(1) == 0 && probe_cost_bin(4096) == 12 && probe_cost_bin(4097) == 13 &&
	      probe_cost_bin(PROBE_COST_MEMORY) == PROBE_COST_BINS - 1,
	      "a working set's bin is the least power of two that holds it");
}

int main(void)
{
	test_cache_pace();
	test_scaling();
	test_bandwidth_passes();
	test_every_probe();
	return check_summary();
}
