/* The two-column curve reader on the units it names, the files other
 * programs print, and the lines it refuses, each with its line number.
 */
#include <string.h>
#include "check.h"
#include "desk/curve_read.h"

#define MAX_ROWS 16

struct got {
	unsigned n;
	unsigned long long bytes[MAX_ROWS];
	double ns[MAX_ROWS];
	unsigned page_shift;
	int chase;
};

static void take(const struct result_row *row, void *ctx)
{
	struct got *g = ctx;

	if (g->n < MAX_ROWS) {
		g->bytes[g->n] = row->working_set_bytes;
		g->ns[g->n++] = row->ns;
	}
	g->page_shift = row->page_shift;
	g->chase = !strcmp(row->probe, "latency") && !strcmp(row->variant, "chase");
}

static int read_text(const char *text, struct got *g, struct curve_read_summary *sum)
{
	memset(g, 0, sizeof *g);
	return curve_read(text, strlen(text), take, g, sum);
}

static void test_units(void)
{
	struct curve_read_summary sum;
	struct got g;

	CHECK(read_text("# Chips and Cheese\nsize_kib,ns\n2,1.05\n48,1.1\r\n1536,12.5\n", &g,
			&sum) == 0 && sum.rows == 3 && g.n == 3,
	      "a commented file with a size_kib,ns header: three rows");
	CHECK(g.bytes[0] == 2048 && g.bytes[1] == 48 * 1024 && g.bytes[2] == 1536 * 1024 &&
	      g.ns[2] == 12.5, "KiB sizes to bytes, the ns as written");
	CHECK(g.chase && g.page_shift == CURVE_READ_PAGE_SHIFT,
	      "handed over as latency chase rows of 4 KiB pages");
	CHECK(read_text("size_mib latency_ns\n0.00049 1.2\n 0.04688   1.3 # past L1\n", &g,
			&sum) == 0 && g.n == 2 && g.bytes[0] == 512 && g.bytes[1] == 49152,
	      "lmbench's MiB with five decimals, blank-separated: the roundest byte count "
	      "the digits allow, not the nearest (%llu, %llu)", g.bytes[0], g.bytes[1]);
	CHECK(read_text("4096B;1\n48K;1.1\n1.5M;4\n2G;90\n3KiB;1\n", &g, &sum) == 0 &&
	      g.bytes[0] == 4096 && g.bytes[1] == 49152 && g.bytes[2] == 1572864 &&
	      g.bytes[3] == 2147483648ull && g.bytes[4] == 3072,
	      "no header: each size's suffix names its unit");
	CHECK(read_text("size_bytes,ns\n1024,0.0\n65536,1.45\n", &g, &sum) == 0 &&
	      sum.zero_rows == 1 && sum.least_ns == 0.0 &&
	      sum.added_ns == CURVE_READ_FASTEST_NS && g.ns[0] == CURVE_READ_FASTEST_NS &&
	      g.ns[1] > 1.449 + CURVE_READ_FASTEST_NS && g.ns[1] < 1.451 + CURVE_READ_FASTEST_NS,
	      "a reading of 0 ns (time over the fastest level): every reading comes with "
	      "%g ns added, the zero counted (%g, %g)", CURVE_READ_FASTEST_NS, g.ns[0], g.ns[1]);
	CHECK(read_text("1K,0.3\n2K,0.4\n4K,5\n", &g, &sum) == 0 && sum.zero_rows == 0 &&
	      sum.least_ns > 0.2999 && sum.least_ns < 0.3001 &&
	      g.ns[0] > 1.2999 && g.ns[0] < 1.3001 && g.ns[2] > 5.9999 && g.ns[2] < 6.0001,
	      "a least reading under %g ns and not 0: read over the fastest level too",
	      CURVE_READ_LOAD_MIN_NS);
	CHECK(read_text("1K,0.5\n2K,3\n", &g, &sum) == 0 && sum.added_ns == 0.0 &&
	      g.ns[0] > 0.4999 && g.ns[0] < 0.5001 && g.ns[1] == 3.0,
	      "a least reading of %g ns, a load's least: the readings as written",
	      CURVE_READ_LOAD_MIN_NS);
}

static void refused(const char *text, const char *says, const char *what)
{
	struct curve_read_summary sum;
	struct got g;

	CHECK(read_text(text, &g, &sum) == -1 && strstr(sum.error, says),
	      "%s: refused with \"%s\"", what, sum.error);
}

static void test_refused(void)
{
	refused("2,1.0\n4,1.0\n", "line 1: the size '2' has no unit", "bare sizes, no header");
	refused("size,ns\n2,1\n", "line 1: the header's first word 'size' names no size unit",
		"a header without a unit");
	refused("size_kib,cycles\n2,4\n", "second word 'cycles' is not ns", "cycles, not ns");
	refused("size_kib,ns\n2,1\n4,1,9\n", "line 3: more than two fields", "three fields");
	refused("size_kib,ns\n2,1\n8\n", "line 3: 1 field where two", "one field");
	refused("size_kib,ns\n2,-1\n", "line 2: the latency '-1' is not", "a negative reading");
	refused("size_kib,ns\n2,nan\n", "latency 'nan'", "a NaN reading");
	refused("size_kib,ns\n2,1\nsize_kib,ns\n", "line 3: the size 'size_kib' is not a number",
		"a second header after rows");
	refused("size_kib,ns\n0,1\n", "under one byte", "a zero size");
	refused("7Q,1\n", "unknown unit", "an unknown suffix");
	refused("# only comments\n\n", "no row", "no rows");
	refused("", "empty", "an empty file");
	refused("size_kib,ns\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,1\n",
		"line 2: a field longer than", "an overlong field");
}

int main(void)
{
	test_units();
	test_refused();
	return check_summary();
}
