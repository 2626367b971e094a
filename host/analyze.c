/* The analyze subcommand (see analyze.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arch/x86_64/cpu_caches.h"
#include "host/analyze.h"
#include "probes/analysis.h"
#include "probes/csvread.h"

// ---- Constants --------------------------------------------------------------

/* A results.csv of every probe at the full profile is tens of KiB; a file
   far past this is not one, and reading it whole would only waste memory. */
#define MAX_INPUT_BYTES (64u * 1024u * 1024u)

// ---- Private Functions ------------------------------------------------------

static void usage(FILE *to)
{
	fprintf(to,
		"usage: memprobe analyze path/to/results.csv [--out DIR]\n"
		"\n"
		"Reads the latency, tlb and bandwidth rows of a run's results.csv, finds\n"
		"the cache levels, the TLB levels and the page-walk cost in them, and\n"
		"prints them beside the CPUID claims that the run's system.json recorded\n"
		"(when it lies beside the CSV), and the bandwidth curves' cache edges\n"
		"beside the latency curves'. Writes latency.svg, tlb.svg, pagewalk.svg\n"
		"and bandwidth.svg (those the rows allow) into DIR, by default the CSV's\n"
		"own folder.\n");
}

/* The whole file in one allocation; NULL with *why set on failure. */
static char *slurp(const char *path, size_t *len, const char **why)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	char *text;

	*why = NULL;
	if (!f || fstat(fileno(f), &st) != 0) {
		*why = strerror(errno);
		if (f)
			fclose(f);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > MAX_INPUT_BYTES) {
		*why = S_ISREG(st.st_mode) ? "larger than any results file" : "not a regular file";
		fclose(f);
		return NULL;
	}
	text = malloc((size_t)st.st_size + 1);
	*len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	if (!text || ferror(f)) {
		*why = text ? "read error" : "out of memory";
		free(text);
		fclose(f);
		return NULL;
	}
	fclose(f);
	text[*len] = '\0';
	return text;
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

static void take_row(const struct result_row *row, void *ctx)
{
	analysis_add_row(ctx, row);
}

static void print_stdout(void *ctx, const char *text)
{
	fputs(text, ctx);
}

static void write_file(void *ctx, const char *data, size_t len)
{
	fwrite(data, 1, len, ctx);
}

static void load_claims(struct analysis *a, const char *dir)
{
	static struct cache_claims claims;
	char path[4200];
	const char *why;
	size_t len;
	char *text;

	snprintf(path, sizeof path, "%s/system.json", dir);
	text = slurp(path, &len, &why);
	if (!text) {
		printf("CPUID claims: %s: %s; the levels are shown without them\n", path, why);
		return;
	}
	if (claims_from_system_json(text, len, &claims) == 0)
		analysis_set_claims(a, &claims, "the registers recorded in system.json beside the CSV");
	else
		printf("CPUID claims: %s holds no cpuid_cache_leaves list; the levels are shown "
		       "without them\n", path);
	free(text);
}

/* One chart into dir; 0, or 2 with the reason on stderr. */
static int write_chart(const char *dir, const char *name,
		       int (*produce)(const void *arg, svg_write_fn write, void *ctx),
		       const void *arg)
{
	char path[4200];
	FILE *svg;
	int drawn;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	svg = fopen(path, "w");
	if (!svg) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", path, strerror(errno));
		return 2;
	}
	drawn = produce(arg, write_file, svg) == 0;
	if (fclose(svg) != 0) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", path, strerror(errno));
		return 2;
	}
	/* The same words as a run's chart_file. */
	if (drawn)
		printf("  chart: %s\n", path);
	else
		printf("  %s: nothing to draw\n", path);
	return 0;
}

static int latency_chart(const void *arg, svg_write_fn write, void *ctx)
{
	return analysis_write_svg(arg, write, ctx);
}

static int tlb_chart(const void *arg, svg_write_fn write, void *ctx)
{
	return analysis_write_tlb_svg(arg, write, ctx);
}

static int bandwidth_chart(const void *arg, svg_write_fn write, void *ctx)
{
	return analysis_write_bandwidth_svg(arg, write, ctx);
}

static int pagewalk_chart(const void *arg, svg_write_fn write, void *ctx)
{
	return pagewalk_write_svg(&((const struct analysis *)arg)->pw, write, ctx);
}

static int json_skip_blank(const char *t, size_t len, size_t *pos)
{
	while (*pos < len && (t[*pos] == ' ' || t[*pos] == '\n' || t[*pos] == '\r' ||
			      t[*pos] == '\t'))
		(*pos)++;
	return *pos < len;
}

static size_t find_text(const char *t, size_t len, const char *what)
{
	size_t n = strlen(what);

	for (size_t i = 0; i + n <= len; i++)
		if (!strncmp(t + i, what, n))
			return i + n;
	return 0;
}

// ---- Public Functions -------------------------------------------------------

int analyze_main(int argc, char **argv)
{
	static struct analysis a;
	const char *csv = NULL, *out_dir = NULL, *why;
	char dir[4096];
	struct csv_summary sum;
	size_t len;
	char *text;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out_dir = argv[++i];
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
	text = slurp(csv, &len, &why);
	if (!text) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", csv, why);
		return 2;
	}
	analysis_init(&a);
	if (results_csv_read(text, len, take_row, &a, &sum) != 0) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", csv, sum.error);
		free(text);
		return 2;
	}
	free(text);
	printf("%s: %u rows read, %u latency rows, %u tlb rows and %u bandwidth rows used", csv,
	       sum.rows, a.rows, a.tlb.rows, a.bw.rows);
	if (sum.skipped)
		printf(", %u malformed rows skipped (the first on line %u)", sum.skipped,
		       sum.first_bad_line);
	printf("\n");

	folder_of(csv, dir, sizeof dir);
	load_claims(&a, dir);
	analysis_compute(&a);
	analysis_print(&a, print_stdout, stdout);
	if (!a.ncurves && !a.tlb.n && !a.bw.nseries)
		return 1;

	/* --out names a folder for the charts: made if it is not there yet. */
	if (out_dir && mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", out_dir, strerror(errno));
		return 2;
	}
	if (!out_dir)
		out_dir = dir;
	if ((a.ncurves && write_chart(out_dir, "latency.svg", latency_chart, &a)) ||
	    (a.tlb.n && write_chart(out_dir, "tlb.svg", tlb_chart, &a)) ||
	    (a.ncurves && write_chart(out_dir, "pagewalk.svg", pagewalk_chart, &a)) ||
	    (a.bw.nseries && write_chart(out_dir, "bandwidth.svg", bandwidth_chart, &a)))
		return 2;
	return 0;
}

int claims_from_system_json(const char *text, size_t len, struct cache_claims *out)
{
	static struct cache_claims recorded;
	struct cpuid_record record;
	size_t pos = find_text(text, len, "\"cpuid_cache_leaves\"");

	if (!pos)
		return -1;
	recorded.nraw = 0;
	if (!json_skip_blank(text, len, &pos) || text[pos++] != ':' ||
	    !json_skip_blank(text, len, &pos) || text[pos++] != '[')
		return -1;
	for (;;) {
		size_t start;

		if (!json_skip_blank(text, len, &pos))
			return -1;
		if (text[pos] == ']')
			break;
		if (text[pos++] != '"')
			return -1;
		start = pos;
		while (pos < len && text[pos] != '"' && text[pos] != '\\')
			pos++;
		if (pos >= len || text[pos] != '"')
			return -1;
		if (recorded.nraw < CLAIMS_MAX_RECORDS &&
		    cpuid_record_parse(text + start, pos - start, &record) == 0)
			cpuid_record_format(&record, recorded.raw[recorded.nraw++]);
		pos++;
		if (!json_skip_blank(text, len, &pos))
			return -1;
		if (text[pos] == ',')
			pos++;
		else if (text[pos] != ']')
			return -1;
	}
	if (!recorded.nraw)
		return -1;
	cpu_caches_decode(out, cpuid_from_record, &recorded);
	return 0;
}
