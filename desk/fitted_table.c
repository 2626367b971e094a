/* A table whose column widths fit its contents (see fitted_table.h). */

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "desk/fitted_table.h"
#include "desk/desk.h"

/* ---- Private Functions ------------------------------------------------ */

/* A copy the table owns. */
static char *copy(const char *s)
{
	return desk_must(strdup(s));
}

/* Row r's cells, as lib/table.h takes them (a cell never given is NULL,
   which it shows empty). */
static const char *const *row_cells(const struct fitted_table *t, unsigned r)
{
	return (const char *const *)&t->cell[(size_t)r * t->ncols];
}

/* The table's shape for lib/table.h: a terminal line begins "    ", or
   "  * " for a marked row. */
static struct table shape(const struct fitted_table *t)
{
	return (struct table){ t->column, t->ncols, "    ", "  * " };
}

/* ---- Public Functions ------------------------------------------------- */

void fitted_table_init(struct fitted_table *t, unsigned ncols, const char *const *header,
		       unsigned text_columns)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols < TABLE_MAX_COLUMNS ? ncols : TABLE_MAX_COLUMNS;
	for (unsigned c = 0; c < t->ncols; c++) {
		t->column[c].name = copy(header[c]);
		t->column[c].width = (unsigned)strlen(header[c]);
		t->column[c].words = (text_columns >> c) & 1;
	}
	t->filled = t->ncols;
}

void fitted_table_row(struct fitted_table *t, int marked)
{
	if (t->nrows == t->capacity) {
		t->capacity = t->capacity ? t->capacity * 2 : 32;
		t->cell = desk_must(realloc(t->cell,
					    (size_t)t->capacity * t->ncols * sizeof *t->cell));
		t->marked = desk_must(realloc(t->marked, t->capacity));
	}
	memset(&t->cell[(size_t)t->nrows * t->ncols], 0, t->ncols * sizeof *t->cell);
	t->marked[t->nrows++] = marked != 0;
	t->filled = 0;
}

void fitted_table_cell(struct fitted_table *t, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (!t->nrows || t->filled >= t->ncols)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	if (strlen(text) > t->column[t->filled].width)
		t->column[t->filled].width = (unsigned)strlen(text);
	t->cell[(size_t)(t->nrows - 1) * t->ncols + t->filled++] = copy(text);
}

void fitted_table_figure(struct fitted_table *t, double v, const char *mark)
{
	if (v == (double)(uint64_t)v)
		fitted_table_cell(t, "%.0f%s", v, mark);
	else
		fitted_table_cell(t, "%.2f%s", v, mark);
}

void fitted_table_print(struct fitted_table *t, FILE *to)
{
	struct table s = shape(t);
	char line[TABLE_MAX_COLUMNS * 520];

	table_text_header(&s, line, sizeof line);
	fputs(line, to);
	for (unsigned r = 0; r < t->nrows; r++) {
		table_text_row(&s, row_cells(t, r), t->marked[r], line, sizeof line);
		fputs(line, to);
	}
}

void fitted_table_html(const struct fitted_table *t, const struct html_out *o,
		       const char *caption)
{
	struct table s = shape(t);

	table_html_begin(o, &s, caption);
	for (unsigned r = 0; r < t->nrows; r++)
		table_html_row(o, &s, row_cells(t, r), t->marked[r]);
	table_html_end(o);
}

void fitted_table_free(struct fitted_table *t)
{
	for (unsigned c = 0; c < t->ncols; c++)
		free((char *)t->column[c].name);
	for (size_t i = 0; i < (size_t)t->nrows * t->ncols; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->marked);
	memset(t, 0, sizeof *t);
}
