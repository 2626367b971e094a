/* An SVG chart with linear axes from 0, one polyline of tagged points per
 * series: for curves whose x starts at 0, such as latency against the
 * bandwidth other cores draw (the log axes of svg.h cannot show x = 0).
 * Freestanding, like svg.h.
 */
#ifndef MEMPROBE_XY_CHART_H
#define MEMPROBE_XY_CHART_H

#include <stddef.h>
#include "lib/svg_out.h"

struct svg_xy_series {
	const char *label;        /* "4 KiB pages" */
	size_t n;
	const double *x, *y;      /* points with x < 0, y <= 0 or NaN are left out */
	const unsigned *tag;      /* a number written beside each point (the
				     loader count), or NULL */
};

struct svg_xy_chart {
	const char *title, *x_label, *y_label, *tag_label;  /* tag_label: "loaders" */
	const struct svg_xy_series *series;
	size_t nseries;
};

/* Writes the whole document. Returns 0, or -1 when there was no point to
   draw (the document then says so). */
int svg_write_xy_chart(const struct svg_xy_chart *c, svg_write_fn write, void *ctx);

#endif
