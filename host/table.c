/* A table of text cells, for a terminal and for a page (see table.h). */

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"
#include "host/table.h"

// Private Functions

/* A copy the table owns. */
static char *copy(const char *s)
{
	return host_must(strdup(s));
}

/* A cell's text; "" for one never given. */
static const char *at(const struct table *t, unsigned row, unsigned col)
{
	const char *s = t->cell[(size_t)row * t->ncols + col];

	return s ? s : "";
}

// Public Functions

void table_init(struct table *t, unsigned ncols, const char *const *header, unsigned text_columns)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols < TABLE_MAX_COLUMNS ? ncols : TABLE_MAX_COLUMNS;
	for (unsigned c = 0; c < t->ncols; c++)
		t->header[c] = copy(header[c]);
	t->text_columns = text_columns;
	t->filled = t->ncols;
}

void table_row(struct table *t, int marked)
{
	if (t->nrows == t->capacity) {
		t->capacity = t->capacity ? t->capacity * 2 : 32;
		t->cell = host_must(realloc(t->cell,
					    (size_t)t->capacity * t->ncols * sizeof *t->cell));
		t->marked = host_must(realloc(t->marked, t->capacity));
	}
	memset(&t->cell[(size_t)t->nrows * t->ncols], 0, t->ncols * sizeof *t->cell);
	t->marked[t->nrows++] = marked != 0;
	t->filled = 0;
}

void table_cell(struct table *t, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (!t->nrows || t->filled >= t->ncols)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	t->cell[(size_t)(t->nrows - 1) * t->ncols + t->filled++] = copy(text);
}

/* One line: the mark, then each cell padded to its column's width (words
   left, numbers right); a last column of words is not padded, so no line
   ends in blanks. */
static void print_line(const struct table *t, FILE *to, const size_t *width, int marked,
		       const char *(*text)(const struct table *t, unsigned row, unsigned col),
		       unsigned row)
{
	fputs(marked ? "  *" : "   ", to);
	for (unsigned c = 0; c < t->ncols; c++) {
		int words = (t->text_columns >> c) & 1;
		int pad = words && c + 1 == t->ncols ? 0 : (int)width[c];

		fprintf(to, words ? " %-*s" : " %*s", pad, text(t, row, c));
	}
	fputc('\n', to);
}

/* A column's name, in the shape of at() for print_line. */
static const char *header_text(const struct table *t, unsigned row, unsigned col)
{
	(void)row;
	return t->header[col];
}

void table_print(const struct table *t, FILE *to)
{
	size_t width[TABLE_MAX_COLUMNS];

	for (unsigned c = 0; c < t->ncols; c++) {
		width[c] = strlen(t->header[c]);
		for (unsigned r = 0; r < t->nrows; r++)
			if (strlen(at(t, r, c)) > width[c])
				width[c] = strlen(at(t, r, c));
	}
	print_line(t, to, width, 0, header_text, 0);
	for (unsigned r = 0; r < t->nrows; r++)
		print_line(t, to, width, t->marked[r], at, r);
}

void table_html(const struct table *t, const struct html_out *o, const char *caption)
{
	html_raw(o, "<div class=\"scroll\"><table>\n");
	if (caption)
		html_element(o, "caption", caption);
	html_raw(o, "<thead><tr>");
	for (unsigned c = 0; c < t->ncols; c++) {
		html_raw(o, (t->text_columns >> c) & 1 ? "<th class=\"text\">" : "<th>");
		html_str(o, t->header[c]);
		html_raw(o, "</th>");
	}
	html_raw(o, "</tr></thead>\n<tbody>\n");
	for (unsigned r = 0; r < t->nrows; r++) {
		html_raw(o, t->marked[r] ? "<tr class=\"only\">" : "<tr>");
		for (unsigned c = 0; c < t->ncols; c++) {
			html_raw(o, (t->text_columns >> c) & 1 ? "<td class=\"text\">" : "<td>");
			html_str(o, at(t, r, c));
			html_raw(o, "</td>");
		}
		html_raw(o, "</tr>\n");
	}
	html_raw(o, "</tbody></table></div>\n");
}

void table_free(struct table *t)
{
	for (unsigned c = 0; c < t->ncols; c++)
		free(t->header[c]);
	for (size_t i = 0; i < (size_t)t->nrows * t->ncols; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->marked);
	memset(t, 0, sizeof *t);
}
