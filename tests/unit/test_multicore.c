/* The c2c and loaded probes through the real host platform: every pair of
 * the asked CPUs once, with its CPUs in the cpu and peer_cpu columns; one
 * loaded row per loader count with the loaders' bandwidth; the heatmap and
 * the loaded-latency chart well-formed; what cannot run is said and
 * skipped. No timing thresholds: this machine's figures are not the
 * test's to know.
 */

#include <ftw.h>
#include <math.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "host/host.h"
#include "core/config.h"
#include "results/csvread.h"
#include "core/platform.h"
#include "core/probe.h"
#include "results/report_table.h"
#include "results/results.h"
#include "probes/c2c_settings.h"
#include "probes/load_kernel.h"
#include "probes/loaded_settings.h"

#define MAX_ROWS 512

/* A row as read back: the struct whole, three of its strings copied (the
   reader's live only during the call); the other strings dropped. */
struct row {
	char probe[16], variant[16], stopped_by[16];
	struct result_row r;
};

static struct row rows[MAX_ROWS];
static int row_count;

static void keep_row(const struct result_row *in, void *ctx)
{
	(void)ctx;
	if (row_count == MAX_ROWS)
		return;
	rows[row_count].r = *in;
	rows[row_count].r.pages_verified = rows[row_count].r.timer = NULL;
	rows[row_count].r.sweep_point = rows[row_count].r.trial_form = NULL;
	snprintf(rows[row_count].probe, sizeof rows[row_count].probe, "%s", in->probe);
	snprintf(rows[row_count].variant, sizeof rows[row_count].variant, "%s", in->variant);
	snprintf(rows[row_count].stopped_by, sizeof rows[row_count].stopped_by, "%s",
		 in->stopped_by);
	rows[row_count].r.probe = rows[row_count].probe;
	rows[row_count].r.variant = rows[row_count].variant;
	rows[row_count].r.stopped_by = rows[row_count].stopped_by;
	row_count++;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

/* The last run's report.txt, as far as it fits. */
static char report_text[1 << 18];

/* Runs the probe in a run folder of its own; reads its rows back through
   the project's reader; *chart_cells / *chart_curves count what its chart
   holds (-1: no such file or not well-formed XML). */
static int run_probe(int (*probe)(const struct config *c), const struct config *c,
		     const char *chart, const char *marker, int *chart_marks)
{
	static char text[1 << 16];
	char root[] = "/tmp/memprobe-test-multicore-XXXXXX", path[4096], cmd[4200];
	struct csv_summary sum;
	size_t len = 0;
	FILE *f;
	int rc;

	row_count = 0;
	*chart_marks = -1;
	if (!mkdtemp(root))
		return -99;
	host_set_results_root(root);
	results_open();
	rc = probe(c);
	results_probe_done();
	snprintf(path, sizeof path, "%s/results.csv", plat_run_folder());
	if ((f = fopen(path, "r"))) {
		len = fread(text, 1, sizeof text, f);
		fclose(f);
	}
	CHECK(results_csv_read(text, len, keep_row, NULL, &sum) == 0 && sum.skipped == 0,
	      "results.csv reads back (%u rows)", sum.rows);
	report_text[0] = 0;
	snprintf(path, sizeof path, "%s/report.txt", plat_run_folder());
	if ((f = fopen(path, "r"))) {
		report_text[fread(report_text, 1, sizeof report_text - 1, f)] = 0;
		fclose(f);
	}
	snprintf(path, sizeof path, "%s/%s", plat_run_folder(), chart);
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>/dev/null", path);
	if (system(cmd) == 0 && (f = fopen(path, "r"))) {
		len = fread(text, 1, sizeof text - 1, f);
		text[len] = 0;
		fclose(f);
		*chart_marks = 0;
		for (const char *p = text; (p = strstr(p, marker)); p++)
			++*chart_marks;
	}
	results_close();
	nftw(root, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	return rc;
}

static void base_config(struct config *c)
{
	config_defaults(c, PROFILE_QUICK);
	c->pages = PAGES_4K;
	c->trials = 3;
	c->max_trials = 4;
	c->step_ms = 0.5;
	c->cpus_deadline_ms = 5000;
	LOADED_SETTINGS(c)->size = 2u << 20;
	LOADED_SETTINGS(c)->load_size = 1u << 20;
}

static void test_c2c(unsigned count)
{
	struct config c;
	unsigned pairs = 0, sane = 0, ordered = 0;
	int cells, rc;

	base_config(&c);
	rc = run_probe(probe_c2c, &c, "c2c.svg", "class=\"cell\"", &cells);
	CHECK(rc == 0, "c2c over every CPU succeeds");
	CHECK(row_count == (int)(count * (count - 1) / 2),
	      "one row per pair of %u CPUs (%d rows)", count, row_count);
	for (int i = 0; i < row_count; i++) {
		const struct result_row *r = &rows[i].r;

		pairs += r->cpu.given && r->peer_cpu.given;
		ordered += r->cpu.value < r->peer_cpu.value && r->peer_cpu.value < count;
		sane += !strcmp(r->probe, "c2c") && !strcmp(r->variant, "pingpong") &&
			isfinite(r->ns) && r->ns > 0 && r->working_set_bytes == 64 &&
			r->page_shift == 12 && r->trials >= 3 && !r->loaders.given &&
			!r->load_gb_per_s.given && r->stopped_by[0];
	}
	CHECK(pairs == (unsigned)row_count && ordered == (unsigned)row_count,
	      "each row names its pair, cpu < peer_cpu, both real CPUs");
	CHECK(sane == (unsigned)row_count,
	      "each a finite positive one-way ns over the 64-byte line, what stopped its trials, "
	      "no loader columns");
	CHECK(cells == (int)(count * count), "c2c.svg is well-formed, a %u x %u heatmap (%d cells)",
	      count, count, cells);

	memset(C2C_SETTINGS(&c)->cpus, 0, sizeof C2C_SETTINGS(&c)->cpus);
	C2C_SETTINGS(&c)->cpus[0] = 1u | 1u << 7;
	rc = run_probe(probe_c2c, &c, "c2c.svg", "class=\"cell\"", &cells);
	CHECK(rc == -1 && row_count == 0, "c2c.cpus naming one real CPU and one absent: nothing "
	      "measured, and the probe fails: a list meant for another machine (rc %d, %d rows)",
	      rc, row_count);
}

/* The GB/s of mix m's point k (0: the most paced; 12: one loader, no
   delay) among the rows kept; -1 when there is none. */
static double paced_gb(unsigned m, unsigned k)
{
	unsigned seen = 0;

	for (int i = 0; i < row_count; i++)
		if (!strcmp(rows[i].r.variant, load_mix_name((enum load_mix)m)) && seen++ == k)
			return rows[i].r.load_gb_per_s.value;
	return -1;
}

/* How many of mix m's points drew less than the point before them, by
   its rows, and by the report's line on the points measured again (0
   where it has none): the two must agree. */
static void held_back_counts(unsigned m, unsigned *by_rows, unsigned *by_report)
{
	char want[96];
	const char *line;
	double before = -1, gb;

	*by_rows = *by_report = 0;
	for (unsigned k = 0; (gb = paced_gb(m, k)) >= 0; k++) {
		*by_rows += before >= 0 && gb < before;
		before = gb;
	}
	snprintf(want, sizeof want, ", %s: ", load_mix_name((enum load_mix)m));
	for (line = report_text; (line = strstr(line, want)); line++) {
		const char *still = strstr(line, "counts; ");
		const char *again = strstr(line, "measured again (up to");
		const char *end = strchr(line, '\n');

		if (again && still && end && again < end && still < end)
			*by_report += (unsigned)atoi(still + strlen("counts; "));
	}
}

/* Whether the report's line on mix m's most paced point gives that
   point's row: its ns and GB/s, beside a reading of the chase alone. */
static int paced_said(unsigned m)
{
	char want[96];
	const char *line;
	double gb, ns, alone, row_ns = -1;

	for (int i = 0; i < row_count && row_ns < 0; i++)
		if (!strcmp(rows[i].r.variant, load_mix_name((enum load_mix)m)))
			row_ns = rows[i].r.ns;
	snprintf(want, sizeof want, ", %s: its most paced point (", load_mix_name((enum load_mix)m));
	line = strstr(report_text, want);
	return line && sscanf(line + strlen(want), "%lf GB/s) read %lf ns, the chase alone just "
			      "before it %lf", &gb, &ns, &alone) == 3 &&
	       fabs(gb - paced_gb(m, 0)) < 0.0005 + gb * 1e-3 && fabs(ns - row_ns) < 0.051 &&
	       alone > 0;
}

/* loaded with every mix: per mix the idle row's curve plus twelve paced
   points and 1 .. count - 1 loaders at no delay. */
static void test_loaded(unsigned count)
{
	struct config c;
	unsigned idle = 0, sane = 0, per_mix[LOAD_MIXES] = { 0 }, full = 0, paced_below = 0;
	unsigned held_said = 0, paced = 0;
	int curves, rc;

	base_config(&c);
	LOADED_SETTINGS(&c)->batches = 2048;
	rc = run_probe(probe_loaded, &c, "loaded.svg", "<polyline class=\"curve\"", &curves);
	CHECK(rc == 0, "loaded succeeds");
	for (int i = 0; i < row_count; i++) {
		const struct result_row *r = &rows[i].r;
		unsigned loaders = r->loaders.value;
		double gb = r->load_gb_per_s.value;

		idle += !strcmp(r->variant, "idle") && loaders == 0 && gb == 0;
		for (unsigned m = 0; m < LOAD_MIXES; m++)
			per_mix[m] += !strcmp(r->variant, load_mix_name((enum load_mix)m));
		sane += r->cpu.given && r->cpu.value == 0 && !r->peer_cpu.given && isfinite(r->ns) &&
			r->ns > 0 && r->working_set_bytes == 2u << 20 && r->load_gb_per_s.given &&
			(loaders ? gb > 0 : gb == 0) && r->trials == 1;
	}
	for (unsigned m = 0; m < LOAD_MIXES; m++) {
		unsigned by_rows, by_report;

		full += count < 2 || per_mix[m] == 12 + count - 1;
		paced_below += count < 2 || paced_gb(m, 0) < paced_gb(m, 12);
		held_back_counts(m, &by_rows, &by_report);
		held_said += by_rows == by_report;
		paced += count < 2 || paced_said(m);
	}
	CHECK(paced == LOAD_MIXES, "each mix: the report gives its most paced point, as its row "
	      "has it, beside the chase alone just before it (%u of %u mixes)", paced, LOAD_MIXES);
	CHECK(held_said == LOAD_MIXES, "each mix: the points that still drew less than the one "
	      "before them after being measured again are as many as the report says "
	      "(%u of %u mixes agree)", held_said, LOAD_MIXES);
	CHECK(idle == 1, "one idle row (%u)", idle);
	CHECK(paced_below == LOAD_MIXES, "each mix's loader paced to about 1/1024 of its rate "
	      "drew less than at no delay: the delay paces it");
	CHECK(full == LOAD_MIXES, "each of the %u mixes: twelve paced points and one per loader "
	      "count (%u %u %u %u %u %u rows)", LOAD_MIXES, per_mix[0], per_mix[1], per_mix[2],
	      per_mix[3], per_mix[4], per_mix[5]);
	CHECK(sane == (unsigned)row_count, "each row: the chase on CPU 0, finite positive ns, "
	      "bandwidth exactly when there are loaders, one series of batches");
	CHECK(curves == (count > 1 ? (int)LOAD_MIXES : 0), "loaded.svg is well-formed with one "
	      "curve per mix (%d)", curves);

	LOADED_SETTINGS(&c)->mix = LOAD_WRITE;
	LOADED_SETTINGS(&c)->loaders = 1;
	rc = run_probe(probe_loaded, &c, "loaded.svg", "<polyline class=\"curve\"", &curves);
	CHECK(rc == 0 && row_count == (count > 1 ? 14 : 1) &&
	      !strcmp(rows[row_count - 1].r.variant, "idle") &&
	      (count < 2 || !strcmp(rows[0].r.variant, "write")),
	      "loaded.mix = write and loaded.loaders = 1: write rows with at most one loader, "
	      "then the idle row, the median of the chase alone (%d rows)", row_count);
}

/* In a child pinned to one CPU before anything reads the CPUs: c2c says it
   has no pair and succeeds with no rows; loaded measures its unloaded row.
   The child's exit status is its verdict. */
static int one_cpu_child(void)
{
	struct config c;
	int cells, curves, rc_c2c, rows_c2c, rc_loaded;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof one, &one) != 0 || plat_cpu_count() != 1)
		return 1;
	base_config(&c);
	rc_c2c = run_probe(probe_c2c, &c, "c2c.svg", "class=\"cell\"", &cells);
	rows_c2c = row_count;
	rc_loaded = run_probe(probe_loaded, &c, "loaded.svg", "<polyline class=\"curve\"", &curves);
	return !(rc_c2c == 0 && rows_c2c == 0 && cells == -1 && rc_loaded == 0 && row_count == 1 &&
		 rows[0].r.loaders.value == 0 && !rows[0].r.load_gb_per_s.value && curves == 0);
}

int main(void)
{
	int status = -1;
	pid_t child;

	fflush(stdout);
	child = fork();
	if (child == 0)
		_exit(one_cpu_child());
	waitpid(child, &status, 0);
	CHECK(child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "pinned to one CPU: c2c is skipped without failing and without a chart, loaded "
	      "measures its unloaded row alone");
	test_loaded(plat_cpu_count());
	if (plat_cpu_count() >= 2 && plat_cpu_count() < 32)
		test_c2c(plat_cpu_count());
	else
		printf("# c2c's pairs are checked with 2 to 31 CPUs; here there are %u\n",
		       plat_cpu_count());
	CHECK(report_table_misfits() == 0,
	      "every report table row gave each column its cell (report_table_misfits)");
	return check_summary();
}
