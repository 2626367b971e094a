/* probes/batches.c and probes/tails_chart.c's histogram on synthetic batch
 * times: the percentiles, the counter's cost taken off, the marked
 * batches left out, the mode apart, the batch sizing, the bins, and the
 * quantiles read between a coarse counter's steps (a counter that moves
 * 21 ticks at a time, as this project's Zen 5 VM's TSC does).
 */

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "probes/batches.h"
#include "probes/tails_chart.h"

#define N 10000u

static uint32_t ticks[N];
static struct batch_run run;

static int near(double a, double b, double tol)
{
	return a - b < tol && b - a < tol;
}

/* Shuffles v[0..n) with a fixed LCG: batch_summarize must sort. */
static void shuffle(uint32_t *v, unsigned n)
{
	for (unsigned i = 0, x = 7; i < n; i++) {
		unsigned j = (x = x * 1103515245u + 12345u) % n;
		uint32_t t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* 1 ns a tick, 4 loads a batch, a counter of 20 ticks: 9880 batches of
   420 (100 ns a load), 100 of 1220 (300 ns: a mode apart, 1%), 10 of
   10020 (2500 ns), 10 past the mark (30020: 7500 ns). Shuffled. */
static void fill(void)
{
	for (unsigned i = 0; i < N; i++)
		ticks[i] = i < 9880 ? 420 : i < 9980 ? 1220 : i < 9990 ? 10020 : 30020;
	shuffle(ticks, N);
	for (unsigned i = 0; i < BATCH_EMPTY; i++)
		run.empty[i] = 20;
	run.ticks = ticks;
	run.batches = N;
	run.loads = 4;
}

static void test_summary(void)
{
	struct batch_summary s;

	fill();
	batch_summarize(&run, 1.0, &s);
	CHECK(ticks[0] == 420 && ticks[N - 1] == 30020, "sorted in place");
	CHECK(s.batches == N && s.marked == 10 && s.marked_max_ns == 7500,
	      "10 batches past %.0f ns marked, the longest 7500 ns a load (%llu, %.0f)",
	      BATCH_MARK_NS, (unsigned long long)s.marked, s.marked_max_ns);
	CHECK(s.step_ticks == 20 && s.counter_ticks == 20 && s.counter_ns == 20,
	      "every bracket a multiple of 20 ticks: the step 20, the counter's cost 20 (%u, %.2f)",
	      s.step_ticks, s.counter_ticks);
	/* 9880 of 9990 kept at 420: the mid-distribution puts 420 at 49.45 %,
	   so p50 lies 55/4940 of a step above it. */
	CHECK(near(s.p50_ns, 100.0557, 0.001) && s.p90_ns > 100 && s.p90_ns < 105 &&
	      near(s.max_ns, 2500, 1e-9), "p50 just over 100 ns, p90 under 105, max 2500 ns: the "
	      "counter's 20 ticks off, over 4 loads (%.4f %.2f %.1f)", s.p50_ns, s.p90_ns,
	      s.max_ns);
	CHECK(s.p99_ns > 200 && s.p99_ns <= 300 && s.p999_ns > 300 && s.p999_ns <= 2500,
	      "p99 in the 300 ns mode, p99.9 between it and the 2500 ns batches (%.1f %.1f)",
	      s.p99_ns, s.p999_ns);
	CHECK(s.slow_share > 0.011 && s.slow_share < 0.0112 && s.slow_ns == 300,
	      "over twice p50: 110 of 9990 batches, their median 300 ns (%.5f, %.1f)",
	      s.slow_share, s.slow_ns);
	CHECK(s.mean_ns > 100 && s.mean_ns < 105, "the mean of the kept batches (%.2f)", s.mean_ns);
}

/* Brackets of true length `len` ticks read by a counter that moves STEP
   ticks at a time, each starting at a phase spread evenly over a step. */
#define STEP 21u
static uint32_t read_coarse(double len, unsigned i)
{
	double phase = STEP * ((i * 0.618034) - (unsigned)(i * 0.618034));

	return (uint32_t)((unsigned)((phase + len) / STEP) * STEP);
}

static void test_coarse_counter(void)
{
	struct batch_summary s;
	uint32_t nearest_p50, nearest_cost;

	/* An L1 batch: 59 loads of 4.0 cycles at 3.6 GHz (1.111 ns) on a
	   2.096 GHz counter: 137.4 ticks, a bracket 36.8 more. */
	for (unsigned i = 0; i < N; i++)
		ticks[i] = read_coarse(137.4 + 36.8, i);
	for (unsigned i = 0; i < BATCH_EMPTY; i++)
		run.empty[i] = read_coarse(36.8, i);
	shuffle(ticks, N);
	run.ticks = ticks;
	run.batches = N;
	run.loads = 59;
	batch_summarize(&run, 1 / 2.096, &s);
	nearest_p50 = batch_quantile(ticks, N, 0.5);
	nearest_cost = batch_quantile(run.empty, BATCH_EMPTY, 0.5);
	CHECK(s.step_ticks == STEP, "the step found from the brackets: %u ticks (%u)", STEP,
	      s.step_ticks);
	CHECK(near(s.counter_ticks, 36.8, 0.3) && near(s.p50_ticks, 174.2, 0.3),
	      "read between steps, the empty bracket's 36.8 ticks and the batch's 174.2 come "
	      "back (%.2f, %.2f), where the nearest rank reads %u and %u", s.counter_ticks,
	      s.p50_ticks, nearest_cost, nearest_p50);
	CHECK(near(s.p50_ns, 1.111, 0.01) && near(s.mean_ns, 1.111, 0.01),
	      "p50 and mean 1.111 ns a load (%.4f, %.4f)", s.p50_ns, s.mean_ns);
	CHECK(!near((nearest_p50 - (double)nearest_cost) / 2.096 / 59, 1.111, 0.055),
	      "the nearest ranks' p50 would be over 5 %% off: %.3f ns",
	      (nearest_p50 - (double)nearest_cost) / 2.096 / 59);
	CHECK(s.p50_ns <= s.p90_ns && s.p90_ns <= s.p99_ns && s.p99_ns <= s.p999_ns &&
	      s.p999_ns <= s.max_ns, "quantiles in order, none past the maximum (%.3f %.3f %.3f "
	      "%.3f %.3f)", s.p50_ns, s.p90_ns, s.p99_ns, s.p999_ns, s.max_ns);
}

static void test_between(void)
{
	uint32_t v[1000];

	for (unsigned i = 0; i < 1000; i++)
		v[i] = i < 750 ? 84 : 105;
	CHECK(near(batch_quantile_between(v, 1000, 21, 0.5), 89.25, 1e-9),
	      "three quarters at 84 and a quarter at 105 (step 21): a quarter step over 84 "
	      "(%.3f)", batch_quantile_between(v, 1000, 21, 0.5));
	CHECK(batch_quantile_between(v, 1000, 21, 0.999) == 105 &&
	      batch_quantile_between(v, 1000, 21, 0) == 84, "kept within the values read");
	for (unsigned i = 0; i < 1000; i++)
		v[i] = 100;
	CHECK(batch_quantile_between(v, 1000, 21, 0.5) == 100, "one value: itself");
	CHECK(batch_step(v, 1000, 0) == 100 && batch_step(v, 1000, 21) == 1,
	      "the step: the greatest common divisor");
	v[0] = 42;
	v[1] = 63;
	v[2] = 168;
	CHECK(batch_step(v, 3, 0) == 21, "42, 63 and 168: a step of 21");
}

static void test_edges(void)
{
	uint32_t one[1] = { 10 }, sorted[4] = { 1, 2, 3, 4 };
	struct batch_summary s;

	run.ticks = one;
	run.batches = 1;
	run.loads = 4;
	for (unsigned i = 0; i < BATCH_EMPTY; i++)
		run.empty[i] = 20;
	batch_summarize(&run, 0.5, &s);
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
	struct batch_summary s;

	fill();
	batch_summarize(&run, 1.0, &s);
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
	test_coarse_counter();
	test_between();
	test_edges();
	test_histogram();
	return check_summary();
}
