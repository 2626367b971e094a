/* One series of trials as every timed probe gives it, defined once: its
 * results row's ns (the best trial), trials, spread, stopped_by and
 * trial_form, and its five report columns, ns, cycles, trials, spread and
 * stopped by, declared by one macro and filled by one call.
 *
 * Every part of the series is an argument of trial_row_fill, so a row
 * cannot go out without its stop rule or its spread; trial_row_cells
 * gives the five cells each under its column by name, so a table that
 * lacks them, or has them elsewhere, is a misfit row that report_table
 * counts and says (report_table.h), and the probes' tests assert none.
 */
#ifndef MEMPROBE_TRIAL_ROW_H
#define MEMPROBE_TRIAL_ROW_H

#include "lib/table.h"
#include "results/columns.h"
#include "core/trials.h"

/* The columns' names after the probe's own ns column. */
#define TRIAL_COLUMN_CYCLES "cycles"
#define TRIAL_COLUMN_TRIALS "trials"
#define TRIAL_COLUMN_SPREAD "spread"
#define TRIAL_COLUMN_STOPPED "stopped by"

/* The five columns, in a probe's struct table_column array: its ns column
   (ns_name: "ns/load", "ns/line", ...; ns_width wide), cycles
   (cycles_width wide), trials, spread and stopped by. */
#define TRIAL_COLUMNS(ns_name, ns_width, cycles_width) \
	{ ns_name, NULL, ns_width, 0, 0 }, \
	{ TRIAL_COLUMN_CYCLES, NULL, cycles_width, 0, 0 }, \
	{ TRIAL_COLUMN_TRIALS, NULL, 7, 0, 0 }, \
	{ TRIAL_COLUMN_SPREAD, NULL, 8, 0, 0 }, \
	{ TRIAL_COLUMN_STOPPED, NULL, 10, 1, 0 }

/* Sets row's ns (the best trial of t), trials (t's count), spread,
   stopped_by (the stop rule's limit that ended t: trials_stop's word) and
   trial_form (form: how each trial was formed, chase_run.h's
   CHASE_FORM_*; NULL for a probe whose trials have one form only, written
   empty). The rest of the row is the probe's. */
void trial_row_fill(struct result_row *row, const struct trials *t, const char *stopped_by,
		    const char *form);

/* The row's five cells for the report table being built, in
   TRIAL_COLUMNS' order: ns (%.3f), cycles (%.2f, from emit_result_row),
   trials, spread (a percentage, %.1f) and stopped by. Call it after
   emit_result_row, at the cell where the table's TRIAL_COLUMNS stand. */
void trial_row_cells(const struct result_row *row);

#endif
