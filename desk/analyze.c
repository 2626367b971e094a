/* The analyze subcommand (see analyze.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arch/x86_64/cpu_caches.h"
#include "desk/analyze.h"
#include "desk/curve_read.h"
#include "host/host.h"
#include "core/platform.h"
#include "lib/json_read.h"
#include "analysis/analysis.h"
#include "analysis/ifetch_levels.h"
#include "results/csvread.h"
#include "results/report_html.h"

/* ---- Private Functions ------------------------------------------------ */

static void usage(FILE *to)
{
	fprintf(to,
		"usage: memprobe analyze RUN_FOLDER|path/to/results.csv [--out DIR] [--claims CLAIMS]\n"
		"       memprobe analyze path/to/curve.txt [--out DIR] [--claims CLAIMS]\n"
		"\n"
		"Reads the latency, tlb and bandwidth rows of a run's results.csv (a run\n"
		"folder's, or the file named), or a\n"
		"latency curve another program printed (two columns, size and ns; the\n"
		"size's unit named by a header such as size_kib,ns or by suffixes), finds\n"
		"the cache levels, the TLB levels and the page-walk cost in them, and\n"
		"prints them beside the cache and TLB claims that the run's system.json recorded\n"
		"(when it lies beside the CSV, or the one --claims names; a malformed one\n"
		"is refused; for a curve with none beside it, this machine's CPU's, said\n"
		"so: --claims none reads without claims, --claims this-cpu with this\n"
		"machine's always), and the\n"
		"bandwidth curves' cache edges beside the latency curves'. Writes nothing\n"
		"unless told to: with --out DIR (made if needed), writes latency.svg,\n"
		"tlb.svg, pagewalk.svg and bandwidth.svg (those the rows allow) and\n"
		"report.html (the analysis, its charts and the rows) into DIR, never over\n"
		"a file already there.\n");
}

/* The results.csv a word names: the word itself, or a run folder's
   results.csv when it names a folder (as compare and fleet take them).
   Returns path or buf. */
static const char *csv_of(const char *path, char *buf, size_t size)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return path;
	snprintf(buf, size, "%s%sresults.csv", path,
		 path[0] && path[strlen(path) - 1] == '/' ? "" : "/");
	return buf;
}

/* The folder part of a path, "." for a bare name. */
static void folder_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, size, ".");
	else if (slash == path)
		snprintf(dir, size, "/");
	else
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

/* The ifetch rows, read apart: the analysis reads latency, tlb and
   bandwidth rows, the instruction side its own (ifetch_levels.h). */
static struct ifetch_rows ifetch_seen;

static void take_row(const struct result_row *row, void *ctx)
{
	analysis_add_row(ctx, row);
	ifetch_rows_add(&ifetch_seen, row);
}

/* How many points the ifetch rows gave, every series together. */
static size_t ifetch_points(void)
{
	size_t n = 0;

	for (size_t i = 0; i < ifetch_seen.nseries; i++)
		n += ifetch_seen.s[i].n;
	return n;
}

/* The system.json beside the CSV, for the texts its rows name by id
   (csvread.h); NULL when there is none or it cannot be read (load_claims
   says so). Read once, kept for the command's life. */
static const char *system_beside(const char *csv, size_t *len)
{
	static char *text;
	static size_t text_len;
	char dir[4096], path[4200];
	const char *why;

	if (!text) {
		folder_of(csv, dir, sizeof dir);
		snprintf(path, sizeof path, "%s/system.json", dir);
		text = host_slurp(path, &text_len, &why);
	}
	*len = text_len;
	return text;
}

/* The file's rows into a: a results.csv, or else a two-column curve.
   *two_column says which it was. 0, or 2 with both readers' reasons on
   stderr. */
static int read_rows(struct analysis *a, const char *csv, const char *text, size_t len,
		     int *two_column)
{
	struct csv_summary sum;
	struct curve_read_summary cs;
	size_t system_len;
	const char *system = system_beside(csv, &system_len);

	*two_column = 0;
	if (results_csv_read_texts(text, len, system, system_len, take_row, a, &sum) == 0) {
		printf("%s: %u rows read, %u latency rows, %u tlb rows, %u bandwidth rows and "
		       "%zu ifetch points used", csv, sum.rows, a->rows, a->tlb.rows, a->bw.rows,
		       ifetch_points());
		if (sum.skipped)
			printf(", %u malformed rows skipped (the first on line %u)", sum.skipped,
			       sum.first_bad_line);
		printf("\n");
		return 0;
	}
	analysis_init(a);
	ifetch_rows_init(&ifetch_seen);
	if (curve_read(text, len, take_row, a, &cs) != 0) {
		fprintf(stderr, "memprobe analyze: %s: not a results.csv (%s), nor a two-column "
			"curve (%s)\n", csv, sum.error, cs.error);
		analysis_init(a);
		return 2;
	}
	*two_column = 1;
	printf("%s: a two-column curve, %u sizes used of %u rows; its page size is not "
	       "recorded: read as %u KiB pages, one curve, so no edge is told cache from "
	       "TLB\n", csv, a->rows, cs.rows, (1u << CURVE_READ_PAGE_SHIFT) / 1024);
	if (cs.added_ns > 0.0)
		printf("  its least reading, %g ns (%u readings of 0), is less than any load "
		       "takes (%g ns): the program printed the time over its fastest level's; "
		       "each reading is read with %g ns added, an L1 hit's time on current cores "
		       "(a guess: the steps' places do not hang on it; the levels' ns below "
		       "include it)\n",
		       cs.least_ns, cs.zero_rows, CURVE_READ_LOAD_MIN_NS, cs.added_ns);
	return 0;
}

/* The analysis text goes to stdout and, once the page is open, into it. */
static void print_text(void *ctx, const char *text)
{
	(void)ctx;
	fputs(text, stdout);
	report_html_text(text, strlen(text));
}

/* The instruction side, where ifetch rows were read: what the run's own
   report closed its ifetch section with, against the same claims. */
static void print_ifetch(const struct analysis *a)
{
	static struct cache_claims none;
	struct ifetch_findings f;

	if (!ifetch_seen.nseries)
		return;
	ifetch_find(&ifetch_seen, a->have_claims ? &a->claims : &none, &f);
	print_text(NULL, "\n== the instruction side, read from the ifetch rows ==\n");
	ifetch_print(&f, print_text, NULL);
}

static void write_file(void *ctx, const char *data, size_t len)
{
	fwrite(data, 1, len, ctx);
}

/* results_csv_read's callback for the page's rows table. */
static void html_row(const struct result_row *row, void *ctx)
{
	(void)ctx;
	report_html_row(row);
}

/* The claims of the CPU analyze runs on, read now, into a; said so. */
static void this_cpu_claims(struct analysis *a, const char *why)
{
	static struct cache_claims claims;

	plat_cache_claims(&claims);
	if (!claims.ncaches) {
		printf("claims: %s, and this machine's CPU claims no caches; the levels are "
		       "shown without claims\n", why);
		return;
	}
	printf("claims: %s\n", why);
	analysis_set_claims(a, &claims, "this machine's CPU, read now");
}

/* The claims recorded in the system.json beside the CSV, or in `given`
   (--claims) when not null: a file, CLAIMS_NONE or CLAIMS_THIS_CPU. A
   two-column curve (another program's) with no system.json beside it
   takes this machine's CPU's, as if recorded here, and says so: such
   curves are read where they were recorded, and no claim at all leaves
   one curve unable to tell a cache's step under twice the level below
   from a TLB's. 0 (also when there is none, or it holds no registers: the
   levels are then shown without claims), or 2 with the reason on stderr
   when it cannot be read or is not well-formed JSON, as memprobe compare
   refuses it. */
static int load_claims(struct analysis *a, const char *dir, const char *given,
		       int two_column)
{
	static struct cache_claims claims;
	char path[4200], said[4400];
	const char *why;
	size_t len, at;
	char *text;

	if (given && !strcmp(given, CLAIMS_NONE)) {
		printf("claims: none (--claims %s); the levels are shown without them\n",
		       CLAIMS_NONE);
		return 0;
	}
	if (given && !strcmp(given, CLAIMS_THIS_CPU)) {
		this_cpu_claims(a, "this machine's CPU, read now (--claims " CLAIMS_THIS_CPU ")");
		return 0;
	}
	if (given)
		snprintf(path, sizeof path, "%s", given);
	else
		snprintf(path, sizeof path, "%s/system.json", dir);
	text = host_slurp(path, &len, &why);
	if (!text && errno == ENOENT && !given && two_column) {
		snprintf(said, sizeof said, "%s: %s; the curve is read against this machine's "
			 "CPU, read now, as if recorded here (--claims %s: without claims; "
			 "--claims FILE: a system.json's)", path, why, CLAIMS_NONE);
		this_cpu_claims(a, said);
		return 0;
	}
	if (!text && errno == ENOENT) {
		printf("claims: %s: %s; the levels are shown without them\n", path, why);
		return 0;
	}
	if (!text) {
		fprintf(stderr, "memprobe analyze: %s cannot be read: %s\n", path, why);
		return 2;
	}
	if (json_check(text, len, &at) != 0) {
		fprintf(stderr, "memprobe analyze: %s is not well-formed JSON (reading failed at "
			"byte %zu of %zu), or nests deeper than the %d levels memprobe reads: a run "
			"cut short, or not a system.json\n", path, at, len, JSON_READ_MAX_DEPTH);
		free(text);
		return 2;
	}
	if (claims_from_system_json(text, len, &claims) == 0)
		analysis_set_claims(a, &claims, given ? "the registers recorded in the system.json "
					"given by --claims"
				    : "the registers recorded in system.json beside the CSV");
	else
		printf("claims: %s holds no cpuid_cache_leaves list; the levels are shown "
		       "without them\n", path);
	free(text);
	return 0;
}

/* One chart into dir, and inline into the page; never over a file already
   there (said so, not an error). 0, or 2 with the reason on stderr. */
static int write_chart(void *ctx, const char *name, chart_produce_fn produce,
		       const struct analysis *arg)
{
	const char *dir = ctx;
	char path[4200];
	FILE *svg;
	int drawn;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	svg = fopen(path, "wx");
	if (!svg && errno == EEXIST) {
		printf("  %s: not written: %s: %s (analyze never overwrites: give another "
		       "--out DIR)\n", name, path, strerror(errno));
		return 0;
	}
	if (!svg) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", path, strerror(errno));
		return 2;
	}
	drawn = produce(write_file, svg, arg) == 0;
	if (fclose(svg) != 0) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", path, strerror(errno));
		return 2;
	}
	/* The same words as a run's chart_file. */
	if (drawn) {
		printf("  chart: %s\n", path);
		report_html_chart(name, produce, arg);
	} else {
		printf("  %s: nothing to draw\n", path);
	}
	return 0;
}

/* DIR/report.html, created, never over an existing one (a run folder's own
   page holds the whole run, which this page, the analysis alone, must not
   replace). NULL, having said why on stdout, when there is none. */
static FILE *open_page(const char *dir, const char *csv)
{
	static struct html_out out;
	char path[4200], title[4300];
	FILE *f;

	snprintf(path, sizeof path, "%s/report.html", dir);
	f = fopen(path, "wx");
	if (!f) {
		printf("  report.html: not written: %s: %s%s\n", path, strerror(errno),
		       errno == EEXIST ? " (analyze never overwrites: give another --out DIR)"
				       : "");
		return NULL;
	}
	out = (struct html_out){ write_file, f };
	snprintf(title, sizeof title, "memprobe analyze: %s", csv);
	report_html_begin(&out, title);
	report_html_section(analysis_heading);
	return f;
}

/* Ends the page: the rows it read as a table. 0, or 2 when writing failed. */
static int close_page(FILE *page, const char *dir, const char *csv, const char *text,
		      size_t len, int two_column)
{
	struct csv_summary sum;
	struct curve_read_summary cs;
	size_t system_len;
	const char *system = system_beside(csv, &system_len);

	if (two_column)
		curve_read(text, len, html_row, NULL, &cs);
	else
		results_csv_read_texts(text, len, system, system_len, html_row, NULL, &sum);
	report_html_end();
	if (fclose(page) != 0) {
		fprintf(stderr, "memprobe analyze: %s/report.html: %s\n", dir, strerror(errno));
		return 2;
	}
	printf("  page: %s/report.html\n", dir);
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int analyze_main(int argc, char **argv)
{
	static struct analysis a;
	const char *csv = NULL, *named, *out_dir = NULL, *claims = NULL, *why;
	char dir[4096], csv_path[4096];
	size_t len;
	char *text;
	FILE *page = NULL;
	int rc = 0, two_column;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out_dir = argv[++i];
		else if (!strcmp(argv[i], "--claims") && i + 1 < argc)
			claims = argv[++i];
		else if (argv[i][0] != '-' && !csv)
			csv = argv[i];
		else {
			usage(stderr);
			return 2;
		}
	}
	if (!csv) {
		usage(stderr);
		return 2;
	}
	named = csv;
	csv = csv_of(named, csv_path, sizeof csv_path);
	text = host_slurp(csv, &len, &why);
	if (!text && csv != named) {
		fprintf(stderr, "memprobe analyze: %s: a folder, and its results.csv cannot be "
			"read: %s (give a run folder or a results.csv)\n", named, why);
		return 2;
	}
	if (!text) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", csv, why);
		return 2;
	}
	analysis_init(&a);
	if (read_rows(&a, csv, text, len, &two_column)) {
		free(text);
		return 2;
	}

	folder_of(csv, dir, sizeof dir);
	if (load_claims(&a, dir, claims, two_column)) {
		free(text);
		return 2;
	}
	analysis_compute(&a);
	if (analysis_empty(&a) && !ifetch_seen.nseries) {
		analysis_print(&a, print_text, NULL);
		free(text);
		return 1;
	}
	/* Without --out nothing is written: the CSV's own folder is a run's
	   record, which reading it must never change. */
	if (!out_dir) {
		analysis_print(&a, print_text, NULL);
		print_ifetch(&a);
		printf("(no --out DIR: the charts and report.html are not written)\n");
		free(text);
		return 0;
	}
	/* --out names a folder for the charts and the page: made if it is not
	   there yet. */
	if (host_make_path(out_dir) != 0) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", out_dir, strerror(errno));
		free(text);
		return 2;
	}
	page = open_page(out_dir, csv);
	analysis_print(&a, print_text, NULL);
	print_ifetch(&a);
	if (analysis_charts(&a, write_chart, (void *)out_dir))
		rc = 2;
	if (page && close_page(page, out_dir, csv, text, len, two_column))
		rc = 2;
	free(text);
	return rc;
}

int claims_from_system_json(const char *text, size_t len, struct cache_claims *out)
{
	/* A run's system.json holds the list in cpu; a hierarchy section alone
	   in its claims, or, written before that was renamed (as tests/data
	   records it), in its cpuid. */
	static const char *const lists[] = { "cpu.cpuid_cache_leaves",
					     "hierarchy.claims.cpuid_cache_leaves",
					     "hierarchy.cpuid.cpuid_cache_leaves" };
	static struct cache_claims recorded;
	struct cpuid_record record;
	size_t at;

	if (json_check(text, len, &at) != 0)
		return -1;
	for (size_t l = 0; l < sizeof lists / sizeof *lists; l++) {
		recorded.nraw = 0;
		/* A machine records at most CLAIMS_MAX_RECORDS register sets. */
		for (unsigned i = 0; i < CLAIMS_MAX_RECORDS; i++) {
			char path[64], value[CLAIMS_RECORD_TEXT + 16];

			snprintf(path, sizeof path, "%s.%u", lists[l], i);
			if (json_get_scalar(text, len, path, value, sizeof value) != 0)
				break;
			if (cpuid_record_parse(value, strlen(value), &record) == 0)
				cpuid_record_format(&record, recorded.raw[recorded.nraw++]);
		}
		if (recorded.nraw) {
			cpu_caches_decode(out, cpuid_from_record, &recorded);
			return 0;
		}
	}
	return -1;
}
