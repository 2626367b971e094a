/* The tlb probe through the real host platform: every page count of the grid
 * yields a chase row and a control row per page size, with the working set
 * the docs promise (pages x page size; lines x 64 for the control); the
 * range keys are obeyed; the buffer cap stops the sweep and says so; and an
 * empty range is refused. No timing thresholds: these machines are shared.
 */

#include "check.h"
#include "probe_rows.h"
#include "results/report_table.h"
#include "core/probe.h"
#include "probes/tlb_settings.h"

static struct probe_rows rows;

/* The grid between 8 and 512 pages: 8 12 16 24 32 48 64 96 128 192 256 384 512. */
static const uint64_t grid[] = { 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512 };
#define GRID_COUNT (sizeof grid / sizeof *grid)

static void quick_config(struct config *c)
{
	config_defaults(c, PROFILE_QUICK);
	c->probes = PROBE_TLB;
	c->pages = PAGES_4K;
	c->trials = 3;
	c->max_trials = 3;
	c->step_ms = 0.5;
	TLB_SETTINGS(c)->min_pages = 8;
	TLB_SETTINGS(c)->max_pages = 512;
}

/* The chase rows' page counts that are not on the grid (the refinement's),
   and those of them outside lo..hi or off the eighths of their octave. */
static void refined_counts(uint64_t lo, uint64_t hi, int *refined, int *bad)
{
	*refined = *bad = 0;
	for (int i = 0; i < rows.count; i++) {
		const struct csv_row *r = &rows.row[i];
		uint64_t n = strcmp(r->variant, "chase") ? r->working_set / 64
						       : r->working_set / 4096, top = 1;
		int on_grid = 0;

		for (size_t k = 0; k < GRID_COUNT; k++)
			on_grid |= n == grid[k];
		if (on_grid)
			continue;
		while (top * 2 <= n)
			top *= 2;
		++*refined;
		*bad += n <= lo || n >= hi || (top >= 8 && n % (top / 8)) ||
			!probe_rows_find(&rows, strcmp(r->variant, "chase") ? "chase" : "control",
					 4096, strcmp(r->variant, "chase") ? n * 4096 : n * 64);
	}
}

static void test_rows(void)
{
	struct config c;
	unsigned sane = 0, found = 0;
	int refined, bad;

	quick_config(&c);
	rows.chart = NULL;
	CHECK(probe_rows_run(probe_tlb, &c, &rows) == 0, "the tlb run left a results.csv");
	CHECK(rows.rc == 0, "probe_tlb succeeds from 8 to 512 pages of 4 KiB");
	refined_counts(8, 512, &refined, &bad);
	CHECK(rows.count - refined == (int)GRID_COUNT * 2, "one chase and one control row per "
	      "page count of the grid (%d rows, %d refined)", rows.count, refined);
	CHECK(bad == 0 && refined <= 2 * 24, "%d refined rows: chase and control in pairs, between "
	      "8 and 512 pages, on eighths of an octave (%d not)", refined, bad);
	for (size_t k = 0; k < GRID_COUNT; k++) {
		const struct csv_row *chase = probe_rows_find(&rows, "chase", 4096, grid[k] * 4096);
		const struct csv_row *control = probe_rows_find(&rows, "control", 4096, grid[k] * 64);
		found += chase && control;
		sane += probe_row_sane(chase) && probe_row_sane(control) &&
			strcmp(chase->probe, "tlb") == 0 && strcmp(control->probe, "tlb") == 0;
	}
	CHECK(found == GRID_COUNT, "every grid count has its chase row (pages x 4 KiB) and its "
	      "control row (lines x 64 B) (%u of %zu)", found, GRID_COUNT);
	CHECK(sane == GRID_COUNT, "every row finite, positive and from real trials (%u of %zu)",
	      sane, GRID_COUNT);
}

static void test_cap_and_range(void)
{
	struct config c;
	int refined, bad;

	/* 64 KiB of buffer holds 16 pages: the sweep stops at 16. */
	quick_config(&c);
	TLB_SETTINGS(&c)->max_buffer = 64 * 1024;
	CHECK(probe_rows_run(probe_tlb, &c, &rows) == 0 && rows.rc == 0,
	      "a capped buffer still measures what fits");
	refined_counts(8, 16, &refined, &bad);
	CHECK(rows.count - refined == 3 * 2 && bad == 0 &&
	      probe_rows_find(&rows, "chase", 4096, 16 * 4096) &&
	      !probe_rows_find(&rows, "chase", 4096, 24 * 4096),
	      "tlb.max_buffer = 64 KiB stops the sweep at 16 pages (%d rows)", rows.count);

	/* A buffer below tlb.min_pages measures nothing and fails. */
	TLB_SETTINGS(&c)->max_buffer = 4096 * 4;
	CHECK(probe_rows_run(probe_tlb, &c, &rows) == 0 && rows.rc != 0 && rows.count == 0,
	      "a buffer of 4 pages below tlb.min_pages = 8 is refused, no rows (%d)", rows.count);

	/* Off-grid bounds: 9..20 pages runs 12 and 16. */
	quick_config(&c);
	TLB_SETTINGS(&c)->min_pages = 9;
	TLB_SETTINGS(&c)->max_pages = 20;
	CHECK(probe_rows_run(probe_tlb, &c, &rows) == 0 && rows.rc == 0 &&
	      (refined_counts(12, 16, &refined, &bad), rows.count - refined == 4 && bad == 0) &&
	      probe_rows_find(&rows, "chase", 4096, 12 * 4096) &&
	      probe_rows_find(&rows, "chase", 4096, 16 * 4096),
	      "tlb.min_pages = 9, tlb.max_pages = 20 measure the grid's 12 and 16 (%d rows)",
	      rows.count);

	/* A range holding no grid point is refused, not run empty. */
	TLB_SETTINGS(&c)->min_pages = 13;
	TLB_SETTINGS(&c)->max_pages = 15;
	CHECK(probe_rows_run(probe_tlb, &c, &rows) == 0 && rows.rc != 0 && rows.count == 0,
	      "13..15 pages hold no grid point: nothing measured, the probe fails");
}

int main(void)
{
	test_rows();
	test_cap_and_range();
	CHECK(report_table_misfits() == 0,
	      "every report table row gave each column its cell (report_table_misfits)");
	return check_summary();
}
