/* The SVG chart writer: well-formed XML (checked by xmllint from Debian's
 * libxml2-utils), one polyline per series, markers in range, escaping; and
 * the libm-free log2 against libm's.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "check.h"
#include "sink.h"
#include "scratch.h"
#include "desk/analyze.h"
#include "analysis/analysis.h"
#include "results/csvread.h"
#include "lib/svg.h"
#include "lib/heatmap.h"
#include "lib/xy_chart.h"
#include "lib/bar_chart.h"
#include "lib/base2.h"

/* 0 when xmllint accepts the document. */
static int xmllint_ok(const struct sink *s, const char *name)
{
	char path[128], cmd[256];
	FILE *f;

	snprintf(path, sizeof path, "/tmp/memprobe-test-%d-%s.svg", (int)getpid(), name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fwrite(s->buf, 1, s->len, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", path);
	int rc = system(cmd);
	remove(path);
	return rc;
}

static void test_log2(void)
{
	double worst = 0;
	int exact = 1;

	for (int e = -1074; e <= 1023; e++)
		if (base2_log(ldexp(1.0, e)) != (double)e)
			exact = 0;
	CHECK(exact, "powers of two exact, subnormals included");
	for (double x = 1e-300; x < 1e300; x *= 1.0137) {
		double err = fabs(base2_log(x) - log2(x));
		if (err > worst)
			worst = err;
	}
	CHECK(worst < 1e-12, "within 1e-12 of libm over 1e-300..1e300 (worst %.3g)", worst);
	CHECK(fabs(base2_log(3.0) - 1.584962500721156) < 1e-15, "log2(3)");
	CHECK(fabs(base2_log(4.9e-324) + 1074) < 1e-9, "smallest subnormal");
	CHECK(isinf(base2_log(0.0)) && base2_log(0.0) < 0, "log2(0) = -inf");
	CHECK(isnan(base2_log(-1.0)) && isnan(base2_log(NAN)), "negative and NaN: NaN");
	CHECK(isinf(base2_log(INFINITY)) && base2_log(INFINITY) > 0, "log2(inf) = inf");
}

static void test_chart(void)
{
	static struct sink s;
	double x4[6] = { 4096, 32768, 49152, 262144, 393216, 1048576 };
	double y4[6] = { 1.33, 1.35, 4.0, 4.2, 6.5, 15.0 };
	double x2[6] = { 4096, 32768, 49152, 262144, 393216, 1048576 };
	double y2[6] = { 1.34, 1.36, 4.1, 4.1, 4.2, 14.0 };
	double xbad[3] = { 0.0, NAN, 8192 };
	double ybad[3] = { 1.0, 2.0, -3.0 };
	struct svg_series series[3] = {
		{ "4 KiB pages", 6, x4, y4 },
		{ "2 MiB pages", 6, x2, y2 },
		{ "bad points <only>", 3, xbad, ybad },
	};
	struct svg_marker marks[4] = {
		{ 32768, "L1 32 KiB", -1, 0 },
		{ 262144, "L1 DTLB (4 KiB pages) 256 KiB & \"64\" entries", 0, 1 },
		{ 1e12, "beyond the axis", -1, 0 },
		{ NAN, "not a number", -1, 0 },
	};
	struct svg_chart c = {
		"Load latency <chase> & \x01 control", "working set", "ns per load", 1,
		series, 3, marks, 4, 1,
	};

	memset(&s, 0, sizeof s);
	CHECK(svg_write_chart(&c, to_sink, &s) == 0, "chart written");
	CHECK(!s.overflow, "fits the test's buffer");
	CHECK(xmllint_ok(&s, "chart") == 0, "xmllint --noout accepts it");
	CHECK(count_text(s.buf, "<polyline class=\"curve\"") == 3, "one polyline per series");
	CHECK(count_text(s.buf, "<circle ") == 12, "a dot per usable point, bad ones left out (%d)",
	      count_text(s.buf, "<circle "));
	CHECK(count_text(s.buf, "class=\"edge\"") == 2, "markers off the axis or NaN left out");
	CHECK(strstr(s.buf, ">cache edge</text>") && strstr(s.buf, ">TLB edge</text>"),
	      "the legend explains the edge lines when asked to");
	CHECK(strstr(s.buf, "stroke-dasharray=\"6,4\"/>\n<text") != 0, "TLB marker dashed");
	CHECK(strstr(s.buf, "&lt;chase&gt; &amp; ") && strstr(s.buf, "&quot;64&quot;"),
	      "text escaped");
	CHECK(!memchr(s.buf, '\x01', s.len), "control character dropped");
	CHECK(strstr(s.buf, ">4 KiB</text>") && strstr(s.buf, ">1 MiB</text>"),
	      "x ticks labelled as byte sizes");
	CHECK(strstr(s.buf, ">1</text>") && strstr(s.buf, ">10</text>") &&
	      strstr(s.buf, ">20</text>"), "y ticks at 1, 2, 5 per decade");
}

static void test_empty(void)
{
	static struct sink s;
	struct svg_chart c = { "nothing", "x", "y", 0, 0, 0, 0, 0, 0 };

	memset(&s, 0, sizeof s);
	CHECK(svg_write_chart(&c, to_sink, &s) == -1, "no points: -1");
	CHECK(xmllint_ok(&s, "empty") == 0 && strstr(s.buf, "no measurement to draw"),
	      "... and still a well-formed document that says so");
}

/* The c2c heatmap: one cell per pair, the diagonal and unmeasured pairs
   grey and without a number, the value in each measured cell, escaping;
   nothing measured says so. */
static void test_heatmap(void)
{
	static struct sink s;
	const unsigned label[3] = { 0, 2, 5 };
	const double nan = NAN, v[9] = { nan, 40, 90, 40, nan, nan, 90, nan, nan };
	struct svg_heatmap h = { "c2c <&>", "logical CPU", "ns", 3, label, v };

	memset(&s, 0, sizeof s);
	CHECK(svg_write_heatmap(&h, to_sink, &s) == 0 && xmllint_ok(&s, "heatmap") == 0,
	      "a heatmap is a well-formed document");
	CHECK(count_text(s.buf, "class=\"cell\"") == 9 && count_text(s.buf, "#eeeeee") == 5,
	      "9 cells, the diagonal and the unmeasured pair grey");
	CHECK(count_text(s.buf, ">40</text>") == 2 && count_text(s.buf, ">90</text>") == 2 &&
	      strstr(s.buf, ">5</text>") && strstr(s.buf, "c2c &lt;&amp;&gt;"),
	      "each value in its two cells, CPU 5 labelled, the title escaped");
	const double none[4] = { nan, nan, nan, nan };
	struct svg_heatmap empty = { "none", "CPU", "ns", 2, label, none };
	memset(&s, 0, sizeof s);
	CHECK(svg_write_heatmap(&empty, to_sink, &s) == -1 && xmllint_ok(&s, "heatmap0") == 0 &&
	      strstr(s.buf, "no measurement to draw"), "no value: -1, a document that says so");
	double pair[4] = { NAN, 222.6, 222.6, NAN };
	struct svg_heatmap one = { "c2c", "CPU", "ns", 2, label, pair };
	memset(&s, 0, sizeof s);
	CHECK(svg_write_heatmap(&one, to_sink, &s) == 0 && xmllint_ok(&s, "heatmap1") == 0 &&
	      strstr(s.buf, ">one value: 222.6 ns</text>") && count_text(s.buf, "222.6 ns") == 1 &&
	      count_text(s.buf, "height=\"20\"") == 0,
	      "one pair: its value said once, no colour scale from 222.6 to 222.6");
}

/* The linear chart: a point at x = 0 is drawn (log axes would drop it),
   each point tagged; no usable point says so. */
static void test_xy_chart(void)
{
	static struct sink s;
	const double x[3] = { 0, 12.5, 30 }, y[3] = { 90, 120, 300 };
	const unsigned tag[3] = { 0, 1, 2 };
	struct svg_xy_series series = { "4 KiB pages", 3, x, y, tag };
	struct svg_xy_chart c = { "loaded", "GB/s", "ns", "loaders", &series, 1 };

	memset(&s, 0, sizeof s);
	CHECK(svg_write_xy_chart(&c, to_sink, &s) == 0 && xmllint_ok(&s, "xy") == 0,
	      "an xy chart is a well-formed document");
	CHECK(count_text(s.buf, "<circle") == 3 && strstr(s.buf, "points=\"80.0,") != NULL,
	      "all three points, the one at x = 0 on the y axis");
	CHECK(strstr(s.buf, ">2</text>") && strstr(s.buf, "4 KiB pages"), "tags and the legend");
	const double bad[1] = { -1 };
	struct svg_xy_series none = { "none", 1, bad, bad, NULL };
	c.series = &none;
	memset(&s, 0, sizeof s);
	CHECK(svg_write_xy_chart(&c, to_sink, &s) == -1 && strstr(s.buf, "no measurement to draw"),
	      "no usable point: -1, a document that says so");
}

/* A figure across machines: a bar per value, "-" for none, the marked one
   in its colour with "!", the median as a dashed line. */
static void test_bar_chart(void)
{
	static struct sink s;
	const struct svg_bar bar[3] = { { "m-a", 4.0, 0 }, { "m-<b>", NAN, 0 }, { "m-c", 5.2, 1 } };
	struct svg_bar_chart c = { "X: L2 ns", "L2 ns", bar, 3, 4.1, "median" };

	memset(&s, 0, sizeof s);
	CHECK(svg_write_bar_chart(&c, to_sink, &s) == 0 && xmllint_ok(&s, "bar") == 0,
	      "a bar chart is a well-formed document, its labels escaped");
	CHECK(count_text(s.buf, "class=\"bar\"") == 2 && strstr(s.buf, ">-</text>") &&
	      strstr(s.buf, "m-&lt;b&gt;"), "two bars, a '-' for the machine without the figure");
	CHECK(strstr(s.buf, "#d55e00") && strstr(s.buf, ">5.2 !</text>"),
	      "the marked bar in its colour, '!' after its value");
	CHECK(strstr(s.buf, "class=\"reference\"") && strstr(s.buf, "median 4.1</text>"),
	      "the median as a line, named with its value");
	const struct svg_bar none[1] = { { "m-a", NAN, 0 } };
	c.bar = none;
	c.n = 1;
	memset(&s, 0, sizeof s);
	CHECK(svg_write_bar_chart(&c, to_sink, &s) == -1 && strstr(s.buf, "no measurement to draw"),
	      "no value: -1, a document that says so");
}

/* A wide sweep, 4 KiB .. 512 MiB: labels thinned, still well-formed. */
static void test_wide(void)
{
	static struct sink s;
	double x[33], y[33];
	struct svg_series series = { "4 KiB pages", 33, x, y };
	struct svg_chart c = { "wide", "working set", "ns", 1, &series, 1, 0, 0, 0 };

	for (int i = 0; i < 33; i++) {
		x[i] = 4096.0 * pow(2.0, i * 17.0 / 32.0);
		y[i] = 1.3 * pow(1.2, i);
	}
	memset(&s, 0, sizeof s);
	CHECK(svg_write_chart(&c, to_sink, &s) == 0 && xmllint_ok(&s, "wide") == 0,
	      "wide sweep well-formed");
	CHECK(strstr(s.buf, ">4 KiB</text>") && strstr(s.buf, ">256 MiB</text>") &&
	      !strstr(s.buf, ">8 KiB</text>"),
	      "every other power labelled when there are many");
	CHECK(!strstr(s.buf, "cache edge"), "no edge key in the legend of a chart without edges");
}

static void take(const struct result_row *row, void *ctx)
{
	analysis_add_row(ctx, row);
}

/* latency.svg of a recorded run (tests/data): one curve per page size. */
static void test_latency_chart(void)
{
	static struct sink s;
	static struct analysis a;
	static char csv[1 << 16];
	struct csv_summary sum;
	FILE *f = fopen("tests/data/zen3-vm-latency-2.csv", "rb");
	size_t len = f ? fread(csv, 1, sizeof csv - 1, f) : 0;

	if (f)
		fclose(f);
	CHECK(len > 0, "recorded CSV readable");
	analysis_init(&a);
	results_csv_read(csv, len, take, &a, &sum);
	analysis_compute(&a);
	memset(&s, 0, sizeof s);
	CHECK(analysis_write_svg(&a, to_sink, &s) == 0, "latency chart written");
	CHECK(xmllint_ok(&s, "latency") == 0, "xmllint accepts latency.svg");
	CHECK(count_text(s.buf, "<polyline class=\"curve\"") == 2 &&
	      strstr(s.buf, "<title>4 KiB pages</title>") && strstr(s.buf, "<title>2 MiB pages</title>"),
	      "one polyline per page size, 4 KiB and 2 MiB");
	CHECK(count_text(s.buf, "<circle ") == 58, "a dot per sweep point (%d)", count_text(s.buf, "<circle "));
	CHECK(strstr(s.buf, ">L1 32 KiB</text>") && strstr(s.buf, ">L2 512 KiB</text>"),
	      "L1 and L2 edges marked and labelled");
	CHECK(count_text(s.buf, "class=\"edge\"") == (int)a.h.nlevels - 1,
	      "every level but the top marked (%d of %zu)", count_text(s.buf, "class=\"edge\""),
	      a.h.nlevels);
}

/* ---- Marker labels apart ---- */

/* A label's box as a browser draws it, measured here apart from lib/svg.c's
   own guess: a 12 px sans-serif face's glyphs 10 px above the baseline and
   3 below, 6.5 px a character at the most for these labels. */
struct box {
	double left, top, right, bottom;
	char text[64];
};

/* Every marker label of an SVG document into box[]; how many. */
static size_t label_boxes(const char *svg, struct box *box, size_t max)
{
	static const char key[] = "<g class=\"edge\">";
	size_t n = 0;

	for (const char *p = strstr(svg, key); p && n < max; p = strstr(p + 1, key)) {
		const char *t = strstr(p, "<text transform=\"translate(");
		const char *gt = t ? strchr(t, '>') : 0;
		const char *end = gt ? strstr(gt, "</text>") : 0;
		double x, y;
		size_t len;

		if (!end || sscanf(t, "<text transform=\"translate(%lf,%lf) rotate(-90)\"", &x, &y) != 2)
			continue;
		len = (size_t)(end - gt - 1);
		snprintf(box[n].text, sizeof box[n].text, "%.*s", (int)len, gt + 1);
		box[n].left = x - 10;
		box[n].right = x + 3;
		box[n].top = y;
		box[n].bottom = y + 6.5 * (double)len;
		n++;
	}
	return n;
}

/* 0 when no two labels of the document meet; else says which. */
static int labels_apart(const char *svg, const char *what, size_t *count)
{
	static struct box box[64];
	size_t n = label_boxes(svg, box, 64);
	int met = 0;

	*count = n;
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (box[i].left < box[k].right && box[k].left < box[i].right &&
			    box[i].top < box[k].bottom && box[k].top < box[i].bottom) {
				if (!met)
					printf("# %s: \"%s\" meets \"%s\"\n", what, box[i].text,
					       box[k].text);
				met = 1;
			}
	return met;
}

/* The labels the report's users saw on one another: an L3 at 6 MiB and a
   TLB reach at 8 MiB, and one TLB's entries at one size for two page
   sizes; and labels crowded one step apart. */
static void test_labels_apart(void)
{
	static struct sink s;
	double x[2] = { 4096, 1 << 30 }, y[2] = { 1, 100 };
	struct svg_series series[1] = { { "4 KiB pages", 2, x, y } };
	struct svg_marker marks[8] = {
		{ 6.0 * 1024 * 1024, "L3 6 MiB", -1, 0 },
		{ 8.0 * 1024 * 1024, "L2 TLB 8 MiB (2048 entries)", 0, 1 },
		{ 393216, "L1 DTLB 96 entries", 0, 1 },
		{ 393216, "L1 DTLB 96 entries", 1, 1 },
		{ 9.0 * 1024 * 1024, "edge 9 MiB", -1, 0 },
		{ 10.0 * 1024 * 1024, "edge 10 MiB", -1, 0 },
		{ 12.0 * 1024 * 1024, "TLB 12 MiB (3072 entries)", 0, 1 },
		{ 32768, "L1 32 KiB", -1, 0 },
	};
	struct svg_chart c = { "labels", "x", "y", 1, series, 1, marks, 8, 1 };
	size_t n;

	CHECK(svg_write_chart(&c, to_sink, &s) == 0, "crowded chart written");
	CHECK(labels_apart(s.buf, "crowded", &n) == 0 && n == 8,
	      "8 labels, 6 within 2x of each other and 2 at one size, no two meet (%zu)", n);
}

/* A system.json's claims into *claims; 1 when read. */
static int read_claims(const char *path, struct cache_claims *claims)
{
	static char text[1 << 16];
	FILE *f = fopen(path, "rb");
	size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;

	if (f)
		fclose(f);
	return len > 0 && claims_from_system_json(text, len, claims) == 0;
}

/* The latency and tlb charts of every recorded run in tests/data: no two
   labels meet. */
static void test_recorded_labels(void)
{
	static const char *const runs[] = {
		"zen5-vm-quick-1.csv", "zen5-vm-quick-2.csv", "zen5-vm-quick-3.csv",
		"zen3-vm-latency-1.csv", "zen3-vm-latency-2.csv", "zen4-vm-latency-stall.csv",
		"zen4-vm-tlb-full.csv", "zen4-vm-tlb-long.csv", "zen4-vm-tlb-quick.csv",
		"zen4-vm-tlb-again.csv", "zen4-vm-tlb-loaded.csv", "emr-vm-tlb.csv",
	};
	static struct analysis a;
	static struct sink s;
	static char csv[1 << 19], path[128];
	static struct cache_claims claims;
	size_t total = 0, n;

	for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		struct csv_summary sum;
		FILE *f;
		size_t len = 0;

		snprintf(path, sizeof path, "tests/data/%s", runs[r]);
		f = fopen(path, "rb");
		if (f) {
			len = fread(csv, 1, sizeof csv - 1, f);
			fclose(f);
		}
		analysis_init(&a);
		CHECK(len > 0 && results_csv_read(csv, len, take, &a, &sum) == 0, "%s read",
		      path);
		if (strstr(runs[r], "zen5") && read_claims("tests/data/zen5-vm-cpuid.json", &claims))
			analysis_set_claims(&a, &claims, "tests/data/zen5-vm-cpuid.json");
		analysis_compute(&a);
		memset(&s, 0, sizeof s);
		if (analysis_write_svg(&a, to_sink, &s) == 0) {
			CHECK(labels_apart(s.buf, path, &n) == 0, "%s: latency.svg's %zu labels apart",
			      runs[r], n);
			total += n;
		}
		memset(&s, 0, sizeof s);
		if (analysis_write_tlb_svg(&a, to_sink, &s) == 0) {
			CHECK(labels_apart(s.buf, path, &n) == 0, "%s: tlb.svg's %zu labels apart",
			      runs[r], n);
			total += n;
		}
	}
	CHECK(total >= 40, "the recordings' charts held %zu labels", total);
}

/* `memprobe analyze`: the chart lands in --out, the exit status tells. */
static void test_analyze_command(void)
{
	char dir[] = "/tmp/memprobe-analyze-XXXXXX", svg[64], csv[64];
	char *ok[] = { "analyze", "tests/data/zen3-vm-latency-1.csv", "--out", dir, 0 };
	char *missing[] = { "analyze", "/nonexistent/results.csv", 0 };
	char *none[] = { "analyze", csv, 0 };
	char *bad[] = { "analyze", 0 };
	struct sink s;
	FILE *f;

	CHECK(mkdtemp(dir) != 0, "temporary folder");
	snprintf(svg, sizeof svg, "%s/latency.svg", dir);
	snprintf(csv, sizeof csv, "%s/results.csv", dir);
	fflush(stdout);
	CHECK(analyze_main(4, ok) == 0, "analyze of a recorded run: status 0");
	f = fopen(svg, "rb");
	s.len = f ? fread(s.buf, 1, sizeof s.buf - 1, f) : 0;
	s.buf[s.len] = 0;
	if (f)
		fclose(f);
	CHECK(s.len && xmllint_ok(&s, "analyze") == 0 &&
	      count_text(s.buf, "<polyline class=\"curve\"") == 2, "its latency.svg: well-formed, two curves");
	f = fopen(csv, "w");
	if (f) {
		fputs("probe,variant,page_size,working_set_bytes,ns,cycles\ncost,by_value,,,2.0,6.0\n", f);
		fclose(f);
	}
	CHECK(analyze_main(2, none) == 1, "no latency rows: status 1");
	CHECK(analyze_main(2, missing) == 2, "no such file: status 2");
	CHECK(analyze_main(1, bad) == 2, "no file named: status 2");
	scratch_remove(dir);
}

int main(void)
{
	test_heatmap();
	test_xy_chart();
	test_bar_chart();
	test_log2();
	test_chart();
	test_empty();
	test_wide();
	test_latency_chart();
	test_analyze_command();
	test_labels_apart();
	test_recorded_labels();
	return check_summary();
}
