/* An SVG chart of one figure across named things: a horizontal bar per
 * thing from 0, its value written at its end, marked bars in another
 * colour, and a reference line (a median) when there is one: for a figure
 * across the machines of a fleet. Freestanding, like svg.h.
 */
#ifndef MEMPROBE_BAR_CHART_H
#define MEMPROBE_BAR_CHART_H

#include <stddef.h>
#include "lib/svg_out.h"

struct svg_bar {
	const char *label;        /* the thing: a machine id */
	double value;             /* NaN or below 0: no bar, "-" written */
	int marked;               /* drawn in the marked colour, "!" after it */
};

struct svg_bar_chart {
	const char *title, *value_label;
	const struct svg_bar *bar;
	size_t n;
	double reference;         /* a vertical line there; NaN for none */
	const char *reference_label;   /* "median" */
};

/* Writes the whole document, as tall as its bars need. Returns 0, or -1
   when no bar had a value (the document then says so). */
int svg_write_bar_chart(const struct svg_bar_chart *c, svg_write_fn write, void *ctx);

#endif
