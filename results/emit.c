/* Figures into results rows (see emit.h). */

#include "results/emit.h"
#include "core/platform.h"
#include "results/results.h"
#include "core/timebase.h"

/* ---- Private Data ----------------------------------------------------- */

/* The run's take_row while probes run (emit.h says who sets it). */
static void (*row_sink)(const struct result_row *row);

/* ---- Public Functions ------------------------------------------------- */

double emit_result_row(struct result_row *row)
{
	row->cycles = ns_to_cycles(row->ns);
	/* Bytes per ns over core cycles per ns, through the same clock. */
	if (row->gb_per_s.given)
		row->bytes_per_cycle = (struct optional_real){ row->gb_per_s.value /
							       ns_to_cycles(1.0), 1 };
	row->timer = plat_clock()->source;
	results_row(row);
	if (row_sink)
		row_sink(row);
	return row->cycles;
}

void emit_set_row_sink(void (*take)(const struct result_row *row))
{
	row_sink = take;
}
