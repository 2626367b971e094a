/* A chart into the run folder: the one way every probe writes an SVG, so
 * each says alike where its chart went or why it did not.
 */
#ifndef MEMPROBE_CHART_FILE_H
#define MEMPROBE_CHART_FILE_H

#include "lib/svg.h"

/* Emits the whole document through write(write_ctx, ...); returns 0, or -1
   when there was nothing to draw. */
typedef int (*chart_produce_fn)(svg_write_fn write, void *write_ctx, const void *arg);

/* Writes `name` (e.g. "cost.svg") into the run folder and reports
   "  chart: NAME", or plainly why there is none. */
void chart_file(const char *name, chart_produce_fn produce, const void *arg);

/* A produce function for a ready svg_chart (arg: const struct svg_chart *). */
int chart_produce_plain(svg_write_fn write, void *write_ctx, const void *arg);

#endif
