/* The locality probe: the shape chooser on its own, then the probe at
 * 64 MiB through the host platform, where a column walk must be slower than
 * a row walk with every page size the kernel gives.
 */

#include <string.h>

#include "check.h"
#include "probe_rows.h"
#include "probes/locality.h"
#include "core/probe.h"

#define MiB (1024ull * 1024)

static int power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

static void test_shape_kept_when_it_fits(void)
{
	struct matrix_shape s;

	CHECK(locality_fit_shape(13000, 13000, 645 * MiB + MiB, &s) == 0 &&
	      s.rows == 13000 && s.cols == 13000,
	      "13000 x 13000 is kept when 646 MiB are available (%u x %u)",
	      s.rows, s.cols);
	/* Exactly the matrix's bytes: the limit is inclusive. */
	CHECK(locality_fit_shape(100, 101, 100 * 101 * 4, &s) == 0 &&
	      s.rows == 100 && s.cols == 101, "a shape of exactly the limit fits");
	/* A configured power of two is the user's choice: kept (the probe warns). */
	CHECK(locality_fit_shape(64, 1024, MiB, &s) == 0 && s.cols == 1024,
	      "a configured power-of-two row that fits is kept");
}

static void test_shape_shrunk(void)
{
	static const struct { uint32_t rows, cols; uint64_t max; } cases[] = {
		{ 13000, 13000, 256 * MiB }, { 13000, 13000, 100 * MiB },
		{ 13000, 13000, 64 * MiB }, { 1000, 4000, 4 * MiB },
		{ 5000, 200, 1 * MiB }, { 13000, 13000, 1000 },
	};

	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct matrix_shape s;
		uint64_t rows = cases[i].rows, cols = cases[i].cols, max = cases[i].max;
		int rc = locality_fit_shape(cases[i].rows, cases[i].cols, max, &s);
		uint64_t bytes = (uint64_t)s.rows * s.cols * 4;
		/* Within a row and a column of the aspect-kept optimum. */
		uint64_t margin = ((uint64_t)s.rows + s.cols + 2) * 4 * 2;

		CHECK(rc == 1, "%llu x %llu in %llu bytes is shrunk (rc %d)",
		      (unsigned long long)rows, (unsigned long long)cols,
		      (unsigned long long)max, rc);
		CHECK(bytes <= max, "  the shrunk %u x %u (%llu bytes) fits", s.rows,
		      s.cols, (unsigned long long)bytes);
		CHECK(!power_of_two(s.cols), "  its row of %u ints is not a power of two",
		      s.cols);
		CHECK(s.rows <= rows && s.cols <= cols, "  neither side grew");
		CHECK(bytes + margin >= max, "  it is the largest that fits, give or "
		      "take a row and a column (%llu of %llu bytes)",
		      (unsigned long long)bytes, (unsigned long long)max);
		/* The aspect ratio survives within one column's rounding. */
		CHECK((uint64_t)s.cols * rows <= (s.rows + 1) * cols &&
		      ((uint64_t)s.cols + 2) * rows >= (uint64_t)s.rows * cols,
		      "  the aspect ratio %llu:%llu is kept (%u x %u)",
		      (unsigned long long)rows, (unsigned long long)cols, s.rows, s.cols);
	}
}

static void test_shape_power_of_two_avoided(void)
{
	struct matrix_shape s;

	/* The aspect-kept optimum is exactly 4096 x 4096: one column fewer. */
	CHECK(locality_fit_shape(13000, 13000, 4096ull * 4096 * 4, &s) == 1 &&
	      s.rows == 4096 && s.cols == 4095,
	      "4096 x 4096 becomes 4096 x 4095 (%u x %u)", s.rows, s.cols);
}

static void test_shape_impossible(void)
{
	struct matrix_shape s;

	CHECK(locality_fit_shape(13000, 13000, 16, &s) == -1,
	      "16 bytes hold no matrix worth walking");
	CHECK(locality_fit_shape(13000, 13000, 0, &s) == -1, "nor do 0 bytes");
}

/* The bands: equal widths of cols / bands, disjoint, in turn, the
   remainder unwalked; one band is the whole matrix; more bands than
   columns are one column each. Each band's sum is the brute-force count of
   its odd indices, as the matrix holds k & 1 at index k. */
static void test_bands(void)
{
	static const struct { uint32_t rows, cols; unsigned bands; } cases[] = {
		{ 13000, 13000, 4 }, { 7, 13, 4 }, { 5, 2001, 1 }, { 3, 3, 64 }, { 9, 10, 3 },
	};

	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct matrix_shape s = { cases[i].rows, cases[i].cols };
		unsigned n = cases[i].bands < s.cols ? cases[i].bands : s.cols;
		uint32_t first, end, prev_end = 0, width = s.cols / n;
		int ok = 1, sums = 1;

		for (unsigned r = 0; r < 2 * n; r++) {
			locality_band(&s, cases[i].bands, r, &first, &end);
			ok &= end - first == width && first == (r % n) * width && end <= s.cols &&
			      (r % n == 0 || first == prev_end);
			prev_end = end;
			if (s.rows * (uint64_t)s.cols <= 1000000) {
				uint32_t want = 0;
				for (uint64_t row = 0; row < s.rows; row++)
					for (uint64_t j = first; j < end; j++)
						want += (uint32_t)((row * s.cols + j) & 1);
				sums &= locality_band_sum(&s, first, end) == want;
			}
		}
		CHECK(ok, "%u x %u in %u bands: %u columns each, disjoint, in turn", s.rows, s.cols,
		      cases[i].bands, width);
		CHECK(sums, "  each band's sum is the count of its odd indices");
	}
	struct matrix_shape whole = { 13000, 13000 };
	uint32_t first, end;

	locality_band(&whole, 1, 5, &first, &end);
	CHECK(first == 0 && end == 13000 && locality_band_sum(&whole, 0, 13000) ==
	      (uint32_t)(13000ull * 13000 / 2), "one band is the whole matrix, half of it odd");
}

static struct config small_config(void)
{
	struct config c;

	/* The quick profile's stop rule: a 64 MiB walk outlasts its 8 ms
	   budget, so each walk stops after `trials` (3) repetitions. */
	config_defaults(&c, PROFILE_QUICK);
	c.pages = PAGES_4K | PAGES_2M;
	LOCALITY_SETTINGS(&c)->rows = 4096;
	LOCALITY_SETTINGS(&c)->cols = 4099;
	LOCALITY_SETTINGS(&c)->reps = 3;
	return c;
}

static void test_probe_64mib(void)
{
	static const unsigned shifts[] = { PAGE_SHIFT_4K, PAGE_SHIFT_2M };
	static struct probe_rows rows;
	struct config c = small_config();
	uint64_t bytes = 4096ull * 4099 * 4;

	rows.chart = "locality.svg";
	CHECK(probe_rows_run(probe_locality, &c, &rows) == 0, "results.csv read back");
	CHECK(rows.rc == 0, "the probe succeeded");
	CHECK(rows.chart_well_formed && rows.chart_curves == 2,
	      "locality.svg is well-formed with a row and a column curve (%d)", rows.chart_curves);
	for (unsigned i = 0; i < 2; i++) {
		uint64_t page = 1ull << shifts[i];
		const struct csv_row *row = probe_rows_find(&rows, "row", page, bytes);
		const struct csv_row *col = probe_rows_find(&rows, "column", page, bytes);

		if (!row && !col && plat_buffer_max(shifts[i]) == 0) {
			printf("# %llu-byte pages unavailable here: skipped, as the "
			       "probe does\n", (unsigned long long)page);
			continue;
		}
		CHECK(probe_row_sane(row) && probe_row_sane(col),
		      "%llu-byte pages: row and column rows present and finite",
		      (unsigned long long)page);
		if (!row || !col)
			continue;
		CHECK(row->trials == 3 && col->trials == 3, "  best of 3 each");
		CHECK(col->ns > row->ns, "  column-major is slower than row-major "
		      "(%.3f vs %.3f ns/element)", col->ns, row->ns);
	}
}

static void test_probe_refuses_zero_reps(void)
{
	static struct probe_rows rows;
	struct config c = small_config();

	LOCALITY_SETTINGS(&c)->reps = 0;
	CHECK(probe_rows_run(probe_locality, &c, &rows) == 0 && rows.rc == -1 &&
	      rows.count == 0, "0 repetitions: the probe fails and writes no row");
}

int main(void)
{
	test_shape_kept_when_it_fits();
	test_shape_shrunk();
	test_shape_power_of_two_avoided();
	test_shape_impossible();
	test_bands();
	test_probe_refuses_zero_reps();
	test_probe_64mib();
	return check_summary();
}
