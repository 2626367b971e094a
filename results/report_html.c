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
#define PARTS_MAX 1024
#define SECTIONS_MAX 64
#define CHARTS_MAX 96
/* A chart is shown beside its table when the table has at most this many
   rows: a longer one would push the next chart down the page. */
#define PAIR_ROWS_MAX 12

/* ---- Types ------------------------------------------------------------ */

/* What a run of the streamed page is, and so where the arranged page puts
   it (report_html_arrange). */
enum part_kind {
	PART_HEAD,      /* the head and the title */
	PART_SETUP,     /* report text before the first section: the configuration */
	PART_DETAIL,    /* a section's heading and its text */
	PART_TABLE,     /* one report table */
	PART_CHART,     /* one chart */
	PART_ROWS,      /* results rows as a table */
	PART_FOLDED,    /* a folded block (system.json) */
	PART_VERDICT,
	PART_END,       /* the page's end */
};

struct part {
	enum part_kind kind;
	unsigned section;         /* 1-based; 0: before the first */
	unsigned rows;            /* PART_TABLE: its rows */
	unsigned chart;           /* PART_CHART: its number, from 1 */
	uint64_t from, to;        /* bytes of the streamed page */
};

/* ---- Private Data ----------------------------------------------------- */

static struct html_out outer;      /* where the markup goes; write NULL: no page */
static uint64_t page_at;           /* bytes written to it */
static void count_write(void *ctx, const char *data, size_t len);
static struct html_out page = { count_write, 0 };
static int in_pre;
static const struct table *open_table;  /* the report table being written, or NULL */
static int in_note;                      /* a note row of open_table is open */
static int quiet;                        /* report_html_quiet */

/* The rows held for the probe's table: per row, result_column_count
   fields as results.csv writes them (unquoted), each ending in a NUL. */
static char rows_text[ROWS_TEXT_MAX];
static size_t rows_len;
static unsigned rows_held;

/* The page as runs of parts, in the order written; parts_lost: more than
   PARTS_MAX, so the page can only be kept in its streamed order. */
static struct part parts[PARTS_MAX];
static unsigned nparts;
static int parts_lost;
static unsigned sections, charts;
static char section_title[SECTIONS_MAX][96];
static char chart_name[CHARTS_MAX][48];

/* ---- Private Functions ------------------------------------------------ */

static int have_page(void)
{
	return outer.write != 0;
}

/* Every write: counted, so each part knows its bytes, then passed on. */
static void count_write(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	page_at += len;
	if (nparts)
		parts[nparts - 1].to = page_at;
	outer.write(outer.ctx, data, len);
}

/* What follows is a part of this kind (a DETAIL after a DETAIL, or SETUP
   after SETUP, goes on in the same part). */
static struct part *part_open(enum part_kind kind)
{
	struct part *last = nparts ? &parts[nparts - 1] : 0;

	if (last && last->kind == kind && (kind == PART_DETAIL || kind == PART_SETUP) &&
	    last->section == sections)
		return last;
	if (nparts == PARTS_MAX) {
		parts_lost = 1;
		return last;
	}
	parts[nparts] = (struct part){ kind, sections, 0, 0, page_at, page_at };
	return &parts[nparts++];
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

/* ---- The arranged page ------------------------------------------------ */

/* Where the arranged page goes and where its parts come from. */
struct arrange {
	const struct html_out *to;
	report_html_copy_fn copy;
	void *ctx;
	int failed;
};

static void copy_part(struct arrange *g, const struct part *p)
{
	if (!g->failed && p->to > p->from && g->copy(g->ctx, p->from, p->to) != 0)
		g->failed = 1;
}

/* Every part of this kind, in the order written. */
static void copy_kind(struct arrange *g, enum part_kind kind)
{
	for (unsigned i = 0; i < nparts; i++)
		if (parts[i].kind == kind)
			copy_part(g, &parts[i]);
}

/* The table a chart is shown beside: the table of its section with the
   chart's rank among the section's charts (a section's first chart beside
   its first table, ...), when it has at most PAIR_ROWS_MAX rows; NULL when
   there is none. */
static const struct part *chart_table(unsigned chart_at)
{
	const struct part *c = &parts[chart_at];
	unsigned rank = 0, seen = 0;

	for (unsigned i = 0; i < chart_at; i++)
		rank += parts[i].kind == PART_CHART && parts[i].section == c->section;
	for (unsigned i = 0; i < nparts; i++) {
		if (parts[i].kind != PART_TABLE || parts[i].section != c->section)
			continue;
		if (seen++ == rank)
			return parts[i].rows <= PAIR_ROWS_MAX ? &parts[i] : 0;
	}
	return 0;
}

static const char *title_of_section(unsigned section)
{
	return section >= 1 && section <= SECTIONS_MAX ? section_title[section - 1] : "";
}

/* An entry of the contents: a link to #id_prefix-number, its text, and
   the section it belongs to in brackets when given. */
static void contents_entry(const struct html_out *o, const char *id_prefix, unsigned number,
			   const char *text, const char *within)
{
	char link[64];

	mp_snprintf(link, sizeof link, "<li><a href=\"#%s-%u\">", id_prefix, number);
	html_raw(o, link);
	html_str(o, text);
	html_raw(o, "</a>");
	if (within && *within) {
		html_raw(o, " <small>(");
		html_str(o, within);
		html_raw(o, ")</small>");
	}
	html_raw(o, "</li>\n");
}

/* The table of contents: every chart, every section, the raw part. */
static void contents(const struct html_out *o)
{
	html_raw(o, "<nav id=\"contents\">\n<h2>contents</h2>\n<ul>\n"
		 "<li><a href=\"#summary\">summary</a></li>\n");
	if (charts)
		html_raw(o, "<li><a href=\"#charts\">charts</a>\n<ul class=\"toc\">\n");
	for (unsigned i = 0; i < nparts; i++)
		if (parts[i].kind == PART_CHART && parts[i].chart <= CHARTS_MAX)
			contents_entry(o, "chart", parts[i].chart, chart_name[parts[i].chart - 1],
				       title_of_section(parts[i].section));
	if (charts)
		html_raw(o, "</ul></li>\n");
	html_raw(o, "<li>tables, by section\n<ul class=\"toc\">\n");
	for (unsigned k = 1; k <= sections && k <= SECTIONS_MAX; k++)
		contents_entry(o, "section", k, title_of_section(k), 0);
	html_raw(o, "</ul></li>\n<li><a href=\"#raw\">configuration and raw rows</a></li>\n"
		 "</ul>\n</nav>\n");
}

/* The charts, each beside its short table. */
static void charts_part(struct arrange *g)
{
	if (!charts)
		return;
	html_raw(g->to, "<section id=\"charts\">\n<h2>charts</h2>\n");
	for (unsigned i = 0; i < nparts; i++) {
		const struct part *table;

		if (parts[i].kind != PART_CHART)
			continue;
		table = chart_table(i);
		html_raw(g->to, "<div class=\"pair\">\n");
		copy_part(g, &parts[i]);
		if (table)
			copy_part(g, table);
		html_raw(g->to, "</div>\n");
	}
	html_raw(g->to, "</section>\n");
}

/* The configuration, each section's rows and the folded blocks, in one
   closed <details>. */
static void raw_part(struct arrange *g)
{
	unsigned shown = 0;

	html_raw(g->to, "<details id=\"raw\">\n<summary>configuration and raw rows (the run's "
		 "settings, each probe's results.csv rows, system.json)</summary>\n");
	copy_kind(g, PART_SETUP);
	for (unsigned i = 0; i < nparts; i++) {
		if (parts[i].kind != PART_ROWS)
			continue;
		if (parts[i].section != shown) {
			shown = parts[i].section;
			html_element(g->to, "h3", title_of_section(shown));
		}
		copy_part(g, &parts[i]);
	}
	copy_kind(g, PART_FOLDED);
	html_raw(g->to, "</details>\n");
}

/* ---- Public Functions ------------------------------------------------- */

void report_html_begin(const struct html_out *o, const char *title)
{
	outer = *o;
	page_at = 0;
	nparts = 0;
	parts_lost = 0;
	sections = charts = 0;
	part_open(PART_HEAD);
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
	if (!in_pre) {
		part_open(sections ? PART_DETAIL : PART_SETUP);
		html_raw(&page, "<pre>");
	}
	in_pre = 1;
	html_text(&page, text, len);
}

void report_html_table_begin(const struct table *shape, const char *caption)
{
	if (!have_page())
		return;
	close_blocks();
	part_open(PART_TABLE);
	table_html_begin(&page, shape, caption);
	open_table = shape;
}

void report_html_table_row(const char *const *cell, int marked)
{
	if (!have_page() || !open_table)
		return;
	close_note();
	table_html_row(&page, open_table, cell, marked);
	parts[nparts - 1].rows += parts[nparts - 1].kind == PART_TABLE;
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
	char id[32];

	if (!have_page())
		return;
	close_blocks();
	sections++;
	if (sections <= SECTIONS_MAX)
		mp_strlcpy(section_title[sections - 1], title, sizeof section_title[0]);
	part_open(PART_DETAIL);
	/* The anchor apart from the heading, so the heading reads as before. */
	mp_snprintf(id, sizeof id, "<a id=\"section-%u\"></a>\n", sections);
	html_raw(&page, id);
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
	part_open(PART_ROWS);
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
	char id[48];
	struct part *p;

	if (!have_page())
		return;
	close_blocks();
	p = part_open(PART_CHART);
	charts++;
	p->chart = charts;
	if (charts <= CHARTS_MAX)
		mp_strlcpy(chart_name[charts - 1], name, sizeof chart_name[0]);
	mp_snprintf(id, sizeof id, "<a id=\"chart-%u\"></a>\n<figure>\n", charts);
	html_raw(&page, id);
	produce(html_svg_write, &page, arg);
	html_element(&page, "figcaption", name);
	html_raw(&page, "</figure>\n");
}

void report_html_folded(const char *summary, const char *text, size_t len)
{
	if (!have_page())
		return;
	close_blocks();
	part_open(PART_FOLDED);
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
	part_open(PART_VERDICT);
	html_raw(&page, ok ? "<p class=\"verdict\">" : "<p class=\"verdict failed\">");
	html_str(&page, text);
	html_raw(&page, "</p>\n");
}

void report_html_checkpoint(void)
{
	if (have_page())
		close_blocks();
}

int report_html_arrange(const struct html_out *to, report_html_copy_fn copy, void *ctx,
			const char *card, size_t card_len)
{
	struct arrange g = { to, copy, ctx, 0 };

	if (!nparts || parts[0].kind != PART_HEAD)
		return -1;
	copy_part(&g, &parts[0]);
	html_raw(to, "<section id=\"summary\">\n<h2>summary</h2>\n<pre>");
	html_text(to, card, card_len);
	html_raw(to, "</pre>\n</section>\n");
	if (parts_lost) {
		/* Too many parts to place: the rest as it was streamed. */
		if (copy(ctx, parts[0].to, page_at) != 0)
			return -1;
		return 0;
	}
	copy_kind(&g, PART_VERDICT);
	contents(to);
	charts_part(&g);
	for (unsigned i = 0; i < nparts; i++)
		if (parts[i].kind == PART_DETAIL || parts[i].kind == PART_TABLE)
			copy_part(&g, &parts[i]);
	raw_part(&g);
	copy_kind(&g, PART_END);
	return g.failed ? -1 : 0;
}

void report_html_end(void)
{
	if (!have_page())
		return;
	report_html_rows_done();
	close_blocks();
	part_open(PART_END);
	html_page_end(&page);
	outer.write = 0;
}
