/* SVG line charts (see svg.h). */
#include "lib/svg.h"
#include "lib/svg_out.h"
#include "lib/fmt.h"
#include "lib/base2.h"

/* ---- Constants -------------------------------------------------------- */

#define LOG2_10 3.32192809488736234787

#define NEUTRAL "#555555"

/* The most markers a panel labels; markers past it are not drawn. */
#define MAX_MARKERS 64

/* Where a marker's label lies on the chart, in px. */
struct label_box {
	double left, top, right, bottom;
	int placed;               /* 0: the marker is not drawn */
};

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

/* Where an upright label's glyphs lie, in px, around its baseline and
   along it: a conservative guess for a 12 px sans-serif face (no font is
   measured), so boxes laid apart here are apart on any desk. */
#define LABEL_ASCENT 11.0
#define LABEL_DESCENT 3.0
#define LABEL_CHAR 7.2
#define LABEL_GAP 4.0      /* between a label and its line, and between labels */

/* Marker m's line in px, or -1 when it falls outside the plot. */
static double marker_px(const struct svg_marker *m, const struct axes *a)
{
	double x;

	if (!(m->x > 0.0) || m->x >= 1e300)
		return -1;
	x = px_x(a, m->x);
	return x < SVG_PLOT_LEFT || x > SVG_PLOT_RIGHT ? -1 : x;
}

/* The box of a label of `chars` characters beside the line at x, on its
   left or right side, its top at top. */
static struct label_box label_box(double x, int right, double top, size_t chars)
{
	struct label_box b;

	b.left = right ? x + LABEL_GAP : x - LABEL_GAP - LABEL_ASCENT;
	b.right = b.left + LABEL_ASCENT + LABEL_DESCENT;
	b.top = top;
	b.bottom = top + LABEL_CHAR * (double)chars;
	b.placed = 1;
	return b;
}

static int boxes_meet(const struct label_box *p, const struct label_box *q)
{
	return p->placed && q->placed && p->left < q->right + LABEL_GAP &&
	       q->left < p->right + LABEL_GAP && p->top < q->bottom + LABEL_GAP &&
	       q->top < p->bottom + LABEL_GAP;
}

/* The highest free place on one side of the line at x: from the plot's
   top, moved below every placed box it would meet. */
static struct label_box lowest_free(const struct label_box *box, size_t n, double x,
					int right, size_t chars)
{
	struct label_box b = label_box(x, right, SVG_PLOT_TOP + 6, chars);
	int moved = 1;

	while (moved) {
		moved = 0;
		for (size_t k = 0; k < n; k++)
			if (boxes_meet(&b, &box[k])) {
				b = label_box(x, right, box[k].bottom + LABEL_GAP, chars);
				moved = 1;
			}
	}
	return b;
}

/* Lays out every marker's label (box[i] for marker i; a marker outside
   the plot gets none), left to right: each on the side of its line where
   it can hang highest without meeting a label placed before it, the left
   side on a tie (a latency curve rises to the right, so the top left
   stays clear). */
static void layout_labels(const struct svg_chart *c, const struct axes *a,
			  struct label_box *box)
{
	size_t n = c->nmarkers < MAX_MARKERS ? c->nmarkers : MAX_MARKERS;

	for (size_t m = 0; m < n; m++)
		box[m] = (struct label_box){ 0 };
	for (;;) {
		size_t next = n;
		double next_x = 0;

		/* The leftmost marker not yet placed. */
		for (size_t m = 0; m < n; m++) {
			double x = marker_px(&c->markers[m], a);
			if (x >= 0 && !box[m].placed && (next == n || x < next_x)) {
				next = m;
				next_x = x;
			}
		}
		if (next == n)
			return;
		size_t chars = mp_strlen(c->markers[next].label ? c->markers[next].label : "");
		struct label_box l = lowest_free(box, n, next_x, 0, chars);
		struct label_box r = lowest_free(box, n, next_x, 1, chars);

		box[next] = r.top < l.top ? r : l;
	}
}

static void draw_marker(const struct svg_out *o, const struct svg_marker *m,
			const struct label_box *b, const struct axes *a)
{
	const char *colour = m->series >= 0 ? svg_series_colour((size_t)m->series) : NEUTRAL;
	double x = marker_px(m, a);

	if (!b->placed)
		return;
	svg_emit(o, "<g class=\"edge\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	     "stroke=\"%s\" stroke-width=\"1.5\"%s/>\n", x, SVG_PLOT_TOP, x, SVG_PLOT_BOTTOM, colour,
	     m->dashed ? " stroke-dasharray=\"6,4\"" : "");
	/* Upright labels along the line, hanging from their box's top, the
	   baseline on the box's line-facing side plus the ascent: neighbouring
	   edges one sweep step apart would overlap as horizontal text. */
	svg_emit(o, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"end\" "
	     "fill=\"%s\">", b->left + LABEL_ASCENT, b->top, colour);
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
	static struct label_box box[MAX_MARKERS];
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
	layout_labels(c, &a, box);
	for (size_t m = 0; m < c->nmarkers && m < MAX_MARKERS; m++)
		draw_marker(o, &c->markers[m], &box[m], &a);
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

