/* A table declared once and shown two ways (see table.h). */

#include "lib/table.h"
#include "lib/fmt.h"

/* ---- Private Functions ------------------------------------------------ */

static unsigned ncols(const struct table *t)
{
	return t->ncols < TABLE_MAX_COLUMNS ? t->ncols : TABLE_MAX_COLUMNS;
}

static int has_units(const struct table *t)
{
	for (unsigned c = 0; c < ncols(t); c++)
		if (t->column[c].unit)
			return 1;
	return 0;
}

/* One text line of the given cells (NULL: empty). */
static void text_line(struct mp_text *out, const struct table *t, const char *const *cell,
		      const char *indent)
{
	unsigned n = ncols(t);
	size_t start;

	mp_append(out, "%s", indent ? indent : "");
	start = out->len;
	for (unsigned c = 0; c < n; c++) {
		const struct table_column *col = &t->column[c];
		const char *text = cell[c] ? cell[c] : "";
		/* An unpadded last column of words: a padded one would end the
		   line in blanks, which diff and copy-paste both trip on. */
		int width = col->words && c + 1 == n ? 0 : (int)col->width;

		if (c)
			mp_append(out, "%*s", col->gap ? (int)col->gap : 1, "");
		mp_append(out, col->words ? "%-*s" : "%*s", width, text);
	}
	/* Empty last cells leave blanks at the end: gone, as above. */
	while (out->len > start && out->len < out->size && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	mp_append(out, "\n");
}

/* A cell's text without the blanks that aligned it in the text rendering
   (a probe may hand a cell preformatted, "    12/3  "). */
static void trimmed(const struct html_out *o, const char *text)
{
	size_t len;

	if (!text)
		return;
	while (*text == ' ')
		text++;
	len = mp_strlen(text);
	while (len && text[len - 1] == ' ')
		len--;
	html_text(o, text, len);
}

static void html_cell(const struct html_out *o, const char *tag, int words, const char *text)
{
	html_raw(o, "<");
	html_raw(o, tag);
	html_raw(o, words ? " class=\"text\">" : ">");
	trimmed(o, text);
	html_raw(o, "</");
	html_raw(o, tag);
	html_raw(o, ">");
}

/* ---- Public Functions ------------------------------------------------- */

size_t table_text_header(const struct table *t, char *buf, size_t size)
{
	const char *names[TABLE_MAX_COLUMNS], *units[TABLE_MAX_COLUMNS];
	struct mp_text out = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	for (unsigned c = 0; c < ncols(t); c++) {
		names[c] = t->column[c].name;
		units[c] = t->column[c].unit;
	}
	text_line(&out, t, names, t->indent);
	if (has_units(t))
		text_line(&out, t, units, t->indent);
	return out.len;
}

size_t table_text_row(const struct table *t, const char *const *cell, int marked, char *buf,
		      size_t size)
{
	struct mp_text out = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	text_line(&out, t, cell, marked && t->marked_indent ? t->marked_indent : t->indent);
	return out.len;
}

void table_html_begin(const struct html_out *o, const struct table *t, const char *caption)
{
	html_raw(o, "<div class=\"scroll\"><table>\n");
	if (caption)
		html_element(o, "caption", caption);
	html_raw(o, "<thead><tr>");
	for (unsigned c = 0; c < ncols(t); c++)
		html_cell(o, "th", t->column[c].words, t->column[c].name);
	html_raw(o, "</tr>");
	if (has_units(t)) {
		html_raw(o, "\n<tr class=\"unit\">");
		for (unsigned c = 0; c < ncols(t); c++)
			html_cell(o, "th", t->column[c].words, t->column[c].unit);
		html_raw(o, "</tr>");
	}
	html_raw(o, "</thead>\n<tbody>\n");
}

void table_html_row(const struct html_out *o, const struct table *t, const char *const *cell,
		    int marked)
{
	html_raw(o, marked ? "<tr class=\"only\">" : "<tr>");
	for (unsigned c = 0; c < ncols(t); c++)
		html_cell(o, "td", t->column[c].words, cell[c]);
	html_raw(o, "</tr>\n");
}

void table_html_note_begin(const struct html_out *o, const struct table *t)
{
	char open[64];

	mp_snprintf(open, sizeof open, "<tr class=\"note\"><td colspan=\"%u\">", ncols(t));
	html_raw(o, open);
}

void table_html_note_end(const struct html_out *o)
{
	html_raw(o, "</td></tr>\n");
}

void table_html_end(const struct html_out *o)
{
	html_raw(o, "</tbody></table></div>\n");
}
