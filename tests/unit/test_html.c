/* lib/html.c's escaping and page, lib/json_read.c, and report.html as
 * results.c writes it through the real Linux platform: whole elements at
 * every probe's end (a run cut short there leaves a whole page), every
 * text escaped, the rows as a table, charts inline, the verdict last;
 * a probe's own table as aligned text in report.txt and an HTML table on
 * the page; the system summary from system.json's members; a verdict that
 * counts lost files as the platform's does.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"
#include "check.h"
#include "read_back.h"
#include "sink.h"
#include "host/host.h"
#include "lib/html.h"
#include "lib/json_read.h"
#include "results/chart_file.h"
#include "core/platform.h"
#include "lib/json.h"
#include "lib/table.h"
#include "results/report_table.h"
#include "results/results.h"
#include "results/report_html.h"

static char root[] = "/tmp/memprobe-test-html-XXXXXX";

static void test_escape(void)
{
	static struct sink s;
	struct html_out o = { to_sink, &s };

	s.len = 0;
	html_str(&o, "a<b>&\"c\"'d' plain");
	CHECK(!strcmp(s.buf, "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39; plain"),
	      "html_str escapes & < > \" ' and passes the rest: %s", s.buf);
	s.len = 0;
	html_text(&o, "x<y", 2);
	CHECK(!strcmp(s.buf, "x&lt;"), "html_text stops at len");
	s.len = 0;
	html_element(&o, "td", "<script>");
	CHECK(!strcmp(s.buf, "<td>&lt;script&gt;</td>\n"), "an element's text can never open a tag");
}

static void test_page(void)
{
	static struct sink s;
	struct html_out o = { to_sink, &s };
	static const char svg[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

	s.len = 0;
	html_page_begin(&o, "run <1>");
	CHECK(!strncmp(s.buf, "<!DOCTYPE html>\n", 16), "the page opens with the HTML doctype");
	CHECK(strstr(s.buf, "<meta name=\"viewport\" content=\"width=device-width") != NULL,
	      "a viewport, for phones");
	CHECK(strstr(s.buf, "@media print") != NULL && strstr(s.buf, "max-width:100%") != NULL,
	      "print rules, and charts that shrink to the screen");
	CHECK(strstr(s.buf, "<title>run &lt;1&gt;</title>") && strstr(s.buf, "<h1>run &lt;1&gt;</h1>"),
	      "the title, escaped, in the head and as the heading");
	CHECK(!strstr(s.buf, "<script") && !strstr(s.buf, "<link") && !strstr(s.buf, "http"),
	      "no script, no stylesheet link, no address");
	html_svg_write(&o, svg, sizeof svg - 1);
	html_svg_write(&o, "<svg/>", 6);
	CHECK(!strstr(s.buf, "<?xml") && strstr(s.buf, "<svg/>"),
	      "an inline chart drops its XML declaration and keeps the rest");
	html_page_end(&o);
	CHECK(s.len > 16 && !strcmp(s.buf + s.len - 16, "</body>\n</html>\n"), "the page closes");
}

static void test_json_read(void)
{
	static const char doc[] = " {\"app\":{\"version\":\"0.1\",\"n\":[1,-2.5e3,true,null,{}]},"
				  "\"cpu\":{\"brand\":\"A \\\"B\\\" \\u0043\\u00e9\",\"x\":\"no\"}} ";
	char out[64];
	size_t at;

	CHECK(json_check(doc, sizeof doc - 1, &at) == 0, "a well-formed document checks");
	CHECK(json_get_string(doc, sizeof doc - 1, "cpu.brand", out, sizeof out) == 0 &&
	      !strcmp(out, "A \"B\" C?"), "a nested string, unescaped: %s", out);
	CHECK(json_get_string(doc, sizeof doc - 1, "app.version", out, sizeof out) == 0 &&
	      !strcmp(out, "0.1"), "a member after a nested object");
	CHECK(json_get_string(doc, sizeof doc - 1, "app.n", out, sizeof out) == -1,
	      "a value that is not a string is refused");
	CHECK(json_get_string(doc, sizeof doc - 1, "cpu.model", out, sizeof out) == -1,
	      "a missing key is refused");
	CHECK(json_get_string(doc, sizeof doc - 1, "brand", out, sizeof out) == -1,
	      "a key is found by its path, not anywhere");
	CHECK(json_get_scalar(doc, sizeof doc - 1, "app.n.1", out, sizeof out) == 0 &&
	      !strcmp(out, "-2.5e3"), "an array element by its index, a number as its text: %s", out);
	CHECK(json_get_scalar(doc, sizeof doc - 1, "app.n.2", out, sizeof out) == 0 &&
	      !strcmp(out, "true") && json_get_scalar(doc, sizeof doc - 1, "app.n.0", out, 2) == 0 &&
	      !strcmp(out, "1"), "true as its text; the first element; a short buffer cut");
	CHECK(json_get_scalar(doc, sizeof doc - 1, "cpu.brand", out, sizeof out) == 0 &&
	      !strcmp(out, "A \"B\" C?"), "a string through the scalar reader, unescaped");
	CHECK(json_get_scalar(doc, sizeof doc - 1, "app.n.5", out, sizeof out) == -1 &&
	      json_get_scalar(doc, sizeof doc - 1, "app.n.4", out, sizeof out) == -1 &&
	      json_get_scalar(doc, sizeof doc - 1, "app.n", out, sizeof out) == -1 &&
	      json_get_scalar(doc, sizeof doc - 1, "app.x.0", out, sizeof out) == -1,
	      "past the array's end, an object, an array, a missing key: refused");
	CHECK(json_check("{\"a\":1,}", 8, &at) == -1 && at == 7, "a trailing comma fails at its byte");
	CHECK(json_check("{\"a\":1} x", 9, &at) == -1, "text after the value fails");
	CHECK(json_check("{\"a\":\"b", 7, &at) == -1, "an unclosed string fails");
	CHECK(json_check("[01]", 4, &at) == -1 && json_check("[1.]", 4, &at) == -1,
	      "numbers as RFC 8259 spells them");
	char deep[200];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	CHECK(json_check(deep, 200, &at) == -1, "nesting past the limit is refused, not recursed");
	CHECK(json_check("", 0, &at) == -1, "an empty file is not JSON");
}

static const struct result_row row = {
	.probe = "latency", .variant = "chase<&>", .page_shift = 12, .working_set_bytes = 4096,
	.ns = 1.5, .cycles = 4.5, .trials = 5, .spread = 0.01,
	.pages_verified = "pages verified", .timer = "tsc",
};

static int one_point_chart(svg_write_fn write, void *ctx, const void *arg)
{
	static const double x[] = { 4096 }, y[] = { 1.5 };
	struct svg_series s = { "4 KiB pages", 1, x, y };
	struct svg_chart c = { arg, "working set", "ns", 1, &s, 1, 0, 0, 0 };

	return svg_write_chart(&c, write, ctx);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_report_page(void)
{
	static char mid[262144], text[262144];
	char path[4096];
	int saved = dup(1), quiet = open("/dev/null", O_WRONLY);

	host_set_results_root(root);
	fflush(stdout);
	dup2(quiet, 1);         /* the run's console is not this test's output */
	report_printf("memprobe 0.1.0 <banner>\n");
	results_open();
	results_section("latency");
	report_printf("a table & its <notes>\n");
	results_row(&row);
	struct result_row larger = row;
	larger.working_set_bytes = 8192;
	larger.ns = 2.25;
	results_row(&larger);
	chart_file("x.svg", one_point_chart, "chart <title>");
	results_probe_done();
	snprintf(path, sizeof path, "%s/report.html", plat_run_folder());
	read_file(path, mid, sizeof mid);
	results_section("cost");
	report_printf("a second probe\n");
	results_verdict(0, 1, NULL);
	results_close();
	read_file(path, text, sizeof text);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(quiet);

	CHECK(!strncmp(mid, "<!DOCTYPE html>", 15) && count(mid, "<pre>") == count(mid, "</pre>"),
	      "at a probe's end the page is whole elements (every <pre> closed)");
	CHECK(count(mid, "</html>") == 1 && !strcmp(mid + strlen(mid) - 16, "</body>\n</html>\n"),
	      "and it ends with its closing tail, once: a page cut off now is a whole page");
	CHECK(strstr(mid, "memprobe 0.1.0 &lt;banner&gt;") != NULL,
	      "the banner from before the files opened is on the page, escaped");
	CHECK(strstr(mid, "<h2>latency</h2>") && strstr(mid, "a table &amp; its &lt;notes&gt;"),
	      "the section's heading and its text, escaped");
	CHECK(strstr(mid, "<th>working_set_bytes</th><th>ns</th>") &&
	      strstr(mid, "<td>4096</td><td>1.500</td>") && strstr(mid, "<td>8192</td><td>2.250</td>"),
	      "the probe's rows as a table of results.csv's columns");
	CHECK(strstr(mid, "<caption>2 results.csv rows; in every row: probe latency; variant "
		     "chase&lt;&amp;&gt;; page_size 4096;") && !strstr(mid, "<th class=\"text\">timer") &&
	      !strstr(mid, "<th class=\"text\">variant"),
	      "columns the same in every row are said once in the caption, escaped");
	CHECK(strstr(mid, "<figure>\n<svg") && strstr(mid, "chart &lt;title&gt;") &&
	      strstr(mid, "<figcaption>x.svg</figcaption>") && !strstr(mid, "<?xml"),
	      "the chart inline, without its XML declaration");
	CHECK(strstr(text, "<h2>cost</h2>") && strstr(text, "a second probe"),
	      "later sections are appended after the flushed part");
	CHECK(strstr(text, "<p class=\"verdict failed\">verdict: FAILURE") != NULL,
	      "the verdict says a failure plainly");
	CHECK(count(text, "<pre>") == count(text, "</pre>") &&
	      !strcmp(text + strlen(text) - 16, "</body>\n</html>\n"), "the finished page closes");
	CHECK(!strncmp(text, mid, strlen(mid) - 16) && count(text, "</html>") == 1,
	      "what was flushed stays, but for the closing tail, which the next section is "
	      "written over");
}

static const struct table_column demo_columns[] = {
	{ "working set", NULL, 11, 0, 0 },
	{ "ns/load", NULL, 10, 0, 0 },
	{ "stopped by", NULL, 10, 1, 0 },
};
static const struct table demo_table = TABLE_OF(demo_columns, "  ");

/* A system.json of known members, in the shapes the platforms write. */
static void fill_demo_system(struct json *j, void *arg)
{
	(void)arg;
	json_object_begin(j, "platform");
	json_string(j, "name", "linux");
	json_string(j, "kernel", "Linux <test kernel>");
	json_u64(j, "mem_available_bytes", 3ull << 30);
	json_object_end(j);
	json_object_begin(j, "cpu");
	json_string(j, "vendor", "TestVendor");
	json_string(j, "brand", "Test CPU");
	json_u64(j, "family", 6);
	json_u64(j, "model", 1);
	json_u64(j, "stepping", 2);
	json_u64(j, "microcode", 42);
	json_string(j, "hypervisor", "KVMKVMKVM");
	json_array_begin(j, "caches");
	json_object_begin(j, NULL);
	json_u64(j, "level", 1);
	json_string(j, "type", "data");
	json_u64(j, "size_bytes", 32768);
	json_bool(j, "fully_associative", 0);
	json_u64(j, "ways", 8);
	json_u64(j, "line_bytes", 64);
	json_string(j, "source", "CPUID 4");
	json_object_end(j);
	json_array_end(j);
	json_array_begin(j, "tlbs");
	json_object_begin(j, NULL);
	json_u64(j, "level", 2);
	json_string(j, "type", "unified");
	json_string(j, "pages", "4K");
	json_u64(j, "entries", 2048);
	json_bool(j, "fully_associative", 1);
	json_string(j, "source", "CPUID 2");
	json_object_end(j);
	json_array_end(j);
	json_bool(j, "under_hypervisor", 1);
	json_object_end(j);
	json_object_begin(j, "clock");
	json_string(j, "counter", "TSC");
	json_u64(j, "ticks_per_s", 2000000000);
	json_u64(j, "uncertainty_ppm", 5);
	json_string(j, "source", "test source");
	json_bool(j, "invariant", 1);
	json_u64(j, "core_hz", 0);
	json_string(j, "core_source", "not run");
	json_object_end(j);
}

/* One demo table row. */
static void demo_row(const char *size, double ns, const char *stopped_by)
{
	report_table_cell("%s", size);
	report_table_cell("%.3f", ns);
	report_table_cell("%s", stopped_by);
	report_table_row(0);
}

static void test_report_tables(void)
{
	static char report[65536], page[262144];
	char folder[4096], path[4200];
	int saved = dup(1), quiet = open("/dev/null", O_WRONLY);

	host_set_results_root(root);
	fflush(stdout);
	dup2(quiet, 1);
	report_printf("memprobe 0.1.0\n");
	results_open();
	results_summary(fill_demo_system, NULL);
	results_section("latency");
	report_table_begin(&demo_table, "latency, 4 KiB pages", NULL);
	demo_row("4 KiB", 1.5, "settled<");
	report_printf("  ... measuring <next>\n");
	demo_row("8 KiB", 2.25, "time");
	report_table_end();
	report_printf("after the table\n");
	results_probe_done();
	results_verdict(1, 0, NULL);
	snprintf(folder, sizeof folder, "%s", plat_run_folder());
	results_close();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(quiet);
	snprintf(path, sizeof path, "%s/report.txt", folder);
	read_file(path, report, sizeof report);
	snprintf(path, sizeof path, "%s/report.html", folder);
	read_file(path, page, sizeof page);

	CHECK(strstr(report, "\n== latency ==\n"
			     "  working set    ns/load stopped by\n"
			     "        4 KiB      1.500 settled<\n"
			     "  ... measuring <next>\n"
			     "        8 KiB      2.250 time\n"
			     "after the table\n") != NULL,
	      "report.txt: the table as aligned text, the note between its rows in order");
	CHECK(strstr(page, "<caption>latency, 4 KiB pages</caption>\n<thead><tr><th>working set</th>"
			   "<th>ns/load</th><th class=\"text\">stopped by</th></tr></thead>") != NULL,
	      "report.html: the table's caption and every column's header");
	CHECK(strstr(page, "<tr><td>4 KiB</td><td>1.500</td><td class=\"text\">settled&lt;</td></tr>")
	      && strstr(page, "<tr><td>8 KiB</td><td>2.250</td><td class=\"text\">time</td></tr>"),
	      "report.html: each row's cells, trimmed and escaped");
	CHECK(strstr(page, "<tr class=\"note\"><td colspan=\"3\">  ... measuring &lt;next&gt;\n"
			   "</td></tr>") != NULL, "the note printed between rows is a row across the table");
	CHECK(!strstr(page, "working set    ns/load") && !strstr(page, "     4 KiB"),
	      "the table's text rendering is not on the page a second time");
	CHECK(strstr(page, "</tbody></table></div>\n<pre>after the table\n") != NULL,
	      "text after the table is a text block again");
	CHECK(strstr(page, "<h2>system summary</h2>") &&
	      strstr(page, "<td class=\"text\">operating system</td><td class=\"text\">"
			   "Linux &lt;test kernel&gt;</td>") &&
	      strstr(page, "<td class=\"text\">Test CPU: TestVendor family 6 model 1 stepping 2, "
			   "microcode 0x2a; under a hypervisor: KVMKVMKVM</td>"),
	      "the summary: the OS and the CPU, from system.json's members, escaped");
	CHECK(strstr(page, "<td class=\"text\">L1 data cache (claimed)</td><td class=\"text\">"
			   "32 KiB, 8-way, 64 B lines (CPUID 4)</td>") &&
	      strstr(page, "<td class=\"text\">L2 unified TLB, 4K pages (claimed)</td>"
			   "<td class=\"text\">2048 entries, fully associative (CPUID 2)</td>"),
	      "the summary: each claimed cache and TLB");
	CHECK(strstr(page, "3.0 GiB available to a run") &&
	      strstr(page, "TSC at 2.000000 GHz +- 5 ppm, invariant; test source") &&
	      strstr(page, "not measured (not run): cycle figures are meaningless") &&
	      strstr(page, "<td class=\"text\">page sizes now</td><td class=\"text\">4 KiB pages "
			   "(a buffer of up to"),
	      "the summary: memory, the timer, the core clock, the page sizes available now");
	CHECK(strstr(page, "<h2>system summary</h2>") < strstr(page, "<h2>latency</h2>"),
	      "the summary stands before the first probe");
	CHECK(strstr(page, "<p class=\"verdict failed\">verdict: FAILURE: the result files are "
			   "missing or incomplete") != NULL,
	      "lost files fail the page's verdict, saying so, as they fail the run's");
	CHECK(plat_files_complete(), "this run's files were all written (the platform says so)");
}

/* ---- The page arranged at the run's end ---- */

static struct sink streamed, arranged;

static int copy_streamed(void *ctx, uint64_t from, uint64_t to)
{
	(void)ctx;
	if (to > streamed.len || from > to)
		return -1;
	to_sink(&arranged, streamed.buf + from, (size_t)(to - from));
	return 0;
}

static int tiny_chart(svg_write_fn write, void *ctx, const void *arg)
{
	write(ctx, "<svg>", 5);
	write(ctx, (const char *)arg, strlen(arg));
	write(ctx, "</svg>\n", 7);
	return 0;
}

/* A table of n rows, captioned. */
static void short_table(const char *caption, unsigned n)
{
	static const struct table_column col[] = { { "size", NULL, 6, 0, 0 } };
	static const struct table shape = { col, 1, "", NULL };
	const char *cell[1] = { "4096" };

	report_html_table_begin(&shape, caption);
	for (unsigned i = 0; i < n; i++)
		report_html_table_row(cell, 0);
	report_html_table_end();
}

/* A page streamed as a run writes it (configuration text, two sections
   with tables, charts and rows, system.json folded, the verdict), then
   arranged: card, verdict, contents with every chart, the charts each
   beside its section's table of the same rank when short, the sections,
   and the configuration and rows in a closed <details> at the end. */
static void test_arranged_page(void)
{
	const struct html_out o = { to_sink, &streamed };
	const struct html_out to = { to_sink, &arranged };
	struct result_row row = { .probe = "latency", .variant = "chase", .page_shift = 12,
				  .working_set_bytes = 4096, .ns = 1.5 };
	const char *b = arranged.buf;

	streamed.len = arranged.len = 0;
	report_html_begin(&o, "run");
	report_html_text("the configuration: trials = 3\n", 30);
	report_html_section("latency");
	report_html_text("latency's notes\n", 16);
	short_table("latency short", 3);
	report_html_chart("latency-own.svg", tiny_chart, "first");
	report_html_row(&row);
	report_html_rows_done();
	report_html_section("memory hierarchy");
	short_table("levels", 4);
	short_table("page walk", 30);
	report_html_chart("latency.svg", tiny_chart, "second");
	report_html_chart("pagewalk.svg", tiny_chart, "third");
	report_html_folded("system.json", "{}", 2);
	report_html_verdict(1, "verdict: fine");
	report_html_end();
	CHECK(report_html_arrange(&to, copy_streamed, 0, "CARD TEXT", 9) == 0 && !arranged.overflow,
	      "the page arranged");
	const char *card = strstr(b, "<section id=\"summary\">"), *verdict = strstr(b, "verdict: fine");
	const char *nav = strstr(b, "<nav id=\"contents\">"), *charts = strstr(b, "<section id=\"charts\">");
	const char *sec1 = strstr(b, "<a id=\"section-1\"></a>\n<h2>latency</h2>");
	const char *raw = strstr(b, "<details id=\"raw\">");
	CHECK(card && strstr(card, "CARD TEXT") && card < verdict && verdict < nav && nav < charts &&
	      charts < sec1 && sec1 < raw, "card, verdict, contents, charts, sections, raw: in order");
	CHECK(strstr(nav, "href=\"#chart-1\">latency-own.svg") &&
	      strstr(nav, "href=\"#chart-2\">latency.svg") &&
	      strstr(nav, "href=\"#chart-3\">pagewalk.svg") && strstr(nav, "href=\"#section-2\">memory"),
	      "the contents link every chart and every section");
	CHECK(count(b, "<a id=\"chart-") == 3 && strstr(charts, "<a id=\"chart-1\"></a>\n<figure>") &&
	      strstr(charts, "<a id=\"chart-3\"></a>\n<figure>") < sec1,
	      "each chart once, with its anchor, in the charts section");
	const char *pair1 = strstr(charts, "first</svg>"), *pair2 = strstr(charts, "second</svg>");
	const char *pair3 = strstr(charts, "third</svg>");
	CHECK(pair1 && strstr(pair1, "latency short") < pair2 && strstr(pair2, "levels") < pair3 &&
	      (!strstr(pair3, "page walk") || strstr(pair3, "page walk") > sec1),
	      "each chart beside its section's table of its rank; the 30-row table not beside one");
	CHECK(strstr(sec1, "latency&#39;s notes") && strstr(sec1, "page walk") < raw,
	      "the sections' text and tables after the charts");
	CHECK(strstr(raw, "the configuration: trials = 3") && strstr(raw, "<h3>latency</h3>") &&
	      strstr(raw, "<td>1.500</td>") && strstr(raw, "<summary>system.json</summary>") &&
	      strstr(b, "the configuration: trials") > raw && strstr(b, "<td>1.500</td>") > raw,
	      "the configuration, the rows and system.json only in the closed details at the end");
	CHECK(!strcmp(b + arranged.len - 16, "</body>\n</html>\n") && count(b, "<pre>") ==
	      count(b, "</pre>"), "the arranged page closes");
}

int main(void)
{
	test_arranged_page();
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_escape();
	test_page();
	test_json_read();
	test_report_page();
	test_report_tables();
	scratch_remove(root);
	return check_summary();
}
