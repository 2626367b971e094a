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
#include "probe_rows.h"
#include "scratch.h"
#include "host/host.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/probe.h"
#include "results/report_table.h"
#include "results/results.h"

static struct probe_rows rows;

static const struct csv_row *find(unsigned long long page_size, unsigned long long bytes,
				  int *count)
{
	const struct csv_row *found = NULL;
	int i;

	*count = 0;
	/* A revisited row is a second reading of a size on purpose
	   (sweep.h); the first is the one counted. */
	for (i = 0; i < rows.count; i++)
		if (rows.row[i].page_size == page_size && rows.row[i].working_set == bytes &&
		    strcmp(rows.row[i].sweep_point, "revisited") != 0) {
			found = &rows.row[i];
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
		const struct csv_row *r = find(page_size, sweep_kib[k] * 1024, &count);

		missing += count == 0;
		duplicated += count > 1;
		if (!r)
			continue;
		if (!(isfinite(r->ns) && r->ns > 0.05 && r->ns < 100000 && isfinite(r->cycles) &&
		      r->cycles > 0 && r->trials >= c->trials && r->trials <= c->max_trials &&
		      r->spread >= 0 && strcmp(r->probe, "latency") == 0 &&
		      strcmp(r->variant, "chase") == 0 && r->pages_verified[0])) {
			insane++;
			printf("# insane row: %s %llu: %g ns %g cycles %u trials %g spread '%s'\n",
			       name, sweep_kib[k], r->ns, r->cycles, r->trials, r->spread, r->pages_verified);
		}
	}
	CHECK(missing == 0, "%s: a row for every size of 4 KiB .. 1 MiB and for 64 MiB (%u missing)", name, missing);
	CHECK(duplicated == 0, "%s: no size measured twice (%u)", name, duplicated);
	CHECK(insane == 0, "%s: every row finite, positive, within the trial limits, labelled (%u not)",
	      name, insane);
	{
		int n1, n2;
		const struct csv_row *l1 = find(page_size, 16 * 1024, &n1);
		const struct csv_row *far = find(page_size, 64ull << 20, &n2);
		CHECK(l1 && far && l1->ns < far->ns, "%s: 16 KiB (%.2f ns) reads faster than 64 MiB (%.2f ns)",
		      name, l1 ? l1->ns : 0, far ? far->ns : 0);
	}
}

int main(void)
{
	char root[] = "/tmp/memprobe-test-latency-XXXXXX";
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

	CHECK(probe_rows_load(&rows, plat_run_folder()) == 0,
	      "results.csv reads back whole through the project's reader (%d rows)", rows.count);
	{
		int grid = 0, refined = 0, revisited = 0, off_grid = 0, unmarked = 0, orphan = 0;

		for (int i = 0; i < rows.count; i++) {
			unsigned long long b = rows.row[i].working_set;
			int on_grid = 0;

			for (unsigned k = 0; k < SWEEP_ROWS; k++)
				on_grid |= b == sweep_kib[k] * 1024;
			if (!strcmp(rows.row[i].sweep_point, "grid")) {
				grid++;
				off_grid += !on_grid;
			} else if (!strcmp(rows.row[i].sweep_point, "refined")) {
				refined++;
				/* Between 4 KiB and 1 MiB, on an eighth of an
				   octave, never a size the grid measured. */
				unsigned long long top = 1;
				while (top * 2 <= b)
					top *= 2;
				off_grid += on_grid || b < 4096 || b > (1u << 20) || b % (top / 8);
			} else if (!strcmp(rows.row[i].sweep_point, "revisited")) {
				/* Only a size already measured is measured again. */
				int first;

				revisited++;
				orphan += !find(rows.row[i].page_size, b, &first);
			} else {
				unmarked++;
			}
		}
		CHECK(orphan == 0, "%d revisited rows, each a size the grid or refinement measured "
		      "(%d not)", revisited, orphan);
		CHECK(grid == (int)SWEEP_ROWS * (has_2m ? 2 : 1),
		      "exactly one grid row per size and page size (%d)", grid);
		CHECK(off_grid == 0 && unmarked == 0,
		      "%d refined rows, each between grid sizes on an eighth of an octave; every row "
		      "marked grid, refined or revisited (%d off, %d unmarked)", refined, off_grid, unmarked);
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
	CHECK(report_table_misfits() == 0,
	      "every report table row gave each column its cell (report_table_misfits)");
	scratch_remove(root);
	return check_summary();
}
