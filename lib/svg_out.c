/* SVG markup out (see svg_out.h). */
#include <stdarg.h>
#include "lib/svg_out.h"
#include "lib/fmt.h"

/* Colours told apart also by most colour-blind readers (Okabe-Ito). */
static const char *const series_colours[] = { "#0072b2", "#d55e00", "#009e73", "#cc79a7" };

const char *svg_series_colour(size_t i)
{
	return series_colours[i % (sizeof series_colours / sizeof *series_colours)];
}

void svg_emit(const struct svg_out *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = mp_vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* Every format is short; text of unknown length goes through
	   svg_emit_text, so a cut cannot land inside markup. */
	o->write(o->ctx, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void svg_emit_text(const struct svg_out *o, const char *s)
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

void svg_emit_document(const struct svg_out *o, int width, int height)
{
	svg_emit(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	svg_emit(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		 "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
		 "font-size=\"12\">\n", width, height, width, height);
	svg_emit(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
}

void svg_emit_title(const struct svg_out *o, int width, const char *title)
{
	svg_emit(o, "<text x=\"%d\" y=\"30\" text-anchor=\"middle\" font-size=\"16\">",
		 width / 2);
	svg_emit_text(o, title);
	svg_emit(o, "</text>\n");
}

void svg_emit_begin(const struct svg_out *o, int width, int height, const char *title)
{
	svg_emit_document(o, width, height);
	svg_emit_title(o, width, title);
}

void svg_emit_no_points(const struct svg_out *o, int width, int height)
{
	svg_emit(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no measurement to "
		 "draw</text>\n", width / 2, height / 2);
}

int svg_emit_nothing(const struct svg_out *o, int width, int height)
{
	svg_emit_no_points(o, width, height);
	svg_emit(o, "</svg>\n");
	return -1;
}

void svg_emit_frame(const struct svg_out *o, double left, double top, double right,
		    double bottom, const char *x_label, const char *y_label)
{
	svg_emit(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		 "stroke=\"black\"/>\n", left, top, right - left, bottom - top);
	svg_emit(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (left + right) / 2,
		 bottom + 40);
	svg_emit_text(o, x_label);
	svg_emit(o, "</text>\n<text transform=\"translate(22,%.1f) rotate(-90)\" "
		 "text-anchor=\"middle\">", (top + bottom) / 2);
	svg_emit_text(o, y_label);
	svg_emit(o, "</text>\n");
}

double svg_axis_top(double v, int ticks)
{
	double step = 1e-6;

	if (!(v > 0))
		return 1;
	while (step * ticks < v) {
		if (step * 2 * ticks >= v)
			return step * 2 * ticks;
		if (step * 5 * ticks >= v)
			return step * 5 * ticks;
		step *= 10;
	}
	return step * ticks;
}
