/* One series of trials in a results row and a report row (see trial_row.h). */

#include "results/trial_row.h"
#include "results/report_table.h"

/* ---- Public Functions ------------------------------------------------- */

void trial_row_fill(struct result_row *row, const struct trials *t, const char *stopped_by,
		    const char *form)
{
	row->ns = trials_best(t);
	row->trials = t->count;
	row->spread = trials_spread(t);
	row->stopped_by = stopped_by;
	row->trial_form = form;
}

void trial_row_cells(const struct result_row *row)
{
	/* The ns column's name is the probe's; the cycles cell, named, checks
	   that the ns cell stood just before it. */
	report_table_cell("%.3f", row->ns);
	report_table_cell_under(TRIAL_COLUMN_CYCLES, "%.2f", row->cycles);
	report_table_cell_under(TRIAL_COLUMN_TRIALS, "%u", row->trials);
	report_table_cell_under(TRIAL_COLUMN_SPREAD, "%.1f%%", row->spread * 100);
	report_table_cell_under(TRIAL_COLUMN_STOPPED, "%s", row->stopped_by);
}
