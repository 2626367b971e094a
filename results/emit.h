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

/* Where emitted rows go besides results.csv: NULL, the default, for
   nowhere else. One caller sets it: run/run.c, for the length of the probe
   loop, to its take_row, which hands every row to the analysis
   (analysis_take_row) and to the card (card_take_row); tests set their
   own. A function pointer because results/ sits below the analysis and
   the run in the layers (docs/LAYOUT.md) and may not call them. */
void emit_set_row_sink(void (*take)(const struct result_row *row));

#endif
