/* SVG line charts (see svg.h). */
#include <stdarg.h>
#include "lib/svg.h"
#include "lib/fmt.h"

// Constants

#define WIDTH 960
#define HEIGHT 560
#define PLOT_LEFT 80.0
#define PLOT_RIGHT 930.0
#define PLOT_TOP 60.0
#define PLOT_BOTTOM 470.0
#define LOG2_10 3.32192809488736234787

/* Colours told apart also by most colour-blind readers (Okabe-Ito). */
static const char *const series_colour[] = { "#0072b2", "#d55e00", "#009e73", "#cc79a7" };
#define NCOLOURS (sizeof series_colour / sizeof series_colour[0])
#define NEUTRAL "#555555"

struct out {
	svg_write_fn write;
	void *ctx;
};

struct axes {
	double x_lo, x_hi;        /* log2 of the x range, whole powers */
	double y_lo, y_hi;        /* log10 of the y range, whole decades */
};

// Private Functions

static void emit(const struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(const struct out *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = mp_vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* Every format here is short; text of unknown length goes through
	   emit_text, so a cut cannot land inside markup. */
	o->write(o->ctx, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* Character data and attribute values: the five XML specials escaped, and
   control characters (not allowed in XML 1.0) dropped. */
static void emit_text(const struct out *o, const char *s)
{
	for (; s && *s; s++) {
		const char *rep = 0;
		switch (*s) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&apos;"; break;
		}
		if (rep)
			o->write(o->ctx, rep, mp_strlen(rep));
		else if ((unsigned char)*s >= 0x20 || *s == '\t')
			o->write(o->ctx, s, 1);
	}
}

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
	a->x_lo = floor_d(svg_log2(xmin));
	a->x_hi = ceil_d(svg_log2(xmax));
	a->y_lo = floor_d(svg_log2(ymin) / LOG2_10);
	a->y_hi = ceil_d(svg_log2(ymax) / LOG2_10);
	if (a->x_hi <= a->x_lo)
		a->x_hi = a->x_lo + 1;
	if (a->y_hi <= a->y_lo)
		a->y_hi = a->y_lo + 1;
	return 0;
}

static double px_x(const struct axes *a, double x)
{
	return PLOT_LEFT + (svg_log2(x) - a->x_lo) / (a->x_hi - a->x_lo) * (PLOT_RIGHT - PLOT_LEFT);
}

static double px_y(const struct axes *a, double y)
{
	double d = svg_log2(y) / LOG2_10;

	return PLOT_BOTTOM - (d - a->y_lo) / (a->y_hi - a->y_lo) * (PLOT_BOTTOM - PLOT_TOP);
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

static void x_ticks(const struct out *o, const struct svg_chart *c, const struct axes *a)
{
	int lo = (int)a->x_lo, hi = (int)a->x_hi;
	int step = (hi - lo) > 12 ? 2 : 1;

	for (int p = lo; p <= hi; p++) {
		double x = PLOT_LEFT + (p - a->x_lo) / (a->x_hi - a->x_lo) * (PLOT_RIGHT - PLOT_LEFT);
		char label[32];

		emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
		     x, PLOT_TOP, x, PLOT_BOTTOM);
		emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
		     x, PLOT_BOTTOM, x, PLOT_BOTTOM + 5);
		if ((p - lo) % step)
			continue;
		if (c->x_is_bytes && p >= 0 && p < 63)
			mp_format_bytes(label, sizeof label, 1ull << p);
		else if (p >= 0 && p < 20)
			/* Counts (pages touched) read best as themselves. */
			mp_snprintf(label, sizeof label, "%llu", 1ull << p);
		else
			mp_snprintf(label, sizeof label, "2^%d", p);
		emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, PLOT_BOTTOM + 18);
		emit_text(o, label);
		emit(o, "</text>\n");
	}
}

static void y_ticks(const struct out *o, const struct axes *a)
{
	static const int mantissas[3] = { 1, 2, 5 };

	for (int k = (int)a->y_lo; k <= (int)a->y_hi; k++)
		for (int m = 0; m < 3; m++) {
			double v = mantissas[m] * pow10_int(k);
			double y = px_y(a, v);
			if (y < PLOT_TOP - 0.01)
				continue;
			emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			     PLOT_LEFT, y, PLOT_RIGHT, y, m ? "#f0f0f0" : "#dddddd");
			emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
			     PLOT_LEFT - 5, y, PLOT_LEFT, y);
			/* %g keeps 0.5 and 200 short. */
			emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			     PLOT_LEFT - 8, y + 4, v);
		}
}

static void draw_series(const struct out *o, const struct svg_series *s, size_t index,
			const struct axes *a)
{
	const char *colour = series_colour[index % NCOLOURS];

	emit(o, "<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
	     colour);
	for (size_t i = 0; i < s->n; i++)
		if (usable(s->x[i], s->y[i]))
			emit(o, "%.1f,%.1f ", px_x(a, s->x[i]), px_y(a, s->y[i]));
	emit(o, "\"><title>");
	emit_text(o, s->label);
	emit(o, "</title></polyline>\n");
	for (size_t i = 0; i < s->n; i++)
		if (usable(s->x[i], s->y[i]))
			emit(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
			     px_x(a, s->x[i]), px_y(a, s->y[i]), colour);
}

static void draw_marker(const struct out *o, const struct svg_marker *m, const struct axes *a)
{
	const char *colour = m->series >= 0 ? series_colour[(size_t)m->series % NCOLOURS] : NEUTRAL;
	double x;

	if (!(m->x > 0.0) || m->x >= 1e300)
		return;
	x = px_x(a, m->x);
	if (x < PLOT_LEFT || x > PLOT_RIGHT)
		return;
	emit(o, "<g class=\"edge\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	     "stroke=\"%s\" stroke-width=\"1.5\"%s/>\n", x, PLOT_TOP, x, PLOT_BOTTOM, colour,
	     m->dashed ? " stroke-dasharray=\"6,4\"" : "");
	/* Upright labels along the line, hanging from the top: neighbouring
	   edges one sweep step apart would overlap as horizontal text, and a
	   latency curve rises to the right, so the top left stays clear. */
	emit(o, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"end\" "
	     "fill=\"%s\">", x - 4, PLOT_TOP + 6, colour);
	emit_text(o, m->label);
	emit(o, "</text></g>\n");
}

/* Bottom right: the one corner a rising latency curve leaves empty. */
static void draw_legend(const struct out *o, const struct svg_chart *c)
{
	double height = 22.0 * (double)c->nseries + (c->edge_legend ? 34 : 12);
	double x = PLOT_RIGHT - 216, y = PLOT_BOTTOM - height - 8 + 14;

	emit(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"210\" height=\"%.1f\" fill=\"white\" "
	     "stroke=\"#999999\"/>\n", x - 6, y - 12, height);
	for (size_t s = 0; s < c->nseries; s++, y += 22) {
		emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		     "stroke-width=\"2\"/>\n", x, y, x + 24, y, series_colour[s % NCOLOURS]);
		emit(o, "<text x=\"%.1f\" y=\"%.1f\">", x + 30, y + 4);
		emit_text(o, c->series[s].label);
		emit(o, "</text>\n");
	}
	if (!c->edge_legend)
		return;
	emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
	     x, y, x + 24, y, NEUTRAL);
	emit(o, "<text x=\"%.1f\" y=\"%.1f\">cache edge</text>\n", x + 30, y + 4);
	emit(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
	     "stroke-dasharray=\"6,4\"/>\n", x + 110, y, x + 134, y, NEUTRAL);
	emit(o, "<text x=\"%.1f\" y=\"%.1f\">TLB edge</text>\n", x + 140, y + 4);
}

/* One chart's title, axes, markers, curves and legend, drawn from the top
   left of its own WIDTH x HEIGHT area. 0, or -1 when it had no point to draw
   (the area then says so). */
static int draw_panel(const struct out *o, const struct svg_chart *c)
{
	struct axes a;
	int have_points = find_axes(c, &a) == 0;

	emit(o, "<text x=\"%d\" y=\"30\" text-anchor=\"middle\" font-size=\"16\">", WIDTH / 2);
	emit_text(o, c->title);
	emit(o, "</text>\n");
	if (!have_points) {
		emit(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no measurement to draw</text>\n",
		     WIDTH / 2, HEIGHT / 2);
		return -1;
	}
	x_ticks(o, c, &a);
	y_ticks(o, &a);
	emit(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
	     "stroke=\"black\"/>\n", PLOT_LEFT, PLOT_TOP, PLOT_RIGHT - PLOT_LEFT,
	     PLOT_BOTTOM - PLOT_TOP);
	emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (PLOT_LEFT + PLOT_RIGHT) / 2,
	     PLOT_BOTTOM + 40);
	emit_text(o, c->x_label);
	emit(o, "</text>\n");
	emit(o, "<text transform=\"translate(22,%.1f) rotate(-90)\" text-anchor=\"middle\">",
	     (PLOT_TOP + PLOT_BOTTOM) / 2);
	emit_text(o, c->y_label);
	emit(o, "</text>\n");
	for (size_t m = 0; m < c->nmarkers; m++)
		draw_marker(o, &c->markers[m], &a);
	for (size_t s = 0; s < c->nseries; s++)
		draw_series(o, &c->series[s], s, &a);
	draw_legend(o, c);
	return 0;
}

// Public Functions

double svg_log2(double x)
{
	union { double d; uint64_t u; } v = { x };
	double m, z, z2, term, sum;
	int e;

	if (x != x || x < 0.0)
		return 0.0 / 0.0;
	if (x == 0.0)
		return -1.0 / 0.0;
	if (x > 1.7976931348623157e308)
		return x;
	e = 0;
	if (!(v.u >> 52)) {           /* subnormal: scale into the normal range */
		v.d *= 18446744073709551616.0;
		e = -64;
	}
	e += (int)(v.u >> 52) - 1023;
	v.u = (v.u & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
	m = v.d;                      /* in [1, 2) */
	if (m > 1.4142135623730951) { /* into [0.707, 1.414): the series converges faster */
		m /= 2.0;
		e++;
	}
	if (m == 1.0)
		return (double)e;
	/* ln m = 2 atanh(z), z = (m-1)/(m+1), |z| < 0.172 */
	z = (m - 1.0) / (m + 1.0);
	z2 = z * z;
	term = z;
	sum = 0.0;
	for (int k = 1; k < 60; k += 2) {
		double add = term / k;
		sum += add;
		if (add < 1e-18 && add > -1e-18)
			break;
		term *= z2;
	}
	return (double)e + 2.0 * sum * 1.44269504088896340736;
}

int svg_write_chart(const struct svg_chart *c, svg_write_fn write, void *ctx)
{
	return svg_write_panels(c, 1, write, ctx);
}

int svg_write_panels(const struct svg_chart *panels, size_t n, svg_write_fn write, void *ctx)
{
	struct out o = { write, ctx };
	int drawn = 0;

	emit(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	emit(&o, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
	     "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
	     WIDTH, HEIGHT * (int)n, WIDTH, HEIGHT * (int)n);
	emit(&o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	for (size_t i = 0; i < n; i++) {
		/* A lone chart stays as it always was: no group around it. */
		if (n > 1)
			emit(&o, "<g class=\"panel\" transform=\"translate(0,%d)\">\n",
			     HEIGHT * (int)i);
		drawn |= draw_panel(&o, &panels[i]) == 0;
		if (n > 1)
			emit(&o, "</g>\n");
	}
	emit(&o, "</svg>\n");
	return drawn ? 0 : -1;
}
