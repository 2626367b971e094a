/* libFuzzer target: the results.csv reader over arbitrary bytes.
 *
 * fuzz-sources: results/csvread.c results/columns.c lib/csv.c lib/fmt.c lib/json_read.c
 *
 * Three layers: csv_next record by record with a small store (so the
 * too-long paths run too), results_csv_read over the whole input, and
 * results_csv_read_texts with the input split at its first NUL byte: the
 * CSV before it, a system.json to resolve row-text ids after it.
 * Beyond "no crash": every field and every row string must be terminated
 * inside its store, csv_next must make progress on every call, and the
 * summary must add up; a reader that loops or hands out unterminated text
 * would pass the sanitizers on most inputs and fail on a real file.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "results/csvread.h"

struct tally {
	unsigned rows;
};

static void check_text(const char *s)
{
	if (!s)
		__builtin_trap();
	(void)strlen(s);                  /* ASan catches a missing terminator */
}

static void on_row(const struct result_row *row, void *ctx)
{
	struct tally *t = ctx;

	check_text(row->probe);
	check_text(row->variant);
	check_text(row->pages_verified);
	check_text(row->timer);
	t->rows++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct csv_reader r;
	char store[256];
	const char *fields[8];
	size_t last_pos = 0;
	int n;

	csv_reader_init(&r, text, size);
	while ((n = csv_next(&r, store, sizeof store, fields, 8)) != 0) {
		if (n > 8 || n < -1)
			__builtin_trap();
		for (int i = 0; i < n; i++) {
			if (fields[i] < store || fields[i] >= store + sizeof store)
				__builtin_trap();
			check_text(fields[i]);
		}
		if (r.pos <= last_pos && r.pos < size)
			__builtin_trap();         /* no progress: the reader would loop */
		if (r.pos > size)
			__builtin_trap();
		last_pos = r.pos;
	}

	struct tally t = { 0 };
	struct csv_summary sum;
	if (results_csv_read(text, size, on_row, &t, &sum) == 0) {
		if (sum.rows != t.rows || sum.error[0] != '\0')
			__builtin_trap();
		if (sum.skipped && sum.first_bad_line == 0)
			__builtin_trap();
	} else if (sum.error[0] == '\0') {
		__builtin_trap();             /* refused without a reason */
	}

	const char *nul = memchr(text, '\0', size);
	if (nul) {
		size_t csv_len = (size_t)(nul - text);

		t.rows = 0;
		if (results_csv_read_texts(text, csv_len, nul + 1, size - csv_len - 1, on_row, &t,
					   &sum) == 0 && sum.rows != t.rows)
			__builtin_trap();
	}
	return 0;
}
