/* A line chart as SVG: log2 x axis, log10 y axis, one polyline per series,
 * vertical markers with labels, axes with ticks, a legend. Marker labels
 * stand upright beside their lines, laid out so that no two meet (markers
 * one sweep step apart, or at one size for two page sizes): each hangs
 * from the plot's top on the side of its line where it can, else below
 * the labels in its way.
 *
 * The file must open in any browser on any desk with nothing installed, so
 * it is plain SVG 1.1 with inline styles: no script, no external font or
 * stylesheet. Freestanding (written by the EFI app too): text goes to a
 * caller's write function, numbers through mp_snprintf, logarithms by
 * base2_log since there is no libm.
 */
#ifndef MEMPROBE_SVG_H
#define MEMPROBE_SVG_H

#include <stddef.h>
#include <stdint.h>
#include "lib/svg_out.h"

struct svg_series {
	const char *label;        /* "4 KiB pages" */
	size_t n;
	const double *x, *y;      /* points with x <= 0 or y <= 0 are left out */
};

struct svg_marker {
	double x;
	const char *label;        /* "L1 32 KiB" */
	int series;               /* colour of that series; -1: neutral (caches) */
	int dashed;               /* TLB edges are dashed */
};

struct svg_chart {
	const char *title, *x_label, *y_label;
	int x_is_bytes;           /* tick labels as "4 KiB", "2 MiB" */
	const struct svg_series *series;
	size_t nseries;
	const struct svg_marker *markers;
	size_t nmarkers;
	int edge_legend;          /* the legend explains cache and TLB edge lines */
};


/* Writes the whole document. Returns 0, or -1 when there was no point to
   draw (the document then says so instead of showing empty axes). */
int svg_write_chart(const struct svg_chart *c, svg_write_fn write, void *ctx);

/* Small multiples: n charts stacked in one document, each in a panel of
   the size a lone chart has. 0, or -1 when no panel had a point to draw
   (each empty panel says so). svg_write_chart is the one-panel case. */
int svg_write_panels(const struct svg_chart *panels, size_t n, svg_write_fn write, void *ctx);

#endif
