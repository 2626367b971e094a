/* The results.csv reader on valid, quoted, truncated and garbage input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "results/csvread.h"

static char store[256];
static const char *f[CSV_MAX_FIELDS];

static int next(struct csv_reader *r)
{
	return csv_next(r, store, sizeof store, f, CSV_MAX_FIELDS);
}

static void test_records(void)
{
	struct csv_reader r;
	const char *text = "a,b,c\n1,\"x,y\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,\n\nlast";

	csv_reader_init(&r, text, strlen(text));
	CHECK(next(&r) == 3 && !strcmp(f[0], "a") && !strcmp(f[2], "c"), "plain record");
	CHECK(next(&r) == 3 && !strcmp(f[1], "x,y") && !strcmp(f[2], "say \"hi\""),
	      "quoted comma and doubled quotes, CRLF ending");
	CHECK(r.line == 2, "line of the record: %u", r.line);
	CHECK(next(&r) == 3 && !strcmp(f[0], "two\nlines") && !f[1][0] && !f[2][0],
	      "line break inside quotes, empty fields, trailing comma");
	CHECK(next(&r) == 1 && !f[0][0], "blank line: one empty field");
	CHECK(r.line == 5, "lines counted through the quoted break: %u", r.line);
	CHECK(next(&r) == 1 && !strcmp(f[0], "last"), "last record without a newline");
	CHECK(next(&r) == 0 && next(&r) == 0, "end stays the end");
}

static void test_malformed(void)
{
	struct csv_reader r;
	const char *text = "ok,1\nbad\"quote,2\n\"closed\"junk,3\nfine,4\n\"never closed,5\n";

	csv_reader_init(&r, text, strlen(text));
	CHECK(next(&r) == 2, "good record");
	CHECK(next(&r) == -1, "quote inside an unquoted field: malformed");
	CHECK(next(&r) == -1, "text after a closing quote: malformed");
	CHECK(next(&r) == 2 && !strcmp(f[0], "fine"), "reading resumes on the next line");
	CHECK(next(&r) == -1, "unterminated quote: malformed");
	CHECK(next(&r) == 0, "then the end");

	char big[600];
	memset(big, 'x', sizeof big);
	csv_reader_init(&r, big, sizeof big);
	CHECK(next(&r) == -1, "a field longer than the store: malformed, not overrun");

	char many[200];
	memset(many, ',', sizeof many);
	csv_reader_init(&r, many, sizeof many);
	CHECK(next(&r) == -1, "more fields than the table holds: malformed");

	const char cr[] = "a\rb\n";
	csv_reader_init(&r, cr, strlen(cr));
	CHECK(next(&r) == -1, "a lone CR: malformed");

	const char bom[] = "\xef\xbb\xbfprobe,x\n";
	csv_reader_init(&r, bom, strlen(bom));
	CHECK(next(&r) == 2 && !strcmp(f[0], "probe"), "UTF-8 byte order mark skipped");

	csv_reader_init(&r, NULL, 5);
	CHECK(next(&r) == 0, "no text: no records");
}

static void test_numbers(void)
{
	uint64_t u;
	double d;

	CHECK(csv_parse_u64("4096", &u) == 0 && u == 4096, "integer");
	CHECK(csv_parse_u64("18446744073709551615", &u) == 0 && u == UINT64_MAX, "UINT64_MAX");
	CHECK(csv_parse_u64("18446744073709551616", &u) == -1, "overflow refused");
	CHECK(csv_parse_u64("", &u) == -1 && csv_parse_u64("12a", &u) == -1 &&
	      csv_parse_u64("-1", &u) == -1 && csv_parse_u64(" 1", &u) == -1,
	      "empty, trailing junk, sign, blank: refused");
	CHECK(csv_parse_double("1.330", &d) == 0 && fabs(d - 1.33) < 1e-12, "1.330");
	CHECK(csv_parse_double("-0.5e2", &d) == 0 && d == -50.0, "-0.5e2");
	CHECK(csv_parse_double("12", &d) == 0 && d == 12.0, "no point");
	CHECK(csv_parse_double(".5", &d) == 0 && d == 0.5, "no leading digit");
	CHECK(csv_parse_double("123456789012345678901234567890", &d) == 0 &&
	      fabs(d / 1.2345678901234568e29 - 1) < 1e-12, "30 digits");
	CHECK(csv_parse_double("1e999999999", &d) == 0 && isinf(d), "huge exponent: infinity");
	CHECK(csv_parse_double("1e-999999999", &d) == 0 && d == 0.0, "tiny exponent: zero");
	CHECK(csv_parse_double("nan", &d) == 0 && isnan(d), "nan");
	CHECK(csv_parse_double("-inf", &d) == 0 && isinf(d) && d < 0, "-inf");
	CHECK(csv_parse_double("", &d) == -1 && csv_parse_double(".", &d) == -1 &&
	      csv_parse_double("1e", &d) == -1 && csv_parse_double("1.2.3", &d) == -1 &&
	      csv_parse_double("e5", &d) == -1 && csv_parse_double("1,5", &d) == -1,
	      "malformed doubles refused");
}

struct collected {
	int n;
	unsigned shift[8];
	uint64_t ws[8];
	double ns[8], cycles[8], spread[8];
	char variant[8][32], verified[8][64], timer[8][64];
	unsigned trials[8];
};

static void collect(const struct result_row *row, void *ctx)
{
	struct collected *c = ctx;

	if (c->n >= 8) {
		c->n++;               /* counted, not kept */
		return;
	}
	c->shift[c->n] = row->page_shift;
	c->ws[c->n] = row->working_set_bytes;
	c->ns[c->n] = row->ns;
	c->cycles[c->n] = row->cycles;
	c->trials[c->n] = row->trials;
	snprintf(c->variant[c->n], 32, "%s", row->variant);
	snprintf(c->verified[c->n], 64, "%s", row->pages_verified);
	snprintf(c->timer[c->n], 64, "%s", row->timer);
	c->spread[c->n] = row->spread;
	c->n++;
}

static void test_results_file(void)
{
	const char *text =
		"probe,variant,page_size,working_set_bytes,ns,cycles,trials,spread,pages_verified,timer\n"
		"latency,chase,4096,4096,1.330,3.93,7,0.0100,\"pages verified: 1 x 4 KiB, WB\",TSC\n"
		"latency,chase,2097152,32768,1.340,3.95,5,0.0200,kernel gave 2 MiB pages,TSC\n"
		"cost,by_value_sysv,,,2.500,7.38,7,0.0010,,TSC\n"
		"latency,chase,3000,4096,1.0,3.0,5,0.0,,TSC\n"      /* not a page size */
		"latency,chase,4096,abc,1.0,3.0,5,0.0,,TSC\n"       /* not a number */
		"latency,chase,4096,8192,1.4\n"                     /* cut short */
		"latency,chase,4096,6144,1.350,";                   /* cut mid-row */
	struct collected c = { 0 };
	struct csv_summary sum;

	CHECK(results_csv_read(text, strlen(text), collect, &c, &sum) == 0, "file accepted");
	CHECK(sum.rows == 3 && c.n == 3, "three good rows (%u)", sum.rows);
	CHECK(sum.skipped == 4 && sum.first_bad_line == 5,
	      "four bad rows skipped, first on line 5 (%u, %u)", sum.skipped, sum.first_bad_line);
	CHECK(c.shift[0] == 12 && c.ws[0] == 4096 && fabs(c.ns[0] - 1.33) < 1e-9 &&
	      fabs(c.cycles[0] - 3.93) < 1e-9 && c.trials[0] == 7, "first row's numbers");
	CHECK(!strcmp(c.verified[0], "pages verified: 1 x 4 KiB, WB"), "quoted text with a comma");
	CHECK(fabs(c.spread[0] - 0.01) < 1e-12 && fabs(c.spread[1] - 0.02) < 1e-12,
	      "an older file's spread column is read as the fraction it holds (%g, %g)",
	      c.spread[0], c.spread[1]);
	CHECK(c.shift[1] == 21 && c.ws[1] == 32768, "2 MiB row");
	CHECK(c.shift[2] == 0 && c.ws[2] == 0 && !strcmp(c.variant[2], "by_value_sysv"),
	      "empty page size and working set read as 0");

	/* Columns by name, in another order, with one more column. */
	const char *moved =
		"ns,extra,cycles,working_set_bytes,page_size,variant,probe\n"
		"2.0,zz,6.0,8192,4096,chase,latency\n";
	memset(&c, 0, sizeof c);
	CHECK(results_csv_read(moved, strlen(moved), collect, &c, &sum) == 0 && c.n == 1 &&
	      c.ws[0] == 8192 && c.ns[0] == 2.0 && c.cycles[0] == 6.0 && c.trials[0] == 0,
	      "columns found by name; missing optional ones are empty");

	/* Another program's curve: no cycles, trials or timer, only the
	   latency. Read, the cycles unknown (NaN, which the curves take as
	   none). */
	const char *ns_only =
		"probe,variant,page_size,working_set_bytes,ns\n"
		"latency,chase,4096,32768,1.25\n"
		"latency,chase,4096,49152,3.75\n";
	memset(&c, 0, sizeof c);
	CHECK(results_csv_read(ns_only, strlen(ns_only), collect, &c, &sum) == 0 && c.n == 2 &&
	      c.ws[1] == 49152 && c.ns[1] == 3.75 && c.cycles[1] != c.cycles[1],
	      "a curve with ns but no cycles column reads, its cycles unknown");

	const char *no_ns = "probe,variant,page_size,working_set_bytes,cycles\n";
	CHECK(results_csv_read(no_ns, strlen(no_ns), collect, &c, &sum) == -1 &&
	      strstr(sum.error, "'ns'"), "a required column missing: refused (%s)", sum.error);
	CHECK(results_csv_read("", 0, collect, &c, &sum) == -1 && sum.error[0],
	      "empty file: refused (%s)", sum.error);
}

/* This version's file: spread_pct in percent, and the long texts as ids
   that the run's system.json resolves; an id it does not hold, or no
   system.json, leaves the field as it stands. */
static void test_row_texts(void)
{
	const char *text =
		"probe,variant,page_size,working_set_bytes,ns,cycles,trials,spread_pct,"
		"pages_verified,timer\n"
		"latency,chase,4096,4096,1.330,3.93,7,1.23,p1,t1\n"
		"latency,chase,2097152,32768,1.340,3.95,5,250.00,p2,t1\n"
		"latency,chase,4096,8192,1.350,3.97,5,0.00,p9,\n";
	const char *json =
		"{\n  \"schema_version\": 2,\n  \"row_texts\": {\n    \"pages_verified\": {\n"
		"      \"p1\": \"pages verified: 1 x 4 KiB, WB\",\n"
		"      \"p2\": \"kernel gave 2 MiB pages\"\n    },\n"
		"    \"timer\": {\n      \"t1\": \"TSC, calibrated\"\n    }\n  }\n}\n";
	struct collected c = { 0 };
	struct csv_summary sum;

	CHECK(results_csv_read_texts(text, strlen(text), json, strlen(json), collect, &c, &sum) == 0 &&
	      c.n == 3, "a file with ids read with its system.json (%d rows)", c.n);
	CHECK(!strcmp(c.verified[0], "pages verified: 1 x 4 KiB, WB") &&
	      !strcmp(c.verified[1], "kernel gave 2 MiB pages") && !strcmp(c.timer[0], "TSC, calibrated") &&
	      !strcmp(c.timer[1], "TSC, calibrated"),
	      "each id becomes its text from row_texts (%s | %s | %s)", c.verified[0], c.verified[1],
	      c.timer[1]);
	CHECK(!strcmp(c.verified[2], "p9") && !c.timer[2][0],
	      "an id system.json does not hold stays as it is, an empty field empty (%s)",
	      c.verified[2]);
	CHECK(fabs(c.spread[0] - 0.0123) < 1e-12 && fabs(c.spread[1] - 2.5) < 1e-12,
	      "spread_pct is read as a percentage: 1.23 is 0.0123 (%g, %g)", c.spread[0],
	      c.spread[1]);
	memset(&c, 0, sizeof c);
	CHECK(results_csv_read(text, strlen(text), collect, &c, &sum) == 0 && c.n == 3 &&
	      !strcmp(c.verified[0], "p1") && !strcmp(c.timer[0], "t1"),
	      "without system.json the ids are handed on as they are");
}

/* The reader takes its columns from columns.h's table: a header without a
   required column is refused by that column's name; without an optional
   one it is read, the field empty. */
static void test_table_columns(void)
{
	static const struct { const char *column, *value; } values[] = {
		{ "probe", "latency" }, { "variant", "chase" }, { "page_size", "4096" },
		{ "working_set_bytes", "8192" }, { "ns", "1.500" }, { "cycles", "4.50" },
		{ "trials", "3" }, { "spread_pct", "1.00" }, { "pages_verified", "v" },
		{ "timer", "t" }, { "cpu", "0" }, { "peer_cpu", "3" }, { "loaders", "2" },
		{ "load_gb_per_s", "12.500" }, { "chases", "12" }, { "in_flight", "6.250" },
		{ "gb_per_s", "42.500" }, { "bytes_per_cycle", "14.400" },
		{ "sweep_point", "refined" },
		{ "stride_bytes", "1024" }, { "trial_form", "partial" }, { "stopped_by", "steady" },
		{ "insns_per_cycle", "3.250" },
	};
	const unsigned nvalues = sizeof values / sizeof *values;

	/* Every column of the table, with a value of its own. */
	int known = result_column_count == nvalues;
	for (unsigned k = 0; known && k < nvalues; k++)
		known = !strcmp(values[k].column, result_columns[k].name);
	CHECK(known, "a value for each of the table's columns");
	if (!known)
		return;

	for (unsigned left_out = 0; left_out < result_column_count; left_out++) {
		const struct result_column *col = &result_columns[left_out];
		char text[512] = "", want[64];
		size_t len = 0;
		struct collected c = { 0 };
		struct csv_summary sum;

		for (int line = 0; line < 2; line++) {
			const char *sep = "";
			for (unsigned k = 0; k < result_column_count; k++) {
				if (k == left_out)
					continue;
				len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", sep,
							line ? values[k].value : values[k].column);
				sep = ",";
			}
			len += (size_t)snprintf(text + len, sizeof text - len, "\n");
		}
		int rc = results_csv_read(text, len, collect, &c, &sum);
		snprintf(want, sizeof want, "no '%s' column in the header line", col->name);
		if (col->required)
			CHECK(rc == -1 && !strcmp(sum.error, want),
			      "without the required %s column: refused (%s)", col->name, sum.error);
		else
			CHECK(rc == 0 && c.n == 1 && c.ws[0] == 8192 && c.ns[0] == 1.5,
			      "without the optional %s column: read (%d rows)", col->name, c.n);
	}
}

/* A small in-test fuzz: random bytes and mutated valid files under the
   sanitizers; the parse must end and stay inside its input. */
static void test_garbage(void)
{
	static const char valid[] =
		"probe,variant,page_size,working_set_bytes,ns,cycles,trials,spread,pages_verified,timer\n"
		"latency,chase,4096,4096,1.330,3.93,7,0.0100,\"a, \"\"b\"\"\",TSC\n";
	struct collected c;
	struct csv_summary sum;
	unsigned seed = 12345, accepted = 0, overcounted = 0;

	for (int round = 0; round < 20000; round++) {
		size_t len = (size_t)(rand_r(&seed) % 300);
		char *buf = malloc(len ? len : 1);
		for (size_t i = 0; i < len; i++) {
			if (round & 1)
				buf[i] = (char)rand_r(&seed);
			else
				buf[i] = i < sizeof valid - 1 ? valid[i] : ',';
		}
		if (!(round & 1) && len)
			for (int m = 0; m < 4; m++)
				buf[rand_r(&seed) % len] = "\",\n\r\0x9e"[rand_r(&seed) % 8];
		unsigned lines = 1;
		for (size_t i = 0; i < len; i++)
			lines += buf[i] == '\n';
		memset(&c, 0, sizeof c);
		if (results_csv_read(buf, len, collect, &c, &sum) == 0)
			accepted++;
		/* The header takes a line; every row or skip needs one more. */
		if (sum.rows + sum.skipped + 1 > lines || sum.rows != (unsigned)c.n)
			overcounted++;
		free(buf);
	}
	CHECK(!overcounted, "20000 garbage inputs: never more records than lines (%u off)",
	      overcounted);
	CHECK(accepted > 100, "mutated valid files still often parse (%u)", accepted);
}

int main(void)
{
	test_records();
	test_malformed();
	test_numbers();
	test_results_file();
	test_row_texts();
	test_table_columns();
	test_garbage();
	return check_summary();
}
