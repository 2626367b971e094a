/* Linear-axis SVG charts (see xy_chart.h). */
#include "lib/xy_chart.h"
#include "lib/svg_out.h"

/* ---- Constants -------------------------------------------------------- */

#define TICKS 5

/* ---- Private Functions ------------------------------------------------ */

/* A point the chart can place: finite, x from 0, y above 0. */
static int usable(double x, double y)
{
	return x == x && y == y && x >= 0 && y > 0;
}

/* Grid lines and labels at TICKS even steps on both axes. */
static void ticks(const struct svg_out *o, double x_top, double y_top)
{
	for (int k = 0; k <= TICKS; k++) {
		double x = SVG_PLOT_LEFT + (SVG_PLOT_RIGHT - SVG_PLOT_LEFT) * k / TICKS;
		double y = SVG_PLOT_BOTTOM - (SVG_PLOT_BOTTOM - SVG_PLOT_TOP) * k / TICKS;

		svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
			 x, SVG_PLOT_TOP, x, SVG_PLOT_BOTTOM);
		svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x,
			 SVG_PLOT_BOTTOM + 18, x_top * k / TICKS);
		svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
			 SVG_PLOT_LEFT, y, SVG_PLOT_RIGHT, y);
		svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			 SVG_PLOT_LEFT - 6, y + 4, y_top * k / TICKS);
	}
}

/* Series s: its polyline, a dot and tag per point, its legend line. */
static void series(const struct svg_out *o, const struct svg_xy_chart *c, size_t s,
		   double x_top, double y_top)
{
	const struct svg_xy_series *se = &c->series[s];
	const char *colour = svg_series_colour(s);

	svg_emit(o, "<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
		 "points=\"", colour);
	for (size_t i = 0; i < se->n; i++)
		if (usable(se->x[i], se->y[i]))
			svg_emit(o, "%.1f,%.1f ", SVG_PLOT_LEFT + se->x[i] / x_top * (SVG_PLOT_RIGHT - SVG_PLOT_LEFT),
				 SVG_PLOT_BOTTOM - se->y[i] / y_top * (SVG_PLOT_BOTTOM - SVG_PLOT_TOP));
	svg_emit(o, "\"/>\n");
	for (size_t i = 0; i < se->n; i++) {
		double x, y;

		if (!usable(se->x[i], se->y[i]))
			continue;
		x = SVG_PLOT_LEFT + se->x[i] / x_top * (SVG_PLOT_RIGHT - SVG_PLOT_LEFT);
		y = SVG_PLOT_BOTTOM - se->y[i] / y_top * (SVG_PLOT_BOTTOM - SVG_PLOT_TOP);
		svg_emit(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x, y, colour);
		if (se->tag)
			svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%u</text>\n", x + 6, y - 6,
				 colour, se->tag[i]);
	}
	svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">", SVG_PLOT_LEFT + 10,
		 SVG_PLOT_TOP + 16 + 16.0 * (double)s, colour);
	svg_emit_text(o, se->label);
	svg_emit(o, "</text>\n");
}

/* Raises *x_max and *y_max to the series' largest usable point; 1 when it
   has one. */
static int raise_top(const struct svg_xy_series *se, double *x_max, double *y_max)
{
	int any = 0;

	for (size_t i = 0; i < se->n; i++) {
		if (!usable(se->x[i], se->y[i]))
			continue;
		*x_max = se->x[i] > *x_max ? se->x[i] : *x_max;
		*y_max = se->y[i] > *y_max ? se->y[i] : *y_max;
		any = 1;
	}
	return any;
}

/* ---- Public Functions ------------------------------------------------- */

int svg_write_xy_chart(const struct svg_xy_chart *c, svg_write_fn write, void *ctx)
{
	struct svg_out o = { write, ctx };
	double x_max = 0, y_max = 0;
	int any = 0;

	for (size_t s = 0; s < c->nseries; s++)
		any |= raise_top(&c->series[s], &x_max, &y_max);
	svg_emit_begin(&o, SVG_WIDTH, SVG_HEIGHT, c->title);
	if (!any)
		return svg_emit_nothing(&o, SVG_WIDTH, SVG_HEIGHT);
	x_max = svg_axis_top(x_max, TICKS);
	y_max = svg_axis_top(y_max, TICKS);
	ticks(&o, x_max, y_max);
	svg_emit_frame(&o, SVG_PLOT_LEFT, SVG_PLOT_TOP, SVG_PLOT_RIGHT, SVG_PLOT_BOTTOM, c->x_label, c->y_label);
	if (c->tag_label) {
		svg_emit(&o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">numbers beside the "
			 "points: ", SVG_PLOT_RIGHT - 6, SVG_PLOT_TOP + 16);
		svg_emit_text(&o, c->tag_label);
		svg_emit(&o, "</text>\n");
	}
	for (size_t s = 0; s < c->nseries; s++)
		series(&o, c, s, x_max, y_max);
	svg_emit(&o, "</svg>\n");
	return 0;
}
