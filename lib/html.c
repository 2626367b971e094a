/* HTML pages that open anywhere (see html.h). */

#include "lib/html.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

/* The one style sheet of every page. Tables sit in a .scroll box so a wide
   one scrolls on a phone instead of widening the page past the screen;
   figures never wrap (a number split over two lines misreads), words may
   (a long description would otherwise push the figures off the screen);
   charts keep their aspect and shrink to the width; a note printed
   between a table's rows keeps its line breaks; print drops the
   colours and never splits a chart or a table row across pages; a chart
   and its table (.pair) stand side by side where the width allows, one
   under the other where it does not; the contents' lists run in columns
   so the first chart stays near the top. */
static const char style[] =
	"body{font-family:system-ui,sans-serif;margin:0 auto;padding:0 12px 24px;"
	"max-width:1200px;color:#111;line-height:1.4}\n"
	"h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #999;margin-top:1.6em}\n"
	"pre{font-size:12px;overflow-x:auto;background:#f6f6f6;padding:6px}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;font-size:13px;margin:8px 0}\n"
	"th,td{border:1px solid #bbb;padding:2px 6px;text-align:right;white-space:nowrap}\n"
	"th{background:#eee}td.text,th.text{text-align:left}td.text{white-space:normal}\n"
	"caption{text-align:left;font-style:italic}\n"
	"tr.only td{background:#fff3cd}\n"
	"tr.note td{text-align:left;white-space:pre-wrap;font-family:monospace;font-size:12px}\n"
	"tr.unit th{font-weight:normal}\n"
	"figure{margin:12px 0}svg{max-width:100%;height:auto}\n"
	".pair{display:flex;flex-wrap:wrap;gap:0 16px;align-items:flex-start}"
	".pair figure{flex:1 1 600px;min-width:0}\n"
	"ul.toc{columns:3 16em;margin:4px 0}\n"
	".verdict{font-weight:bold;font-size:1.1em}.failed{color:#a00}\n"
	"@media (max-width:600px){body{padding:0 4px}pre,table{font-size:11px}}\n"
	"@media print{body{max-width:none;color:#000}pre{background:none;white-space:pre-wrap}"
	"th{background:none}figure,tr{break-inside:avoid}}\n";

/* ---- Public Functions ------------------------------------------------- */

void html_raw(const struct html_out *o, const char *markup)
{
	o->write(o->ctx, markup, mp_strlen(markup));
}

void html_text(const struct html_out *o, const char *text, size_t len)
{
	size_t done = 0;

	for (size_t i = 0; i < len; i++) {
		const char *rep;

		switch (text[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default: continue;
		}
		/* Plain runs go through whole: one write per run, not per byte. */
		if (i > done)
			o->write(o->ctx, text + done, i - done);
		html_raw(o, rep);
		done = i + 1;
	}
	if (len > done)
		o->write(o->ctx, text + done, len - done);
}

void html_str(const struct html_out *o, const char *text)
{
	if (text)
		html_text(o, text, mp_strlen(text));
}

void html_element(const struct html_out *o, const char *tag, const char *text)
{
	html_raw(o, "<");
	html_raw(o, tag);
	html_raw(o, ">");
	html_str(o, text);
	html_raw(o, "</");
	html_raw(o, tag);
	html_raw(o, ">\n");
}

void html_page_begin(const struct html_out *o, const char *title)
{
	html_raw(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
	html_element(o, "title", title);
	html_raw(o, "<style>\n");
	html_raw(o, style);
	html_raw(o, "</style>\n</head>\n<body>\n");
	html_element(o, "h1", title);
}

void html_page_end(const struct html_out *o)
{
	html_raw(o, "</body>\n</html>\n");
}

void html_svg_write(void *ctx, const char *data, size_t len)
{
	const struct html_out *o = ctx;

	/* lib/svg.c writes its declaration as one piece of its own. */
	if (len >= 5 && !mp_strncmp(data, "<?xml", 5))
		return;
	o->write(o->ctx, data, len);
}
