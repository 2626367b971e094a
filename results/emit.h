/* The one way a probe turns a measured figure into a results row: the probe
 * fills a struct result_row's measured fields by name, and emit derives the
 * rest, so the cycles always come from the same ns through the core clock
 * and the timer column always names the platform's clock source.
 */
#ifndef MEMPROBE_EMIT_H
#define MEMPROBE_EMIT_H

#include <stdint.h>
#include "results/columns.h"

/* Fills in row->cycles (from row->ns), row->bytes_per_cycle (from
   row->gb_per_s, when set) and row->timer, writes the row and hands it to
   the row sink. Returns row->cycles, for the report text. */
double emit_result_row(struct result_row *row);

/* Where emitted rows go besides results.csv (the run sets the analysis,
   analysis_take_row); NULL, the default, for nowhere else. */
void emit_set_row_sink(void (*take)(const struct result_row *row));

#endif
