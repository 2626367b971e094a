/* mp_snprintf against the host's snprintf: the EFI report must print the
 * same digits as glibc for the same double, so every comparison here is
 * byte-for-byte, over hand-picked edge cases and a few hundred thousand
 * random values and formats.
 */
#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/fmt.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double double_from_bits(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, sizeof d);
	return d;
}

/* Compares one double under one format; records the first mismatch. */
static int mismatches;
static char first_mismatch[512];

static void compare_double(const char *fmt, double v)
{
	char ours[2048], theirs[2048];
	int n_ours = mp_snprintf(ours, sizeof ours, fmt, v);
	int n_theirs = snprintf(theirs, sizeof theirs, fmt, v);

	if (n_ours != n_theirs || strcmp(ours, theirs) != 0) {
		if (!mismatches++)
			snprintf(first_mismatch, sizeof first_mismatch,
				 "fmt \"%s\" value %a: ours \"%.200s\" (%d), host \"%.200s\" (%d)",
				 fmt, v, ours, n_ours, theirs, n_theirs);
	}
}

static void report_mismatches(const char *what)
{
	CHECK(mismatches == 0, "%s: %d mismatches%s%s", what, mismatches,
	      mismatches ? "; first: " : "", mismatches ? first_mismatch : "");
	mismatches = 0;
}

static const char *const double_formats[] = {
	"%f", "%.0f", "%.1f", "%.2f", "%.3f", "%.9f", "%.17f", "%.30f",
	"%e", "%.0e", "%.1e", "%.3e", "%.16e", "%.20e",
	"%g", "%.0g", "%.1g", "%.2g", "%.3g", "%.10g", "%.17g",
	"%12.3f", "%-12.3f|", "%012.3f", "%010.2e", "%-10g|", "%08g",
};

static void test_edge_doubles(void)
{
	static const double values[] = {
		0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 3.5, -2.5, 0.125, 0.375, 0.05,
		0.15, 0.25, 0.35, 1e-5, 1e-4, 9.5e-5, 0.0001, 0.00001,
		123456.0, 999999.5, 9.9999995, 99.995, 0.9999999, 9.5, 10.0,
		1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 1e100, 1e300, 1.7e308,
		DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 4.9406564584124654e-324,
		2.2250738585072009e-308, 1.0 / 3.0, 2.0 / 3.0, 3.14159265358979,
		1.33, 4.0, 22.0, 370.0, 2.95e9, 0.1, 0.2, 0.3, 5e-324,
		18446744073709551616.0, 9007199254740993.0, 0.000123456789,
	};
	for (size_t f = 0; f < sizeof double_formats / sizeof *double_formats; f++)
		for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
			compare_double(double_formats[f], values[i]);
			compare_double(double_formats[f], -values[i]);
		}
	report_mismatches("hand-picked doubles in every format");

	/* Exact ties at the printed precision round to even, as glibc does. */
	char b[64];
	mp_snprintf(b, sizeof b, "%.0f %.0f %.0f %.1f %.2f", 0.5, 1.5, 2.5, 0.25, 0.125);
	CHECK(strcmp(b, "0 2 2 0.2 0.12") == 0, "ties to even: \"%s\"", b);
	mp_snprintf(b, sizeof b, "%.3f", -0.0001);
	CHECK(strcmp(b, "-0.000") == 0, "a negative value that rounds to zero keeps its sign: \"%s\"", b);
}

static void test_non_finite(void)
{
	char b[64];

	mp_snprintf(b, sizeof b, "%f %e %g", (double)INFINITY, -(double)INFINITY, (double)NAN);
	CHECK(strcmp(b, "inf -inf nan") == 0, "inf and nan: \"%s\"", b);
	mp_snprintf(b, sizeof b, "%f", -(double)NAN);
	CHECK(strcmp(b, "nan") == 0, "a NaN's sign bit is not printed: \"%s\"", b);
	mp_snprintf(b, sizeof b, "[%6f] [%-6f] [%06f]", (double)INFINITY, (double)NAN, (double)INFINITY);
	CHECK(strcmp(b, "[   inf] [nan   ] [   inf]") == 0,
	      "inf and nan are padded with blanks, never zeros: \"%s\"", b);
}

static void test_random_doubles(void)
{
	for (int i = 0; i < 40000; i++) {
		/* Random bit patterns cover every exponent, subnormals included. */
		double v = double_from_bits(rng_next());
		if (isnan(v) || isinf(v))
			continue;
		compare_double("%.17g", v);
		compare_double("%e", v);
		compare_double("%.25e", v);
		compare_double("%g", v);
		if (fabs(v) < 1e30)
			compare_double("%.40f", v);
	}
	report_mismatches("40000 random bit patterns under %.17g %e %.25e %g %.40f");

	char fmt[32];
	for (int i = 0; i < 100000; i++) {
		/* Values of the size a measurement has, in random formats. */
		double mantissa = (double)(rng_next() >> 11) / (double)(1ull << 53);
		int exp10 = (int)(rng_next() % 25) - 12;
		double v = mantissa * pow(10.0, exp10);
		if (rng_next() & 1)
			v = -v;
		static const char conversions[] = "feg";
		snprintf(fmt, sizeof fmt, "%%%s%d.%d%c",
			 (rng_next() & 3) == 0 ? "-" : (rng_next() & 3) == 0 ? "0" : "",
			 (int)(rng_next() % 20), (int)(rng_next() % 20),
			 conversions[rng_next() % 3]);
		compare_double(fmt, v);
	}
	report_mismatches("100000 measurement-sized values in random formats");

	for (int i = 0; i < 20000; i++) {
		/* Short decimals hit exact and near ties at the printed precision. */
		double v = (double)(int64_t)(rng_next() % 2000001 - 1000000) / 1000.0;
		compare_double("%.2f", v);
		compare_double("%.1f", v);
		compare_double("%.0f", v);
		compare_double("%.2e", v);
		compare_double("%.3g", v);
	}
	report_mismatches("20000 three-decimal values rounded to fewer places");
}

static void test_integers(void)
{
	char ours[256], theirs[256];
	int bad = 0;

#define SAME(...) do {                                                  \
	int a_ = mp_snprintf(ours, sizeof ours, __VA_ARGS__);           \
	int b_ = snprintf(theirs, sizeof theirs, __VA_ARGS__);          \
	if (a_ != b_ || strcmp(ours, theirs)) {                         \
		if (!bad++)                                             \
			printf("# first integer mismatch: \"%s\" vs \"%s\"\n", ours, theirs); \
	}                                                               \
} while (0)

	SAME("%d %d %d %d", 0, 1, -1, INT_MAX);
	SAME("%d %i", INT_MIN, INT_MIN + 1);
	SAME("%ld %lld %lu %llu", LONG_MIN, LLONG_MIN, ULONG_MAX, ULLONG_MAX);
	SAME("%zu %zd %zx", (size_t)SIZE_MAX, (size_t)12345, (size_t)0xdeadbeef);
	SAME("%x %X %lx %llX", 0xabcdefu, 0xabcdefu, 0x123456789abcdeful, 0xfedcba9876543210ull);
	SAME("[%5d] [%-5d] [%05d] [%05d]", 42, 42, 42, -42);
	/* Formats gcc would warn about are passed through a variable: what
	   is tested is that we ignore '0' with a precision, as C does. */
	const char *zero_and_precision = "[%.3d] [%8.3d] [%08.3d] [%.0d] [%.0x] [%3.0d]";
	SAME(zero_and_precision, 7, -7, 7, 0, 0u, 0);
	SAME("[%*d] [%-*d] [%*d] [%.*d]", 6, 1, 6, 2, -6, 3, 4, 5);
	SAME("[%s] [%8s] [%-8s] [%.3s] [%*.*s]", "abc", "abc", "abc", "abcdef", 6, 2, "xyz");
	SAME("[%c] [%3c] [%-3c] %%", 'a', 'b', 'c');
	SAME("[%016llx] [%4u] [%-4u]", 0x1ull, 123456u, 7u);
	for (int i = 0; i < 20000; i++) {
		uint64_t u = rng_next() >> (rng_next() % 64);
		int w = (int)(rng_next() % 24);
		SAME("%*llu %*lld %*llx %-*llX|", w, (unsigned long long)u,
		     w, (long long)u, w, (unsigned long long)u, w, (unsigned long long)u);
	}
#undef SAME
	CHECK(bad == 0, "integers, strings and chars match the host's snprintf (%d mismatches)", bad);

	mp_snprintf(ours, sizeof ours, "%p %p", (void *)0x1234, (void *)0);
	CHECK(strcmp(ours, "0x1234 0x0") == 0, "%%p prints 0x and lowercase hex: \"%s\"", ours);
	/* Found by the fuzzer: %.*s must not read past the precision, since the
	   text need not be terminated there. */
	char unterminated[3] = { 'a', 'b', 'c' };
	mp_snprintf(ours, sizeof ours, "%.3s|%.*s", unterminated, 2, unterminated);
	CHECK(strcmp(ours, "abc|ab") == 0, "%%.Ns reads at most N bytes: \"%s\"", ours);
	const char *volatile null_string = 0;
	const char *unknown_conversion = "100%% %q";
	mp_snprintf(ours, sizeof ours, "%s", null_string);
	CHECK(strcmp(ours, "(null)") == 0, "a NULL string prints (null)");
	mp_snprintf(ours, sizeof ours, unknown_conversion);
	CHECK(strcmp(ours, "100% %q") == 0, "an unknown conversion is printed as written: \"%s\"", ours);
}

static void test_truncation(void)
{
	char b[8];

	memset(b, 'x', sizeof b);
	int n = mp_snprintf(b, sizeof b, "%s-%d", "abcdef", 12345);
	CHECK(n == 12, "the return value is the full length (%d)", n);
	CHECK(strcmp(b, "abcdef-") == 0, "the text is cut at size-1 and terminated: \"%s\"", b);

	memset(b, 'x', sizeof b);
	n = mp_snprintf(b, 0, "%f", 1.0);
	CHECK(n == 8 && b[0] == 'x', "size 0 writes nothing and still counts (%d)", n);

	n = mp_snprintf(b, 1, "abc");
	CHECK(n == 3 && b[0] == '\0', "size 1 gives the empty string");

	n = mp_snprintf(b, sizeof b, "%.300f", 1e300);
	CHECK(n == 301 + 1 + 300 && strlen(b) == 7, "a 602-character %%f is counted, not written (%d)", n);
}

static void test_strings(void)
{
	char b[8];

	CHECK(mp_strlen("") == 0 && mp_strlen("memprobe") == 8, "mp_strlen");
	CHECK(mp_strcmp("abc", "abc") == 0 && mp_strcmp("abc", "abd") < 0 &&
	      mp_strcmp("abd", "abc") > 0 && mp_strcmp("ab", "abc") < 0 &&
	      mp_strcmp("\xff", "a") > 0, "mp_strcmp orders as unsigned bytes");
	CHECK(mp_strncmp("abcx", "abcy", 3) == 0 && mp_strncmp("abcx", "abcy", 4) < 0 &&
	      mp_strncmp("ab", "ab", 10) == 0 && mp_strncmp("a", "b", 0) == 0, "mp_strncmp");
	CHECK(mp_strlcpy(b, "memprobe!", sizeof b) == 9 && strcmp(b, "mempro" "b") == 0,
	      "mp_strlcpy truncates and returns the source length");
	CHECK(mp_strlcpy(b, "ab", sizeof b) == 2 && strcmp(b, "ab") == 0, "mp_strlcpy copies short text");

	unsigned char m[16];
	mp_memset(m, 0xa5, sizeof m);
	int all = 1;
	for (size_t i = 0; i < sizeof m; i++)
		all &= m[i] == 0xa5;
	CHECK(all, "mp_memset fills every byte");
	unsigned char c[16];
	mp_memcpy(c, "0123456789abcdef", 16);
	CHECK(memcmp(c, "0123456789abcdef", 16) == 0, "mp_memcpy copies every byte");
}

static void test_format_bytes(void)
{
	static const struct { uint64_t bytes; const char *text; } cases[] = {
		{ 0, "0 B" }, { 1, "1 B" }, { 1000, "1000 B" }, { 1023, "1023 B" },
		{ 1024, "1 KiB" }, { 1536, "1.5 KiB" }, { 1500, "1500 B" },
		{ 4096, "4 KiB" }, { 6144, "6 KiB" }, { 1280, "1.25 KiB" },
		{ 2u << 20, "2 MiB" }, { 3u << 19, "1.5 MiB" }, { (6u << 20) + 4096, "6148 KiB" },
		{ 1ull << 30, "1 GiB" }, { 3ull << 29, "1.5 GiB" }, { 645ull * 1000 * 1000, "645000000 B" },
		{ 676000000ull, "660156.25 KiB" }, { 1ull << 40, "1 TiB" }, { 5ull << 40, "5 TiB" },
		{ UINT64_MAX, "18446744073709551615 B" },
	};
	char b[48];
	int bad = 0;

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		mp_format_bytes(b, sizeof b, cases[i].bytes);
		if (strcmp(b, cases[i].text) && !bad++)
			printf("# mp_format_bytes(%llu) = \"%s\", want \"%s\"\n",
			       (unsigned long long)cases[i].bytes, b, cases[i].text);
	}
	CHECK(bad == 0, "mp_format_bytes: exact in the largest unit that keeps two decimals (%d wrong)", bad);
	mp_format_bytes_short(b, sizeof b, 4096);
	CHECK(!strcmp(b, "4K"), "mp_format_bytes_short: 4 KiB is 4K (%s)", b);
	mp_format_bytes_short(b, sizeof b, 3u << 19);
	CHECK(!strcmp(b, "1.5M"), "mp_format_bytes_short: 1.5 MiB is 1.5M (%s)", b);
	mp_format_bytes_short(b, sizeof b, 512);
	CHECK(!strcmp(b, "512B"), "mp_format_bytes_short: 512 bytes keep their B (%s)", b);
	mp_format_bytes_short(b, 3, 1ull << 30);
	CHECK(!strcmp(b, "1G"), "mp_format_bytes_short: cut to its buffer (%s)", b);
}

/* mp_hex_value: every byte, against the digits' own order. */
static void test_hex_value(void)
{
	static const char digits[] = "0123456789abcdef";
	int bad = 0;

	for (int c = 0; c < 256; c++) {
		const char *at = c ? strchr(digits, tolower(c)) : NULL;
		int want = at ? (int)(at - digits) : -1;
		bad += mp_hex_value((char)c) != want;
	}
	CHECK(bad == 0, "mp_hex_value: 0-9, a-f and A-F by value, every other byte -1 (%d wrong)",
	      bad);
}

int main(void)
{
	test_edge_doubles();
	test_non_finite();
	test_random_doubles();
	test_integers();
	test_truncation();
	test_strings();
	test_format_bytes();
	test_hex_value();
	return check_summary();
}
