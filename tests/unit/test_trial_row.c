/* The trial figures' one definition (results/trial_row.h) and the report
 * table's misfit rows (results/report_table.h): a series' row fields come
 * from its trials, its five cells stand under their columns by name, and a
 * row that lacks them, has them elsewhere or gives too many cells is said
 * and counted, never printed as if whole.
 */

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "results/report_table.h"
#include "results/trial_row.h"

static const struct table_column demo_columns[] = {
	{ "working set", NULL, 11, 0, 0 },
	TRIAL_COLUMNS("ns/load", 10, 9),
	{ "point", NULL, 8, 1, 0 },
};
static const struct table demo_table = TABLE_OF(demo_columns, "  ");

static char text[4096];

/* The printer the tables here print to: text, appended. */
static void keep_text(void *ctx, const char *piece)
{
	(void)ctx;
	strncat(text, piece, sizeof text - strlen(text) - 1);
}

/* A series of trials 2.0, 2.5 and 3.0 ns, and a row filled from it. */
static void demo_series(struct result_row *row)
{
	static struct trials t;

	trials_init(&t);
	trials_add(&t, 2.5);
	trials_add(&t, 2.0);
	trials_add(&t, 3.0);
	*row = (struct result_row){ .probe = "latency", .variant = "chase" };
	trial_row_fill(row, &t, "settled", "laps");
	row->cycles = 8.0;   /* as emit_result_row would set it at 4 cycles/ns */
}

static void test_fill(void)
{
	struct result_row row;

	demo_series(&row);
	CHECK(row.ns == 2.0 && row.trials == 3 && row.spread == 0.5,
	      "the row's ns is the best trial, trials the count, spread (third best - best) / best "
	      "(%.3f, %u, %.3f)", row.ns, row.trials, row.spread);
	CHECK(strcmp(row.stopped_by, "settled") == 0 && strcmp(row.trial_form, "laps") == 0,
	      "the row's stop rule and trial form are the series'");
}

/* One table of the given rows' text into `text`; the misfits it added. */
static unsigned table_of(void (*rows)(const struct result_row *row))
{
	struct mp_printer to = { keep_text, NULL };
	struct result_row row;
	unsigned before = report_table_misfits();

	text[0] = '\0';
	demo_series(&row);
	report_table_begin(&demo_table, NULL, &to);
	rows(&row);
	report_table_end();
	return report_table_misfits() - before;
}

static void whole_row(const struct result_row *row)
{
	report_table_cell("%s", "4 KiB");
	trial_row_cells(row);
	report_table_cell("%s", "grid");
	report_table_row(0);
}

static void row_without_trials(const struct result_row *row)
{
	(void)row;
	report_table_cell("%s", "4 KiB");
	report_table_cell("%s", "grid");
	report_table_row(0);
}

static void trials_first(const struct result_row *row)
{
	trial_row_cells(row);
	report_table_cell("%s", "4 KiB");
	report_table_cell("%s", "grid");
	report_table_row(0);
}

static void one_cell_too_many(const struct result_row *row)
{
	whole_row(row);
	report_table_cell("%s", "4 KiB");
	trial_row_cells(row);
	report_table_cell("%s", "grid");
	report_table_cell("%s", "extra");
	report_table_row(0);
}

static void test_cells(void)
{
	CHECK(table_of(whole_row) == 0 &&
	      strcmp(text, "  working set    ns/load    cycles  trials   spread stopped by point\n"
			   "        4 KiB      2.000      8.00       3    50.0% settled    grid\n") == 0,
	      "the five trial cells stand under their headers, spread as a percentage:\n%s",
	      text);
	CHECK(table_of(row_without_trials) == 1 &&
	      strstr(text, "  (a bug in memprobe: the row above gave 2 cells for 7 columns)\n"),
	      "a row without its trial cells is a misfit, said under it:\n%s", text);
	CHECK(table_of(trials_first) == 1 &&
	      strstr(text, "gave 7 cells for 7 columns, a figure away from its column)"),
	      "trial cells away from their columns are a misfit though the count is right:\n%s",
	      text);
	CHECK(table_of(one_cell_too_many) == 1 &&
	      strstr(text, "gave 8 cells for 7 columns)") &&
	      strstr(text, "4 KiB      2.000      8.00       3    50.0% settled    grid\n"
			   "  (a bug"),
	      "a cell past the last column is a misfit, not silently dropped; the whole row "
	      "before it is not:\n%s", text);
}

int main(void)
{
	test_fill();
	test_cells();
	return check_summary();
}
