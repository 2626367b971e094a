/* results.csv read back (see csvread.h). */
#include "results/csvread.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

#define RECORD_STORE 4096

/* ---- Private Functions ------------------------------------------------ */

static int same_word(const char *a, const char *b)
{
	return mp_strcmp(a, b) == 0;
}

static int header_columns(const char **fields, int n, int *index, struct csv_summary *sum)
{
	for (unsigned c = 0; c < result_column_count; c++) {
		const struct result_column *col = &result_columns[c];

		index[c] = -1;
		for (int i = 0; i < n; i++)
			if (same_word(fields[i], col->name) && index[c] < 0)
				index[c] = i;
		if (index[c] < 0 && col->required) {
			mp_snprintf(sum->error, sizeof sum->error,
				    "no '%s' column in the header line", col->name);
			return -1;
		}
	}
	return 0;
}

static const char *field_or_empty(const char **fields, const int *index, unsigned c)
{
	return index[c] >= 0 ? fields[index[c]] : "";
}

static int to_row(const char **fields, const int *index, struct result_row *row)
{
	for (unsigned c = 0; c < result_column_count; c++)
		if (result_column_parse(&result_columns[c], field_or_empty(fields, index, c), row))
			return -1;
	return 0;
}

static void count_bad(struct csv_summary *sum, unsigned line)
{
	sum->skipped++;
	if (!sum->first_bad_line)
		sum->first_bad_line = line;
}

/* ---- Public Functions ------------------------------------------------- */

int results_csv_read(const char *text, size_t len,
		     void (*fn)(const struct result_row *row, void *ctx), void *ctx,
		     struct csv_summary *sum)
{
	static char store[RECORD_STORE];
	const char *fields[CSV_MAX_FIELDS];
	int index[CSV_MAX_FIELDS];       /* per column of the table: its field, or -1 */
	struct csv_reader r;
	int n, header_n;

	mp_memset(sum, 0, sizeof *sum);
	csv_reader_init(&r, text, len);
	header_n = csv_next(&r, store, sizeof store, fields, CSV_MAX_FIELDS);
	if (header_n <= 0) {
		if (header_n == 0)
			mp_strlcpy(sum->error, "the file is empty", sizeof sum->error);
		else
			mp_snprintf(sum->error, sizeof sum->error, "the header line is not a CSV "
				    "record memprobe reads (broken quoting, more than %d fields, or "
				    "more than %d bytes)", CSV_MAX_FIELDS, RECORD_STORE);
		return -1;
	}
	if (header_columns(fields, header_n, index, sum))
		return -1;

	while ((n = csv_next(&r, store, sizeof store, fields, CSV_MAX_FIELDS)) != 0) {
		struct result_row row;

		if (n == 1 && !fields[0][0])
			continue;             /* a blank line */
		/* A short row is the last line of a run cut off mid-write. */
		if (n != header_n || to_row(fields, index, &row)) {
			count_bad(sum, r.line);
			continue;
		}
		sum->rows++;
		fn(&row, ctx);
	}
	return 0;
}
