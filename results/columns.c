/* results.csv's columns (see columns.h, docs/OUTPUT.md). */
#include "results/columns.h"
#include "lib/csv.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

/* Page sizes a row may name: 4 KiB up to 1 TiB, powers of two. */
#define MIN_PAGE_SHIFT 12u
#define MAX_PAGE_SHIFT 40u

/* The offset of a field of struct result_row that has this type; any other
   type does not compile, so a form cannot be given the wrong field. */
#define AT(field, type) \
	(offsetof(struct result_row, field) + \
	 0 * sizeof(_Generic(((struct result_row *)0)->field, type: 1)))

/* Each form with its field; a column that older files named otherwise
   says so last (columns.h, `was`). */
#define TEXT(field)          COLUMN_TEXT, 0, AT(field, const char *), NULL
#define PAGE_SIZE(field)     COLUMN_PAGE_SIZE, 0, AT(field, unsigned), NULL
#define BYTES(field)         COLUMN_BYTES, 0, AT(field, uint64_t), NULL
#define COUNT(field)         COLUMN_COUNT, 0, AT(field, unsigned), NULL
#define REAL(field, decimals) COLUMN_REAL, decimals, AT(field, double), NULL
#define OPTIONAL_COUNT(field) \
	COLUMN_OPTIONAL_COUNT, 0, AT(field, struct optional_count), NULL
#define OPTIONAL_REAL(field, decimals) \
	COLUMN_OPTIONAL_REAL, decimals, AT(field, struct optional_real), NULL
#define PERCENT(field, decimals, was) COLUMN_PERCENT, decimals, AT(field, double), was
#define TEXT_ID(field)       COLUMN_TEXT_ID, 0, AT(field, const char *), NULL

#define REQUIRED 1
#define OPTIONAL 0

/* %.3f ns keeps picoseconds, so an L1 hit of 1.33 ns stays 1.330 rather
   than 1; %.2f cycles separates 4.00 from 4.05. A spread of 1.23 % is 0.0123 in
   the row, 1.23 in the file: the precision the fraction had at %.4f. */
const struct result_column result_columns[] = {
	{ "probe",             REQUIRED, TEXT(probe) },
	{ "variant",           REQUIRED, TEXT(variant) },
	{ "page_size",         REQUIRED, PAGE_SIZE(page_shift) },
	{ "working_set_bytes", REQUIRED, BYTES(working_set_bytes) },
	{ "ns",                REQUIRED, REAL(ns, 3) },
	{ "cycles",            OPTIONAL, REAL(cycles, 2) },
	{ "trials",            OPTIONAL, COUNT(trials) },
	{ "spread_pct",        OPTIONAL, PERCENT(spread, 2, "spread") },
	{ "pages_verified",    OPTIONAL, TEXT_ID(pages_verified) },
	{ "timer",             OPTIONAL, TEXT_ID(timer) },
	{ "cpu",               OPTIONAL, OPTIONAL_COUNT(cpu) },
	{ "peer_cpu",          OPTIONAL, OPTIONAL_COUNT(peer_cpu) },
	{ "loaders",           OPTIONAL, OPTIONAL_COUNT(loaders) },
	{ "load_gb_per_s",     OPTIONAL, OPTIONAL_REAL(load_gb_per_s, 6) },
	{ "chases",            OPTIONAL, OPTIONAL_COUNT(chases) },
	{ "in_flight",         OPTIONAL, OPTIONAL_REAL(in_flight, 3) },
	{ "gb_per_s",          OPTIONAL, OPTIONAL_REAL(gb_per_s, 3) },
	{ "bytes_per_cycle",   OPTIONAL, OPTIONAL_REAL(bytes_per_cycle, 3) },
	{ "sweep_point",       OPTIONAL, TEXT(sweep_point) },
	{ "stride_bytes",      OPTIONAL, BYTES(stride_bytes) },
	{ "trial_form",        OPTIONAL, TEXT(trial_form) },
	{ "stopped_by",        OPTIONAL, TEXT(stopped_by) },
	{ "insns_per_cycle",   OPTIONAL, OPTIONAL_REAL(insns_per_cycle, 3) },
};

#define COLUMNS (sizeof result_columns / sizeof *result_columns)
_Static_assert(COLUMNS <= CSV_MAX_FIELDS, "more columns than a CSV record can hold");
const unsigned result_column_count = COLUMNS;

/* ---- Private Functions ------------------------------------------------ */

static const void *field_of(const struct result_column *col, const struct result_row *row)
{
	return (const char *)row + col->offset;
}

static void *field_in(const struct result_column *col, struct result_row *row)
{
	return (char *)row + col->offset;
}

/* An empty number field means "not applicable" (as the writer leaves it). */
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

/* ---- Public Functions ------------------------------------------------- */

const char *result_column_format(const struct result_column *col,
				 const struct result_row *row, char *buf, size_t size)
{
	const void *field = field_of(col, row);
	const struct optional_count *count;
	const struct optional_real *real;
	const char *text;
	unsigned shift;
	uint64_t bytes;

	if (size)
		buf[0] = '\0';
	switch (col->form) {
	case COLUMN_TEXT:
	case COLUMN_TEXT_ID:
		text = *(const char *const *)field;
		return text ? text : "";
	case COLUMN_PAGE_SIZE:
		shift = *(const unsigned *)field;
		if (shift)
			mp_snprintf(buf, size, "%llu", 1ull << shift);
		return buf;
	case COLUMN_BYTES:
		bytes = *(const uint64_t *)field;
		if (bytes)
			mp_snprintf(buf, size, "%llu", (unsigned long long)bytes);
		return buf;
	case COLUMN_COUNT:
		mp_snprintf(buf, size, "%u", *(const unsigned *)field);
		return buf;
	case COLUMN_REAL:
		mp_snprintf(buf, size, "%.*f", (int)col->decimals, *(const double *)field);
		return buf;
	case COLUMN_OPTIONAL_COUNT:
		count = field;
		if (count->given)
			mp_snprintf(buf, size, "%u", count->value);
		return buf;
	case COLUMN_OPTIONAL_REAL:
		real = field;
		if (real->given)
			mp_snprintf(buf, size, "%.*f", (int)col->decimals, real->value);
		return buf;
	case COLUMN_PERCENT:
		mp_snprintf(buf, size, "%.*f", (int)col->decimals, 100.0 * *(const double *)field);
		return buf;
	}
	return buf;
}

int result_column_parse(const struct result_column *col, const char *text,
			struct result_row *row)
{
	void *field = field_in(col, row);
	uint64_t v;

	switch (col->form) {
	case COLUMN_TEXT:
	case COLUMN_TEXT_ID:
		*(const char **)field = text;
		return 0;
	case COLUMN_PAGE_SIZE:
		return optional_u64(text, &v) || page_shift_of(v, (unsigned *)field) ? -1 : 0;
	case COLUMN_BYTES:
		return optional_u64(text, (uint64_t *)field);
	case COLUMN_COUNT:
		if (optional_u64(text, &v))
			return -1;
		*(unsigned *)field = v > 0xffffffffu ? 0xffffffffu : (unsigned)v;
		return 0;
	case COLUMN_REAL:
		return optional_double(text, (double *)field);
	case COLUMN_OPTIONAL_COUNT:
		if (optional_u64(text, &v) || v > 0xffffffffu)
			return -1;
		*(struct optional_count *)field = (struct optional_count){ *text != '\0',
									   (unsigned)v };
		return 0;
	case COLUMN_OPTIONAL_REAL:
		((struct optional_real *)field)->given = *text != '\0';
		return optional_double(text, &((struct optional_real *)field)->value);
	case COLUMN_PERCENT:
		if (optional_double(text, (double *)field))
			return -1;
		*(double *)field /= 100.0;
		return 0;
	}
	return -1;
}

int result_column_parse_was(const struct result_column *col, const char *text,
			    struct result_row *row)
{
	struct result_column old = *col;

	old.form = COLUMN_REAL;
	return result_column_parse(&old, text, row);
}
