/* Page-walk cost (analysis/pagewalk.c): the extra of smaller pages over larger
 * ones on synthetic curve pairs with a known crossing, a noisy point that
 * must not decide it, missing sizes, three page sizes, one curve, negative
 * extras; the report lines, the JSON (read back by Python) and pagewalk.svg
 * (checked by xmllint); and the two real recordings in tests/data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "sink.h"
#include "analysis/analysis.h"
#include "results/csvread.h"
#include "analysis/edges.h"
#include "lib/json.h"
#include "analysis/pagewalk.h"
#include "core/platform.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)
#define GHZ 3.0

/* The latency probe's sweep: powers of two with midpoints, 4 KiB .. 64 MiB. */
static const uint64_t sweep_kib[] = {
	4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
	1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768,
	49152, 65536,
};
#define NSWEEP (sizeof sweep_kib / sizeof sweep_kib[0])

static struct pagewalk pw;
static struct curve curves[EDGES_MAX_CURVES];

/* ---- Capturing output ------------------------------------------------- */

static struct sink report;

static const char *print_report(void)
{
	report.len = 0;
	report.buf[0] = 0;
	pagewalk_print(&pw, to_text, &report);
	return report.buf;
}

static struct sink svg;

static int write_svg(void)
{
	memset(&svg, 0, sizeof svg);
	return pagewalk_write_svg(&pw, to_sink, &svg);
}

static int run_with_file(const char *cmd_fmt, const char *data, size_t len, const char *arg)
{
	char path[] = "/tmp/memprobe-test-pagewalk-XXXXXX", cmd[4096];
	int fd = mkstemp(path), rc;
	FILE *f;

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	fwrite(data, 1, len, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, cmd_fmt, path, arg);
	rc = system(cmd);
	unlink(path);
	return rc;
}

static int xmllint_ok(void)
{
	return run_with_file("xmllint --noout '%s'%s", svg.buf, svg.len, "");
}

static char json_buf[65536];
static size_t json_len;

/* The members inside an object of their own, as system.json's hierarchy. */
static int make_json(void)
{
	struct json j;

	json_init(&j, json_buf, sizeof json_buf);
	json_object_begin(&j, 0);
	pagewalk_json(&j, &pw);
	json_object_end(&j);
	json_len = j.len;
	return !j.overflow && j.depth == 0;
}

/* 0 when Python reads the JSON and the expression over it (d) holds. */
static int json_holds(const char *expr)
{
	return run_with_file("python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
			     "sys.exit(0 if (%2$s) else 1)' '%1$s'", json_buf, json_len, expr);
}

/* ---- Synthetic curves ------------------------------------------------- */

/* A Zen 3-like load latency, the same with every page size. */
static double base_ns(uint64_t bytes)
{
	if (bytes <= 32 * KIB)
		return 1.25;
	if (bytes <= 512 * KIB)
		return 3.75;
	if (bytes <= 32 * MIB)
		return 15.0;
	return 120.0;
}

/* Adds the sweep to c, the latency base_ns * (1 + extra(bytes)); sizes
   where skip() says so are left out. */
static void fill(struct curve *c, unsigned page_shift, double (*extra)(uint64_t),
		 int (*skip)(uint64_t), int cycles)
{
	curve_init(c, page_shift);
	for (size_t i = 0; i < NSWEEP; i++) {
		uint64_t b = sweep_kib[i] * KIB;
		double ns = base_ns(b) * (1.0 + (extra ? extra(b) : 0.0));
		if (skip && skip(b))
			continue;
		curve_add(c, b, ns, cycles ? ns * GHZ : 0.0);
	}
}

/* 4 KiB pages: nothing inside the L1 DTLB's 256 KiB reach, 15 % from
   256 KiB, 30 % from 1 MiB. */
static double extra_4k(uint64_t b)
{
	return b >= 1 * MIB ? 0.30 : b >= 256 * KIB ? 0.15 : 0.0;
}

/* ... and one 40 % spike at 96 KiB, one at 16 KiB (4 pages: no TLB can miss
   there), both neighbours clean. */
static double extra_4k_spiky(uint64_t b)
{
	if (b == 96 * KIB || b == 16 * KIB)
		return 0.40;
	return extra_4k(b);
}

/* Never over 10 % but at one size in the middle. */
static double extra_one_spike(uint64_t b)
{
	return b == 1 * MIB ? 0.50 : 0.05;
}

/* Over 10 % at the last size alone. */
static double extra_last_only(uint64_t b)
{
	return b == 64 * MIB ? 0.20 : 0.02;
}

/* Faster with the smaller pages at some sizes (noise of the other run). */
static double extra_negative(uint64_t b)
{
	if (b >= 1 * MIB && b <= 4 * MIB)
		return -0.02;
	return extra_4k(b);
}

/* 2 MiB over 1 GiB pages: 20 % from 32 MiB, one spike at 8 MiB (4 pages). */
static double extra_2m(uint64_t b)
{
	if (b == 8 * MIB)
		return 0.50;
	return b >= 32 * MIB ? 0.20 : 0.0;
}

static int skip_every_third(uint64_t b)
{
	for (size_t i = 0; i < NSWEEP; i++)
		if (sweep_kib[i] * KIB == b)
			return i % 3 == 0;
	return 0;
}

static int skip_above_16m(uint64_t b)
{
	return b > 16 * MIB;
}

static int skip_below_1m(uint64_t b)
{
	return b < 1 * MIB;
}

static int skip_from_1m(uint64_t b)
{
	return b >= 1 * MIB;
}

static const struct pagewalk_point *at(const struct pagewalk_pair *p, uint64_t bytes)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->pt[i].bytes == bytes)
			return &p->pt[i];
	return 0;
}

static int close_to(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

/* ---- Tests ------------------------------------------------------------ */

static void test_known_crossing(void)
{
	const struct pagewalk_pair *p = &pw.pair[0];
	const struct pagewalk_point *pt;
	char line[256];

	fill(&curves[0], PAGE_SHIFT_4K, extra_4k, 0, 1);
	fill(&curves[1], PAGE_SHIFT_2M, 0, 0, 1);
	pagewalk_compute(curves, 2, &pw);
	CHECK(pw.nshifts == 2 && pw.npairs == 1 && p->small_shift == PAGE_SHIFT_4K &&
	      p->large_shift == PAGE_SHIFT_2M && p->n == NSWEEP,
	      "two curves: one pair, 4 KiB over 2 MiB, every size common");
	CHECK(p->crossed && p->pt[p->first_over].bytes == 256 * KIB && p->lone_over == 0,
	      "crossing at 256 KiB, where the extra starts");
	pt = at(p, 256 * KIB);
	CHECK(pt && close_to(pt->extra_ns, 3.75 * 0.15) && close_to(pt->fraction, 0.15) &&
	      pt->have_cycles && close_to(pt->extra_cycles, 3.75 * 0.15 * GHZ),
	      "its extra: ns, fraction of the larger pages' ns, cycles");
	pt = at(p, 192 * KIB);
	CHECK(pt && pt->extra_ns == 0.0 && !pt->over, "nothing extra below the reach");
	pt = &p->pt[p->n - 1];
	CHECK(pt->bytes == 64 * MIB && close_to(pt->extra_ns, 36.0) && close_to(pt->fraction, 0.30),
	      "the sweep's end: 64 MiB, +36 ns, 30%%");

	print_report();
	snprintf(line, sizeof line, "  4 KiB over 2 MiB pages: extra first exceeds 10%% at 256 KiB "
		 "(+0.56 ns, 15.0%%); at the sweep's end, 64 MiB: +36.00 ns (30.0%%)\n");
	CHECK(strstr(report.buf, line) != 0, "the report's summary line");
	CHECK(strstr(report.buf, "  4 KiB over 2 MiB      256 KiB      3.750      4.312      "
		      "+0.56         +1.69   +15.0%  <- first over 10%\n") != 0,
	      "the table row of the crossing, marked");
	CHECK(count_text(report.buf, "\n  4 KiB over 2 MiB ") == (int)NSWEEP + 1,
	      "a table row per common size, and the summary");
	CHECK(!strstr(report.buf, "faster with") && !strstr(report.buf, "taken as noise"),
	      "no noise note on a clean pair");
}

static void test_noisy_point(void)
{
	const struct pagewalk_pair *p = &pw.pair[0];

	fill(&curves[0], PAGE_SHIFT_4K, extra_4k_spiky, 0, 1);
	fill(&curves[1], PAGE_SHIFT_2M, 0, 0, 1);
	pagewalk_compute(curves, 2, &pw);
	CHECK(at(p, 96 * KIB)->over && at(p, 96 * KIB)->eligible && !at(p, 16 * KIB)->eligible,
	      "the spikes read over 10%%; 16 KiB (4 pages) cannot hold a TLB miss");
	CHECK(p->crossed && p->pt[p->first_over].bytes == 256 * KIB,
	      "a single noisy point does not decide the crossing: still 256 KiB");
	CHECK(p->lone_over == 1, "the 96 KiB spike counted as a lone point, 16 KiB not at all");
	CHECK(close_to(at(p, 96 * KIB)->fraction, 0.40), "... and still reported as measured");
	print_report();
	CHECK(strstr(report.buf, "at 256 KiB (+0.56 ns, 15.0%; 1 single size over it before, "
		      "taken as noise); at the sweep's end") != 0, "the report says so");

	fill(&curves[0], PAGE_SHIFT_4K, extra_one_spike, 0, 1);
	pagewalk_compute(curves, 2, &pw);
	CHECK(!p->crossed && p->lone_over == 1, "one spike alone: no crossing");
	print_report();
	CHECK(strstr(report.buf, "  4 KiB over 2 MiB pages: extra never exceeds 10% up to 64 MiB "
		      "(1 single size over it, taken as noise); at the sweep's end, 64 MiB: "
		      "+6.00 ns (5.0%)\n") != 0, "never exceeds, one spike named as noise");
	CHECK(make_json() && json_holds("d[\"page_walk\"][0][\"first_over_10pct_bytes\"] is None "
				       "and d[\"page_walk\"][0][\"lone_over_10pct\"] == 1") == 0,
	      "JSON: first_over_10pct_bytes null");

	fill(&curves[0], PAGE_SHIFT_4K, extra_last_only, 0, 1);
	pagewalk_compute(curves, 2, &pw);
	CHECK(p->crossed && p->first_over == p->n - 1 && p->lone_over == 0,
	      "over 10%% at the last size: it has no next, so it decides");
}

static void test_missing_sizes(void)
{
	const struct pagewalk_pair *p = &pw.pair[0];
	size_t expect = 0;

	for (size_t i = 0; i < NSWEEP; i++)
		expect += i % 3 != 0;
	fill(&curves[0], PAGE_SHIFT_4K, extra_4k, 0, 1);
	fill(&curves[1], PAGE_SHIFT_2M, 0, skip_every_third, 1);
	pagewalk_compute(curves, 2, &pw);
	CHECK(p->n == expect && !at(p, 4 * KIB) && at(p, 6 * KIB) && !at(p, 256 * KIB),
	      "only sizes both measured are paired (%zu of %zu)", p->n, NSWEEP);
	/* 256 KiB (index 12) is missing from the 2 MiB curve: 384 KiB is the
	   first common size past the reach. */
	CHECK(p->crossed && p->pt[p->first_over].bytes == 384 * KIB,
	      "crossing at the first common size over 10%%: 384 KiB");

	fill(&curves[1], PAGE_SHIFT_2M, 0, skip_above_16m, 1);
	pagewalk_compute(curves, 2, &pw);
	CHECK(p->pt[p->n - 1].bytes == 16 * MIB && p->large_end == 16 * MIB &&
	      p->small_end == 64 * MIB, "a shorter 2 MiB sweep: the end is 16 MiB");
	print_report();
	CHECK(strstr(report.buf, "at the sweep's end, 16 MiB: +4.50 ns (30.0%) "
		      "(the largest size both measured)\n") != 0, "the report says which end");

	fill(&curves[0], PAGE_SHIFT_4K, extra_4k, skip_from_1m, 1);
	fill(&curves[1], PAGE_SHIFT_2M, 0, skip_below_1m, 1);
	pagewalk_compute(curves, 2, &pw);
	CHECK(pw.npairs == 1 && p->n == 0 && !p->crossed, "disjoint sweeps: a pair with no points");
	print_report();
	CHECK(strstr(report.buf, "  4 KiB over 2 MiB pages: no working set was measured with both "
		      "page sizes\n") != 0, "the report says so");
	CHECK(make_json() && json_holds("d[\"page_walk\"][0][\"common_sizes\"] == 0 and "
				       "\"end_bytes\" not in d[\"page_walk\"][0] and "
				       "d[\"page_walk\"][0][\"points\"] == []") == 0,
	      "JSON: no points, no end");
	CHECK(write_svg() == -1 && strstr(svg.buf, "no measurement to draw") && xmllint_ok() == 0,
	      "SVG: nothing to draw, a well-formed document that says so");
}

static void test_three_sizes(void)
{
	const struct pagewalk_pair *a = &pw.pair[0], *b = &pw.pair[1];

	/* Given largest first: the module finds each page size itself. */
	fill(&curves[0], PAGE_SHIFT_1G, 0, 0, 1);
	fill(&curves[1], PAGE_SHIFT_4K, extra_4k, 0, 1);
	fill(&curves[2], PAGE_SHIFT_2M, extra_2m, 0, 1);
	pagewalk_compute(curves, 3, &pw);
	CHECK(pw.nshifts == 3 && pw.npairs == 2 && a->small_shift == PAGE_SHIFT_4K &&
	      a->large_shift == PAGE_SHIFT_2M && b->small_shift == PAGE_SHIFT_2M &&
	      b->large_shift == PAGE_SHIFT_1G, "three page sizes: 4 KiB/2 MiB and 2 MiB/1 GiB");
	CHECK(a->n == NSWEEP && at(a, 8 * MIB) && close_to(at(a, 8 * MIB)->fraction,
							   (1.30 / 1.50) - 1.0),
	      "4 KiB over 2 MiB against the 2 MiB curve as measured (negative at 8 MiB)");
	CHECK(b->crossed && b->pt[b->first_over].bytes == 32 * MIB && b->lone_over == 0,
	      "2 MiB over 1 GiB: from 32 MiB; the 8 MiB spike (4 pages) decides nothing");
	print_report();
	CHECK(strstr(report.buf, "  2 MiB over 1 GiB pages: extra first exceeds 10% at 32 MiB "
		      "(+3.00 ns, 20.0%); at the sweep's end, 64 MiB: +24.00 ns (20.0%)\n") != 0,
	      "a summary line for the second pair");
	CHECK(make_json() && json_holds("[(p[\"small_page_size\"], p[\"large_page_size\"], "
				       "p[\"first_over_10pct_bytes\"]) for p in d[\"page_walk\"]] == "
				       "[(4096, 2097152, 262144), (2097152, 1073741824, 33554432)]") == 0,
	      "JSON: both pairs with their crossings");
	CHECK(write_svg() == 0 && xmllint_ok() == 0, "SVG written, well-formed");
	CHECK(count_text(svg.buf, "<polyline class=\"curve\"") == 2 &&
	      strstr(svg.buf, "<title>4 KiB over 2 MiB pages</title>") &&
	      strstr(svg.buf, "<title>2 MiB over 1 GiB pages</title>"), "one polyline per pair");
	CHECK(count_text(svg.buf, "class=\"edge\"") == 2 &&
	      strstr(svg.buf, ">4 KiB over 2 MiB: over 10% from 256 KiB</text>") &&
	      strstr(svg.buf, ">2 MiB over 1 GiB: over 10% from 32 MiB</text>"),
	      "a marker at each crossing");
	CHECK(count_text(svg.buf, "<circle ") == 2 * (int)NSWEEP,
	      "every point drawn, the ratio below 1 too (%d)", count_text(svg.buf, "<circle "));

	/* 4 KiB and 1 GiB, no 2 MiB: the one pair is 4 KiB over 1 GiB. */
	pagewalk_compute(curves, 2, &pw);
	CHECK(pw.npairs == 1 && a->small_shift == PAGE_SHIFT_4K && a->large_shift == PAGE_SHIFT_1G,
	      "without 2 MiB: 4 KiB over 1 GiB");
	print_report();
	CHECK(strstr(report.buf, "  4 KiB over 1 GiB pages: extra first exceeds 10% at 256 KiB") != 0,
	      "... named so in the report");
}

static void test_one_curve(void)
{
	fill(&curves[0], PAGE_SHIFT_4K, 0, 0, 1);
	curve_init(&curves[1], PAGE_SHIFT_2M);          /* empty: not measured */
	fill(&curves[2], 16, 0, 0, 1);                  /* 64 KiB: not a page size paired */
	pagewalk_compute(curves, 3, &pw);
	CHECK(pw.nshifts == 1 && pw.shift[0] == PAGE_SHIFT_4K && pw.npairs == 0,
	      "one usable curve: nothing paired");
	print_report();
	CHECK(strstr(report.buf, "  one page size measured, 4 KiB: nothing to pair (run with "
		      "pages=4k,2m)\n") != 0, "the report says so");
	CHECK(make_json() && strstr(json_buf, "\"page_walk\"") &&
	      json_holds("d[\"page_walk\"] == []") == 0, "JSON: an empty page_walk array");
	CHECK(write_svg() == -1 && xmllint_ok() == 0, "SVG: -1, still well-formed");

	pagewalk_compute(curves, 0, &pw);
	print_report();
	CHECK(pw.npairs == 0 && strstr(report.buf, "no 4 KiB, 2 MiB or 1 GiB curve: nothing to pair"),
	      "no curve at all");
}

static void test_negative(void)
{
	const struct pagewalk_pair *p = &pw.pair[0];
	const struct pagewalk_point *pt;

	fill(&curves[0], PAGE_SHIFT_4K, extra_negative, 0, 1);
	fill(&curves[1], PAGE_SHIFT_2M, 0, 0, 0);       /* no cycle figures */
	pagewalk_compute(curves, 2, &pw);
	pt = at(p, 2 * MIB);
	CHECK(pt && close_to(pt->extra_ns, -0.30) && close_to(pt->fraction, -0.02) && !pt->over,
	      "a negative extra kept as measured, not clamped (%.3f)", pt ? pt->extra_ns : 0.0);
	CHECK(p->negative == 5, "five sizes faster with small pages (%u)", p->negative);
	CHECK(!pt->have_cycles, "cycles unknown in one curve: no extra cycles");
	CHECK(p->crossed && p->pt[p->first_over].bytes == 256 * KIB,
	      "the crossing unaffected by the later dip");
	print_report();
	CHECK(strstr(report.buf, "  4 KiB over 2 MiB        2 MiB     15.000     14.700      "
		      "-0.30             -    -2.0%\n") != 0, "the table shows it negative");
	CHECK(strstr(report.buf, "    5 of 29 sizes read faster with 4 KiB pages: noise, shown as "
		      "measured\n") != 0, "and a note says so");
	CHECK(make_json() && json_holds("[q[\"extra_ns\"] < 0 for q in d[\"page_walk\"][0][\"points\"]]"
				       ".count(True) == 5 and d[\"page_walk\"][0][\"negative_points\"]"
				       " == 5 and d[\"page_walk\"][0][\"end_extra_cycles\"] is None and "
				       "all(q[\"extra_cycles\"] is None for q in "
				       "d[\"page_walk\"][0][\"points\"])") == 0,
	      "JSON: negative extras as measured, unknown cycles null");
	CHECK(write_svg() == 0 && count_text(svg.buf, "<circle ") == (int)NSWEEP && xmllint_ok() == 0,
	      "SVG: the points below 1 are drawn too");
}

static void test_json_text(void)
{
	fill(&curves[0], PAGE_SHIFT_4K, extra_4k, 0, 1);
	fill(&curves[1], PAGE_SHIFT_2M, 0, 0, 1);
	pagewalk_compute(curves, 2, &pw);
	CHECK(make_json(), "JSON complete");
	CHECK(strstr(json_buf, "\"page_walk\":[{\"small_page_size\":4096,\"large_page_size\":2097152,") &&
	      strstr(json_buf, "\"first_over_10pct_bytes\":262144,") &&
	      strstr(json_buf, "\"end_bytes\":67108864,"), "members spelled as documented");
	CHECK(json_holds("(lambda p: p[\"common_sizes\"] == 29 and len(p[\"points\"]) == 29 and "
			 "abs(p[\"end_extra_ns\"] - 36) < 1e-9 and abs(p[\"end_extra_cycles\"] - 108) "
			 "< 1e-9 and abs(p[\"end_extra_fraction\"] - 0.3) < 1e-12 and "
			 "abs(p[\"first_over_10pct_fraction\"] - 0.15) < 1e-12 and "
			 "p[\"threshold_fraction\"] == 0.1 and p[\"min_small_pages\"] == 8 and "
			 "p[\"points\"][12] == {\"bytes\": 262144, \"small_ns\": p[\"points\"][12]"
			 "[\"small_ns\"], \"large_ns\": 3.75, \"extra_ns\": p[\"points\"][12][\"extra_ns\"],"
			 " \"extra_cycles\": p[\"points\"][12][\"extra_cycles\"], \"extra_fraction\": "
			 "p[\"points\"][12][\"extra_fraction\"]})(d[\"page_walk\"][0])") == 0,
	      "Python reads the figures back");
	printf("# page_walk JSON for one pair of %zu sizes: %zu bytes\n", NSWEEP, json_len);
}

static void take(const struct result_row *row, void *ctx)
{
	analysis_add_row(ctx, row);
}

static void test_recorded(const char *csv)
{
	static struct analysis a;
	static char text[1 << 20];
	const struct pagewalk_pair *p = &pw.pair[0];
	const struct pagewalk_point *e, *f;
	struct csv_summary sum;
	FILE *file = fopen(csv, "rb");
	size_t len = file ? fread(text, 1, sizeof text - 1, file) : 0;

	if (file)
		fclose(file);
	CHECK(len > 0, "%s readable", csv);
	analysis_init(&a);
	CHECK(results_csv_read(text, len, take, &a, &sum) == 0 && a.ncurves == 2, "%s: two curves",
	      csv);
	pagewalk_compute(a.curve, a.ncurves, &pw);
	CHECK(pw.npairs == 1 && p->small_shift == PAGE_SHIFT_4K && p->n == 29,
	      "%s: 4 KiB over 2 MiB at 29 common sizes", csv);
	e = &p->pt[p->n - 1];
	CHECK(e->bytes == 64 * MIB && e->extra_ns > 0 && e->extra_cycles > 0 &&
	      e->fraction > 0.05 && e->fraction < 0.5,
	      "%s: at the end, 64 MiB, the 4 KiB pages cost more: +%.2f ns, +%.1f cycles, %.1f%%",
	      csv, e->extra_ns, e->extra_cycles, e->fraction * 100);
	f = p->crossed ? &p->pt[p->first_over] : 0;
	/* The L1 DTLB's reach with 4 KiB pages is 64 x 4 KiB = 256 KiB; the
	   first noisy readings at 24 and 32 KiB (6 and 8 pages) must not count. */
	CHECK(f && f->bytes >= 192 * KIB && f->bytes <= 512 * KIB,
	      "%s: first over 10%% near the L1 DTLB's 256 KiB reach (%llu KiB, %.1f%%)", csv,
	      f ? (unsigned long long)(f->bytes / KIB) : 0ull, f ? f->fraction * 100 : 0.0);
	print_report();
	CHECK(strstr(report.buf, "  4 KiB over 2 MiB pages: extra first exceeds 10% at ") != 0,
	      "%s: the summary line", csv);
	CHECK(make_json() && json_holds("d[\"page_walk\"][0][\"end_extra_ns\"] > 0") == 0,
	      "%s: JSON reads back", csv);
	CHECK(write_svg() == 0 && xmllint_ok() == 0 && count_text(svg.buf, "<polyline class=\"curve\"") == 1 &&
	      count_text(svg.buf, "<circle ") == 29, "%s: pagewalk.svg, one curve of 29 points", csv);
	if (getenv("MEMPROBE_SHOW"))
		printf("%s", report.buf);
}

int main(void)
{
	test_known_crossing();
	test_noisy_point();
	test_missing_sizes();
	test_three_sizes();
	test_one_curve();
	test_negative();
	test_json_text();
	test_recorded("tests/data/zen3-vm-latency-1.csv");
	test_recorded("tests/data/zen3-vm-latency-2.csv");
	return check_summary();
}
