/* A table declared once and shown two ways: aligned text lines (a console,
 * report.txt, a terminal) and an HTML <table> (report.html, compare.html).
 *
 * The caller declares the columns once (name, an optional unit line, a
 * width, words or figures) and hands each row as an array of cell texts;
 * both renderings read that one declaration, so the text and the page can
 * never disagree about which column holds what. Rows are rendered one at a
 * time, so a probe can print a row the moment it is measured (a long sweep
 * shows progress, and a run cut short keeps every row printed). Formatting
 * only, into the caller's buffer or html_out; no state, no allocation.
 * Freestanding.
 */
#ifndef MEMPROBE_TABLE_H
#define MEMPROBE_TABLE_H

#include <stddef.h>
#include "lib/html.h"

#define TABLE_MAX_COLUMNS 32

struct table_column {
	const char *name;       /* the header */
	const char *unit;       /* a second header line ("ns/call"), or NULL */
	unsigned width;         /* text: the column's width; a wider cell pushes the line */
	unsigned char words;    /* words, left-aligned; otherwise a figure, right-aligned */
	unsigned char gap;      /* blanks before it in the text; 0: one */
};

struct table {
	const struct table_column *column;
	unsigned ncols;               /* at most TABLE_MAX_COLUMNS */
	const char *indent;           /* before every text line */
	const char *marked_indent;    /* before a marked row's line; NULL: indent */
};

/* A struct table of a static column array. */
#define TABLE_OF(columns, indent) \
	{ columns, sizeof columns / sizeof *columns, indent, NULL }

/* The header as text: the names line, then the units line when a column
   has a unit; each ends in '\n'. Into buf (NUL-terminated, cut to size);
   returns the length asked for, as mp_snprintf does. */
size_t table_text_header(const struct table *t, char *buf, size_t size);
/* One row as a text line ending in '\n': the indent (marked_indent for a
   marked row), then each cell padded to its column's width, words left and
   figures right, a column's gap before it. A last column of words is not
   padded, so no line ends in blanks. A NULL cell is empty. Returns as
   table_text_header. */
size_t table_text_row(const struct table *t, const char *const *cell, int marked, char *buf,
		      size_t size);

/* <div class="scroll"><table>, the caption (escaped; NULL: none) and the
   header (the names row, and the units row when a column has a unit). */
void table_html_begin(const struct html_out *o, const struct table *t, const char *caption);
/* One <tr>: each cell escaped, with the blanks that aligned it in the text
   trimmed; words left-aligned (class "text"); a marked row highlighted
   (class "only"). */
void table_html_row(const struct html_out *o, const struct table *t, const char *const *cell,
		    int marked);
/* A row of free text across every column (a progress line, a note printed
   between rows): table_html_note_begin, any text through html_text, then
   table_html_note_end. */
void table_html_note_begin(const struct html_out *o, const struct table *t);
void table_html_note_end(const struct html_out *o);
/* </tbody></table></div>. */
void table_html_end(const struct html_out *o);

#endif
