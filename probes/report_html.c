/* report.html, the run's page (see report_html.h).
 *
 * Static buffers only, like results.c: the page is written while a probe
 * buffer may hold nearly all memory.
 */

#include "probes/report_html.h"
#include "lib/fmt.h"

// Constants

#define ROWS_HTML_MAX (64 * 1024)   /* one probe's rows as <tr> markup */
#define ROW_HTML_MAX  4096          /* one row: ten columns, escaped */

// Private Data

static struct html_out page;       /* where the markup goes; write NULL: no page */
static int in_pre;

/* Markup built in memory: a row, then the probe's rows. */
struct html_buffer {
	char *text;
	size_t size, len;
	int overflow;
};

static char rows_text[ROWS_HTML_MAX];
static struct html_buffer rows = { rows_text, sizeof rows_text, 0, 0 };
static unsigned rows_held;

// Private Functions

static void buffer_write(void *ctx, const char *data, size_t len)
{
	struct html_buffer *b = ctx;

	if (b->len + len > b->size) {
		b->overflow = 1;
		return;
	}
	mp_memcpy(b->text + b->len, data, len);
	b->len += len;
}

static int have_page(void)
{
	return page.write != 0;
}

static void close_pre(void)
{
	if (in_pre)
		html_raw(&page, "</pre>\n");
	in_pre = 0;
}

static void cell(const struct html_out *o, const char *tag, int is_text, const char *text)
{
	html_raw(o, "<");
	html_raw(o, tag);
	html_raw(o, is_text ? " class=\"text\">" : ">");
	html_str(o, text);
	html_raw(o, "</");
	html_raw(o, tag);
	html_raw(o, ">");
}

// Public Functions

void report_html_begin(const struct html_out *o, const char *title)
{
	page = *o;
	in_pre = 0;
	rows.len = 0;
	rows.overflow = 0;
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
	static char one_text[ROW_HTML_MAX];
	struct html_buffer one = { one_text, sizeof one_text, 0, 0 };
	struct html_out to_one = { buffer_write, &one };
	char number[48];

	if (!have_page())
		return;
	html_raw(&to_one, "<tr>");
	for (unsigned c = 0; c < result_column_count; c++)
		cell(&to_one, "td", result_columns[c].form == COLUMN_TEXT,
		     result_column_format(&result_columns[c], row, number, sizeof number));
	html_raw(&to_one, "</tr>\n");
	if (one.overflow)
		return;  /* a cut row would leave an open cell; results.csv still has it */
	if (rows.len + one.len > rows.size)
		report_html_rows_done();
	buffer_write(&rows, one.text, one.len);
	rows_held++;
}

void report_html_rows_done(void)
{
	char caption[64];

	if (!have_page() || !rows_held)
		return;
	close_pre();
	mp_snprintf(caption, sizeof caption, "%u results rows", rows_held);
	html_raw(&page, "<div class=\"scroll\"><table>\n");
	html_element(&page, "caption", caption);
	html_raw(&page, "<thead><tr>");
	for (unsigned c = 0; c < result_column_count; c++)
		cell(&page, "th", result_columns[c].form == COLUMN_TEXT, result_columns[c].name);
	html_raw(&page, "</tr></thead>\n<tbody>\n");
	page.write(page.ctx, rows.text, rows.len);
	html_raw(&page, "</tbody></table></div>\n");
	rows.len = 0;
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
