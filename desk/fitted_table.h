/* A table whose column widths fit its contents: the cells are kept until
 * the whole table is known, then shown through lib/table.h (aligned text
 * for a terminal, an HTML table for a page) from the one content, so the
 * terminal and compare.html can never disagree. memprobe compare builds
 * every table this way; a probe, which prints each row the moment it is
 * measured, declares fixed widths and uses lib/table.h directly.
 */
#ifndef MEMPROBE_FITTED_TABLE_H
#define MEMPROBE_FITTED_TABLE_H

#include <stdio.h>
#include "lib/html.h"
#include "lib/table.h"

struct fitted_table {
	unsigned ncols;
	struct table_column column[TABLE_MAX_COLUMNS];  /* names copied, widths fitted */
	char **cell;                 /* nrows * ncols */
	unsigned char *marked;       /* per row: shown highlighted */
	unsigned nrows, capacity;
	unsigned filled;             /* cells given in the current row */
};

/* An empty table with these column names (at most TABLE_MAX_COLUMNS); bit
   c of text_columns: column c is words, left-aligned. */
void fitted_table_init(struct fitted_table *t, unsigned ncols, const char *const *header,
		       unsigned text_columns);
/* Starts a row; marked rows are highlighted (on the page) and flagged with
   a '*' before their first cell (on the terminal). */
void fitted_table_row(struct fitted_table *t, int marked);
/* The next cell of the current row. */
void fitted_table_cell(struct fitted_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The next cell, a figure: a whole number as such ("32768"), any other to
   two decimals ("1.08"), then mark ("": none; "*": starred on its card). */
void fitted_table_figure(struct fitted_table *t, double v, const char *mark);
/* The header and every row, each column as wide as its widest cell. */
void fitted_table_print(struct fitted_table *t, FILE *to);
/* The table on a page, with the caption (escaped). */
void fitted_table_html(const struct fitted_table *t, const struct html_out *o,
		       const char *caption);
void fitted_table_free(struct fitted_table *t);

#endif
