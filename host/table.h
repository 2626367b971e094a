/* A table of text cells, shown two ways from the one content: aligned
 * columns for a terminal, an HTML table for a page. memprobe compare builds
 * every table once and prints it and writes it through here, so the
 * terminal and compare.html can never disagree.
 */
#ifndef MEMPROBE_TABLE_H
#define MEMPROBE_TABLE_H

#include <stdio.h>
#include "lib/html.h"

#define TABLE_MAX_COLUMNS 32

struct table {
	unsigned ncols;
	char *header[TABLE_MAX_COLUMNS];
	unsigned text_columns;       /* bit c: column c is words, left-aligned */
	char **cell;                 /* nrows * ncols */
	unsigned char *marked;       /* per row: shown highlighted */
	unsigned nrows, capacity;
	unsigned filled;             /* cells given in the current row */
};

/* An empty table with these column names (at most TABLE_MAX_COLUMNS). */
void table_init(struct table *t, unsigned ncols, const char *const *header, unsigned text_columns);
/* Starts a row; marked rows are highlighted (on the page) and flagged with
   a '*' before their first cell (on the terminal). */
void table_row(struct table *t, int marked);
/* The next cell of the current row. */
void table_cell(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void table_print(const struct table *t, FILE *to);
/* <div class="scroll"><table> with the caption, escaped. */
void table_html(const struct table *t, const struct html_out *o, const char *caption);
void table_free(struct table *t);

#endif
