/* A square heatmap as SVG: one cell per (row, column) pair of the same
 * labelled items, coloured from light (smallest value) to dark (largest),
 * each cell holding its value, for matrices such as CPU-to-CPU latency.
 * Freestanding, like svg.h.
 */
#ifndef MEMPROBE_HEATMAP_H
#define MEMPROBE_HEATMAP_H

#include <stddef.h>
#include "lib/svg_out.h"

struct svg_heatmap {
	const char *title, *axis_label, *unit;   /* "CPU", "ns" */
	size_t n;                 /* items: the matrix is n x n */
	const unsigned *label;    /* each item's number, shown on both axes */
	const double *value;      /* row-major n x n; NaN or <= 0: no value
				     (the diagonal, a pair not measured) */
};

/* Writes the whole document: the matrix and a colour scale beside it, or,
   when every measured cell holds one value (a single pair), that value
   said once instead of a scale from it to itself. Returns 0, or -1 when
   no cell has a value (the document then says so). */
int svg_write_heatmap(const struct svg_heatmap *h, svg_write_fn write, void *ctx);

#endif
