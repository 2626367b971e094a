/* A two-column latency curve read as latency rows (see curve_read.h). */
#include "desk/curve_read.h"
#include "lib/csv.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

#define FIELD_MAX 64
#define LINE_FIELDS 3             /* one more than a row has, to see extras */

/* The units a header word or a size's suffix may name, longest first
   within each so that "kib" is not read as "b". */
static const struct unit {
	const char *word;
	double bytes;
} units[] = {
	{ "bytes", 1.0 }, { "byte", 1.0 }, { "b", 1.0 },
	{ "kib", 1024.0 }, { "kb", 1024.0 }, { "k", 1024.0 },
	{ "mib", 1048576.0 }, { "mb", 1048576.0 }, { "m", 1048576.0 },
	{ "gib", 1073741824.0 }, { "gb", 1073741824.0 }, { "g", 1073741824.0 },
};

/* ---- Private Functions ------------------------------------------------ */

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int is_separator(char c)
{
	return is_blank(c) || c == ',' || c == ';';
}

/* s (lower case) ends in word. */
static int ends_with(const char *s, const char *word)
{
	size_t n = mp_strlen(s), w = mp_strlen(word);

	return n >= w && mp_strcmp(s + n - w, word) == 0;
}

/* The unit that s, a suffix, names exactly (case aside); 0 when none. */
static double suffix_unit(const char *s)
{
	for (size_t u = 0; u < sizeof units / sizeof *units; u++)
		if (mp_strcmp(s, units[u].word) == 0)
			return units[u].bytes;
	return 0.0;
}

/* The unit a header's first word names: the word, or its part after the
   last '_' ("size_kib"); 0 when neither is a unit. */
static double header_unit(const char *word)
{
	const char *part = word;

	for (const char *p = word; *p; p++)
		if (*p == '_')
			part = p + 1;
	return suffix_unit(part) > 0.0 ? suffix_unit(part) : suffix_unit(word);
}

/* Splits line [p, end) into at most LINE_FIELDS lower-cased fields of
   FIELD_MAX - 1 characters; a '#' ends the line. Returns the field count,
   or -1 when a field is too long. */
static int split_line(const char *p, const char *end, char f[LINE_FIELDS][FIELD_MAX])
{
	int n = 0;

	while (p < end && *p != '#') {
		size_t k = 0;

		if (is_separator(*p)) {
			p++;
			continue;
		}
		if (n == LINE_FIELDS)
			return n + 1;
		while (p < end && *p != '#' && !is_separator(*p)) {
			if (k + 1 >= FIELD_MAX)
				return -1;
			f[n][k++] = lower(*p++);
		}
		f[n++][k] = 0;
	}
	return n;
}

/* The digits after the point of a number as written ("0.10": 2). */
static unsigned decimals_of(const char *field)
{
	const char *p = field;
	unsigned d = 0;

	while (*p && *p != '.')
		p++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			d++;
	return d;
}

/* The whole byte count with the most trailing zero bits among those the
   printed number v (with `decimals` digits after the point) stands for:
   [v - half a unit of its last place, v + half) times scale. lmbench
   prints 48 KiB as 0.04688 MiB, which is 49157 bytes to the nearest byte
   but stands for 49152 .. 49162: the size it measured is 49152, and a
   size a few bytes past a capacity reads as past it. */
static uint64_t roundest_in(double v, unsigned decimals, double scale)
{
	double half = 0.5, lo, hi;

	for (unsigned d = 0; d < decimals && d < 18; d++)
		half /= 10.0;
	/* Both ends a hair wider: 0.04688 - 0.000005 is 0.046875 only
	   to the last bit of a double. */
	lo = (v - half) * scale * (1.0 - 1e-12);
	hi = (v + half) * scale * (1.0 + 1e-12);
	if (lo < 1.0)
		lo = 1.0;
	for (int b = 62; b >= 0; b--) {
		double m = (double)(1ull << b);
		double c = (double)(uint64_t)(lo / m) * m;

		if (c < lo)
			c += m;
		if (c < hi && c >= 1.0)
			return (uint64_t)c;
	}
	return (uint64_t)(v * scale + 0.5);
}

/* A size field: a number, then a unit suffix or none (the header's unit,
   `unit`, 0 when there was no header). Whole bytes, rounded; 0 with why
   set when it is not a size. */
static uint64_t parse_size(const char *field, double unit, char *why, size_t why_size)
{
	char num[FIELD_MAX];
	size_t k = 0;
	double v, scale;

	while (field[k] && ((field[k] >= '0' && field[k] <= '9') || field[k] == '.' ||
			    field[k] == '+' || field[k] == '-' ||
			    (field[k] == 'e' && k > 0 && field[k + 1] &&
			     (field[k + 1] == '+' || field[k + 1] == '-' ||
			      (field[k + 1] >= '0' && field[k + 1] <= '9'))))) {
		num[k] = field[k];
		k++;
	}
	num[k] = 0;
	scale = field[k] ? suffix_unit(field + k) : unit;
	if (csv_parse_double(num, &v) != 0 || !(v == v) || v > 1e18) {
		mp_snprintf(why, why_size, "the size '%s' is not a number", field);
		return 0;
	}
	if (scale <= 0.0) {
		mp_snprintf(why, why_size, field[k] ? "the size '%s' has an unknown unit"
			    : "the size '%s' has no unit: give a header line (size_bytes, "
			      "size_kib or size_mib, then ns) or a suffix (4096B, 48K, 1M)", field);
		return 0;
	}
	if (v * scale < 0.5 || v * scale >= 9.2e18) {
		mp_snprintf(why, why_size, "the size '%s' is not a working set (under one byte, "
			    "or too large)", field);
		return 0;
	}
	return roundest_in(v, decimals_of(num), scale);
}

/* A header line: [0] names the size's unit, [1] is ns. 0, or -1 with why. */
static int parse_header(char f[LINE_FIELDS][FIELD_MAX], double *unit, char *why,
			size_t why_size)
{
	*unit = header_unit(f[0]);
	if (*unit <= 0.0) {
		mp_snprintf(why, why_size, "the header's first word '%s' names no size unit "
			    "(size_bytes, size_kib, size_mib)", f[0]);
		return -1;
	}
	if (!ends_with(f[1], "ns") || (mp_strlen(f[1]) > 2 && !ends_with(f[1], "_ns"))) {
		mp_snprintf(why, why_size, "the header's second word '%s' is not ns (the "
			    "latency in nanoseconds)", f[1]);
		return -1;
	}
	return 0;
}

static void hand_row(uint64_t bytes, double ns,
		     void (*fn)(const struct result_row *row, void *ctx), void *ctx)
{
	struct result_row row;

	mp_memset(&row, 0, sizeof row);
	row.probe = "latency";
	row.variant = "chase";
	row.page_shift = CURVE_READ_PAGE_SHIFT;
	row.working_set_bytes = bytes;
	row.ns = ns;
	row.pages_verified = "";
	row.timer = "";
	row.sweep_point = "grid";
	row.trial_form = "";
	row.stopped_by = "";
	fn(&row, ctx);
}

/* One line that is neither blank nor a comment: a header (before any row)
   or a row, handed to fn unless fn is null (the first pass, which finds
   the least reading). 0, or -1 with why. */
static int take_line(char f[LINE_FIELDS][FIELD_MAX], int n, double *unit,
		     void (*fn)(const struct result_row *row, void *ctx), void *ctx,
		     struct curve_read_summary *sum, char *why, size_t why_size)
{
	uint64_t bytes;
	double ns;

	if (n < 0) {
		mp_snprintf(why, why_size, "a field longer than %d characters", FIELD_MAX - 1);
		return -1;
	}
	if (n != 2) {
		mp_snprintf(why, why_size, n > 2 ? "more than two fields (size, ns)"
			    : "1 field where two (size, ns) belong");
		return -1;
	}
	if (!sum->rows && *unit == 0.0 && !(f[0][0] >= '0' && f[0][0] <= '9') &&
	    f[0][0] != '.')
		return parse_header(f, unit, why, why_size);
	bytes = parse_size(f[0], *unit, why, why_size);
	if (!bytes)
		return -1;
	if (csv_parse_double(f[1], &ns) != 0 || !(ns >= 0.0) || ns > 1e12) {
		mp_snprintf(why, why_size, "the latency '%s' is not a number of ns, 0 or more",
			    f[1]);
		return -1;
	}
	if (!sum->rows || ns < sum->least_ns)
		sum->least_ns = ns;
	sum->rows++;
	if (ns == 0.0)
		sum->zero_rows++;
	if (fn)
		hand_row(bytes, ns + sum->added_ns, fn, ctx);
	return 0;
}

/* One pass over the lines, fn null in the first. 0, or -1 with sum->error. */
static int read_lines(const char *text, size_t len,
		      void (*fn)(const struct result_row *row, void *ctx), void *ctx,
		      struct curve_read_summary *sum)
{
	char f[LINE_FIELDS][FIELD_MAX], why[120];
	double unit = 0.0;
	unsigned line = 0;
	size_t pos = 0;

	sum->rows = sum->zero_rows = 0;
	while (pos < len) {
		size_t end = pos;
		int n;

		while (end < len && text[end] != '\n')
			end++;
		line++;
		n = split_line(text + pos, text + end, f);
		pos = end + 1;
		if (n == 0)
			continue;
		if (take_line(f, n, &unit, fn, ctx, sum, why, sizeof why) != 0) {
			mp_snprintf(sum->error, sizeof sum->error, "line %u: %s", line, why);
			return -1;
		}
	}
	if (!sum->rows) {
		mp_strlcpy(sum->error, len ? "no row of size and ns" : "the file is empty",
			   sizeof sum->error);
		return -1;
	}
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int curve_read(const char *text, size_t len,
	       void (*fn)(const struct result_row *row, void *ctx), void *ctx,
	       struct curve_read_summary *sum)
{
	mp_memset(sum, 0, sizeof *sum);
	if (read_lines(text, len, 0, 0, sum) != 0)
		return -1;
	if (sum->least_ns < CURVE_READ_LOAD_MIN_NS)
		sum->added_ns = CURVE_READ_FASTEST_NS;
	return read_lines(text, len, fn, ctx, sum);
}
