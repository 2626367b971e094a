/* The latency probe at small sizes through the real host platform: every
 * row of the sweep present once per page size, finite and sane, and an
 * L1-sized working set faster than a 64 MiB one. No timing thresholds
 * beyond that ordering: this machine's caches are not the test's to know.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "probes/csvread.h"
#include "host/host.h"
#include "probes/config.h"
#include "probes/platform.h"
#include "probes/probe.h"
#include "probes/results.h"

#define MAX_ROWS 128

struct row {
	char probe[32], variant[32];
	unsigned long long page_size, working_set;
	double ns, cycles, spread;
	unsigned trials;
	char verified[160];
	char point[16];
};

static struct row rows[MAX_ROWS];
static int row_count;

static void keep_row(const struct result_row *in, void *ctx)
{
	struct row *r = &rows[row_count];

	(void)ctx;
	if (row_count == MAX_ROWS)
		return;
	row_count++;
	snprintf(r->probe, sizeof r->probe, "%s", in->probe);
	snprintf(r->variant, sizeof r->variant, "%s", in->variant);
	snprintf(r->verified, sizeof r->verified, "%s", in->pages_verified ? in->pages_verified : "");
	r->page_size = in->page_shift ? 1ull << in->page_shift : 0;
	r->working_set = in->working_set_bytes;
	r->ns = in->ns;
	r->cycles = in->cycles;
	r->spread = in->spread;
	r->trials = in->trials;
	snprintf(r->point, sizeof r->point, "%s", in->sweep_point ? in->sweep_point : "");
}

/* results.csv back through the project's own reader, columns by name. */
static void read_rows(const char *path)
{
	static char text[1 << 16];
	struct csv_summary sum;
	FILE *csv = fopen(path, "r");
	size_t len;

	CHECK(csv != NULL, "results.csv exists at %s", path);
	if (!csv)
		return;
	len = fread(text, 1, sizeof text, csv);
	fclose(csv);
	CHECK(results_csv_read(text, len, keep_row, NULL, &sum) == 0 && sum.skipped == 0,
	      "results.csv reads back whole (%u rows, %u skipped%s%s)", sum.rows, sum.skipped,
	      sum.error[0] ? ": " : "", sum.error);
}

/* The run's three files, its folder and the root: the test leaves nothing. */
static void remove_run(const char *root)
{
	static const char *const files[] = { "report.txt", "results.csv", "system.json" };
	char path[512];
	unsigned i;

	for (i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(path, sizeof path, "%s/%s", plat_run_folder(), files[i]);
		unlink(path);
	}
	rmdir(plat_run_folder());
	rmdir(root);
}

static const struct row *find(unsigned long long page_size, unsigned long long bytes, int *count)
{
	const struct row *found = NULL;
	int i;

	*count = 0;
	for (i = 0; i < row_count; i++)
		if (rows[i].page_size == page_size && rows[i].working_set == bytes) {
			found = &rows[i];
			++*count;
		}
	return found;
}

/* The sweep's sizes from 4 KiB to 1 MiB (powers of two and midpoints),
   then 64 MiB alone: the sizes between are left out to keep the test short. */
static const unsigned long long sweep_kib[] = {
	4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 65536,
};
#define SWEEP_ROWS (sizeof sweep_kib / sizeof *sweep_kib)

static void check_page_size(const struct config *c, unsigned long long page_size,
			    const char *name)
{
	unsigned k, missing = 0, duplicated = 0, insane = 0;

	for (k = 0; k < sizeof sweep_kib / sizeof *sweep_kib; k++) {
		int count;
		const struct row *r = find(page_size, sweep_kib[k] * 1024, &count);

		missing += count == 0;
		duplicated += count > 1;
		if (!r)
			continue;
		if (!(isfinite(r->ns) && r->ns > 0.05 && r->ns < 100000 && isfinite(r->cycles) &&
		      r->cycles > 0 && r->trials >= c->trials && r->trials <= c->max_trials &&
		      r->spread >= 0 && strcmp(r->probe, "latency") == 0 &&
		      strcmp(r->variant, "chase") == 0 && r->verified[0])) {
			insane++;
			printf("# insane row: %s %llu: %g ns %g cycles %u trials %g spread '%s'\n",
			       name, sweep_kib[k], r->ns, r->cycles, r->trials, r->spread, r->verified);
		}
	}
	CHECK(missing == 0, "%s: a row for every size of 4 KiB .. 1 MiB and for 64 MiB (%u missing)", name, missing);
	CHECK(duplicated == 0, "%s: no size measured twice (%u)", name, duplicated);
	CHECK(insane == 0, "%s: every row finite, positive, within the trial limits, labelled (%u not)",
	      name, insane);
	{
		int n1, n2;
		const struct row *l1 = find(page_size, 16 * 1024, &n1);
		const struct row *far = find(page_size, 64ull << 20, &n2);
		CHECK(l1 && far && l1->ns < far->ns, "%s: 16 KiB (%.2f ns) reads faster than 64 MiB (%.2f ns)",
		      name, l1 ? l1->ns : 0, far ? far->ns : 0);
	}
}

int main(void)
{
	char root[] = "/tmp/memprobe-test-latency-XXXXXX", path[512];
	struct config c;
	int rc, has_2m = plat_buffer_max(PAGE_SHIFT_2M) >= (64u << 20);

	CHECK(mkdtemp(root) != NULL, "a scratch results root");
	host_set_results_root(root);
	config_defaults(&c, PROFILE_QUICK);
	c.probes = PROBE_LATENCY;
	c.pages = PAGES_4K | (has_2m ? PAGES_2M : 0);
	c.trials = 3;
	c.max_trials = 3;
	c.step_ms = 0.5;

	results_open();
	c.min_size = 4096;
	c.max_size = 1u << 20;
	rc = probe_latency(&c);
	results_probe_done();
	CHECK(rc == 0, "probe_latency succeeds from 4 KiB to 1 MiB, 4 KiB%s pages",
	      has_2m ? " and 2 MiB" : "");
	c.min_size = c.max_size = 64ull << 20;
	rc = probe_latency(&c);
	results_probe_done();
	results_close();
	CHECK(rc == 0, "probe_latency succeeds at 64 MiB alone");

	snprintf(path, sizeof path, "%s/results.csv", plat_run_folder());
	read_rows(path);
	{
		int grid = 0, refined = 0, off_grid = 0, unmarked = 0;

		for (int i = 0; i < row_count; i++) {
			unsigned long long b = rows[i].working_set;
			int on_grid = 0;

			for (unsigned k = 0; k < SWEEP_ROWS; k++)
				on_grid |= b == sweep_kib[k] * 1024;
			if (!strcmp(rows[i].point, "grid")) {
				grid++;
				off_grid += !on_grid;
			} else if (!strcmp(rows[i].point, "refined")) {
				refined++;
				/* Between 4 KiB and 1 MiB, on an eighth of an
				   octave, never a size the grid measured. */
				unsigned long long top = 1;
				while (top * 2 <= b)
					top *= 2;
				off_grid += on_grid || b < 4096 || b > (1u << 20) || b % (top / 8);
			} else {
				unmarked++;
			}
		}
		CHECK(grid == (int)SWEEP_ROWS * (has_2m ? 2 : 1),
		      "exactly one grid row per size and page size (%d)", grid);
		CHECK(off_grid == 0 && unmarked == 0,
		      "%d refined rows, each between grid sizes on an eighth of an octave; every row "
		      "marked grid or refined (%d off, %d unmarked)", refined, off_grid, unmarked);
		CHECK(refined <= 2 * 24, "at most 24 refined rows a page size (%d)", refined);
	}
	check_page_size(&c, 4096, "4 KiB pages");
	if (has_2m)
		check_page_size(&c, 2u << 20, "2 MiB pages");
	else
		printf("# 2 MiB pages not available here: that half is not tested\n");

	/* A range that holds no size of the sweep is refused, not run empty. */
	c.min_size = 5000;
	c.max_size = 5100;
	CHECK(probe_latency(&c) != 0, "a range between two sweep sizes measures nothing and fails");
	remove_run(root);
	return check_summary();
}
