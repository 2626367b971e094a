/* report.html, the run's page (see report_html.h).
 *
 * Static buffers only, like results.c: the page is written while a probe
 * buffer may hold nearly all memory.
 */

#include "results/report_html.h"
#include "lib/csv.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

#define ROWS_TEXT_MAX (64 * 1024)   /* one probe's rows, each field NUL-ended */

/* ---- Private Data ----------------------------------------------------- */

static struct html_out page;       /* where the markup goes; write NULL: no page */
static int in_pre;
static const struct table *open_table;  /* the report table being written, or NULL */
static int in_note;                      /* a note row of open_table is open */
static int quiet;                        /* report_html_quiet */

/* The rows held for the probe's table: per row, result_column_count
   fields as results.csv writes them (unquoted), each ending in a NUL. */
static char rows_text[ROWS_TEXT_MAX];
static size_t rows_len;
static unsigned rows_held;

/* ---- Private Functions ------------------------------------------------ */

static int have_page(void)
{
	return page.write != 0;
}

/* Ends the open note row of the open table, if any: the next row or the
   table's end follows. */
static void close_note(void)
{
	if (in_note)
		table_html_note_end(&page);
	in_note = 0;
}

/* Ends the open <pre> block and the open table, if any: text after a
   heading, chart or table opens a new block. */
static void close_blocks(void)
{
	if (in_pre)
		html_raw(&page, "</pre>\n");
	in_pre = 0;
	close_note();
	if (open_table)
		table_html_end(&page);
	open_table = 0;
}

/* The field after this one (fields are NUL-ended, back to back). */
static const char *next_field(const char *field)
{
	return field + mp_strlen(field) + 1;
}

/* Which columns hold the same text in every held row: those go into the
   caption once instead of into every row, so the table keeps to what
   varies (a timer description repeated on every row would make the table
   wider than any screen). With one row, nothing is folded. */
static void find_constant_columns(int *constant)
{
	const char *first = rows_text, *field = rows_text;

	for (unsigned c = 0; c < result_column_count; c++)
		constant[c] = rows_held > 1;
	for (unsigned r = 0; r < rows_held; r++) {
		const char *f = first;

		for (unsigned c = 0; c < result_column_count; c++) {
			if (mp_strcmp(f, field))
				constant[c] = 0;
			f = next_field(f);
			field = next_field(field);
		}
	}
}

/* The table's caption: the row count and, once, each constant column's
   value (empty ones left out). */
static void caption(const int *constant, char *buf, size_t size)
{
	struct mp_text out = { buf, size, 0 };
	const char *field = rows_text;
	int any = 0;

	mp_append(&out, "%u results.csv rows", rows_held);
	for (unsigned c = 0; c < result_column_count; c++, field = next_field(field)) {
		if (!constant[c] || !*field)
			continue;
		mp_append(&out, "%s%s %s", any ? "; " : "; in every row: ", result_columns[c].name,
			  field);
		any = 1;
	}
}

/* ---- Public Functions ------------------------------------------------- */

void report_html_begin(const struct html_out *o, const char *title)
{
	page = *o;
	in_pre = 0;
	open_table = 0;
	in_note = 0;
	quiet = 0;
	rows_len = 0;
	rows_held = 0;
	html_page_begin(&page, title);
}

void report_html_text(const char *text, size_t len)
{
	if (!have_page() || len == 0 || quiet)
		return;
	if (open_table) {
		if (!in_note)
			table_html_note_begin(&page, open_table);
		in_note = 1;
		html_text(&page, text, len);
		return;
	}
	if (!in_pre)
		html_raw(&page, "<pre>");
	in_pre = 1;
	html_text(&page, text, len);
}

void report_html_table_begin(const struct table *shape, const char *caption)
{
	if (!have_page())
		return;
	close_blocks();
	table_html_begin(&page, shape, caption);
	open_table = shape;
}

void report_html_table_row(const char *const *cell, int marked)
{
	if (!have_page() || !open_table)
		return;
	close_note();
	table_html_row(&page, open_table, cell, marked);
}

void report_html_table_end(void)
{
	if (have_page())
		close_blocks();
}

void report_html_quiet(int on)
{
	quiet = on;
}

void report_html_section(const char *title)
{
	if (!have_page())
		return;
	close_blocks();
	html_element(&page, "h2", title);
}

void report_html_row(const struct result_row *row)
{
	char number[48];
	size_t need = 0;

	if (!have_page())
		return;
	for (unsigned c = 0; c < result_column_count; c++)
		need += mp_strlen(result_column_format(&result_columns[c], row, number,
						       sizeof number)) + 1;
	if (need > sizeof rows_text)
		return;  /* a row longer than the buffer: results.csv still has it */
	if (rows_len + need > sizeof rows_text)
		report_html_rows_done();
	for (unsigned c = 0; c < result_column_count; c++) {
		const char *text = result_column_format(&result_columns[c], row, number,
							sizeof number);
		size_t len = mp_strlen(text) + 1;

		mp_memcpy(rows_text + rows_len, text, len);
		rows_len += len;
	}
	rows_held++;
}

void report_html_rows_done(void)
{
	static struct table_column column[TABLE_MAX_COLUMNS];
	static char caption_text[2048];
	int constant[CSV_MAX_FIELDS];
	const char *cell[TABLE_MAX_COLUMNS];
	const char *field = rows_text;
	struct table shape = { column, 0, "", NULL };

	if (!have_page() || !rows_held)
		return;
	close_blocks();
	find_constant_columns(constant);
	caption(constant, caption_text, sizeof caption_text);
	for (unsigned c = 0; c < result_column_count && shape.ncols < TABLE_MAX_COLUMNS; c++)
		if (!constant[c])
			column[shape.ncols++] = (struct table_column){
				result_columns[c].name, NULL, 0,
				result_columns[c].form == COLUMN_TEXT ||
				result_columns[c].form == COLUMN_TEXT_ID, 0 };
	table_html_begin(&page, &shape, caption_text);
	for (unsigned r = 0; r < rows_held; r++) {
		unsigned n = 0;

		for (unsigned c = 0; c < result_column_count; c++, field = next_field(field))
			if (!constant[c] && n < TABLE_MAX_COLUMNS)
				cell[n++] = field;
		table_html_row(&page, &shape, cell, 0);
	}
	table_html_end(&page);
	rows_len = 0;
	rows_held = 0;
}

void report_html_chart(const char *name,
		       int (*produce)(svg_write_fn write, void *ctx, const void *arg),
		       const void *arg)
{
	if (!have_page())
		return;
	close_blocks();
	html_raw(&page, "<figure>\n");
	produce(html_svg_write, &page, arg);
	html_element(&page, "figcaption", name);
	html_raw(&page, "</figure>\n");
}

void report_html_folded(const char *summary, const char *text, size_t len)
{
	if (!have_page())
		return;
	close_blocks();
	html_raw(&page, "<details>");
	html_element(&page, "summary", summary);
	html_raw(&page, "<pre>");
	html_text(&page, text, len);
	html_raw(&page, "</pre></details>\n");
}

void report_html_verdict(int ok, const char *text)
{
	if (!have_page())
		return;
	close_blocks();
	html_raw(&page, ok ? "<p class=\"verdict\">" : "<p class=\"verdict failed\">");
	html_str(&page, text);
	html_raw(&page, "</p>\n");
}

void report_html_checkpoint(void)
{
	if (have_page())
		close_blocks();
}

void report_html_end(void)
{
	if (!have_page())
		return;
	report_html_rows_done();
	close_blocks();
	html_page_end(&page);
	page.write = 0;
}
