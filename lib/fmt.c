/* Formatting and string helpers, freestanding (see fmt.h).
 *
 * Floating point is converted exactly: the double's mantissa times a power of
 * two is expanded into all of its decimal digits with a small big-integer, and
 * only then rounded (to nearest, ties to even, as glibc does) at the printed
 * precision. An approximate conversion (multiplying by 10 in floating point)
 * would print a last digit that differs from the host's printf for ordinary
 * values, so a figure in the EFI report and the same figure on Linux would
 * disagree for no reason in the measurement.
 */
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

/* A double is m * 2^e with m < 2^53 and -1074 <= e <= 971. Its exact decimal
   expansion has at most 767 significant digits (m * 5^1074 for the smallest
   exponent) and at most 309 integer digits. */
#define DECIMAL_DIGITS_MAX 800
#define LIMB_BASE 1000000000u      /* nine decimal digits per limb */
#define LIMBS_MAX ((DECIMAL_DIGITS_MAX + 8) / 9)

#define FLAG_LEFT 1u
#define FLAG_ZERO 2u

/* ---- Private Functions ------------------------------------------------ */

struct out {
	char *buf;
	size_t size;
	size_t len;               /* what the full text would need */
};

static void put_char(struct out *o, char c)
{
	if (o->size && o->len < o->size - 1)
		o->buf[o->len] = c;
	o->len++;
}

static void put_repeat(struct out *o, char c, size_t n)
{
	while (n--)
		put_char(o, c);
}

static void put_text(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_char(o, s[i]);
}

/* A field is: left padding, prefix (sign or "0x"), leading zeros, body, right
   padding. The body is emitted by the caller between begin and end, so a long
   %f need not be built in a buffer first. */
struct field {
	unsigned flags;
	size_t width;
	const char *prefix;
	size_t prefix_len;
	size_t zeros;             /* leading zeros asked by a precision */
	size_t body_len;
	size_t pad;               /* computed by field_begin */
};

static void field_begin(struct out *o, struct field *f, int zero_pad_allowed)
{
	size_t used = f->prefix_len + f->zeros + f->body_len;

	f->pad = f->width > used ? f->width - used : 0;
	if (!(f->flags & FLAG_LEFT) && !((f->flags & FLAG_ZERO) && zero_pad_allowed))
		put_repeat(o, ' ', f->pad);
	put_text(o, f->prefix, f->prefix_len);
	if (!(f->flags & FLAG_LEFT) && (f->flags & FLAG_ZERO) && zero_pad_allowed)
		put_repeat(o, '0', f->pad);
	put_repeat(o, '0', f->zeros);
}

static void field_end(struct out *o, const struct field *f)
{
	if (f->flags & FLAG_LEFT)
		put_repeat(o, ' ', f->pad);
}

static void format_integer(struct out *o, unsigned flags, size_t width,
			   int precision, uint64_t magnitude, int negative,
			   unsigned base, int upper, const char *prefix)
{
	const char *digit_set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char digits[24];
	size_t n = 0;
	struct field f = { .flags = flags, .width = width };

	/* C99: precision 0 with value 0 prints no digits at all. */
	if (!(magnitude == 0 && precision == 0)) {
		do {
			digits[n++] = digit_set[magnitude % base];
			magnitude /= base;
		} while (magnitude);
	}
	if (negative) {
		f.prefix = "-";
		f.prefix_len = 1;
	} else if (prefix) {
		f.prefix = prefix;
		f.prefix_len = mp_strlen(prefix);
	}
	if (precision >= 0 && (size_t)precision > n)
		f.zeros = (size_t)precision - n;
	f.body_len = n;
	/* A precision switches zero padding off, as in C. */
	field_begin(o, &f, precision < 0);
	while (n)
		put_char(o, digits[--n]);
	field_end(o, &f);
}

/* ---- Exact decimal expansion of a double ------------------------------ */

struct big {
	uint32_t limb[LIMBS_MAX];  /* little-endian, base 10^9 */
	int n;
};

static void big_mul_small(struct big *b, uint32_t factor)
{
	uint64_t carry = 0;

	for (int i = 0; i < b->n; i++) {
		uint64_t v = (uint64_t)b->limb[i] * factor + carry;
		b->limb[i] = (uint32_t)(v % LIMB_BASE);
		carry = v / LIMB_BASE;
	}
	while (carry) {
		b->limb[b->n++] = (uint32_t)(carry % LIMB_BASE);
		carry /= LIMB_BASE;
	}
}

static void big_mul_pow(struct big *b, uint32_t base, uint32_t chunk_factor,
			int chunk, int power)
{
	for (; power >= chunk; power -= chunk)
		big_mul_small(b, chunk_factor);
	uint32_t rest = 1;
	while (power-- > 0)
		rest *= base;
	big_mul_small(b, rest);
}

/* value = 0.d[0] d[1] ... d[n-1] * 10^point; no leading or trailing zeros;
   n == 0 means zero. */
struct decimal {
	char d[DECIMAL_DIGITS_MAX];
	int n;
	int point;
};

static void decimal_from_big(struct decimal *dec, const struct big *b)
{
	int n = 0;

	for (int i = b->n - 1; i >= 0; i--) {
		char nine[9];
		uint32_t v = b->limb[i];
		for (int k = 8; k >= 0; k--) {
			nine[k] = (char)('0' + v % 10);
			v /= 10;
		}
		for (int k = 0; k < 9; k++)
			if (n || nine[k] != '0')
				dec->d[n++] = nine[k];
	}
	dec->n = n;
	dec->point = n;
}

static void decimal_trim(struct decimal *dec)
{
	while (dec->n && dec->d[dec->n - 1] == '0')
		dec->n--;
}

static void decimal_from_double(struct decimal *dec, uint64_t bits)
{
	uint64_t mantissa = bits & ((1ull << 52) - 1);
	int exponent = (int)((bits >> 52) & 0x7ff);
	struct big b;

	if (exponent == 0)
		exponent = 1;             /* subnormal */
	else
		mantissa |= 1ull << 52;
	exponent -= 1075;             /* value = mantissa * 2^exponent */

	dec->n = 0;
	dec->point = 0;
	if (mantissa == 0)
		return;
	b.n = 0;
	while (mantissa) {
		b.limb[b.n++] = (uint32_t)(mantissa % LIMB_BASE);
		mantissa /= LIMB_BASE;
	}
	if (exponent >= 0) {
		big_mul_pow(&b, 2, 1u << 29, 29, exponent);
		decimal_from_big(dec, &b);
	} else {
		/* m / 2^k = m * 5^k / 10^k */
		big_mul_pow(&b, 5, 1220703125u, 13, -exponent);
		decimal_from_big(dec, &b);
		dec->point -= -exponent;
	}
	decimal_trim(dec);
}

/* Keeps the first keep significant digits, rounding to nearest with ties to
   even on the exact value. */
static void decimal_round(struct decimal *dec, int keep)
{
	int up;

	if (keep >= dec->n)
		return;
	if (keep < 0) {
		dec->n = 0;
		return;
	}
	if (dec->d[keep] > '5')
		up = 1;
	else if (dec->d[keep] < '5')
		up = 0;
	else if (keep + 1 < dec->n)
		up = 1;                   /* digits after the 5 are not all zero */
	else
		up = keep > 0 && ((dec->d[keep - 1] - '0') & 1);
	dec->n = keep;
	if (up) {
		int i = keep - 1;
		while (i >= 0 && dec->d[i] == '9')
			dec->d[i--] = '0';
		if (i >= 0) {
			dec->d[i]++;
		} else {
			/* 999.. became 1000..: one digit, one place up */
			dec->d[0] = '1';
			dec->n = 1;
			dec->point++;
		}
	}
	decimal_trim(dec);
}

/* The digit at position i counted from the first significant one, with the
   zeros on either side that the expansion leaves implicit. */
static char decimal_digit(const struct decimal *dec, int i)
{
	return (i >= 0 && i < dec->n) ? dec->d[i] : '0';
}

static void format_fixed(struct out *o, struct field *f,
			 const struct decimal *dec, int precision)
{
	int int_digits = dec->point > 0 ? dec->point : 1;
	int first = dec->point > 0 ? 0 : -1;    /* -1 reads as the "0" of 0.xxx */

	f->body_len = (size_t)int_digits + (precision > 0 ? 1 + (size_t)precision : 0);
	field_begin(o, f, 1);
	for (int i = 0; i < int_digits; i++)
		put_char(o, decimal_digit(dec, first + i));
	if (precision > 0) {
		put_char(o, '.');
		for (int i = 0; i < precision; i++)
			put_char(o, decimal_digit(dec, dec->point + i));
	}
	field_end(o, f);
}

static void format_exponent(struct out *o, struct field *f,
			    const struct decimal *dec, int precision)
{
	int exp10 = dec->n ? dec->point - 1 : 0;
	unsigned magnitude = (unsigned)(exp10 < 0 ? -exp10 : exp10);
	char exp_digits[6];
	int exp_len = 0;

	do {
		exp_digits[exp_len++] = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (exp_len < 2)
		exp_digits[exp_len++] = '0';

	f->body_len = 1 + (precision > 0 ? 1 + (size_t)precision : 0) + 2 + (size_t)exp_len;
	field_begin(o, f, 1);
	put_char(o, decimal_digit(dec, 0));
	if (precision > 0) {
		put_char(o, '.');
		for (int i = 1; i <= precision; i++)
			put_char(o, decimal_digit(dec, i));
	}
	put_char(o, 'e');
	put_char(o, exp10 < 0 ? '-' : '+');
	while (exp_len)
		put_char(o, exp_digits[--exp_len]);
	field_end(o, f);
}

static void format_double(struct out *o, unsigned flags, size_t width,
			  int precision, double value, char conversion)
{
	union { double d; uint64_t u; } pun = { .d = value };
	int negative = (int)(pun.u >> 63);
	int biased_exponent = (int)((pun.u >> 52) & 0x7ff);
	struct field f = { .flags = flags, .width = width };
	struct decimal dec;

	if (precision < 0)
		precision = 6;
	if (biased_exponent == 0x7ff) {
		/* "nan" carries no sign: a sign on NaN means nothing to a reader. */
		int is_nan = (pun.u & ((1ull << 52) - 1)) != 0;
		const char *text = is_nan ? "nan" : negative ? "-inf" : "inf";
		f.body_len = mp_strlen(text);
		field_begin(o, &f, 0);
		put_text(o, text, f.body_len);
		field_end(o, &f);
		return;
	}
	if (negative) {
		f.prefix = "-";
		f.prefix_len = 1;
	}
	decimal_from_double(&dec, pun.u);

	if (conversion == 'f') {
		decimal_round(&dec, dec.point + precision);
		format_fixed(o, &f, &dec, precision);
	} else if (conversion == 'e') {
		decimal_round(&dec, precision + 1);
		format_exponent(o, &f, &dec, precision);
	} else {
		/* %g: style e when the exponent is < -4 or >= the precision, with
		   trailing zeros removed either way. */
		int significant = precision ? precision : 1;
		decimal_round(&dec, significant);
		int exp10 = dec.n ? dec.point - 1 : 0;
		if (exp10 >= -4 && exp10 < significant) {
			int fraction = dec.n - dec.point;
			format_fixed(o, &f, &dec, fraction > 0 ? fraction : 0);
		} else {
			format_exponent(o, &f, &dec, dec.n > 1 ? dec.n - 1 : 0);
		}
	}
}

static void format_string(struct out *o, unsigned flags, size_t width,
			  int precision, const char *s)
{
	struct field f = { .flags = flags, .width = width };
	size_t n = 0;

	if (!s)
		s = "(null)";
	while ((precision < 0 || n < (size_t)precision) && s[n])
		n++;
	f.body_len = n;
	field_begin(o, &f, 0);
	put_text(o, s, n);
	field_end(o, &f);
}

enum length { LEN_INT, LEN_LONG, LEN_LONG_LONG, LEN_SIZE };

static uint64_t read_unsigned(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_LONG:      return va_arg(*ap, unsigned long);
	case LEN_LONG_LONG: return va_arg(*ap, unsigned long long);
	case LEN_SIZE:      return va_arg(*ap, size_t);
	default:            return va_arg(*ap, unsigned int);
	}
}

static int64_t read_signed(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_LONG:      return va_arg(*ap, long);
	case LEN_LONG_LONG: return va_arg(*ap, long long);
	case LEN_SIZE:      return (int64_t)va_arg(*ap, size_t);
	default:            return va_arg(*ap, int);
	}
}

static int parse_number(const char **p)
{
	int v = 0;

	while (**p >= '0' && **p <= '9') {
		if (v < 100000000)
			v = v * 10 + (**p - '0');
		(*p)++;
	}
	return v;
}

/* ---- Public Functions ------------------------------------------------- */

int mp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap_in)
{
	struct out o = { .buf = buf, .size = size, .len = 0 };
	va_list ap;

	va_copy(ap, ap_in);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			put_char(&o, *p);
			continue;
		}
		const char *start = p++;
		unsigned flags = 0;
		size_t width = 0;
		int precision = -1;
		enum length len = LEN_INT;

		for (;; p++) {
			if (*p == '-')
				flags |= FLAG_LEFT;
			else if (*p == '0')
				flags |= FLAG_ZERO;
			else
				break;
		}
		if (*p == '*') {
			int w = va_arg(ap, int);
			if (w < 0) {
				flags |= FLAG_LEFT;
				w = -w;
			}
			width = (size_t)w;
			p++;
		} else {
			width = (size_t)parse_number(&p);
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				precision = va_arg(ap, int);
				if (precision < 0)
					precision = -1;
				p++;
			} else {
				precision = parse_number(&p);
			}
		}
		if (*p == 'l') {
			len = LEN_LONG;
			if (*++p == 'l') {
				len = LEN_LONG_LONG;
				p++;
			}
		} else if (*p == 'z') {
			len = LEN_SIZE;
			p++;
		}

		switch (*p) {
		case 'd':
		case 'i': {
			int64_t v = read_signed(&ap, len);
			uint64_t magnitude = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
			format_integer(&o, flags, width, precision, magnitude, v < 0, 10, 0, 0);
			break;
		}
		case 'u':
			format_integer(&o, flags, width, precision, read_unsigned(&ap, len), 0, 10, 0, 0);
			break;
		case 'x':
		case 'X':
			format_integer(&o, flags, width, precision, read_unsigned(&ap, len), 0, 16,
				       *p == 'X', 0);
			break;
		case 'p':
			format_integer(&o, flags, width, precision,
				       (uint64_t)(uintptr_t)va_arg(ap, void *), 0, 16, 0, "0x");
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			struct field f = { .flags = flags, .width = width, .body_len = 1 };
			field_begin(&o, &f, 0);
			put_char(&o, c);
			field_end(&o, &f);
			break;
		}
		case 's':
			format_string(&o, flags, width, precision, va_arg(ap, const char *));
			break;
		case 'f':
		case 'e':
		case 'g':
			format_double(&o, flags, width, precision, va_arg(ap, double), *p);
			break;
		case '%':
			put_char(&o, '%');
			break;
		default:
			/* Not a conversion this formatter knows: show it as written
			   rather than consume an argument of unknown type. */
			if (!*p)
				p--;
			put_text(&o, start, (size_t)(p - start) + 1);
			break;
		}
	}
	va_end(ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int mp_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = mp_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

void mp_append(struct mp_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (t->len < t->size)
		n = mp_vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
	else
		n = mp_vsnprintf(0, 0, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

void mp_print(const struct mp_printer *p, const char *fmt, ...)
{
	char line[MP_PRINT_MAX];
	va_list ap;

	va_start(ap, fmt);
	mp_vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	p->print(p->ctx, line);
}

size_t mp_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int mp_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int mp_strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	}
	return 0;
}

size_t mp_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = mp_strlen(src);

	if (size) {
		size_t copy = n < size - 1 ? n : size - 1;
		for (size_t i = 0; i < copy; i++)
			dst[i] = src[i];
		dst[copy] = '\0';
	}
	return n;
}

void *mp_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int mp_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void *mp_memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void mp_format_bytes(char *buf, size_t size, uint64_t bytes)
{
	static const char *const unit_names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned unit = 0;

	/* The largest unit in which the count is exact to two decimals, so a
	   label never rounds 6 MiB + 4 KiB to "6 MiB": it says "6148 KiB". */
	for (unsigned u = 4; u > 0; u--) {
		uint64_t scale = 1ull << (10 * u);
		if (bytes >= scale && ((bytes % scale) * 100) % scale == 0) {
			unit = u;
			break;
		}
	}
	uint64_t scale = 1ull << (10 * unit);
	uint64_t whole = bytes / scale;
	unsigned hundredths = (unsigned)((bytes % scale) * 100 / scale);

	if (hundredths == 0)
		mp_snprintf(buf, size, "%llu %s", (unsigned long long)whole, unit_names[unit]);
	else if (hundredths % 10 == 0)
		mp_snprintf(buf, size, "%llu.%u %s", (unsigned long long)whole,
			    hundredths / 10, unit_names[unit]);
	else
		mp_snprintf(buf, size, "%llu.%02u %s", (unsigned long long)whole,
			    hundredths, unit_names[unit]);
}

void mp_format_bytes_short(char *buf, size_t size, uint64_t bytes)
{
	char text[24];
	size_t n = 0;

	if (!size)
		return;
	mp_format_bytes(text, sizeof text, bytes);
	for (const char *p = text; *p && n + 1 < size; p++)
		if (*p != ' ' && *p != 'i' && (*p != 'B' || p == text || p[-1] == ' '))
			buf[n++] = *p;
	buf[n] = 0;
}
