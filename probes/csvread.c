/* results.csv read back (see csvread.h). */
#include "probes/csvread.h"
#include "lib/fmt.h"

// Constants

#define RECORD_STORE 4096

enum column {
	COL_PROBE, COL_VARIANT, COL_PAGE_SIZE, COL_WORKING_SET, COL_NS, COL_CYCLES,
	COL_TRIALS, COL_SPREAD, COL_PAGES_VERIFIED, COL_TIMER, COL_COUNT
};

static const struct {
	const char *name;
	int required;
} columns[COL_COUNT] = {
	[COL_PROBE] = { "probe", 1 },
	[COL_VARIANT] = { "variant", 1 },
	[COL_PAGE_SIZE] = { "page_size", 1 },
	[COL_WORKING_SET] = { "working_set_bytes", 1 },
	[COL_NS] = { "ns", 1 },
	[COL_CYCLES] = { "cycles", 1 },
	[COL_TRIALS] = { "trials", 0 },
	[COL_SPREAD] = { "spread", 0 },
	[COL_PAGES_VERIFIED] = { "pages_verified", 0 },
	[COL_TIMER] = { "timer", 0 },
};

/* Page sizes a row may name: 4 KiB up to 1 TiB, powers of two. */
#define MIN_PAGE_SHIFT 12u
#define MAX_PAGE_SHIFT 40u

// Private Functions

static int same_word(const char *a, const char *b)
{
	return mp_strcmp(a, b) == 0;
}

static int header_columns(const char **fields, int n, int *index, struct csv_summary *sum)
{
	for (int c = 0; c < COL_COUNT; c++) {
		index[c] = -1;
		for (int i = 0; i < n; i++)
			if (same_word(fields[i], columns[c].name) && index[c] < 0)
				index[c] = i;
		if (index[c] < 0 && columns[c].required) {
			mp_snprintf(sum->error, sizeof sum->error,
				    "no '%s' column in the header line", columns[c].name);
			return -1;
		}
	}
	return 0;
}

static const char *field_or_empty(const char **fields, const int *index, enum column c)
{
	return index[c] >= 0 ? fields[index[c]] : "";
}

/* An empty number field means "not applicable" (as results.c writes it). */
static int optional_u64(const char *s, uint64_t *out)
{
	*out = 0;
	return *s ? csv_parse_u64(s, out) : 0;
}

static int optional_double(const char *s, double *out)
{
	*out = 0.0 / 0.0;
	return *s ? csv_parse_double(s, out) : 0;
}

static int page_shift_of(uint64_t bytes, unsigned *shift)
{
	*shift = 0;
	if (!bytes)
		return 0;
	for (unsigned s = MIN_PAGE_SHIFT; s <= MAX_PAGE_SHIFT; s++)
		if (bytes == (1ull << s)) {
			*shift = s;
			return 0;
		}
	return -1;
}

static int to_row(const char **fields, const int *index, struct result_row *row)
{
	uint64_t page_bytes, trials;

	row->probe = field_or_empty(fields, index, COL_PROBE);
	row->variant = field_or_empty(fields, index, COL_VARIANT);
	row->pages_verified = field_or_empty(fields, index, COL_PAGES_VERIFIED);
	row->timer = field_or_empty(fields, index, COL_TIMER);
	if (optional_u64(field_or_empty(fields, index, COL_PAGE_SIZE), &page_bytes) ||
	    page_shift_of(page_bytes, &row->page_shift) ||
	    optional_u64(field_or_empty(fields, index, COL_WORKING_SET), &row->working_set_bytes) ||
	    optional_double(field_or_empty(fields, index, COL_NS), &row->ns) ||
	    optional_double(field_or_empty(fields, index, COL_CYCLES), &row->cycles) ||
	    optional_u64(field_or_empty(fields, index, COL_TRIALS), &trials) ||
	    optional_double(field_or_empty(fields, index, COL_SPREAD), &row->spread))
		return -1;
	row->trials = trials > 0xffffffffu ? 0xffffffffu : (unsigned)trials;
	return 0;
}

static void count_bad(struct csv_summary *sum, unsigned line)
{
	sum->skipped++;
	if (!sum->first_bad_line)
		sum->first_bad_line = line;
}

// Public Functions

int results_csv_read(const char *text, size_t len,
		     void (*fn)(const struct result_row *row, void *ctx), void *ctx,
		     struct csv_summary *sum)
{
	static char store[RECORD_STORE];
	const char *fields[CSV_MAX_FIELDS];
	int index[COL_COUNT];
	struct csv_reader r;
	int n, header_n;

	mp_memset(sum, 0, sizeof *sum);
	csv_reader_init(&r, text, len);
	header_n = csv_next(&r, store, sizeof store, fields, CSV_MAX_FIELDS);
	if (header_n <= 0) {
		mp_strlcpy(sum->error, header_n == 0 ? "the file is empty"
			   : "the header line is not a CSV record", sizeof sum->error);
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
