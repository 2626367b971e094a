/* Where every figure goes (see results.h, docs/OUTPUT.md).
 *
 * Everything here lives in static buffers: results are written when memory
 * may be nearly exhausted by a probe buffer, and an allocation failing at
 * that moment must not lose the figures already measured.
 */
#include "results/results.h"
#include "lib/fmt.h"
#include "core/platform.h"
#include "results/report_html.h"
#include "results/system_summary.h"

/* ---- Constants -------------------------------------------------------- */

#define REPORT_LINE_MAX   4096
#define EARLY_TEXT_MAX    (16 * 1024)   /* console text before results_open */
#define CSV_ROW_MAX       2048
#define SYSTEM_JSON_MAX   (64 * 1024)
/* The status line's room: less than 80 columns, so it never wraps (a
   wrapped line cannot be redrawn with a carriage return). */
#define STATUS_COLUMNS    79

/* ---- Private Data ----------------------------------------------------- */

struct out_file {
	const char *name;
	int handle;               /* -1: not open, or given up on */
	int failed;               /* the "no results file written" line was said */
	uint64_t written;         /* bytes written so far */
	int draft;                /* a rewrite's draft: a failed write marks it
				     failed, keeps the handle and says nothing
				     (its maker deletes it) */
};

static struct out_file report_file = { "report.txt", -1, 0, 0, 0 };
static struct out_file csv_file = { "results.csv", -1, 0, 0, 0 };
static struct out_file html_file = { "report.html", -1, 0, 0, 0 };
/* Written at the start (results_system_early) and kept open until the
   final one takes its place. */
static struct out_file system_file = { "system.json", -1, 0, 0, 0 };

static int files_opened;

static char early_text[EARLY_TEXT_MAX];
static size_t early_len;
static int early_cut;

static char system_json[SYSTEM_JSON_MAX];

/* The card (results_card), which report.txt and report.html begin with
   once the run is over; and where report.html's head ends, the card's
   place in it. */
static char card_text[4096];
static size_t card_len;
static uint64_t html_head_len;
static char copy_buffer[16 * 1024];
/* report.html's closing tail, kept written after each whole section so
   the page on the medium is always whole: where it begins (0: none yet)
   and whether it is there now (the next write goes over it). */
static const char html_tail[] = "</body>\n</html>\n";
/* Where report.txt's last whole line ends. */
static uint64_t report_whole_at;
static uint64_t html_tail_at;
static int html_tail_on;
/* summary.txt was written whole (results_card). */
static int summary_kept;

/* The console (results_console): quiet shows notices alone; a console
   that redraws keeps one status line (report_status) under the text,
   taken off before each text and put back after it once the text has
   ended its line; status_shown: its characters on screen now. */
static int console_quiet, console_redraws;
static char status_text[STATUS_COLUMNS];
static size_t status_shown;
static int console_mid_line;

/* ---- Private Functions ------------------------------------------------ */

/* The status line off the screen: back to the line's start, blanks over
   it, back again. */
static void console_status_hide(void)
{
	static char blanks[STATUS_COLUMNS + 3];

	if (!status_shown)
		return;
	blanks[0] = '\r';
	mp_memset(blanks + 1, ' ', status_shown);
	blanks[status_shown + 1] = '\r';
	blanks[status_shown + 2] = 0;
	plat_console(blanks);
	status_shown = 0;
}

/* The status line back, where the console stands at a line's start. */
static void console_status_show(void)
{
	if (!console_redraws || console_mid_line || !status_text[0])
		return;
	plat_console(status_text);
	status_shown = mp_strlen(status_text);
}

/* Text to the console, the status line kept under it. */
static void console_text(const char *text)
{
	size_t len = mp_strlen(text);

	console_status_hide();
	plat_console(text);
	if (len)
		console_mid_line = text[len - 1] != '\n';
	console_status_show();
}

/* Says once per file, on the console and in the report, that the file is not
   (or no longer) being written, then stops using it: the run goes on. A
   file cut part way keeps what was written before, and says so. */
static void file_write(struct out_file *f, const char *data, size_t len);

static void give_up(struct out_file *f, const char *why)
{
	char line[256];

	/* report.txt back to its last whole line (a line's start is written
	   at a probe's end, its rest later). */
	if (f == &report_file && f->handle >= 0 && f->written > report_whole_at &&
	    plat_file_cut(f->handle, report_whole_at) == 0)
		f->written = report_whole_at;
	/* The page back to its last whole section, closed. */
	if (f == &html_file && f->handle >= 0 && html_tail_at &&
	    plat_file_cut(f->handle, html_tail_at) == 0) {
		f->written = html_tail_at;
		if (plat_file_write(f->handle, html_tail, sizeof html_tail - 1) == 0)
			f->written += sizeof html_tail - 1;
	}
	if (f->handle >= 0)
		plat_file_close(f->handle);
	f->handle = -1;
	if (f->failed)
		return;
	f->failed = 1;
	if (f->written)
		mp_snprintf(line, sizeof line,
			    "results file cut: %s: %s; it keeps what was written before, and "
			    "the run goes on, on the console\n", f->name, why);
	else
		mp_snprintf(line, sizeof line,
			    "no results file written: %s: %s; the run goes on, on the console\n",
			    f->name, why);
	console_text(line);
	if (f != &report_file && report_file.handle >= 0)
		file_write(&report_file, line, mp_strlen(line));
}

static void file_open(struct out_file *f)
{
	f->handle = plat_file_open(f->name);
	if (f->handle < 0)
		give_up(f, "it could not be created");
}

static void file_write(struct out_file *f, const char *data, size_t len)
{
	if (f->handle < 0 || len == 0 || (f->draft && f->failed))
		return;
	if (plat_file_write(f->handle, data, len) == 0) {
		f->written += len;
		if (f == &report_file && data[len - 1] == '\n')
			report_whole_at = f->written;
	}
	else if (f->draft)
		f->failed = 1;
	else
		give_up(f, "writing failed (volume full or read-only?)");
}

static void file_flush(struct out_file *f)
{
	if (f->handle >= 0 && plat_file_flush(f->handle) != 0)
		give_up(f, "flushing failed (volume full or read-only?)");
}

static void file_close(struct out_file *f)
{
	file_flush(f);
	if (f->handle >= 0)
		plat_file_close(f->handle);
	f->handle = -1;
}

/* Keeps console text printed before the files exist, so report.txt still
   begins where the console began. */
static void keep_early_text(const char *text, size_t len)
{
	if (early_len + len >= sizeof early_text) {
		early_cut = 1;
		return;
	}
	mp_memcpy(early_text + early_len, text, len);
	early_len += len;
}

/* One CSV row being built. A row that does not fit is dropped whole and
   said so: cutting a field would cut its closing quote with it, and one
   unbalanced quote makes a CSV reader swallow every row after it. */
struct csv_row {
	char text[CSV_ROW_MAX];
	size_t len;
	int overflow;
};

static struct csv_row row_text;  /* static: 2 KiB is a lot of firmware stack */

static void row_put(struct csv_row *r, char c)
{
	if (r->len + 1 < sizeof r->text)
		r->text[r->len++] = c;
	else
		r->overflow = 1;
}

/* RFC 4180: a field with a comma, quote or line break is quoted, and quotes
   inside it doubled. */
static void row_field(struct csv_row *r, const char *text)
{
	int needs_quotes = 0;

	if (!text)
		text = "";
	for (const char *p = text; *p; p++)
		if (*p == ',' || *p == '"' || *p == '\n' || *p == '\r')
			needs_quotes = 1;
	if (r->len)
		row_put(r, ',');
	if (needs_quotes)
		row_put(r, '"');
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			row_put(r, '"');
		row_put(r, *p);
	}
	if (needs_quotes)
		row_put(r, '"');
}

/* The header line, and a row: one field per column of columns.h's table. */
static void row_header(struct csv_row *r)
{
	r->len = 0;
	r->overflow = 0;
	for (unsigned c = 0; c < result_column_count; c++)
		row_field(r, result_columns[c].name);
	row_put(r, '\n');
}

static void row_fields(struct csv_row *r, const struct result_row *row)
{
	char number[48];

	r->len = 0;
	r->overflow = 0;
	for (unsigned c = 0; c < result_column_count; c++)
		row_field(r, result_column_format(&result_columns[c], row, number, sizeof number));
	row_put(r, '\n');
}

/* Every write to report.html: over the closing tail, if it is there. */
static void html_sink(void *ctx, const char *data, size_t len)
{
	struct out_file *f = ctx;

	if (html_tail_on && f->handle >= 0) {
		html_tail_on = 0;
		if (plat_file_cut(f->handle, html_tail_at) == 0)
			f->written = html_tail_at;
		else
			give_up(f, "its closing tail could not be taken back");
	}
	file_write(f, data, len);
}

/* A whole section written: blocks closed, then the page's closing tail
   (written over by the next section), flushed. */
static void html_checkpoint(void)
{
	report_html_checkpoint();
	if (html_file.handle < 0)
		return;
	html_tail_at = html_file.written;
	file_write(&html_file, html_tail, sizeof html_tail - 1);
	html_tail_on = html_file.handle >= 0;
	file_flush(&html_file);
}

static const struct html_out html_page = { html_sink, &html_file };

/* Bytes [from, to) of the streamed file into the final one; 0, or -1
   when reading back failed. */
static int copy_back(struct out_file *from, struct out_file *to, uint64_t at, uint64_t end)
{
	while (at < end && !to->failed) {
		size_t want = end - at < sizeof copy_buffer ? (size_t)(end - at) : sizeof copy_buffer;
		long got = plat_file_read(from->handle, at, copy_buffer, want);

		if (got <= 0)
			return -1;
		file_write(to, copy_buffer, (size_t)got);
		at += (uint64_t)got;
	}
	return to->failed ? -1 : 0;
}

static void card_text_front(struct out_file *to)
{
	file_write(to, card_text, card_len);
	file_write(to, "\n", 1);
}

static void card_html_sink(void *ctx, const char *data, size_t len)
{
	file_write(ctx, data, len);
}

static void card_html_front(struct out_file *to)
{
	const struct html_out o = { card_html_sink, to };

	html_raw(&o, "<section id=\"summary\">\n");
	html_element(&o, "h2", "summary");
	html_raw(&o, "<pre>");
	html_text(&o, card_text, card_len);
	html_raw(&o, "</pre>\n</section>\n");
}

/* The run's file f, streamed and flushed as the run went, rewritten once
   at the end to begin with the card: a draft (draft_name) gets f's first
   `at` bytes, the card and the rest; only once the draft is flushed whole
   is the streamed f deleted and the draft given f's name. A draft that
   cannot be written whole (a full volume) is deleted, and f stays as it
   was streamed, whole, without the card first. */
static void card_first(struct out_file *f, const char *draft_name, uint64_t at,
		       void (*front)(struct out_file *to))
{
	struct out_file to = { draft_name, -1, 0, 0, 1 };
	char line[256];

	if (f->handle < 0)
		return;
	to.handle = plat_file_open(draft_name);
	if (to.handle >= 0 && copy_back(f, &to, 0, at) == 0) {
		front(&to);
		if (copy_back(f, &to, at, f->written) == 0 && plat_file_flush(to.handle) == 0) {
			if (plat_file_delete(f->handle) == 0 &&
			    plat_file_rename(to.handle, f->name) == 0) {
				f->handle = -1;
				plat_file_close(to.handle);
				return;
			}
			f->handle = -1;
			plat_file_close(to.handle);
			mp_snprintf(line, sizeof line, "%s: the report, the summary first, is in %s\n",
				    f->name, draft_name);
			console_text(line);
			return;
		}
	}
	if (to.handle >= 0)
		plat_file_delete(to.handle);
	mp_snprintf(line, sizeof line, "%s: the summary could not be put first (%s); the report "
		    "is whole as it was written, and %s\n", f->name,
		    to.handle >= 0 ? "writing the copy failed" : "the copy could not be created",
		    summary_kept ? "summary.txt holds the summary" :
		    "summary.txt could not be written either: the summary is on the console");
	console_text(line);
}

/* report.txt's text not yet ended by a newline. report.txt is written in
   whole lines only (each write ends with one), so a write that a full
   volume cuts, taken back to the last whole write, leaves whole lines. */
static char report_pending[REPORT_LINE_MAX];
static size_t report_pending_len;
static char report_joined[2 * REPORT_LINE_MAX];

static void report_write_pending(void)
{
	file_write(&report_file, report_pending, report_pending_len);
	report_pending_len = 0;
}

static void report_write_lines(const char *text, size_t len)
{
	size_t end = len;

	while (end && text[end - 1] != '\n')
		end--;
	if (end) {
		/* The pending start of a line and the text up to its last newline,
		   as one write. */
		mp_memcpy(report_joined, report_pending, report_pending_len);
		mp_memcpy(report_joined + report_pending_len, text, end);
		file_write(&report_file, report_joined, report_pending_len + end);
		report_pending_len = 0;
	}
	if (len - end > sizeof report_pending - report_pending_len)
		report_write_pending();   /* a line too long to hold: as it comes */
	if (len - end > sizeof report_pending - report_pending_len) {
		file_write(&report_file, text + end, len - end);
		return;
	}
	mp_memcpy(report_pending + report_pending_len, text + end, len - end);
	report_pending_len += len - end;
}

/* ---- Public Functions ------------------------------------------------- */

void results_open(void)
{
	char title[256];

	if (files_opened)
		return;
	files_opened = 1;

	file_open(&report_file);
	file_write(&report_file, early_text, early_len);
	if (early_cut) {
		static const char cut[] =
			"[report.txt: console text from before the files were opened did not all fit; "
			"the console showed more]\n";
		file_write(&report_file, cut, sizeof cut - 1);
	}
	file_flush(&report_file);

	file_open(&html_file);
	mp_snprintf(title, sizeof title, "memprobe report: %s", plat_run_folder());
	report_html_begin(&html_page, title);
	html_head_len = html_file.written;
	report_html_text(early_text, early_len);
	html_checkpoint();

	file_open(&csv_file);
	row_header(&row_text);
	file_write(&csv_file, row_text.text, row_text.len);
	file_flush(&csv_file);
}

void results_row(const struct result_row *row)
{
	struct csv_row *r = &row_text;

	row_fields(r, row);
	if (r->overflow) {
		report_printf("results.csv: a %s row is longer than %d bytes and was left out\n",
			      row->probe ? row->probe : "", CSV_ROW_MAX);
		return;
	}
	/* Written now, flushed when the probe is done: a process killed
	   outright (SIGKILL) loses at most the row being written. */
	file_write(&csv_file, r->text, r->len);
	report_html_row(row);
}

void results_probe_done(void)
{
	file_flush(&csv_file);
	if (report_pending_len)
		report_write_pending();
	file_flush(&report_file);
	report_html_rows_done();
	html_checkpoint();
}

void results_section(const char *title)
{
	report_html_section(title);
	report_printf("\n== %s ==\n", title);
}

void results_chart_inline(const char *name,
			  int (*produce)(svg_write_fn write, void *ctx, const void *arg),
			  const void *arg)
{
	report_html_chart(name, produce, arg);
}

void results_verdict(int probes_ok, int files_ok, const char *stopped_by)
{
	static const char probe_failed[] = "a probe did not measure what was asked (its "
					   "section says why)";
	static const char files_lost[] = "the result files are missing or incomplete (the "
					 "report says which)";
	char text[256];

	if (stopped_by)
		mp_snprintf(text, sizeof text, "verdict: STOPPED by %s: every row measured until "
			    "then is kept; the probes after the one running did not run%s",
			    stopped_by, files_ok ? "" : "; and the result files are "
			    "missing or incomplete (the report says which)");
	else if (probes_ok && files_ok)
		mp_strlcpy(text, "verdict: every probe measured what was asked", sizeof text);
	else
		mp_snprintf(text, sizeof text, "verdict: FAILURE: %s%s%s",
			    probes_ok ? "" : probe_failed, !probes_ok && !files_ok ? "; " : "",
			    files_ok ? "" : files_lost);
	report_html_verdict(probes_ok && files_ok, text);
}

/* system.json's document into system_json: its length, or 0 with why[]
   said when it overflowed or was not closed (cut-off JSON would break
   every reader; none is better). */
static size_t system_document(void (*fill)(struct json *j, void *arg), void *arg,
			      char *why, size_t why_len)
{
	struct json j;

	json_init(&j, system_json, sizeof system_json);
	json_object_begin(&j, NULL);
	fill(&j, arg);
	json_object_end(&j);
	if (j.overflow)
		mp_snprintf(why, why_len, "the description needs more than %d KiB",
			    SYSTEM_JSON_MAX / 1024);
	else if (j.depth != 0)
		mp_snprintf(why, why_len, "the description is not closed properly");
	return j.overflow || j.depth != 0 ? 0 : j.len;
}

void results_summary(void (*fill)(struct json *j, void *arg), void *arg)
{
	char why[96];
	size_t len = system_document(fill, arg, why, sizeof why);

	report_html_section("system summary");
	if (len)
		system_summary_html(system_json, len);
	else
		report_html_text(why, mp_strlen(why));
	html_checkpoint();
}

void results_system_early(void (*fill)(struct json *j, void *arg), void *arg)
{
	char why[96];
	size_t len = system_document(fill, arg, why, sizeof why);

	if (!len)
		return;   /* the final one says why, if it fails too */
	file_open(&system_file);
	file_write(&system_file, system_json, len);
	file_write(&system_file, "\n", 1);
	file_flush(&system_file);
}

/* The final description, whole, in place of the one written at the start:
   to system.draft.json first, and only once that is flushed whole is the
   early one deleted and the draft given its name. 0, or -1 (the early
   one, whole, is kept, and the report says so). */
static int system_replace(size_t len)
{
	struct out_file to = { "system.draft.json", -1, 0, 0, 1 };

	to.handle = plat_file_open(to.name);
	if (to.handle < 0)
		return -1;
	file_write(&to, system_json, len);
	file_write(&to, "\n", 1);
	if (to.failed || plat_file_flush(to.handle) != 0) {
		plat_file_delete(to.handle);
		return -1;
	}
	if (plat_file_delete(system_file.handle) != 0 ||
	    plat_file_rename(to.handle, system_file.name) != 0) {
		system_file.handle = -1;
		plat_file_close(to.handle);
		report_printf("system.json: the final description is in system.draft.json (it could "
			      "not take system.json's name)\n");
		return 0;
	}
	system_file.handle = -1;
	plat_file_close(to.handle);
	return 0;
}

void results_system(void (*fill)(struct json *j, void *arg), void *arg)
{
	char why[96];
	size_t len = system_document(fill, arg, why, sizeof why);

	if (!len) {
		report_printf("%s: system.json: %s; the run goes on, on the console\n",
			      system_file.handle >= 0 ? "the final description is not written, and "
			      "the one from the run's start is kept" : "no results file written", why);
		file_close(&system_file);
		return;
	}
	if (system_file.handle >= 0) {
		if (system_replace(len) != 0) {
			report_printf("system.json: the final description could not be written (volume "
				      "full?); system.json keeps the one written at the run's start, "
				      "whole (\"state\": \"running\")\n");
			file_close(&system_file);
		}
	} else {
		file_open(&system_file);
		file_write(&system_file, system_json, len);
		file_write(&system_file, "\n", 1);
		file_close(&system_file);
	}
	system_file.failed = 0;
	system_file.written = 0;
	report_html_folded("system.json: the machine, its firmware or kernel, the CPU and what it "
			   "claims", system_json, len);
}

/* Leaves the module as before results_open, so a later open (a second run
   in one process, as the unit tests do) starts with fresh files. */
int results_close(void)
{
	int lost;

	results_probe_done();
	report_html_end();
	file_flush(&html_file);
	file_flush(&report_file);
	if (card_len) {
		card_first(&report_file, "report.draft.txt", 0, card_text_front);
		card_first(&html_file, "report.draft.html", html_head_len, card_html_front);
	}
	file_close(&html_file);
	file_close(&csv_file);
	file_close(&report_file);
	lost = csv_file.failed || report_file.failed || html_file.failed;
	csv_file.failed = report_file.failed = html_file.failed = 0;
	csv_file.written = report_file.written = html_file.written = 0;
	files_opened = 0;
	early_len = 0;
	early_cut = 0;
	card_len = 0;
	html_tail_at = 0;
	html_tail_on = 0;
	report_whole_at = 0;
	return lost ? -1 : 0;
}

void results_card(const char *text, size_t len)
{
	struct out_file summary_file = { "summary.txt", -1, 0, 0, 0 };

	card_len = len < sizeof card_text ? len : sizeof card_text - 1;
	mp_memcpy(card_text, text, card_len);
	card_text[card_len] = 0;
	file_open(&summary_file);
	file_write(&summary_file, card_text, card_len);
	file_close(&summary_file);
	summary_kept = !summary_file.failed;
}

/* The formatted text, cut with a note when it does not fit the line, to
   the console (unless quiet and not a notice), report.txt and
   report.html. */
static void report_text(int notice, const char *fmt, va_list ap)
{
	static const char cut[] = "...[line cut]\n";
	char line[REPORT_LINE_MAX];
	int n = mp_vsnprintf(line, sizeof line, fmt, ap);
	size_t len;

	if (n < 0)
		return;
	len = (size_t)n;
	if (len >= sizeof line) {
		len = sizeof line - sizeof cut;
		mp_memcpy(line + len, cut, sizeof cut);
		len += sizeof cut - 1;
	}
	if (notice || !console_quiet)
		console_text(line);
	if (!files_opened) {
		keep_early_text(line, len);
		return;
	}
	report_write_lines(line, len);
	report_html_text(line, len);
}

void results_console(int quiet, int redraws)
{
	console_quiet = quiet;
	console_redraws = redraws;
}

int results_console_redraws(void)
{
	return console_redraws;
}

void report_status(const char *text)
{
	if (!console_redraws)
		return;
	console_status_hide();
	mp_strlcpy(status_text, text, sizeof status_text);
	console_status_show();
}

void report_console(const char *text)
{
	console_text(text);
}

void report_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_text(0, fmt, ap);
	va_end(ap);
}

void report_notice(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_text(1, fmt, ap);
	va_end(ap);
}
