/* A table of the report, declared once (lib/table.h) and shown both ways:
 * each row the moment it is given, as an aligned text line through a
 * printer (the run's console and report.txt, or memprobe analyze's
 * stdout) and as a row of an HTML table in report.html.
 *
 * A probe prints its rows as it measures them, with progress and notes
 * between them; the text keeps them in order, and the page shows what is
 * printed between rows as a row across the table. One table at a time
 * (probes print one table at a time); static buffers only, like
 * results.c, since a probe buffer may hold nearly all memory.
 */
#ifndef MEMPROBE_REPORT_TABLE_H
#define MEMPROBE_REPORT_TABLE_H

#include "lib/fmt.h"
#include "lib/table.h"

/* Prints the header and opens the page's table. shape: static, valid
   until report_table_end. caption: the page's (NULL: none). to: where the
   text goes; NULL: the run's report (report_printf). */
void report_table_begin(const struct table *shape, const char *caption,
			const struct mp_printer *to);
/* The next cell of the row being built (its column pads it in the text;
   the page trims the padding). */
void report_table_cell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, for a cell that belongs under the column named `column`: when
   the next column has another name the row is a misfit (see below). */
void report_table_cell_under(const char *column, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The row built so far, printed and put on the page. marked: highlighted
   on the page, marked_indent in the text. A row gives one cell per column:
   one that gave fewer or more, or a named cell away from its column, is a
   misfit, a bug in the probe (its figures would stand under another
   figure's header, or a figure would be missing): it is printed as far as
   it goes, followed by a line saying so, and counted. */
void report_table_row(int marked);
/* Misfit rows since the program started: the probes' tests assert none. */
unsigned report_table_misfits(void);
/* Closes the page's table (the text needs no end). */
void report_table_end(void);

#endif
