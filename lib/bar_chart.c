/* Horizontal bar charts (see bar_chart.h). */
#include "lib/bar_chart.h"
#include "lib/svg_out.h"

/* ---- Constants -------------------------------------------------------- */

#define TICKS 5
#define BAR_PITCH 24.0            /* px a bar takes, its gap included */
#define BAR_HEIGHT 16.0
#define LABEL_WIDTH 260.0         /* px left of the bars for the labels */
#define TOP 60.0
#define RIGHT 880.0               /* room past it for the value text */
#define MARKED_COLOUR "#d55e00"

/* ---- Private Functions ------------------------------------------------ */

static int has_value(double v)
{
	return v == v && v >= 0;
}

/* x of value v on an axis from 0 to top. */
static double x_of(double v, double top)
{
	return LABEL_WIDTH + (RIGHT - LABEL_WIDTH) * v / top;
}

/* The grid, its numbers under the bars and the reference line. */
static void axis(const struct svg_out *o, const struct svg_bar_chart *c, double top,
		 double bottom)
{
	for (int k = 0; k <= TICKS; k++) {
		double x = x_of(top * k / TICKS, top);

		svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
			 x, TOP, x, bottom);
		svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x,
			 bottom + 18, top * k / TICKS);
	}
	svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x_of(top / 2, top),
		 bottom + 38);
	svg_emit_text(o, c->value_label);
	svg_emit(o, "</text>\n");
	if (!has_value(c->reference))
		return;
	svg_emit(o, "<line class=\"reference\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		 "stroke=\"#000000\" stroke-dasharray=\"6 4\"/>\n", x_of(c->reference, top), TOP - 6,
		 x_of(c->reference, top), bottom);
	svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x_of(c->reference, top),
		 TOP - 10);
	svg_emit_text(o, c->reference_label ? c->reference_label : "");
	svg_emit(o, " %.4g</text>\n", c->reference);
}

/* Bar i: its label, its bar and its value, or "-" without one. */
static void bar(const struct svg_out *o, const struct svg_bar *b, size_t i, double top)
{
	double y = TOP + BAR_PITCH * (double)i;

	svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", LABEL_WIDTH - 8,
		 y + BAR_HEIGHT - 3);
	svg_emit_text(o, b->label);
	svg_emit(o, "</text>\n");
	if (!has_value(b->value)) {
		svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\">-</text>\n", LABEL_WIDTH + 4,
			 y + BAR_HEIGHT - 3);
		return;
	}
	svg_emit(o, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		 "fill=\"%s\"/>\n", LABEL_WIDTH, y, x_of(b->value, top) - LABEL_WIDTH, BAR_HEIGHT,
		 b->marked ? MARKED_COLOUR : svg_series_colour(0));
	svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\">%.4g%s</text>\n", x_of(b->value, top) + 4,
		 y + BAR_HEIGHT - 3, b->value, b->marked ? " !" : "");
}

/* ---- Public Functions ------------------------------------------------- */

int svg_write_bar_chart(const struct svg_bar_chart *c, svg_write_fn write, void *ctx)
{
	struct svg_out o = { write, ctx };
	double top = has_value(c->reference) ? c->reference : 0;
	double bottom = TOP + BAR_PITCH * (double)c->n;
	int height = (int)bottom + 60, any = 0;

	for (size_t i = 0; i < c->n; i++)
		if (has_value(c->bar[i].value)) {
			any = 1;
			top = c->bar[i].value > top ? c->bar[i].value : top;
		}
	svg_emit_begin(&o, SVG_WIDTH, height, c->title);
	if (!any)
		return svg_emit_nothing(&o, SVG_WIDTH, height);
	top = svg_axis_top(top, TICKS);
	axis(&o, c, top, bottom);
	for (size_t i = 0; i < c->n; i++)
		bar(&o, &c->bar[i], i, top);
	svg_emit(&o, "</svg>\n");
	return 0;
}
