/* The estimate of a run's length follows the configuration: each probe's
 * row counts more work for more trials, more page sizes, a larger sweep,
 * more CPUs streaming, and run/estimate.c prices it at its reference pace.
 * Through the host platform (its page sizes and CPUs), never timed.
 */

#include <stdio.h>

#include "check.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/probe.h"
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
		struct probe_cost cost = { 0, 0, 0 };

		if (!p || !p->cost) {
			printf("# not estimated: %s\n", names[i]);
			missing++;
			continue;
		}
		p->cost(&c, &cost);
		if (cost.loads < 0 || cost.bytes < 0 || cost.ms < 0)
			missing++;
	}
	CHECK(missing == 0, "every probe's row counts its work (%u not)", missing);
}

int main(void)
{
	test_scaling();
	test_bandwidth_passes();
	test_every_probe();
	return check_summary();
}
