/* Reading results.csv back: an RFC 4180 record reader, and on top of it the
 * results table's rows by column name.
 *
 * The input is a file from any run, on any medium: truncated by a run cut
 * short, edited by hand, or not a CSV at all. Nothing here trusts it: every
 * length is bounded, a malformed record is skipped and counted, and the
 * parse never reads outside [text, text + len). Freestanding (no libc), so
 * the EFI app could read a file back too; fuzzed by tests/fuzz/fuzz_csvread.c.
 */
#ifndef MEMPROBE_CSVREAD_H
#define MEMPROBE_CSVREAD_H

#include <stddef.h>
#include <stdint.h>
#include "probes/results.h"

#define CSV_MAX_FIELDS 32

struct csv_reader {
	const char *text;
	size_t len, pos;
	unsigned line;            /* physical line where the last record began, from 1 */
	unsigned at_line;         /* physical line of pos */
};

void csv_reader_init(struct csv_reader *r, const char *text, size_t len);

/* The next record: its fields unescaped into store (NUL-terminated, a NUL
   inside a field ends it there), fields[i] pointing into store. Returns the
   field count, 0 at the end of the input, or -1 for a malformed record (an
   unterminated quote, a quote inside an unquoted field, text after a closing
   quote, more than max_fields fields, more than store_size bytes); reading
   then resumes on the next line. A blank line is a record of one empty field. */
int csv_next(struct csv_reader *r, char *store, size_t store_size,
	     const char **fields, int max_fields);

/* Strict numbers, the whole field or nothing: 0 on success, -1 otherwise.
   Decimal digits only for integers; [-+]digits[.digits][e[-+]digits] for
   doubles (also "nan", "inf", as fmt.h may print them). */
int csv_parse_u64(const char *s, uint64_t *out);
int csv_parse_double(const char *s, double *out);

/* What a read of results.csv found. */
struct csv_summary {
	unsigned rows;            /* handed to the callback */
	unsigned skipped;         /* malformed or with unreadable numbers */
	unsigned first_bad_line;  /* 0 when none */
	char error[160];          /* a reason the whole file was refused, or "" */
};

/* Reads a results.csv: the header names the columns (any order, extra
   columns ignored; probe, variant, page_size, working_set_bytes, ns and
   cycles are required), then each row goes to fn as a struct result_row
   whose strings live until fn returns. Returns 0, or -1 with sum->error set
   when there is no usable header. */
int results_csv_read(const char *text, size_t len,
		     void (*fn)(const struct result_row *row, void *ctx), void *ctx,
		     struct csv_summary *sum);

#endif
