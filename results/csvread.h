/* Reading results.csv back: the results table's rows by column name, over
 * lib/csv.h's record reader, each field parsed as columns.h's table says.
 * Nothing in the file is trusted (see csv.h); fuzzed by
 * tests/fuzz/fuzz_csvread.c.
 */
#ifndef MEMPROBE_CSVREAD_H
#define MEMPROBE_CSVREAD_H

#include <stddef.h>
#include <stdint.h>
#include "lib/csv.h"
#include "results/columns.h"

/* What a read of results.csv found. */
struct csv_summary {
	unsigned rows;            /* handed to the callback */
	unsigned skipped;         /* malformed or with unreadable numbers */
	unsigned first_bad_line;  /* 0 when none */
	char error[160];          /* a reason the whole file was refused, or "" */
};

/* Reads a results.csv: the header names the columns (any order, extra
   columns ignored; the required ones of columns.h's table, today probe,
   variant, page_size, working_set_bytes, ns and cycles, must be there), then
   each row goes to fn as a struct result_row whose strings live until fn
   returns. Returns 0, or -1 with sum->error set when there is no usable
   header. */
int results_csv_read(const char *text, size_t len,
		     void (*fn)(const struct result_row *row, void *ctx), void *ctx,
		     struct csv_summary *sum);

/* The same, with the run's system.json (json, json_len; NULL when there is
   none) to turn the ids of the row-text columns (COLUMN_TEXT_ID) back into
   their texts; a field that is no id there (an older file's text itself,
   or a run cut short before the final system.json) is handed on as it
   stands. A column under its older name (the table's `was`: spread, a
   fraction) is read as such. */
int results_csv_read_texts(const char *text, size_t len, const char *json, size_t json_len,
			   void (*fn)(const struct result_row *row, void *ctx), void *ctx,
			   struct csv_summary *sum);

#endif
