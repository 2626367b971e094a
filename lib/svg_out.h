/* Writing SVG markup through a caller's write function: the one place the
 * chart writers (svg.c's line chart, heatmap.c, xy_chart.c) format markup
 * and escape text, so no chart can emit a half-escaped label.
 */
#ifndef MEMPROBE_SVG_OUT_H
#define MEMPROBE_SVG_OUT_H

#include <stddef.h>

/* Where a chart's text goes: called with each piece in order. */
typedef void (*svg_write_fn)(void *ctx, const char *data, size_t len);

/* The page and plot area of a chart with axes (svg.c, xy_chart.c). */
#define SVG_WIDTH 960
#define SVG_HEIGHT 560
#define SVG_PLOT_LEFT 80.0
#define SVG_PLOT_RIGHT 930.0
#define SVG_PLOT_TOP 60.0
#define SVG_PLOT_BOTTOM 470.0

struct svg_out {
	svg_write_fn write;
	void *ctx;
};

/* Markup: a short printf-style format (at most 511 characters once
   formatted); text of unknown length goes through svg_emit_text. */
void svg_emit(const struct svg_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Character data and attribute values: the five XML specials escaped, and
   control characters (not allowed in XML 1.0) dropped. */
void svg_emit_text(const struct svg_out *o, const char *s);

/* Series i's colour, the same in every chart: "#0072b2", ... */
const char *svg_series_colour(size_t i);

/* The document's start: the XML declaration, the <svg> element of this
   size (plain SVG 1.1, inline styles) and a white ground. */
void svg_emit_document(const struct svg_out *o, int width, int height);
/* A chart's title, centred at the top of an area this wide. */
void svg_emit_title(const struct svg_out *o, int width, const char *title);
/* svg_emit_document, then svg_emit_title: a one-chart document's start. */
void svg_emit_begin(const struct svg_out *o, int width, int height, const char *title);

/* The plot area's frame, the x label centred under it and the y label
   turned up the left side. */
void svg_emit_frame(const struct svg_out *o, double left, double top, double right,
		    double bottom, const char *x_label, const char *y_label);

/* The top of a linear axis from 0 with `ticks` round steps: the smallest
   1, 2 or 5 times a power of ten at or above v / ticks, times ticks (1
   for v that is not above 0). */
double svg_axis_top(double v, int ticks);

/* "no measurement to draw" in the middle of an area this large. */
void svg_emit_no_points(const struct svg_out *o, int width, int height);
/* svg_emit_no_points, and the document's end; returns -1, what a chart
   writer returns for a chart without points. */
int svg_emit_nothing(const struct svg_out *o, int width, int height);

#endif
