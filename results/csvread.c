/* results.csv read back (see csvread.h). */
#include "results/csvread.h"
#include "lib/fmt.h"
#include "lib/json_read.h"

/* ---- Constants -------------------------------------------------------- */

#define RECORD_STORE 4096
#define ROW_TEXT_READ_MAX 1024    /* a row text read back; longer ones are cut */
#define ROW_TEXT_ID_MAX 15        /* a longer field is no id */

/* ---- Private Types ---------------------------------------------------- */

/* Where each column of the table is in a file's records. */
struct header {
	int index[CSV_MAX_FIELDS];   /* its field, or -1 */
	int was[CSV_MAX_FIELDS];     /* the field is the column's old name's */
	const char *json;            /* the run's system.json, or NULL */
	size_t json_len;
};

/* ---- Private Data ----------------------------------------------------- */

/* Each row-text column's last id and its text: rows repeat a handful of
   ids, so most rows need no search of system.json. */
static char row_text[CSV_MAX_FIELDS][ROW_TEXT_READ_MAX];
static char row_text_id[CSV_MAX_FIELDS][ROW_TEXT_ID_MAX + 1];

/* ---- Private Functions ------------------------------------------------ */

static int same_word(const char *a, const char *b)
{
	return mp_strcmp(a, b) == 0;
}

/* The first field named name, or -1. */
static int field_named(const char **fields, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (same_word(fields[i], name))
			return i;
	return -1;
}

static int header_columns(const char **fields, int n, struct header *h, struct csv_summary *sum)
{
	for (unsigned c = 0; c < result_column_count; c++) {
		const struct result_column *col = &result_columns[c];

		h->index[c] = field_named(fields, n, col->name);
		h->was[c] = h->index[c] < 0 && col->was;
		if (h->was[c])
			h->index[c] = field_named(fields, n, col->was);
		if (h->index[c] < 0 && col->required) {
			mp_snprintf(sum->error, sizeof sum->error,
				    "no '%s' column in the header line", col->name);
			return -1;
		}
	}
	return 0;
}

/* A row-text column's field as its text: the id looked up in system.json's
   row_texts.<column>; the field as it stands when there is no such id (an
   older file holds the text itself). */
static const char *row_text_of(const struct header *h, unsigned c, const char *field)
{
	char path[96];

	if (!h->json || !field[0] || mp_strlen(field) > ROW_TEXT_ID_MAX)
		return field;
	if (!mp_strcmp(field, row_text_id[c]))
		return row_text[c];
	mp_snprintf(path, sizeof path, "row_texts.%s.%s", result_columns[c].name, field);
	if (json_get_string(h->json, h->json_len, path, row_text[c], sizeof row_text[c]) != 0)
		return field;
	mp_strlcpy(row_text_id[c], field, sizeof row_text_id[c]);
	return row_text[c];
}

/* Column c's field of a record ("" when the file lacks the column), a row
   text's id already turned into its text. */
static const char *field_of(const char **fields, const struct header *h, unsigned c)
{
	const char *field = h->index[c] >= 0 ? fields[h->index[c]] : "";

	return result_columns[c].form == COLUMN_TEXT_ID ? row_text_of(h, c, field) : field;
}

static int to_row(const char **fields, const struct header *h, struct result_row *row)
{
	for (unsigned c = 0; c < result_column_count; c++) {
		const struct result_column *col = &result_columns[c];
		const char *field = field_of(fields, h, c);

		if (h->was[c] ? result_column_parse_was(col, field, row)
			      : result_column_parse(col, field, row))
			return -1;
	}
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
	return results_csv_read_texts(text, len, NULL, 0, fn, ctx, sum);
}

int results_csv_read_texts(const char *text, size_t len, const char *json, size_t json_len,
			   void (*fn)(const struct result_row *row, void *ctx), void *ctx,
			   struct csv_summary *sum)
{
	static char store[RECORD_STORE];
	static struct header h;
	const char *fields[CSV_MAX_FIELDS];
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
	h.json = json;
	h.json_len = json_len;
	for (unsigned c = 0; c < result_column_count; c++)
		row_text_id[c][0] = '\0';
	if (header_columns(fields, header_n, &h, sum))
		return -1;

	while ((n = csv_next(&r, store, sizeof store, fields, CSV_MAX_FIELDS)) != 0) {
		struct result_row row;

		if (n == 1 && !fields[0][0])
			continue;             /* a blank line */
		/* A short row is the last line of a run cut off mid-write. */
		if (n != header_n || to_row(fields, &h, &row)) {
			count_bad(sum, r.line);
			continue;
		}
		sum->rows++;
		fn(&row, ctx);
	}
	return 0;
}
