/* memprobe compare's overlay chart of one probe: ns (GB/s for a probe
 * whose rows give it, bandwidth) over working set, one curve per run,
 * variant (when the probe has more than one) and page size, labelled
 * "A 4 KiB pages", "B chase 2 MiB pages". lib/svg.c draws it.
 */
#ifndef MEMPROBE_COMPARE_CHART_H
#define MEMPROBE_COMPARE_CHART_H

#include "desk/run_folder.h"
#include "lib/svg.h"

/* Writes the whole SVG document. 0, or -1 when no row lies on a
   working-set curve: none has a working-set size (cost), or each is told
   apart by its CPU or loaders (c2c, loaded), whose tables hold them (the
   document then says "no measurement to draw"). */
int compare_chart(const struct run_folder *runs, unsigned nruns, const char *probe,
		  svg_write_fn write, void *ctx);

/* The chart's file name: compare.svg for latency, compare-PROBE.svg else. */
void compare_chart_name(char *buf, size_t size, const char *probe);

#endif
