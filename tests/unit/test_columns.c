/* results.csv's one column table (columns.h): it covers every field of
 * struct result_row, each once; every field reads back as it was written;
 * and docs/OUTPUT.md lists the same columns in the same order.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/csv.h"
#include "results/columns.h"

static size_t field_size(const struct result_column *col)
{
	switch (col->form) {
	case COLUMN_TEXT:
	case COLUMN_TEXT_ID:
		return sizeof(const char *);
	case COLUMN_PAGE_SIZE:
	case COLUMN_COUNT:
		return sizeof(unsigned);
	case COLUMN_BYTES:
		return sizeof(uint64_t);
	case COLUMN_REAL:
	case COLUMN_PERCENT:
		return sizeof(double);
	case COLUMN_OPTIONAL_COUNT:
		return sizeof(struct optional_count);
	case COLUMN_OPTIONAL_REAL:
		/* Its data bytes: the struct's tail padding is no one's. */
		return offsetof(struct optional_real, given) + sizeof(int);
	}
	return 0;
}

/* Every byte of struct result_row that is not padding belongs to exactly
   one column's field: a field added without a column fails here. */
static void test_coverage(void)
{
	unsigned char member[sizeof(struct result_row)];
	int owners[sizeof(struct result_row)] = { 0 };
	struct result_row probe;
	size_t uncovered = 0, shared = 0, outside = 0;

	memset(&probe, 0xff, sizeof probe);
	__builtin_clear_padding(&probe);      /* padding bytes become 0 */
	memcpy(member, &probe, sizeof member);

	for (unsigned c = 0; c < result_column_count; c++) {
		const struct result_column *col = &result_columns[c];
		size_t size = field_size(col);

		CHECK(size != 0, "column %s has a known form", col->name);
		for (size_t i = col->offset; i < col->offset + size; i++) {
			if (i >= sizeof member || !member[i])
				outside++;
			else
				owners[i]++;
		}
	}
	for (size_t i = 0; i < sizeof member; i++) {
		if (member[i] && owners[i] == 0)
			uncovered++;
		if (owners[i] > 1)
			shared++;
	}
	CHECK(uncovered == 0, "every field of struct result_row has a column (%zu bytes without)",
	      uncovered);
	CHECK(shared == 0 && outside == 0,
	      "no two columns share a field, none reaches into padding (%zu, %zu bytes)",
	      shared, outside);

	int same_names = 0;
	for (unsigned a = 0; a < result_column_count; a++)
		for (unsigned b = a + 1; b < result_column_count; b++)
			same_names += !strcmp(result_columns[a].name, result_columns[b].name);
	CHECK(same_names == 0, "every column has a name of its own (%d pairs share one)",
	      same_names);
	CHECK(strcmp(result_columns[0].name, "probe") == 0 && result_columns[0].required,
	      "the first column is the probe's name, and required");
}

/* The column of that name; the first column where there is none (the
   coverage and docs checks then fail). */
static const struct result_column *column(const char *name)
{
	for (unsigned c = 0; c < result_column_count; c++)
		if (!strcmp(result_columns[c].name, name))
			return &result_columns[c];
	CHECK(0, "a column named %s", name);
	return &result_columns[0];
}

/* Every field of a row formatted, each parsed back into another row. */
struct texts {
	char text[CSV_MAX_FIELDS][64];
};

static void round_trip(const struct result_row *in, struct result_row *out, struct texts *t)
{
	int bad = 0;

	memset(out, 0, sizeof *out);
	for (unsigned c = 0; c < result_column_count; c++) {
		const char *text = result_column_format(&result_columns[c], in, t->text[c], 64);
		if (text != t->text[c])
			snprintf(t->text[c], 64, "%s", text);
		if (result_column_parse(&result_columns[c], t->text[c], out)) {
			printf("# column %s: '%s' does not read back\n", result_columns[c].name,
			       t->text[c]);
			bad++;
		}
	}
	CHECK(bad == 0, "every column reads back its own text (%d do not)", bad);
}

static const char *text_of(const struct texts *t, const char *name)
{
	return t->text[column(name) - result_columns];
}

static void test_round_trip(void)
{
	static const struct result_row full = {
		.probe = "tlb", .variant = "control", .page_shift = 21,
		.working_set_bytes = 3ull << 30, .ns = 1.25, .cycles = 4.5, .trials = 7,
		.spread = 0.0625, .pages_verified = "pages verified: 2 x 2 MiB, WB",
		.timer = "tsc", .cpu = { 1, 0 }, .peer_cpu = { 1, 3 }, .loaders = { 1, 0 },
		.load_gb_per_s = { 12.5, 1 },
	};
	static const struct result_row empty = {
		.probe = "cost", .variant = "bare_call_ms", .ns = NAN, .cycles = INFINITY,
	};
	struct texts t;
	struct result_row back;

	round_trip(&full, &back, &t);
	CHECK(!strcmp(back.probe, "tlb") && !strcmp(back.variant, "control") &&
	      back.page_shift == 21 && back.working_set_bytes == 3ull << 30 &&
	      back.ns == 1.25 && back.cycles == 4.5 && back.trials == 7 &&
	      back.spread == 0.0625 && !strcmp(back.pages_verified, full.pages_verified) &&
	      !strcmp(back.timer, "tsc"), "a row reads back as it was written");
	CHECK(!strcmp(text_of(&t, "page_size"), "2097152") && !strcmp(text_of(&t, "ns"), "1.250") &&
	      !strcmp(text_of(&t, "cycles"), "4.50") && !strcmp(text_of(&t, "spread_pct"), "6.25"),
	      "page size in bytes; ns, cycles with 3, 2 decimals; spread in percent, 2 decimals");

	CHECK(!strcmp(text_of(&t, "cpu"), "0") && !strcmp(text_of(&t, "peer_cpu"), "3") &&
	      !strcmp(text_of(&t, "loaders"), "0") && !strcmp(text_of(&t, "load_gb_per_s"), "12.500000"),
	      "CPU 0 and no loaders are written as 0 when given");
	CHECK(back.cpu.given && back.cpu.value == 0 && back.peer_cpu.given &&
	      back.peer_cpu.value == 3 && back.loaders.given && back.loaders.value == 0 &&
	      back.load_gb_per_s.given && back.load_gb_per_s.value == 12.5,
	      "and read back as given");

	round_trip(&empty, &back, &t);
	CHECK(!*text_of(&t, "cpu") && !*text_of(&t, "peer_cpu") && !*text_of(&t, "loaders") &&
	      !*text_of(&t, "load_gb_per_s") && !back.cpu.given && !back.peer_cpu.given &&
	      !back.loaders.given && !back.load_gb_per_s.given,
	      "no CPU, peer, loader count or load bandwidth: empty fields that read back as "
	      "not given");
	CHECK(!*text_of(&t, "page_size") && !*text_of(&t, "working_set_bytes") &&
	      !*text_of(&t, "pages_verified") && !*text_of(&t, "timer") &&
	      !strcmp(text_of(&t, "trials"), "0"),
	      "no page size, no working set, no text: empty fields; trials 0 is written");
	CHECK(!strcmp(text_of(&t, "ns"), "nan") && !strcmp(text_of(&t, "cycles"), "inf"),
	      "nan and inf as such");
	CHECK(back.page_shift == 0 && back.working_set_bytes == 0 && isnan(back.ns) &&
	      isinf(back.cycles) && back.trials == 0 && back.spread == 0.0 &&
	      !strcmp(back.pages_verified, ""), "and they read back as 0, nan, inf, \"\"");

	CHECK(!*text_of(&t, "gb_per_s") && !*text_of(&t, "bytes_per_cycle") &&
	      !back.gb_per_s.given && !back.bytes_per_cycle.given,
	      "no bandwidth: gb_per_s and bytes_per_cycle empty, read back as not given");
	static const struct result_row bandwidth = {
		.probe = "bandwidth", .variant = "read_avx2", .page_shift = 21,
		.working_set_bytes = 16384, .ns = 0.4, .cycles = 1.2, .gb_per_s = { 160.125, 1 },
		.bytes_per_cycle = { 53.375, 1 },
	};
	round_trip(&bandwidth, &back, &t);
	CHECK(!strcmp(text_of(&t, "gb_per_s"), "160.125") &&
	      !strcmp(text_of(&t, "bytes_per_cycle"), "53.375") && back.gb_per_s.value == 160.125 &&
	      back.bytes_per_cycle.value == 53.375, "a bandwidth row's rates, 3 decimals, read back");

	struct result_row r;
	const struct result_column *page = column("page_size"), *trials = column("trials"),
		*spread = column("spread_pct");
	CHECK(result_column_parse(page, "4096", &r) == 0 && r.page_shift == 12 &&
	      result_column_parse(page, "1099511627776", &r) == 0 && r.page_shift == 40,
	      "page sizes from 4 KiB to 1 TiB");
	CHECK(result_column_parse(page, "2048", &r) == -1 &&
	      result_column_parse(page, "12288", &r) == -1 &&
	      result_column_parse(page, "2199023255552", &r) == -1,
	      "a page size under 4 KiB, not a power of two, or over 1 TiB is refused");
	CHECK(result_column_parse(trials, "99999999999", &r) == 0 && r.trials == 0xffffffffu,
	      "a trial count past 32 bits is capped");
	CHECK(result_column_parse(spread, "", &r) == 0 && isnan(r.spread),
	      "an empty real is nan");
	CHECK(result_column_parse(trials, "x", &r) == -1 &&
	      result_column_parse(spread, "0,5", &r) == -1, "junk in a number is refused");
	CHECK(spread->was && !strcmp(spread->was, "spread") &&
	      result_column_parse_was(spread, "0.0125", &r) == 0 && r.spread == 0.0125 &&
	      result_column_parse(spread, "1.25", &r) == 0 && r.spread == 0.0125,
	      "an older file's spread is the fraction itself; spread_pct is a percentage");
}

/* A column read under an older name is read as COLUMN_REAL: its field must
   be a double. */
static void test_older_names(void)
{
	int bad = 0;

	for (unsigned c = 0; c < result_column_count; c++)
		if (result_columns[c].was && result_columns[c].form != COLUMN_REAL &&
		    result_columns[c].form != COLUMN_PERCENT)
			bad++;
	CHECK(bad == 0, "every column with an older name holds a double (%d do not)", bad);
}

/* docs/OUTPUT.md's results.csv section: its "| column | meaning | ..."
   table has one "| `name` |" line per column, in the file's order, and a
   real column's line names its format. */
static void test_docs(void)
{
	FILE *f = fopen("docs/OUTPUT.md", "r");
	char line[4096];           /* a table row of OUTPUT.md is one line, however long */
	int state = 0, names_ok = 1, formats_ok = 1;
	unsigned n = 0;

	CHECK(f != NULL, "docs/OUTPUT.md opens (run from the repository root)");
	if (!f)
		return;
	while (state < 3 && fgets(line, sizeof line, f)) {
		if (state == 0 && !strncmp(line, "## results.csv", 14))
			state = 1;
		else if (state == 1 && !strncmp(line, "| column |", 10))
			state = 2;
		else if (state == 2 && line[0] != '|')
			state = 3;
		else if (state == 2 && !strncmp(line, "| `", 3)) {
			const struct result_column *col =
				n < result_column_count ? &result_columns[n] : NULL;
			size_t len = col ? strlen(col->name) : 0;

			if (!col || strncmp(line + 3, col->name, len) || strncmp(line + 3 + len, "` |", 3)) {
				names_ok = 0;
			} else if (col->form == COLUMN_REAL || col->form == COLUMN_OPTIONAL_REAL ||
				   col->form == COLUMN_PERCENT) {
				char want[16];
				snprintf(want, sizeof want, "`%%.%uf`", col->decimals);
				formats_ok &= strstr(line, want) != NULL;
			}
			n++;
		}
	}
	fclose(f);

	CHECK(names_ok && n == result_column_count,
	      "docs/OUTPUT.md lists the table's %u columns, in its order (%u lines)",
	      result_column_count, n);
	CHECK(formats_ok, "docs/OUTPUT.md gives each real column's decimals as the table does");
}

int main(void)
{
	test_coverage();
	test_round_trip();
	test_older_names();
	test_docs();
	return check_summary();
}
