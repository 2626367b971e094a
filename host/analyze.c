/* The analyze subcommand (see analyze.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
		"Reads the latency rows of a run's results.csv, finds the cache levels and\n"
		"TLB reach in them, and prints them beside the CPUID claims that the run's\n"
		"system.json recorded (when it lies beside the CSV). Writes latency.svg into\n"
		"DIR, by default the CSV's own folder.\n");
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
	if (analysis_claims_from_json(text, len, &claims) == 0)
		analysis_set_claims(a, &claims, "the registers recorded in system.json beside the CSV");
	else
		printf("CPUID claims: %s holds no cpuid_cache_leaves list; the levels are shown "
		       "without them\n", path);
	free(text);
}

// ---- Public Functions -------------------------------------------------------

int analyze_main(int argc, char **argv)
{
	static struct analysis a;
	const char *csv = NULL, *out_dir = NULL, *why;
	char dir[4096], svg_path[4200];
	struct csv_summary sum;
	size_t len;
	char *text;
	FILE *svg;

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
	printf("%s: %u rows read, %u latency rows used", csv, sum.rows, a.rows);
	if (sum.skipped)
		printf(", %u malformed rows skipped (the first on line %u)", sum.skipped,
		       sum.first_bad_line);
	printf("\n");

	folder_of(csv, dir, sizeof dir);
	load_claims(&a, dir);
	analysis_compute(&a);
	analysis_print(&a, print_stdout, stdout);
	if (!a.ncurves)
		return 1;

	/* --out names a folder for the chart: made if it is not there yet. */
	if (out_dir && mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", out_dir, strerror(errno));
		return 2;
	}
	snprintf(svg_path, sizeof svg_path, "%s/latency.svg", out_dir ? out_dir : dir);
	svg = fopen(svg_path, "w");
	if (!svg) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", svg_path, strerror(errno));
		return 2;
	}
	analysis_write_svg(&a, write_file, svg);
	if (fclose(svg) != 0) {
		fprintf(stderr, "memprobe analyze: %s: %s\n", svg_path, strerror(errno));
		return 2;
	}
	printf("  chart: %s\n", svg_path);
	return 0;
}
