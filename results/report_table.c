/* A table of the report, both ways (see report_table.h). */

#include "results/report_table.h"
#include "results/report_html.h"
#include "results/results.h"

/* ---- Constants -------------------------------------------------------- */

#define ROW_TEXT_MAX 2048    /* one row's cells, each NUL-ended */
#define LINE_MAX     4096    /* one row's text line, or the header's two */

/* ---- Private Data ----------------------------------------------------- */

static const struct table *shape;
static struct mp_printer text_to;
static char cell_text[ROW_TEXT_MAX];
static size_t cell_len;
static const char *cell[TABLE_MAX_COLUMNS];
static unsigned filled;       /* cells kept for the row */
static unsigned given;        /* cells given for the row, kept or not */
static int misplaced;         /* a named cell given away from its column */
static unsigned misfits;
static char line[LINE_MAX];

/* ---- Private Functions ------------------------------------------------ */

/* The text rendering, left out of the page, which shows the table. */
static void print_quietly(const char *text)
{
	report_html_quiet(1);
	text_to.print(text_to.ctx, text);
	report_html_quiet(0);
}

static void clear_row(void)
{
	cell_len = 0;
	filled = 0;
	given = 0;
	misplaced = 0;
	for (unsigned c = 0; c < TABLE_MAX_COLUMNS; c++)
		cell[c] = 0;
}

/* The next cell from fmt and its arguments; counted even when it cannot
   be kept, so a row of too many cells is a misfit, not silently cut. */
static void add_cell(const char *fmt, va_list ap)
{
	int n;

	given++;
	if (!shape || filled >= shape->ncols || filled >= TABLE_MAX_COLUMNS ||
	    cell_len >= sizeof cell_text)
		return;
	n = mp_vsnprintf(cell_text + cell_len, sizeof cell_text - cell_len, fmt, ap);
	if (n < 0) {
		cell_text[cell_len] = '\0';   /* a bad format: an empty cell, not garbage */
		n = 0;
	}
	cell[filled++] = cell_text + cell_len;
	/* A cut cell keeps what fit; the ones after it are dropped (empty). */
	cell_len += (size_t)n + 1;
}

/* The line after a misfit row, in the text (and so on the page when the
   text is the run's report); counted. */
static void report_misfit(void)
{
	misfits++;
	mp_snprintf(line, sizeof line, "%s(a bug in memprobe: the row above gave %u cells for "
		    "%u columns%s)\n", shape->indent, given, shape->ncols,
		    misplaced ? ", a figure away from its column" : "");
	text_to.print(text_to.ctx, line);
}

/* ---- Public Functions ------------------------------------------------- */

void report_table_begin(const struct table *t, const char *caption, const struct mp_printer *to)
{
	shape = t;
	text_to = to ? *to : (struct mp_printer){ report_put, 0 };
	clear_row();
	table_text_header(shape, line, sizeof line);
	print_quietly(line);
	report_html_table_begin(shape, caption);
}

void report_table_cell(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_cell(fmt, ap);
	va_end(ap);
}

void report_table_cell_under(const char *column, const char *fmt, ...)
{
	va_list ap;

	if (shape && (given >= shape->ncols || mp_strcmp(shape->column[given].name, column)))
		misplaced = 1;
	va_start(ap, fmt);
	add_cell(fmt, ap);
	va_end(ap);
}

void report_table_row(int marked)
{
	if (!shape)
		return;
	table_text_row(shape, cell, marked, line, sizeof line);
	print_quietly(line);
	report_html_table_row(cell, marked);
	if (given != shape->ncols || misplaced)
		report_misfit();
	clear_row();
}

void report_table_end(void)
{
	report_html_table_end();
	shape = 0;
}

unsigned report_table_misfits(void)
{
	return misfits;
}
