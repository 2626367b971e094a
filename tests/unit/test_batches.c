/* probes/batches.c and probes/tails_chart.c's histogram on synthetic batch
 * times: the percentiles, the counter's cost taken off, the marked
 * batches left out, the mode apart, the batch sizing, the bins.
 */

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "probes/batches.h"
#include "probes/tails_chart.h"

#define N 10000u

static uint32_t ticks[N];

/* 1 ns a tick, 4 loads a batch, a counter of 20 ticks: 9880 batches of
   420 (100 ns a load), 100 of 1220 (300 ns: a mode apart, 1%), 10 of
   10020 (2500 ns), 10 past the mark (30020: 7500 ns). Shuffled. */
static void fill(void)
{
	for (unsigned i = 0; i < N; i++)
		ticks[i] = i < 9880 ? 420 : i < 9980 ? 1220 : i < 9990 ? 10020 : 30020;
	for (unsigned i = 0, x = 7; i < N; i++) {
		unsigned j = (x = x * 1103515245u + 12345u) % N;
		uint32_t t = ticks[i];
		ticks[i] = ticks[j];
		ticks[j] = t;
	}
}

static void test_summary(void)
{
	struct batch_summary s;

	fill();
	batch_summarize(ticks, N, 4, 20, 1.0, &s);
	CHECK(ticks[0] == 420 && ticks[N - 1] == 30020, "sorted in place");
	CHECK(s.batches == N && s.marked == 10 && s.marked_max_ns == 7500,
	      "10 batches past %.0f ns marked, the longest 7500 ns a load (%llu, %.0f)",
	      BATCH_MARK_NS, (unsigned long long)s.marked, s.marked_max_ns);
	CHECK(s.p50_ns == 100 && s.p90_ns == 100 && s.p99_ns == 300 && s.max_ns == 2500,
	      "p50 100, p90 100, p99 300, max 2500 ns: the counter's 20 ticks off, over 4 loads "
	      "(%.1f %.1f %.1f %.1f)", s.p50_ns, s.p90_ns, s.p99_ns, s.max_ns);
	CHECK(s.p999_ns == 2500, "p99.9 of 9990 kept batches is the 9981st: 2500 (%.1f)",
	      s.p999_ns);
	CHECK(s.slow_share > 0.011 && s.slow_share < 0.0112 && s.slow_ns == 300,
	      "over twice p50: 110 of 9990 batches, their median 300 ns (%.5f, %.1f)",
	      s.slow_share, s.slow_ns);
	CHECK(s.mean_ns > 100 && s.mean_ns < 105, "the mean of the kept batches (%.2f)", s.mean_ns);
}

static void test_edges(void)
{
	uint32_t one[1] = { 10 }, sorted[4] = { 1, 2, 3, 4 };
	struct batch_summary s;

	batch_summarize(one, 1, 4, 20, 0.5, &s);
	CHECK(s.p50_ns == 0 && s.max_ns == 0 && !s.marked, "a batch below the counter's cost "
	      "reads 0, never negative");
	CHECK(batch_quantile(sorted, 4, 0.5) == 2 && batch_quantile(sorted, 4, 0.999) == 4 &&
	      batch_quantile(sorted, 4, 0) == 1, "nearest-rank quantiles");
	CHECK(batch_loads_for(100) == BATCH_LOADS && batch_loads_for(1) == BATCH_LOADS_MAX &&
	      batch_loads_for(4) == 16 && batch_loads_for(0) == BATCH_LOADS_MAX,
	      "batches sized to %.0f ns: memory 4, 4 ns a load 16, an L1 hit %u",
	      BATCH_MIN_NS, BATCH_LOADS_MAX);
}

static void test_histogram(void)
{
	uint64_t bins[TAILS_BINS], total = 0;

	fill();
	batch_summarize(ticks, N, 4, 20, 1.0, &(struct batch_summary){ 0 });
	tails_histogram(ticks, N, 20, 420, bins);
	for (unsigned b = 0; b < TAILS_BINS; b++)
		total += bins[b];
	CHECK(total == N && bins[TAILS_BINS_PER_P50] == 9880 && bins[3 * TAILS_BINS_PER_P50] == 100 &&
	      bins[TAILS_BINS - 1] == 20, "bins: 9880 at 1x p50, 100 at 3x, 20 past 8x, all counted "
	      "(%llu %llu %llu)", (unsigned long long)bins[TAILS_BINS_PER_P50],
	      (unsigned long long)bins[3 * TAILS_BINS_PER_P50], (unsigned long long)bins[TAILS_BINS - 1]);
}

int main(void)
{
	test_summary();
	test_edges();
	test_histogram();
	return check_summary();
}
