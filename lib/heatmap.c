/* SVG heatmaps (see heatmap.h). */
#include "lib/heatmap.h"
#include "lib/svg_out.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

#define MARGIN_LEFT 90
#define MARGIN_TOP 80
#define PLOT_SIDE 640
#define LEGEND_WIDTH 160
/* Cells smaller than this cannot hold their value as text. */
#define CELL_TEXT_MIN 28.0

/* ---- Private Functions ------------------------------------------------ */

/* A cell with a measurement (NaN and non-positive are none). */
static int has_value(double v)
{
	return v == v && v > 0;
}

/* From light yellow (t = 0) to dark blue (t = 1), through green: readable
   in grey as a plain lightness ramp. */
static void colour(double t, char *buf, size_t size)
{
	static const unsigned char stops[3][3] = { { 255, 247, 188 }, { 65, 182, 196 },
						   { 8, 29, 88 } };
	int lo = t < 0.5 ? 0 : 1;
	double f = t < 0.5 ? t * 2 : (t - 0.5) * 2;
	unsigned rgb[3];

	for (int k = 0; k < 3; k++)
		rgb[k] = (unsigned)(stops[lo][k] + (stops[lo + 1][k] - stops[lo][k]) * f + 0.5);
	mp_snprintf(buf, size, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* Each item's number along the top and down the left, and the axis names. */
static void axis_labels(const struct svg_out *o, const struct svg_heatmap *h, double cell)
{
	for (size_t i = 0; i < h->n; i++) {
		double mid = (double)i * cell + cell / 2;

		svg_emit(o, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%u</text>\n",
			 MARGIN_LEFT + mid, MARGIN_TOP - 8, h->label[i]);
		svg_emit(o, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%u</text>\n",
			 MARGIN_LEFT - 8, MARGIN_TOP + mid + 4, h->label[i]);
	}
	svg_emit(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", MARGIN_LEFT + PLOT_SIDE / 2,
		 MARGIN_TOP - 28);
	svg_emit_text(o, h->axis_label);
	svg_emit(o, "</text>\n<text transform=\"translate(30,%d) rotate(-90)\" "
		 "text-anchor=\"middle\">", MARGIN_TOP + PLOT_SIDE / 2);
	svg_emit_text(o, h->axis_label);
	svg_emit(o, "</text>\n");
}

/* Beside a matrix whose measured cells all hold one value (one pair):
   that value, said once, in place of a scale whose two ends would be
   the same number. */
static void one_value(const struct svg_out *o, const struct svg_heatmap *h, double v)
{
	int x = MARGIN_LEFT + PLOT_SIDE + 30;

	svg_emit(o, "<text x=\"%d\" y=\"%d\">one value: %.1f ", x, MARGIN_TOP + 14, v);
	svg_emit_text(o, h->unit);
	svg_emit(o, "</text>\n<text x=\"%d\" y=\"%d\">(no colour scale)</text>\n", x,
		 MARGIN_TOP + 32);
}

/* The colour scale beside the matrix, with its two ends' values; a
   matrix of one value gets one_value instead. */
static void legend(const struct svg_out *o, const struct svg_heatmap *h, double lo, double hi)
{
	int x = MARGIN_LEFT + PLOT_SIDE + 30;
	char fill[8];

	if (!(hi > lo)) {
		one_value(o, h, lo);
		return;
	}
	for (int k = 0; k <= 10; k++) {
		colour(k / 10.0, fill, sizeof fill);
		svg_emit(o, "<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"20\" fill=\"%s\"/>\n", x,
			 MARGIN_TOP + 20 * k, fill);
	}
	svg_emit(o, "<text x=\"%d\" y=\"%d\">%.1f ", x + 30, MARGIN_TOP + 14, lo);
	svg_emit_text(o, h->unit);
	svg_emit(o, "</text>\n<text x=\"%d\" y=\"%d\">%.1f ", x + 30, MARGIN_TOP + 214, hi);
	svg_emit_text(o, h->unit);
	svg_emit(o, "</text>\n");
}

/* ---- Public Functions ------------------------------------------------- */

int svg_write_heatmap(const struct svg_heatmap *h, svg_write_fn write, void *ctx)
{
	struct svg_out o = { write, ctx };
	int width = MARGIN_LEFT + PLOT_SIDE + LEGEND_WIDTH, height = MARGIN_TOP + PLOT_SIDE + 40;
	double lo = 0, hi = 0, cell;
	int any = 0;

	for (size_t i = 0; i < h->n * h->n; i++)
		if (has_value(h->value[i])) {
			lo = any && lo < h->value[i] ? lo : h->value[i];
			hi = any && hi > h->value[i] ? hi : h->value[i];
			any = 1;
		}
	svg_emit_begin(&o, width, height, h->title);
	if (!any)
		return svg_emit_nothing(&o, width, height);
	cell = (double)PLOT_SIDE / (double)h->n;
	axis_labels(&o, h, cell);
	for (size_t r = 0; r < h->n; r++)
		for (size_t c = 0; c < h->n; c++) {
			double v = h->value[r * h->n + c], x = MARGIN_LEFT + (double)c * cell,
			       y = MARGIN_TOP + (double)r * cell;
			char fill[8] = "#eeeeee";

			if (has_value(v))
				colour(hi > lo ? (v - lo) / (hi - lo) : 0.5, fill, sizeof fill);
			svg_emit(&o, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				 "height=\"%.1f\" fill=\"%s\" stroke=\"white\"/>\n", x, y, cell, cell,
				 fill);
			if (has_value(v) && cell >= CELL_TEXT_MIN)
				svg_emit(&o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
					 "font-size=\"%d\" fill=\"%s\">%.0f</text>\n", x + cell / 2,
					 y + cell / 2 + 4, cell >= 48 ? 12 : 9,
					 hi > lo && (v - lo) / (hi - lo) > 0.5 ? "white" : "black", v);
		}
	legend(&o, h, lo, hi);
	svg_emit(&o, "</svg>\n");
	return 0;
}
