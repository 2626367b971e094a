/* Where every figure goes (see results.h, docs/OUTPUT.md).
 *
 * Everything here lives in static buffers: results are written when memory
 * may be nearly exhausted by a probe buffer, and an allocation failing at
 * that moment must not lose the figures already measured.
 */
#include "results/results.h"
#include "lib/fmt.h"
#include "lib/json_read.h"
#include "core/platform.h"
#include "results/report_html.h"
#include "results/system_summary.h"

/* ---- Constants -------------------------------------------------------- */

#define REPORT_LINE_MAX   4096
#define EARLY_TEXT_MAX    (16 * 1024)   /* console text before results_open */
#define CSV_ROW_MAX       2048
#define SYSTEM_JSON_MAX   (256 * 1024)  /* indented: a machine of many CPUs */
#define ROW_TEXTS_MAX     64            /* distinct row texts a run keeps */
#define ROW_TEXT_MAX      512           /* a longer one stays in its rows */
/* The reserve (see reserve_take): the final description is about three
   times the early one (a quick latency,tlb run: 5.4 KiB, then 18 KiB: the
   hierarchy, the summary and each probe's figures join it); beyond that,
   summary.txt (the card, under 4 KiB), the reports' last lines, and a few
   blocks of rounding (a tmpfs page, a FAT cluster) for each closing file. */
#define RESERVE_TIMES_EARLY 3
#define RESERVE_EXTRA     (12 * 1024)
/* The status line's room: less than 80 columns, so it never wraps (a
   wrapped line cannot be redrawn with a carriage return). */
#define STATUS_COLUMNS    79

/* ---- Private Data ----------------------------------------------------- */

struct out_file {
	const char *name;
	int rank;                 /* what it is worth: on a full volume the
				     streamed files of lower rank are given up
				     first; 0 (a file written whole at once,
				     which the reserve keeps room for, or a
				     draft) gives up no other file */
	int handle;               /* -1: not open, or given up on */
	int failed;               /* the "no results file written" line was said */
	uint64_t written;         /* bytes written so far */
	int draft;                /* a rewrite's draft: a failed write marks it
				     failed, keeps the handle and says nothing
				     (its maker deletes it) */
};

/* The streamed files ranked by what a reader loses with each: report.html
   is the largest and memprobe analyze makes it again from results.csv and
   system.json; report.txt is the console's copy; results.csv holds every
   figure. */
static struct out_file html_file = { "report.html", 1, -1, 0, 0, 0 };
static struct out_file report_file = { "report.txt", 2, -1, 0, 0, 0 };
static struct out_file csv_file = { "results.csv", 3, -1, 0, 0, 0 };
/* Written at the start (results_system_early) and kept open until the
   final one takes its place. */
static struct out_file system_file = { "system.json", 0, -1, 0, 0, 0 };
static struct out_file *const streamed[] = { &html_file, &report_file, &csv_file };

/* Room kept back for the closing files: a file of zeros written right
   after the early system.json and deleted when the run's closing begins
   (results_card, results_system or results_close, whichever comes first),
   so a volume that fills during the probes still has room for the final
   system.json beside the early one, summary.txt and the reports' last
   lines. -1: none held. */
static const char reserve_name[] = "closing.reserve";
static int reserve_handle = -1;
static const char zeros[4096];

static int files_opened;

static char early_text[EARLY_TEXT_MAX];
static size_t early_len;
static int early_cut;

/* The final description (and the page's summary of the machine). */
static char system_json[SYSTEM_JSON_MAX];
/* The early description, kept to answer results_system_member and to be
   written back should the final one fail in its place; its length (0:
   none). */
static char early_json[SYSTEM_JSON_MAX];
static size_t early_json_len;

/* The long texts that repeat over results.csv's rows (COLUMN_TEXT_ID
   columns), each kept once for system.json's row_texts, the rows holding
   its id. */
struct row_text {
	unsigned column;          /* its index in result_columns[] */
	char id[16];              /* "p1": the column name's first letter, a number */
	char text[ROW_TEXT_MAX];
};

static struct row_text row_texts[ROW_TEXTS_MAX];
static unsigned row_text_count;
static int row_texts_full;          /* the "rows hold the text" line was said */

/* The card (results_card), which report.txt and report.html begin with
   once the run is over. */
static char card_text[4096];
static size_t card_len;
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

/* The open streamed file of the lowest rank below f's, or NULL. */
static struct out_file *least_valuable_below(const struct out_file *f)
{
	struct out_file *least = NULL;

	for (unsigned i = 0; i < sizeof streamed / sizeof streamed[0]; i++)
		if (streamed[i]->handle >= 0 && streamed[i]->rank < f->rank &&
		    (!least || streamed[i]->rank < least->rank))
			least = streamed[i];
	return least;
}

/* f's write, and on a failure the files worth less than f given up one
   by one, least first, each cut back to its last whole point (which frees
   its unfinished part) before the write is tried again from f's last
   whole write. 0, or -1 when f's write failed with nothing left below it. */
static int write_ranked(struct out_file *f, const char *data, size_t len)
{
	char why[96];

	while (plat_file_write(f->handle, data, len) != 0) {
		struct out_file *least = least_valuable_below(f);

		/* A file with no whole write is gone from the medium already. */
		if (!least || !f->written || plat_file_cut(f->handle, f->written) != 0)
			return -1;
		mp_snprintf(why, sizeof why, "given up, the volume full, to leave the room to %s",
			    f->name);
		give_up(least, why);
		if (f->handle < 0)
			return -1;   /* f's own line about least went nowhere */
	}
	return 0;
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
	if (f->rank ? write_ranked(f, data, len) == 0 :
	    plat_file_write(f->handle, data, len) == 0) {
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

/* A new row text of column c, kept under its id: NULL when the table is
   full (said once). */
static const struct row_text *row_text_add(unsigned c, const char *text, unsigned number)
{
	struct row_text *t;

	if (row_text_count == ROW_TEXTS_MAX) {
		if (!row_texts_full)
			report_printf("results.csv: more than %d different texts in its columns "
				      "that hold ids (%s, ...); rows with a new one hold the text "
				      "itself, not an id\n", ROW_TEXTS_MAX, result_columns[c].name);
		row_texts_full = 1;
		return NULL;
	}
	t = &row_texts[row_text_count++];
	t->column = c;
	mp_snprintf(t->id, sizeof t->id, "%c%u", result_columns[c].name[0], number);
	mp_strlcpy(t->text, text, sizeof t->text);
	return t;
}

/* What column c's row holds for text: its id, made on first sight; the
   text itself when it is empty, too long to keep, or the table is full (a
   reader takes a field that is no id as the text, as older files hold). */
static const char *row_text_id(unsigned c, const char *text)
{
	const struct row_text *t;
	unsigned same_column = 0;

	if (!text[0] || mp_strlen(text) >= ROW_TEXT_MAX)
		return text;
	for (unsigned i = 0; i < row_text_count; i++) {
		if (row_texts[i].column != c)
			continue;
		same_column++;
		if (!mp_strcmp(row_texts[i].text, text))
			return row_texts[i].id;
	}
	t = row_text_add(c, text, same_column + 1);
	return t ? t->id : text;
}

static void row_fields(struct csv_row *r, const struct result_row *row)
{
	char number[48];

	r->len = 0;
	r->overflow = 0;
	for (unsigned c = 0; c < result_column_count; c++) {
		const char *field = result_column_format(&result_columns[c], row, number,
							 sizeof number);

		if (result_columns[c].form == COLUMN_TEXT_ID)
			field = row_text_id(c, field);
		row_field(r, field);
	}
	row_put(r, '\n');
}

/* system.json's row_texts: per COLUMN_TEXT_ID column an object of its
   texts by id (empty before any row). */
static void row_texts_json(struct json *j)
{
	json_object_begin(j, "row_texts");
	for (unsigned c = 0; c < result_column_count; c++) {
		if (result_columns[c].form != COLUMN_TEXT_ID)
			continue;
		json_object_begin(j, result_columns[c].name);
		for (unsigned i = 0; i < row_text_count; i++)
			if (row_texts[i].column == c)
				json_string(j, row_texts[i].id, row_texts[i].text);
		json_object_end(j);
	}
	json_object_end(j);
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

/* report.txt's draft: the card, then the text as streamed. */
static int text_draft(struct out_file *from, struct out_file *to)
{
	file_write(to, card_text, card_len);
	file_write(to, "\n", 1);
	return copy_back(from, to, 0, from->written);
}

/* The two files report_html_arrange copies between. */
struct draft_pair {
	struct out_file *from, *to;
};

static int html_copy(void *ctx, uint64_t at, uint64_t end)
{
	struct draft_pair *d = ctx;

	return copy_back(d->from, d->to, at, end);
}

static void html_draft_sink(void *ctx, const char *data, size_t len)
{
	file_write(ctx, data, len);
}

/* report.html's draft: the streamed page arranged for reading. */
static int html_draft(struct out_file *from, struct out_file *to)
{
	const struct html_out o = { html_draft_sink, to };
	struct draft_pair d = { from, to };

	return report_html_arrange(&o, html_copy, &d, card_text, card_len) == 0 && !to->failed
		       ? 0 : -1;
}

/* The run's file f, streamed and flushed as the run went, rewritten once
   at the end to begin with the card: a draft (draft_name) is written by
   draft() from f; only once the draft is flushed whole is the streamed f
   deleted and the draft given f's name. A draft that cannot be written
   whole (a full volume) is deleted, and f stays as it was streamed,
   whole, without the card first. */
static void card_first(struct out_file *f, const char *draft_name,
		       int (*draft)(struct out_file *from, struct out_file *to))
{
	struct out_file to = { draft_name, 0, -1, 0, 0, 1 };
	char line[256];

	if (f->handle < 0)
		return;
	to.handle = plat_file_open(draft_name);
	if (to.handle >= 0 && draft(f, &to) == 0 && plat_file_flush(to.handle) == 0) {
		if (plat_file_delete(f->handle) == 0 && plat_file_rename(to.handle, f->name) == 0) {
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

/* The reserve: RESERVE_TIMES_EARLY times the early description's length
   and RESERVE_EXTRA, at most half the room the platform says is left (so
   taking it never fails a write). Not taken where less than a block
   would be. */
static void reserve_take(size_t early_len)
{
	uint64_t room = plat_files_room();
	uint64_t want = RESERVE_TIMES_EARLY * (uint64_t)early_len + RESERVE_EXTRA;

	if (room != UINT64_MAX && want > room / 2)
		want = room / 2;
	if (want < sizeof zeros)
		return;
	reserve_handle = plat_file_open(reserve_name);
	for (uint64_t at = 0; reserve_handle >= 0 && at < want; at += sizeof zeros)
		if (plat_file_write(reserve_handle, zeros, sizeof zeros) != 0)
			break;
	if (reserve_handle >= 0)
		plat_file_flush(reserve_handle);
}

/* The reserve's room given back to the closing files (deleted, never
   closed: a closed file would be sent to upload.url). */
static void reserve_release(void)
{
	if (reserve_handle >= 0)
		plat_file_delete(reserve_handle);
	reserve_handle = -1;
}

/* ---- Public Functions ------------------------------------------------- */

void results_open(void)
{
	char title[256];

	if (files_opened)
		return;
	files_opened = 1;
	row_text_count = 0;
	row_texts_full = 0;

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

/* system.json's document into buf, indented for people: its length, or
   0 with why[] said when it overflowed or was not closed (cut-off JSON
   would break every reader; none is better). */
static size_t system_document(char *buf, size_t size, void (*fill)(struct json *j, void *arg),
			      void *arg, char *why, size_t why_len)
{
	struct json j;

	json_init(&j, buf, size);
	json_indent(&j, 2);
	json_object_begin(&j, NULL);
	json_u64(&j, "schema_version", SYSTEM_JSON_SCHEMA_VERSION);
	fill(&j, arg);
	row_texts_json(&j);
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
	size_t len = system_document(system_json, sizeof system_json, fill, arg, why, sizeof why);

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
	size_t len = system_document(early_json, sizeof early_json, fill, arg, why, sizeof why);

	early_json_len = len;
	if (!len)
		return;   /* the final one says why, if it fails too */
	file_open(&system_file);
	file_write(&system_file, early_json, len);
	file_write(&system_file, "\n", 1);
	file_flush(&system_file);
	reserve_take(len);
}

int results_system_member(const char *path, char *out, size_t size)
{
	if (size)
		out[0] = 0;
	if (!early_json_len)
		return -1;
	if (json_get_scalar(early_json, early_json_len, path, out, size) == 0)
		return 0;
	if (size)
		out[0] = 0;
	return -1;
}

/* doc and its line end to a new file called name, flushed: its handle,
   or -1 (nothing of it left on the volume). */
static int system_write_new(const char *name, const char *doc, size_t len)
{
	struct out_file to = { name, 0, -1, 0, 0, 1 };

	to.handle = plat_file_open(to.name);
	if (to.handle < 0)
		return -1;
	file_write(&to, doc, len);
	file_write(&to, "\n", 1);
	if (to.failed || plat_file_flush(to.handle) != 0) {
		plat_file_delete(to.handle);
		return -1;
	}
	return to.handle;
}

/* doc in place of the early system.json, which stays until doc is whole
   beside it: written to system.draft.json, and only once that is flushed
   is the early one deleted and the draft given its name. 0, or -1 (the
   early one kept, open). */
static int system_beside(const char *doc, size_t len)
{
	int handle = system_write_new("system.draft.json", doc, len);

	if (handle < 0)
		return -1;
	if (plat_file_delete(system_file.handle) != 0 ||
	    plat_file_rename(handle, system_file.name) != 0)
		report_printf("system.json: the final description is in system.draft.json (it could "
			      "not take system.json's name)\n");
	system_file.handle = -1;
	plat_file_close(handle);
	return 0;
}

/* doc where the early system.json was, on a volume without room for
   both: the early one deleted first, and written back (kept in memory)
   if doc does not fit its room either. 0, or -1 (the early one kept or
   back, or none left: said). */
static int system_in_its_place(const char *doc, size_t len)
{
	int handle = -1;

	if (plat_file_delete(system_file.handle) == 0) {
		system_file.handle = -1;
		handle = system_write_new(system_file.name, doc, len);
		if (handle >= 0) {
			plat_file_close(handle);
			return 0;
		}
		handle = system_write_new(system_file.name, early_json, early_json_len);
		if (handle < 0) {
			report_printf("system.json: neither the final description nor the one from the "
				      "run's start could be written (volume full?): no system.json is "
				      "left\n");
			return -1;
		}
		plat_file_close(handle);
	}
	file_close(&system_file);
	report_printf("system.json: the final description could not be written (volume full?); "
		      "system.json keeps the one written at the run's start, whole (\"state\": "
		      "\"running\")\n");
	return -1;
}

/* The final description (len bytes, indented, in system_json) over the
   early one, by the first way that fits the volume: indented beside it;
   compact (about three quarters the length) beside it; compact in its
   place. Each way but the first is said. Its length as written. */
static size_t system_final(size_t len)
{
	if (system_beside(system_json, len) == 0)
		return len;
	len = json_compact(system_json, len);
	if (system_beside(system_json, len) == 0)
		report_printf("system.json: the final description is written compact, on one line: "
			      "the volume had no room for it indented\n");
	else if (system_in_its_place(system_json, len) == 0)
		report_printf("system.json: the final description is written compact, in place of "
			      "the run's start one: the volume had no room for both\n");
	return len;
}

void results_system(void (*fill)(struct json *j, void *arg), void *arg)
{
	char why[96];
	size_t len = system_document(system_json, sizeof system_json, fill, arg, why, sizeof why);

	reserve_release();
	if (!len) {
		report_printf("%s: system.json: %s; the run goes on, on the console\n",
			      system_file.handle >= 0 ? "the final description is not written, and "
			      "the one from the run's start is kept" : "no results file written", why);
		file_close(&system_file);
		return;
	}
	if (system_file.handle >= 0) {
		len = system_final(len);
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

	reserve_release();
	results_probe_done();
	report_html_end();
	file_flush(&html_file);
	file_flush(&report_file);
	if (card_len) {
		card_first(&report_file, "report.draft.txt", text_draft);
		card_first(&html_file, "report.draft.html", html_draft);
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
	early_json_len = 0;
	return lost ? -1 : 0;
}

void results_card(const char *text, size_t len)
{
	struct out_file summary_file = { "summary.txt", 0, -1, 0, 0, 0 };

	reserve_release();
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

void report_put(void *ctx, const char *text)
{
	(void)ctx;
	report_printf("%s", text);
}

void report_notice(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_text(1, fmt, ap);
	va_end(ap);
}
