/* report.html: the run's page, built as the run goes.
 *
 * The page follows report.txt: its free text (notes, verdict lines) in
 * <pre> blocks, every table the report prints as an HTML table of the same
 * cells (report_table.h's, declared once for both), a heading per section, each probe's results rows as an HTML table of results.csv's
 * columns (columns.h's table, so a new column or probe appears without code
 * here; a column the same in every row is said once, in the caption),
 * every chart the run writes inline as SVG, and the verdict. Each section
 * and chart has its anchor (section-N, chart-N).
 *
 * Written by appending, never by rewriting: the platform's files only
 * append, and a page rewritten whole at every probe would be lost whole by
 * a cut during the rewrite. At each checkpoint (a probe's end) the page is
 * a run of complete elements, and HTML lets </body> and </html> be left
 * out, so a run cut short there leaves a whole, readable page; a cut in the
 * middle of a probe leaves at worst an open <pre> or table, which a browser
 * closes. While it streams, the page's parts (a section's text, a table, a
 * chart, a block of rows) are recorded as byte ranges, so that once the
 * run is over the caller can write the page again in the order a reader
 * wants (report_html_arrange), into a copy that takes the streamed page's
 * name only when whole.
 *
 * Formatting only: the caller (results.c, or memprobe analyze) owns the
 * file and hands in where the markup goes.
 */
#ifndef MEMPROBE_REPORT_HTML_H
#define MEMPROBE_REPORT_HTML_H

#include <stddef.h>
#include <stdint.h>
#include "lib/html.h"
#include "lib/svg.h"
#include "lib/table.h"
#include "results/columns.h"

/* Starts the page: its head and style, and the title as its heading. */
void report_html_begin(const struct html_out *o, const char *title);
/* Report text, any number of whole or partial lines. */
void report_html_text(const char *text, size_t len);
/* A table of the report opens (shape must stay valid until it closes): its
   rows follow through report_html_table_row; report text written while it
   is open (a progress line, a note between rows) becomes a row across it;
   report_html_table_end, a section, a chart, a checkpoint or the next
   table closes it. caption: escaped; NULL for none. */
void report_html_table_begin(const struct table *shape, const char *caption);
/* A row of the open table (no table open: nothing). */
void report_html_table_row(const char *const *cell, int marked);
void report_html_table_end(void);
/* While on, report text is left out of the page: it is a table's own text
   rendering, which the page already shows as the table. */
void report_html_quiet(int on);
/* A section heading (a probe's name, "memory hierarchy, ..."). */
void report_html_section(const char *title);
/* A results row, held until report_html_rows_done (or written early as a
   table of its own when a probe's rows outgrow the buffer). */
void report_html_row(const struct result_row *row);
/* The rows held so far as one table. */
void report_html_rows_done(void);
/* A chart inline: produce writes an SVG document (lib/svg.h's). */
void report_html_chart(const char *name,
		       int (*produce)(svg_write_fn write, void *ctx, const void *arg),
		       const void *arg);
/* A block of text shown folded (<details>), e.g. system.json. */
void report_html_folded(const char *summary, const char *text, size_t len);
/* The verdict line. */
void report_html_verdict(int ok, const char *text);
/* Closes any open block, so what is written so far is whole elements. */
void report_html_checkpoint(void);
/* Ends the page and stops writing (a later begin starts a fresh one). */
void report_html_end(void);

/* ---- The page arranged for reading, once the run is over -------------- */

/* Copies bytes [from, to) of the streamed page to the arranged one; 0, or
   -1 when they could not be read or written. */
typedef int (*report_html_copy_fn)(void *ctx, uint64_t from, uint64_t to);

/* The page that was streamed since report_html_begin, ended, written
   again in the order a reader wants (docs/OUTPUT.md, "report.html"): its
   head, the card (card, card_len: plain text), the verdict, a table of
   contents with a link to every chart and section, the charts each beside
   its short table, the sections' text and tables, and last, in a closed
   <details>, the configuration, the results rows and system.json. New
   markup goes to `to`; the streamed page's parts come through copy. 0, or
   -1 when a copy failed (the caller keeps the streamed page). */
int report_html_arrange(const struct html_out *to, report_html_copy_fn copy, void *ctx,
			const char *card, size_t card_len);

#endif
