/* results.csv's row and its columns: struct result_row, and the one table
 * that names each column once, with how its field is written and read
 * back. results.c writes the header and every row from the table, csvread.c
 * reads rows back by it; docs/OUTPUT.md documents every column.
 *
 * Adding a column: a field in struct result_row, a row in result_columns[]
 * (columns.c), and its line in docs/OUTPUT.md. tests/unit/test_columns.c
 * fails while a field of struct result_row has no column, or the docs list
 * other columns than the table.
 */
#ifndef MEMPROBE_COLUMNS_H
#define MEMPROBE_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

struct result_row {
	const char *probe;            /* "latency", "tlb", "locality", "later", "cost" */
	const char *variant;          /* "chase", "row", "column", "read_avx2", ... */
	unsigned page_shift;          /* 0 where no buffer is involved (cost) */
	uint64_t working_set_bytes;   /* 0 where not applicable */
	double ns;                    /* per access / element / call / 64-byte line */
	double cycles;                /* core cycles for the same */
	unsigned trials;
	double spread;                /* (worst - best) / best over the trials */
	const char *pages_verified;   /* plat_buffer.verified, or "" */
	const char *timer;            /* plat_clock()->source, short form */
	double gb_per_s;              /* bandwidth: 10^9 bytes per second; 0 elsewhere */
	double bytes_per_cycle;       /* bandwidth: bytes per core cycle; 0 elsewhere */
};

/* How a column's field is held, written and read. An empty field in a file
   reads as "", 0 or nan by the same rules, and so does a column the file
   does not have (only optional columns may be missing). */
enum column_form {
	COLUMN_TEXT,        /* const char *: the text (NULL is written empty) */
	COLUMN_PAGE_SIZE,   /* unsigned page shift: 2^shift bytes, an integer;
			       empty when 0. Read back: 4 KiB to 1 TiB, a power of two */
	COLUMN_BYTES,       /* uint64_t: an integer; empty when 0 */
	COLUMN_COUNT,       /* unsigned: an integer, 0 included; read back capped
			       at UINT32_MAX */
	COLUMN_REAL,        /* double: %.<decimals>f, so nan and inf as such */
	COLUMN_RATE,        /* double: %.<decimals>f; empty when 0 (not
			       applicable to the row's probe), read back as 0 */
};

struct result_column {
	const char *name;             /* as the header line names it */
	int required;                 /* the reader refuses a header without it */
	enum column_form form;
	unsigned decimals;            /* COLUMN_REAL */
	size_t offset;                /* of the field in struct result_row */
};

/* In the order of the file; result_column_count of them, at most
   CSV_MAX_FIELDS (lib/csv.h), the most a record can hold. */
extern const struct result_column result_columns[];
extern const unsigned result_column_count;

/* The field's text as results.csv holds it, before any quoting: the row's
   own string for a text column (never NULL), else the number formatted into
   buf. */
const char *result_column_format(const struct result_column *col,
				 const struct result_row *row, char *buf, size_t size);

/* Sets the column's field of *row from its text in a file (see
   enum column_form for empty text). 0, or -1 when the text is not a value
   of the column; a text column keeps the pointer, not a copy. */
int result_column_parse(const struct result_column *col, const char *text,
			struct result_row *row);

#endif
