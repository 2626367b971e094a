/* Cache levels from bandwidth curves beside the latency curves' (probes/
 * bandwidth_levels.c) and bandwidth.svg, on synthetic rows whose steps are
 * known: where the bandwidth steps down, whether each edge is said to agree
 * with the latency edge, the JSON and the chart's panels and curves.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "sink.h"
#include "lib/json.h"
#include "analysis/analysis.h"
#include "core/trials.h"

static const unsigned sweep_kib[] = {
	4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048,
	3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 65536,
};
#define SWEEP (sizeof sweep_kib / sizeof *sweep_kib)

/* A staircase: `top` GB/s up to l1_kib, half of it up to l2_kib, a tenth
   past it. */
static double staircase(unsigned kib, double top, unsigned l1_kib, unsigned l2_kib)
{
	return kib <= l1_kib ? top : kib <= l2_kib ? top / 2 : top / 10;
}

static void add_bandwidth(struct analysis *a, const char *variant, unsigned shift, double top,
			  unsigned l1_kib, unsigned l2_kib)
{
	for (unsigned k = 0; k < SWEEP; k++) {
		double gbps = staircase(sweep_kib[k], top, l1_kib, l2_kib);
		struct result_row r = {
			.probe = "bandwidth", .variant = variant, .page_shift = shift,
			.working_set_bytes = sweep_kib[k] * 1024ull, .ns = 64 / gbps,
			.cycles = 64 / gbps * 3, .trials = 3, .gb_per_s = { gbps, 1 },
			.bytes_per_cycle = { gbps / 3, 1 },
		};
		if (analysis_add_row(a, &r) != 0)
			CHECK(0, "bandwidth row %s %u KiB taken", variant, sweep_kib[k]);
	}
}

/* Latency: 1 ns up to l1_kib, 4 up to l2_kib, 30 past it. */
static void add_latency(struct analysis *a, unsigned shift, unsigned l1_kib, unsigned l2_kib)
{
	for (unsigned k = 0; k < SWEEP; k++) {
		double ns = sweep_kib[k] <= l1_kib ? 1 : sweep_kib[k] <= l2_kib ? 4 : 30;
		struct result_row r = {
			.probe = "latency", .variant = "chase", .page_shift = shift,
			.working_set_bytes = sweep_kib[k] * 1024ull, .ns = ns, .cycles = ns * 3,
			.trials = 3,
		};
		if (analysis_add_row(a, &r) != 0)
			CHECK(0, "latency row %u KiB taken", sweep_kib[k]);
	}
}

static void test_agreeing(void)
{
	static struct analysis a;
	static struct sink report, chart;
	static char json_buf[16384];
	struct json j;

	analysis_init(&a);
	add_latency(&a, 12, 32, 1024);
	add_latency(&a, 21, 32, 1024);
	/* read_sse2 is slower everywhere: the levels come from read_avx2. */
	add_bandwidth(&a, "read_sse2", 12, 100, 32, 1024);
	add_bandwidth(&a, "read_avx2", 12, 200, 32, 1024);
	add_bandwidth(&a, "read_avx2", 21, 200, 32, 1024);
	add_bandwidth(&a, "write_avx2", 21, 90, 32, 1024);
	add_bandwidth(&a, "copy_avx2", 21, 150, 32, 1024);
	add_bandwidth(&a, "ntwrite_avx2", 21, 20, 32, 1024);
	CHECK(a.bw.nseries == 6 && a.bw.rows == 6 * SWEEP, "six series of %zu points taken (%zu, %u)",
	      SWEEP, a.bw.nseries, a.bw.rows);
	analysis_compute(&a);
	CHECK(!strcmp(a.bw.levels_from, "read_avx2") && a.bw.ncurves == 2,
	      "levels from the fastest read, one curve per page size (%s, %zu)", a.bw.levels_from,
	      a.bw.ncurves);
	analysis_print(&a, to_text, &report);
	CHECK(strstr(report.buf, "steps down), beside the latency curves' edges") != NULL,
	      "the report has the bandwidth table");
	CHECK(strstr(report.buf, "         32 KiB           32 KiB        200.0   agrees\n") &&
	      strstr(report.buf, "          1 MiB            1 MiB        100.0   agrees\n"),
	      "L1 at 32 KiB and L2 at 1 MiB, each agreeing, with the GB/s below the edge:\n%s",
	      report.buf);
	CHECK(strstr(report.buf, "past the last edge (from 1.5 MiB): 20.0 GB/s\n") != NULL,
	      "and the bandwidth past the last edge");

	json_init(&j, json_buf, sizeof json_buf);
	json_object_begin(&j, 0);
	analysis_json(&j, &a);
	json_object_end(&j);
	CHECK(strstr(json_buf, "\"bandwidth\":{\"levels_from\":\"read_avx2\",\"edges\":[{\"size_bytes\":32768,"
		     "\"gb_per_s_below\":200,\"latency_size_bytes\":32768,\"verdict\":\"agrees\"}")
	      != NULL, "system.json's hierarchy has the bandwidth edges, each with its verdict");

	CHECK(analysis_write_bandwidth_svg(&a, to_sink, &chart) == 0 && !chart.overflow,
	      "bandwidth.svg is drawn");
	CHECK(count_text(chart.buf, "<g class=\"panel\"") == 4 &&
	      count_text(chart.buf, "<polyline class=\"curve\"") == 6,
	      "four panels (read, write, copy, ntwrite), one curve per series (%d, %d)",
	      count_text(chart.buf, "<g class=\"panel\""),
	      count_text(chart.buf, "<polyline class=\"curve\""));
	CHECK(strstr(chart.buf, "<title>avx2, 2 MiB pages</title>") &&
	      strstr(chart.buf, "memprobe: ntwrite bandwidth by working set") &&
	      count_text(chart.buf, ">edge 32 KiB<") == 4,
	      "curves named by set and page size; each panel marks the edges");
}

static void test_disagreeing(void)
{
	static struct analysis a;
	static struct sink report;

	analysis_init(&a);
	add_latency(&a, 21, 32, 1024);
	/* Bandwidth steps at 64 KiB (a different level as latency sees it,
	   but within 4x: "differs") and at 16 MiB (bandwidth only). */
	add_bandwidth(&a, "read_avx512", 21, 300, 64, 16384);
	analysis_compute(&a);
	analysis_print(&a, to_text, &report);
	CHECK(strstr(report.buf, "         32 KiB           64 KiB        300.0   differs\n") &&
	      strstr(report.buf, "          1 MiB                -            -   latency only\n") &&
	      strstr(report.buf, "              -           16 MiB        150.0   bandwidth only\n"),
	      "edges 2x apart differ, one far from any latency edge stands alone, in size "
	      "order:\n%s", report.buf);
	CHECK(strstr(report.buf, "one page size only: its edges are taken as cache edges") != NULL,
	      "one page size is said");
}

static void test_no_bandwidth(void)
{
	static struct analysis a;
	static struct sink report;
	struct result_row other = { .probe = "cost", .variant = "bare_call_sysv", .ns = 1 };

	analysis_init(&a);
	add_latency(&a, 21, 32, 1024);
	CHECK(analysis_add_row(&a, &other) == -1 && a.bw.nseries == 0, "a cost row is not bandwidth");
	analysis_compute(&a);
	analysis_print(&a, to_text, &report);
	CHECK(strstr(report.buf, "cache levels from bandwidth") == NULL,
	      "without bandwidth rows no bandwidth table");
}

/* All-core rows (bandwidth.cores > 1, variants ending _xN) share each
   working set over N CPUs: their per-core caches' edges stand N times
   further out, so the levels are read from one CPU's read rows alone, and
   without any the report says why none are read. */
static void test_all_core_rows(void)
{
	static struct analysis a;
	static struct sink report, chart;

	analysis_init(&a);
	add_latency(&a, 21, 32, 1024);
	add_bandwidth(&a, "read_avx2", 21, 200, 32, 1024);
	add_bandwidth(&a, "read_avx2_x4", 21, 800, 128, 4096);
	analysis_compute(&a);
	CHECK(!strcmp(a.bw.levels_from, "read_avx2") && a.bw.ncurves == 1,
	      "the faster all-core read is not the levels' curve (%s)", a.bw.levels_from);
	CHECK(bandwidth_write_svg(&a.bw, to_sink, &chart) == 0 &&
	      strstr(chart.buf, "avx2_x4, 2 MiB pages") != NULL,
	      "the all-core curve is still drawn, named with its CPU count");

	analysis_init(&a);
	add_latency(&a, 21, 32, 1024);
	add_bandwidth(&a, "read_avx2_x2", 21, 400, 64, 2048);
	add_bandwidth(&a, "read_x86_weird", 21, 100, 32, 1024);
	analysis_compute(&a);
	analysis_print(&a, to_text, &report);
	CHECK(!strcmp(a.bw.levels_from, "read_x86_weird") && a.bw.ncurves == 1,
	      "only a name ending in _x and digits is all-core (%s)", a.bw.levels_from);

	analysis_init(&a);
	report.len = 0;
	report.buf[0] = 0;
	add_latency(&a, 21, 32, 1024);
	add_bandwidth(&a, "read_avx2_x2", 21, 400, 64, 2048);
	add_bandwidth(&a, "copy_avx2_x2", 21, 300, 64, 2048);
	analysis_compute(&a);
	analysis_print(&a, to_text, &report);
	CHECK(!a.bw.levels_from[0] && a.bw.ncurves == 0 &&
	      strstr(report.buf, "cache levels from bandwidth: not read: no one-CPU read rows") &&
	      !strstr(report.buf, "bandwidth edge"),
	      "all-core rows alone: no levels, and the report says why:\n%s", report.buf);
}

/* trials_stop: the stop rule's three limits, in their order. */
static void test_stop_rule(void)
{
	struct config c;
	struct trials t;

	config_defaults(&c, PROFILE_FULL);
	c.trials = 3;
	c.max_trials = 5;
	c.precision = 0.01;
	trials_init(&t);
	trials_add(&t, 10);
	trials_add(&t, 10.05);
	CHECK(trials_stop(&t, &c, 0, 100) == NULL, "two trials: go on");
	CHECK(trials_stop(&t, &c, 200, 100) == NULL, "not even past the budget, below c->trials");
	trials_add(&t, 10.02);
	CHECK(trials_stop(&t, &c, 0, 100) && !strcmp(trials_stop(&t, &c, 0, 100), "settled"),
	      "three within 1%%: settled");
	trials_init(&t);
	trials_add(&t, 10);
	trials_add(&t, 12);
	trials_add(&t, 14);
	CHECK(trials_stop(&t, &c, 50, 100) == NULL, "three apart, within the budget: go on");
	CHECK(trials_stop(&t, &c, 100, 100) && !strcmp(trials_stop(&t, &c, 100, 100), "time"),
	      "past c->trials and at the budget: time");
	trials_add(&t, 16);
	trials_add(&t, 18);
	CHECK(trials_stop(&t, &c, 0, 100) && !strcmp(trials_stop(&t, &c, 0, 100), "max_trials"),
	      "at c->max_trials: max_trials");
}

int main(void)
{
	test_agreeing();
	test_disagreeing();
	test_no_bandwidth();
	test_all_core_rows();
	test_stop_rule();
	return check_summary();
}
