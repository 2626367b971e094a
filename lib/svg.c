/* SVG line charts (see svg.h). */
#include "lib/svg.h"
#include "lib/svg_out.h"
#include "lib/fmt.h"
#include "lib/base2.h"

/* ---- Constants -------------------------------------------------------- */

#define LOG2_10 3.32192809488736234787

#define NEUTRAL "#555555"

struct axes {
	double x_lo, x_hi;        /* log2 of the x range, whole powers */
	double y_lo, y_hi;        /* log10 of the y range, whole decades */
};

/* ---- Private Functions ------------------------------------------------ */

static int usable(double x, double y)
{
	return x > 0.0 && y > 0.0 && x < 1e300 && y < 1e300;
}

static double floor_d(double v)
{
	double t = (double)(int64_t)v;

	return t > v ? t - 1.0 : t;
}

static double ceil_d(double v)
{
	double t = (double)(int64_t)v;

	return t < v ? t + 1.0 : t;
}

static int find_axes(const struct svg_chart *c, struct axes *a)
{
	double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
	int any = 0;

	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i], y = c->series[s].y[i];
			if (!usable(x, y))
				continue;
			if (!any || x < xmin) xmin = x;
			if (!any || x > xmax) xmax = x;
			if (!any || y < ymin) ymin = y;
			if (!any || y > ymax) ymax = y;
			any = 1;
		}
	if (!any)
		return -1;
	a->x_lo = floor_d(base2_log(xmin));
	a->x_hi = ceil_d(base2_log(xmax));
	a->y_lo = floor_d(base2_log(ymin) / LOG2_10);
	a->y_hi = ceil_d(base2_log(ymax) / LOG2_10);
	if (a->x_hi <= a->x_lo)
		a->x_hi = a->x_lo + 1;
	if (a->y_hi <= a->y_lo)
		a->y_hi = a->y_lo + 1;
	return 0;
}

static double px_x(const struct axes *a, double x)
{
	return SVG_PLOT_LEFT + (base2_log(x) - a->x_lo) / (a->x_hi - a->x_lo) * (SVG_PLOT_RIGHT - SVG_PLOT_LEFT);
}

static double px_y(const struct axes *a, double y)
{
	double d = base2_log(y) / LOG2_10;

	return SVG_PLOT_BOTTOM - (d - a->y_lo) / (a->y_hi - a->y_lo) * (SVG_PLOT_BOTTOM - SVG_PLOT_TOP);
}

static double pow10_int(int k)
{
	double v = 1.0;

	for (; k > 0; k--)
		v *= 10.0;
	for (; k < 0; k++)
		v /= 10.0;
	return v;
}

static void x_ticks(const struct svg_out *o, const struct svg_chart *c, const struct axes *a)
{
	int lo = (int)a->x_lo, hi = (int)a->x_hi;
	int step = (hi - lo) > 12 ? 2 : 1;

	for (int p = lo; p <= hi; p++) {
		double x = SVG_PLOT_LEFT + (p - a->x_lo) / (a->x_hi - a->x_lo) * (SVG_PLOT_RIGHT - SVG_PLOT_LEFT);
		char label[32];

		svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
		     x, SVG_PLOT_TOP, x, SVG_PLOT_BOTTOM);
		svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
		     x, SVG_PLOT_BOTTOM, x, SVG_PLOT_BOTTOM + 5);
		if ((p - lo) % step)
			continue;
		if (c->x_is_bytes && p >= 0 && p < 63)
			mp_format_bytes(label, sizeof label, 1ull << p);
		else if (p >= 0 && p < 20)
			/* Counts (pages touched) read best as themselves. */
			mp_snprintf(label, sizeof label, "%llu", 1ull << p);
		else
			mp_snprintf(label, sizeof label, "2^%d", p);
		svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, SVG_PLOT_BOTTOM + 18);
		svg_emit_text(o, label);
		svg_emit(o, "</text>\n");
	}
}

static void y_ticks(const struct svg_out *o, const struct axes *a)
{
	static const int mantissas[3] = { 1, 2, 5 };

	for (int k = (int)a->y_lo; k <= (int)a->y_hi; k++)
		for (int m = 0; m < 3; m++) {
			double v = mantissas[m] * pow10_int(k);
			double y = px_y(a, v);
			if (y < SVG_PLOT_TOP - 0.01)
				continue;
			svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			     SVG_PLOT_LEFT, y, SVG_PLOT_RIGHT, y, m ? "#f0f0f0" : "#dddddd");
			svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
			     SVG_PLOT_LEFT - 5, y, SVG_PLOT_LEFT, y);
			/* %g keeps 0.5 and 200 short. */
			svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			     SVG_PLOT_LEFT - 8, y + 4, v);
		}
}

static void draw_series(const struct svg_out *o, const struct svg_series *s, size_t index,
			const struct axes *a)
{
	const char *colour = svg_series_colour(index);

	svg_emit(o, "<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
	     colour);
	for (size_t i = 0; i < s->n; i++)
		if (usable(s->x[i], s->y[i]))
			svg_emit(o, "%.1f,%.1f ", px_x(a, s->x[i]), px_y(a, s->y[i]));
	svg_emit(o, "\"><title>");
	svg_emit_text(o, s->label);
	svg_emit(o, "</title></polyline>\n");
	for (size_t i = 0; i < s->n; i++)
		if (usable(s->x[i], s->y[i]))
			svg_emit(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
			     px_x(a, s->x[i]), px_y(a, s->y[i]), colour);
}

static void draw_marker(const struct svg_out *o, const struct svg_marker *m, const struct axes *a)
{
	const char *colour = m->series >= 0 ? svg_series_colour((size_t)m->series) : NEUTRAL;
	double x;

	if (!(m->x > 0.0) || m->x >= 1e300)
		return;
	x = px_x(a, m->x);
	if (x < SVG_PLOT_LEFT || x > SVG_PLOT_RIGHT)
		return;
	svg_emit(o, "<g class=\"edge\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	     "stroke=\"%s\" stroke-width=\"1.5\"%s/>\n", x, SVG_PLOT_TOP, x, SVG_PLOT_BOTTOM, colour,
	     m->dashed ? " stroke-dasharray=\"6,4\"" : "");
	/* Upright labels along the line, hanging from the top: neighbouring
	   edges one sweep step apart would overlap as horizontal text, and a
	   latency curve rises to the right, so the top left stays clear. */
	svg_emit(o, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"end\" "
	     "fill=\"%s\">", x - 4, SVG_PLOT_TOP + 6, colour);
	svg_emit_text(o, m->label);
	svg_emit(o, "</text></g>\n");
}

/* Bottom right: the one corner a rising latency curve leaves empty. */
static void draw_legend(const struct svg_out *o, const struct svg_chart *c)
{
	double height = 22.0 * (double)c->nseries + (c->edge_legend ? 34 : 12);
	double x = SVG_PLOT_RIGHT - 216, y = SVG_PLOT_BOTTOM - height - 8 + 14;

	svg_emit(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"210\" height=\"%.1f\" fill=\"white\" "
	     "stroke=\"#999999\"/>\n", x - 6, y - 12, height);
	for (size_t s = 0; s < c->nseries; s++, y += 22) {
		svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		     "stroke-width=\"2\"/>\n", x, y, x + 24, y, svg_series_colour(s));
		svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\">", x + 30, y + 4);
		svg_emit_text(o, c->series[s].label);
		svg_emit(o, "</text>\n");
	}
	if (!c->edge_legend)
		return;
	svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
	     x, y, x + 24, y, NEUTRAL);
	svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\">cache edge</text>\n", x + 30, y + 4);
	svg_emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
	     "stroke-dasharray=\"6,4\"/>\n", x + 110, y, x + 134, y, NEUTRAL);
	svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\">TLB edge</text>\n", x + 140, y + 4);
}

/* One chart's title, axes, markers, curves and legend, drawn from the top
   left of its own SVG_WIDTH x SVG_HEIGHT area. 0, or -1 when it had no
   point to draw (the area then says so). */
static int draw_panel(const struct svg_out *o, const struct svg_chart *c)
{
	struct axes a;

	svg_emit_title(o, SVG_WIDTH, c->title);
	if (find_axes(c, &a) != 0) {
		svg_emit_no_points(o, SVG_WIDTH, SVG_HEIGHT);
		return -1;
	}
	x_ticks(o, c, &a);
	y_ticks(o, &a);
	svg_emit_frame(o, SVG_PLOT_LEFT, SVG_PLOT_TOP, SVG_PLOT_RIGHT, SVG_PLOT_BOTTOM, c->x_label,
		       c->y_label);
	for (size_t m = 0; m < c->nmarkers; m++)
		draw_marker(o, &c->markers[m], &a);
	for (size_t s = 0; s < c->nseries; s++)
		draw_series(o, &c->series[s], s, &a);
	draw_legend(o, c);
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int svg_write_chart(const struct svg_chart *c, svg_write_fn write, void *ctx)
{
	return svg_write_panels(c, 1, write, ctx);
}

int svg_write_panels(const struct svg_chart *panels, size_t n, svg_write_fn write, void *ctx)
{
	struct svg_out o = { write, ctx };
	int drawn = 0;

	svg_emit_document(&o, SVG_WIDTH, SVG_HEIGHT * (int)n);
	for (size_t i = 0; i < n; i++) {
		/* A lone chart stays as it always was: no group around it. */
		if (n > 1)
			svg_emit(&o, "<g class=\"panel\" transform=\"translate(0,%d)\">\n",
				 SVG_HEIGHT * (int)i);
		drawn |= draw_panel(&o, &panels[i]) == 0;
		if (n > 1)
			svg_emit(&o, "</g>\n");
	}
	svg_emit(&o, "</svg>\n");
	return drawn ? 0 : -1;
}

