/* An RFC 4180 record reader and strict number parsing (see csv.h). */
#include "lib/csv.h"
#include "lib/fmt.h"

/* ---- Private Functions ------------------------------------------------ */

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

/* ---- Public Functions ------------------------------------------------- */

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

size_t csv_field(char *out, size_t size, const char *text)
{
	int quote = 0;
	size_t n = 0;

#define CSV_OUT(ch) do { if (n + 1 < size) out[n] = (ch); n++; } while (0)
	for (const char *p = text; *p; p++)
		if (*p == ',' || *p == '"' || *p == '\n' || *p == '\r')
			quote = 1;
	if (quote)
		CSV_OUT('"');
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			CSV_OUT('"');
		CSV_OUT(*p);
	}
	if (quote)
		CSV_OUT('"');
#undef CSV_OUT
	out[n < size ? n : size - 1] = '\0';
	return n;
}
