/* results.csv read back (see csvread.h). */
#include "probes/csvread.h"
#include "probes/fmt.h"

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

static void skip_line(struct csv_reader *r)
{
	while (r->pos < r->len && r->text[r->pos] != '\n')
		r->pos++;
	if (r->pos < r->len) {
		r->pos++;
		r->at_line++;
	}
}

/* Reads one field's text into store at *out; -1 when malformed. */
static int read_field(struct csv_reader *r, char *store, size_t store_size, size_t *out)
{
	const char *t = r->text;

	/* One byte always stays free for the field's NUL. */
#define PUT(ch) do { if (*out + 1 >= store_size) return -1; store[(*out)++] = (ch); } while (0)
	if (r->pos < r->len && t[r->pos] == '"') {
		r->pos++;
		for (;;) {
			char ch;
			if (r->pos >= r->len)
				return -1;          /* unterminated: a file cut short */
			ch = t[r->pos++];
			if (ch == '"') {
				if (r->pos < r->len && t[r->pos] == '"') {
					r->pos++;
					PUT('"');
					continue;
				}
				break;
			}
			if (ch == '\n')
				r->at_line++;
			PUT(ch);
		}
		/* After the closing quote only a delimiter may follow. */
		if (r->pos < r->len && t[r->pos] != ',' && t[r->pos] != '\n' && t[r->pos] != '\r')
			return -1;
	} else {
		while (r->pos < r->len && t[r->pos] != ',' && t[r->pos] != '\n' &&
		       t[r->pos] != '\r') {
			if (t[r->pos] == '"')
				return -1;
			PUT(t[r->pos]);
			r->pos++;
		}
	}
#undef PUT
	if (*out >= store_size)
		return -1;
	store[(*out)++] = '\0';
	return 0;
}

static int digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static int same_word(const char *a, const char *b)
{
	return mp_strcmp(a, b) == 0;
}

static double power_of_ten(int e)
{
	double p = 1.0, base = 10.0;
	int neg = e < 0;
	unsigned u = (unsigned)(neg ? -e : e);   /* |e| <= 400 here */

	while (u) {
		if (u & 1)
			p *= base;
		base *= base;
		u >>= 1;
	}
	return neg ? 1.0 / p : p;
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

void csv_reader_init(struct csv_reader *r, const char *text, size_t len)
{
	r->text = text;
	r->len = text ? len : 0;
	r->pos = 0;
	r->line = r->at_line = 1;
	/* A UTF-8 byte order mark, as some editors save it. */
	if (r->len >= 3 && (unsigned char)text[0] == 0xef && (unsigned char)text[1] == 0xbb &&
	    (unsigned char)text[2] == 0xbf)
		r->pos = 3;
}

int csv_next(struct csv_reader *r, char *store, size_t store_size,
	     const char **fields, int max_fields)
{
	size_t out = 0;
	int n = 0;

	if (r->pos >= r->len)
		return 0;
	r->line = r->at_line;
	for (;;) {
		size_t start = out;

		if (n >= max_fields || read_field(r, store, store_size, &out)) {
			skip_line(r);
			return -1;
		}
		fields[n++] = store + start;
		if (r->pos >= r->len)
			return n;
		if (r->text[r->pos] == ',') {
			r->pos++;
			continue;
		}
		if (r->text[r->pos] == '\r') {
			/* CR only as half of CRLF (or at the very end). */
			if (r->pos + 1 < r->len && r->text[r->pos + 1] != '\n') {
				skip_line(r);
				return -1;
			}
			r->pos++;
			if (r->pos >= r->len)
				return n;
		}
		r->pos++;             /* the '\n' */
		r->at_line++;
		return n;
	}
}

int csv_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!digit(*s))
		return -1;
	for (; digit(*s); s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (*s)
		return -1;
	*out = v;
	return 0;
}

int csv_parse_double(const char *s, double *out)
{
	uint64_t mantissa = 0;
	int exponent = 0, negative = 0, digits = 0;

	if (*s == '-' || *s == '+')
		negative = *s++ == '-';
	if (same_word(s, "nan")) {
		*out = 0.0 / 0.0;
		return 0;
	}
	if (same_word(s, "inf")) {
		*out = negative ? -1.0 / 0.0 : 1.0 / 0.0;
		return 0;
	}
	/* Digits past 19 cannot change a double's first 15: they only scale. */
	for (; digit(*s); s++, digits++) {
		if (mantissa < 1000000000000000000ull)
			mantissa = mantissa * 10 + (uint64_t)(*s - '0');
		else
			exponent++;
	}
	if (*s == '.') {
		s++;
		for (; digit(*s); s++, digits++)
			if (mantissa < 1000000000000000000ull) {
				mantissa = mantissa * 10 + (uint64_t)(*s - '0');
				exponent--;
			}
	}
	if (!digits)
		return -1;
	if (*s == 'e' || *s == 'E') {
		int sign = 1, e = 0, any = 0;
		s++;
		if (*s == '-' || *s == '+')
			sign = *s++ == '-' ? -1 : 1;
		for (; digit(*s); s++, any = 1)
			if (e < 100000)
				e = e * 10 + (*s - '0');
		if (!any)
			return -1;
		exponent += sign * e;
	}
	if (*s)
		return -1;
	if (exponent > 400)
		exponent = 400;
	if (exponent < -400)
		exponent = -400;
	/* Two steps, so 1e-320-ish values underflow gently instead of to 0 at
	   once; exact to the last bit it is not, and need not be here. */
	*out = (double)mantissa * power_of_ten(exponent / 2) * power_of_ten(exponent - exponent / 2);
	if (negative)
		*out = -*out;
	return 0;
}

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
