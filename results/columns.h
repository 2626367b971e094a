/* results.csv's row and its columns: struct result_row, and the one table
 * that names each column once, with how its field is written and read
 * back. results.c writes the header and every row from the table, csvread.c
 * reads rows back by it; docs/OUTPUT.md documents every column.
 *
 * Adding a column: a field in struct result_row, a row in result_columns[]
 * (columns.c), and its line in docs/OUTPUT.md. tests/unit/test_columns.c
 * fails while a field of struct result_row has no column, or the docs list
 * other columns than the table; tests/files.sh, while a real run's header
 * differs from the docs' list.
 */
#ifndef MEMPROBE_COLUMNS_H
#define MEMPROBE_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

/* A chase row's slot: one per 64-byte line, so a chase row's working set
   is its slot count times this (probes/chase.h lays the slots out;
   analysis/tlb_levels.c counts a control row's jumps by it). */
#define ROW_CHASE_SLOT_BYTES 64u

/* A count that some rows have and others do not (a CPU number: 0 is a
   CPU); a zeroed one is "not given" and is written empty. */
struct optional_count {
	int given;
	unsigned value;
};

/* The same for a real figure. */
struct optional_real {
	double value;
	int given;
};

struct result_row {
	const char *probe;            /* the probe's name, its registry row's (probe.h) */
	const char *variant;          /* "chase", "row", "column", "read_avx2", ... */
	unsigned page_shift;          /* 0 where no buffer is involved (cost) */
	uint64_t working_set_bytes;   /* 0 where not applicable */
	double ns;                    /* per access / element / call / 64-byte line */
	double cycles;                /* core cycles for the same */
	unsigned trials;
	double spread;                /* (third best - best) / best over the trials: a
					 fraction here, a percentage in the file */
	const char *pages_verified;   /* plat_buffer.verified, or "" */
	const char *timer;            /* plat_clock()->source, short form */
	struct optional_count cpu;    /* c2c, loaded: the logical CPU measured on */
	struct optional_count peer_cpu; /* c2c: the other CPU of the pair */
	struct optional_count loaders;  /* loaded: CPUs running bandwidth load */
	struct optional_real load_gb_per_s; /* loaded: the bandwidth they achieved together */
	struct optional_count chases;   /* mlp: chases interleaved in one loop */
	struct optional_real in_flight; /* mlp: loads in flight, ns at 1 chase over ns here */
	struct optional_real gb_per_s;        /* bandwidth: 10^9 bytes per second */
	struct optional_real bytes_per_cycle; /* bandwidth: bytes per core cycle */
	const char *sweep_point;      /* latency, tlb, bandwidth: "grid" or "refined" */
	uint64_t stride_bytes;        /* geometry, ifetch chains: the slots' spacing; 0 elsewhere */
	const char *trial_form;       /* latency, tlb, loaded: "laps" or "partial" */
	const char *stopped_by;       /* what ended the trials: trials_stop's limit */
	struct optional_real insns_per_cycle; /* ifetch fetch rows: instructions per core cycle */
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
	COLUMN_OPTIONAL_COUNT, /* struct optional_count: an integer, empty when
			       not given */
	COLUMN_OPTIONAL_REAL,  /* struct optional_real: as COLUMN_REAL, empty when
			       not given */
	COLUMN_PERCENT,     /* double, a fraction: written as a percentage,
			       %.<decimals>f of 100 times it; read back divided
			       by 100 */
	COLUMN_TEXT_ID,     /* const char *: a long text that repeats over rows.
			       The row holds a short id (the column name's first
			       letter and a number, "t1"), and system.json's
			       row_texts.<column>.<id> the text (results.c);
			       result_column_format gives the text itself */
};

struct result_column {
	const char *name;             /* as the header line names it */
	int required;                 /* the reader refuses a header without it */
	enum column_form form;
	unsigned decimals;            /* COLUMN_REAL, COLUMN_OPTIONAL_REAL */
	size_t offset;                /* of the field in struct result_row */
	const char *was;              /* the name older files gave the column, or
					 NULL; read back as COLUMN_REAL (so a
					 COLUMN_PERCENT's old field is the fraction) */
};

/* In the order of the file; result_column_count of them, at most
   CSV_MAX_FIELDS (lib/csv.h), the most a record can hold. */
extern const struct result_column result_columns[];
extern const unsigned result_column_count;

/* The field's text as results.csv holds it, before any quoting: the row's
   own string for a text column (never NULL; for COLUMN_TEXT_ID the text,
   which the writer turns into its id), else the number formatted into
   buf. */
const char *result_column_format(const struct result_column *col,
				 const struct result_row *row, char *buf, size_t size);

/* Sets the column's field of *row from its text in a file (see
   enum column_form for empty text). 0, or -1 when the text is not a value
   of the column; a text column keeps the pointer, not a copy. */
int result_column_parse(const struct result_column *col, const char *text,
			struct result_row *row);

/* The same for a file's column of the name col->was: as COLUMN_REAL. */
int result_column_parse_was(const struct result_column *col, const char *text,
			    struct result_row *row);

#endif
