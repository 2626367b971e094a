/* report.html, the run's page (see report_html.h).
 *
 * Static buffers only, like results.c: the page is written while a probe
 * buffer may hold nearly all memory.
 */

#include "probes/report_html.h"
#include "lib/csv.h"
#include "lib/fmt.h"

// Constants

#define ROWS_TEXT_MAX (64 * 1024)   /* one probe's rows, each field NUL-ended */

// Private Data

static struct html_out page;       /* where the markup goes; write NULL: no page */
static int in_pre;

/* The rows held for the probe's table: per row, result_column_count
   fields as results.csv writes them (unquoted), each ending in a NUL. */
static char rows_text[ROWS_TEXT_MAX];
static size_t rows_len;
static unsigned rows_held;

// Private Functions

static int have_page(void)
{
	return page.write != 0;
}

/* Ends the open <pre> block, if any: text after a heading, chart or table
   opens a new one. */
static void close_pre(void)
{
	if (in_pre)
		html_raw(&page, "</pre>\n");
	in_pre = 0;
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
static void caption(const int *constant)
{
	const char *field = rows_text;
	char count[64];
	int any = 0;

	mp_snprintf(count, sizeof count, "%u results.csv rows", rows_held);
	html_raw(&page, "<caption>");
	html_str(&page, count);
	for (unsigned c = 0; c < result_column_count; c++, field = next_field(field)) {
		if (!constant[c] || !*field)
			continue;
		html_raw(&page, any ? "; " : "; in every row: ");
		html_str(&page, result_columns[c].name);
		html_raw(&page, " ");
		html_str(&page, field);
		any = 1;
	}
	html_raw(&page, "</caption>\n");
}

/* One <td> or <th>, escaped; words left-aligned (class "text"). */
static void cell(const char *tag, int is_text, const char *text)
{
	html_raw(&page, "<");
	html_raw(&page, tag);
	html_raw(&page, is_text ? " class=\"text\">" : ">");
	html_str(&page, text);
	html_raw(&page, "</");
	html_raw(&page, tag);
	html_raw(&page, ">");
}

// Public Functions

void report_html_begin(const struct html_out *o, const char *title)
{
	page = *o;
	in_pre = 0;
	rows_len = 0;
	rows_held = 0;
	html_page_begin(&page, title);
}

void report_html_text(const char *text, size_t len)
{
	if (!have_page() || len == 0)
		return;
	if (!in_pre)
		html_raw(&page, "<pre>");
	in_pre = 1;
	html_text(&page, text, len);
}

void report_html_section(const char *title)
{
	if (!have_page())
		return;
	close_pre();
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
	int constant[CSV_MAX_FIELDS];
	const char *field = rows_text;

	if (!have_page() || !rows_held)
		return;
	close_pre();
	find_constant_columns(constant);
	html_raw(&page, "<div class=\"scroll\"><table>\n");
	caption(constant);
	html_raw(&page, "<thead><tr>");
	for (unsigned c = 0; c < result_column_count; c++)
		if (!constant[c])
			cell("th", result_columns[c].form == COLUMN_TEXT, result_columns[c].name);
	html_raw(&page, "</tr></thead>\n<tbody>\n");
	for (unsigned r = 0; r < rows_held; r++) {
		html_raw(&page, "<tr>");
		for (unsigned c = 0; c < result_column_count; c++, field = next_field(field))
			if (!constant[c])
				cell("td", result_columns[c].form == COLUMN_TEXT, field);
		html_raw(&page, "</tr>\n");
	}
	html_raw(&page, "</tbody></table></div>\n");
	rows_len = 0;
	rows_held = 0;
}

void report_html_chart(const char *name,
		       int (*produce)(svg_write_fn write, void *ctx, const void *arg),
		       const void *arg)
{
	if (!have_page())
		return;
	close_pre();
	html_raw(&page, "<figure>\n");
	produce(html_svg_write, &page, arg);
	html_element(&page, "figcaption", name);
	html_raw(&page, "</figure>\n");
}

void report_html_folded(const char *summary, const char *text, size_t len)
{
	if (!have_page())
		return;
	close_pre();
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
	close_pre();
	html_raw(&page, ok ? "<p class=\"verdict\">" : "<p class=\"verdict failed\">");
	html_str(&page, text);
	html_raw(&page, "</p>\n");
}

void report_html_checkpoint(void)
{
	if (have_page())
		close_pre();
}

void report_html_end(void)
{
	if (!have_page())
		return;
	report_html_rows_done();
	close_pre();
	html_page_end(&page);
	page.write = 0;
}
