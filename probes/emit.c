/* Figures into results rows (see emit.h). */

#include "probes/emit.h"
#include "probes/analysis.h"
#include "probes/platform.h"
#include "probes/results.h"
#include "probes/timebase.h"

double emit_figure(const struct figure *f)
{
	struct result_row row = {
		.probe = f->probe,
		.variant = f->variant,
		.page_shift = f->page_shift,
		.working_set_bytes = f->working_set_bytes,
		.ns = f->ns,
		.cycles = ns_to_cycles(f->ns),
		.trials = f->trials,
		.spread = f->spread,
		.pages_verified = f->pages_verified,
		.timer = plat_clock()->source,
	};

	results_row(&row);
	analysis_take_row(&row);
	return row.cycles;
}
