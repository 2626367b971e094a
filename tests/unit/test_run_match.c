/* host/run_match: rows of several runs matched on every identity column
 * (probe, variant, page size, working set, cpu, peer_cpu, loaders), in the
 * order the tables keep, whatever order the runs wrote them in; the figure
 * a probe is compared by (GB/s for bandwidth) and each run's geometric
 * mean ratio to the first.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "desk/run_match.h"

#define MAX_ROWS 200000

static struct run_row rows[2][MAX_ROWS];

static const struct optional_count none = { 0, 0 };

static struct optional_count count(unsigned v)
{
	return (struct optional_count){ 1, v };
}

/* A run folder over rows[which][0..n) (no analysis: run_match reads rows). */
static struct run_folder run_of(int which, size_t n)
{
	struct run_folder r;

	memset(&r, 0, sizeof r);
	r.name = (char)('A' + which);
	r.row = rows[which];
	r.nrows = n;
	return r;
}

static struct run_row row(const char *probe, const char *variant, unsigned page_shift,
			  uint64_t ws, double ns, struct optional_count cpu,
			  struct optional_count peer, struct optional_count loaders)
{
	return (struct run_row){ (char *)probe, (char *)variant, page_shift, ws, ns, ns * 4, cpu,
		peer, loaders, 0, { 0, 0 }, { 0, 0 }, 0, { 0, 0 }, { 0, 0 }, { 0, 0 } };
}

/* A loaded run with four loader counts and a c2c pair in each direction:
   each is a row of its own, matched to the other run's by its count or
   its pair, whatever the order. */
static void test_identity(void)
{
	struct run_folder runs[2];
	struct run_match m;
	int ok = 1;

	for (unsigned l = 0; l < 4; l++) {
		rows[0][l] = row("loaded", "read", 12, 256u << 20, 90 + 10 * l, count(0), none,
				 count(l));
		/* B wrote them the other way round, each 1.1 times A's. */
		rows[1][3 - l] = row("loaded", "read", 12, 256u << 20, (90 + 10 * l) * 1.1, count(0),
				     none, count(l));
	}
	rows[0][4] = row("c2c", "pingpong", 12, 64, 40, count(0), count(1), none);
	rows[0][5] = row("c2c", "pingpong", 12, 64, 60, count(1), count(0), none);
	rows[1][4] = row("c2c", "pingpong", 12, 64, 66, count(1), count(0), none);
	rows[1][5] = row("c2c", "pingpong", 12, 64, 44, count(0), count(1), none);
	runs[0] = run_of(0, 6);
	runs[1] = run_of(1, 6);

	run_match_build(&m, runs, 2, "loaded");
	CHECK(m.nkeys == 4, "loaded: four loader counts are four rows (%zu)", m.nkeys);
	for (size_t k = 0; k < m.nkeys; k++) {
		const struct run_row *a = run_match_row(&m, k, 0), *b = run_match_row(&m, k, 1);

		ok &= a && b && m.key[k].loaders.given && m.key[k].loaders.value == k &&
		      a->loaders.value == k && b->loaders.value == k &&
		      fabs(b->ns / a->ns - 1.1) < 1e-9;
	}
	CHECK(ok, "loaded: in loader order, each run's row for the count its own");
	run_match_free(&m);

	run_match_build(&m, runs, 2, "c2c");
	CHECK(m.nkeys == 2 && m.key[0].cpu.value == 0 && m.key[0].peer_cpu.value == 1 &&
	      m.key[1].cpu.value == 1 && m.key[1].peer_cpu.value == 0,
	      "c2c: the pairs 0-1 and 1-0 are two rows, in CPU order");
	CHECK(m.nkeys == 2 && run_match_row(&m, 0, 1)->ns == 44 && run_match_row(&m, 1, 1)->ns == 66,
	      "c2c: B's rows matched by pair, not by position");
	size_t n;
	double g = run_match_geomean(&m, 1, 0, &n);
	CHECK(n == 2 && fabs(g - 1.1) < 1e-9, "c2c: geometric mean 1.1 over both pairs (%.4f, %zu)",
	      g, n);
	run_match_free(&m);

	run_match_build(&m, runs, 2, "latency");
	CHECK(m.nkeys == 0 && run_match_row(&m, 0, 0) == NULL, "a probe no run has: no keys");
	run_match_free(&m);
}

/* Geometry rows of one variant differ by their stride: 12 lines 4096
   bytes apart and 24 lines 2048 apart span the same working set, and
   stay two rows. */
static void test_stride(void)
{
	struct run_folder runs[2];
	struct run_match m;

	for (unsigned w = 0; w < 2; w++) {
		rows[w][0] = row("geometry", "ways", 12, 12 * 4096, 1.1 + w, none, none, none);
		rows[w][0].stride_bytes = 4096;
		rows[w][1] = row("geometry", "ways", 12, 24 * 2048, 3.9 + w, none, none, none);
		rows[w][1].stride_bytes = 2048;
		runs[w] = run_of(w, 2);
	}
	run_match_build(&m, runs, 2, "geometry");
	CHECK(m.nkeys == 2 && m.key[0].stride_bytes == 2048 && m.key[1].stride_bytes == 4096 &&
	      run_match_row(&m, 0, 1)->ns == 4.9 && run_match_row(&m, 1, 0)->ns == 1.1,
	      "geometry: the same working set at two strides is two rows, each matched (%zu)",
	      m.nkeys);
	run_match_free(&m);
}

/* Variants keep the order first seen (across runs), a key only one run has
   gets only that run's row, and within a run the least of two rows of one
   key is its row. */
static void test_order(void)
{
	struct run_folder runs[2];
	struct run_match m;

	rows[0][0] = row("latency", "zeta", 21, 8192, 5, none, none, none);
	rows[0][1] = row("latency", "zeta", 12, 8192, 4, none, none, none);
	rows[0][2] = row("latency", "alpha", 12, 4096, 3, none, none, none);
	rows[0][3] = row("latency", "zeta", 12, 4096, 2, none, none, none);
	rows[0][4] = row("latency", "zeta", 12, 4096, 99, none, none, none);
	rows[1][0] = row("latency", "beta", 12, 4096, 7, none, none, none);
	rows[1][1] = row("latency", "zeta", 12, 4096, 2.2, none, none, none);
	rows[1][2] = row("other", "zeta", 12, 4096, 1, none, none, none);
	runs[0] = run_of(0, 5);
	runs[1] = run_of(1, 3);
	run_match_build(&m, runs, 2, "latency");
	CHECK(m.nkeys == 5, "five distinct things measured (%zu)", m.nkeys);
	if (m.nkeys == 5) {
		CHECK(!strcmp(m.key[0].variant, "zeta") && m.key[0].page_shift == 12 &&
		      m.key[0].working_set_bytes == 4096 && m.key[1].working_set_bytes == 8192 &&
		      m.key[2].page_shift == 21 && !strcmp(m.key[3].variant, "alpha") &&
		      !strcmp(m.key[4].variant, "beta"),
		      "variants first seen first (zeta, alpha, beta), then page size and working set");
		CHECK(m.key[0].variant_order == 0 && m.key[3].variant_order == 1 &&
		      m.key[4].variant_order == 2, "variant_order counts them so");
		CHECK(run_match_row(&m, 0, 0)->ns == 2 && run_match_row(&m, 0, 1)->ns == 2.2,
		      "of a run's two rows of a key, the least reading is its row");
		CHECK(!run_match_row(&m, 4, 0) && run_match_row(&m, 4, 1) &&
		      run_match_row(&m, 3, 0) && !run_match_row(&m, 3, 1),
		      "a key one run lacks has no row there");
		CHECK(run_match_same_curve(&m.key[0], &m.key[1]) &&
		      !run_match_same_curve(&m.key[1], &m.key[2]) &&
		      !run_match_same_curve(&m.key[2], &m.key[3]),
		      "one curve: same variant and page size");
	}
	run_match_free(&m);
}

/* Two copies of one run, one with an extra row ten times slower at one size,
   before or after the size's own (a disturbed grid reading and its revisit,
   in either order): every ratio is 1, at that size too, and a row without a
   usable reading never stands for one that has it. */
static void test_least(void)
{
	struct run_folder runs[2];
	struct run_match m;
	size_t n, at = 0;
	int ok = 1;

	for (unsigned i = 0; i < 8; i++) {
		rows[0][i] = row("latency", "chase", 12, 4096u << i, 1.0 + i, none, none, none);
		rows[1][i] = rows[0][i];
	}
	rows[1][8] = row("latency", "chase", 12, 4096u << 3, 40.0, none, none, none);
	rows[1][9] = row("latency", "chase", 12, 4096u << 5, NAN, none, none, none);
	/* The slow reading first at 4096 << 6: the grid's, revisited later. */
	rows[1][10] = rows[1][6];
	rows[1][6].ns = 70.0;
	runs[0] = run_of(0, 8);
	runs[1] = run_of(1, 11);
	run_match_build(&m, runs, 2, "latency");
	for (size_t k = 0; k < m.nkeys; k++) {
		double ratio = run_match_row(&m, k, 1)->ns / run_match_row(&m, k, 0)->ns;

		ok &= fabs(ratio - 1) < 0.02;
		at += m.key[k].working_set_bytes == 4096u << 3 || m.key[k].working_set_bytes ==
		      4096u << 6;
	}
	CHECK(m.nkeys == 8 && at == 2 && ok,
	      "an extra row 10x slower, after or before: every ratio within 2%% of 1");
	CHECK(fabs(run_match_geomean(&m, 1, 0, &n) - 1) < 1e-12 && n == 8,
	      "geometric mean 1 over the 8 sizes");
	run_match_free(&m);
}

/* Bandwidth is compared in GB/s: higher is more, and the geometric mean is
   of GB/s. */
static void test_rate(void)
{
	struct run_folder runs[2];
	struct run_match m;
	size_t n;

	for (int r = 0; r < 2; r++) {
		rows[r][0] = row("bandwidth", "read_avx2", 12, 16384, 1.0, none, none, none);
		rows[r][0].gb_per_s = (struct optional_real){ r ? 128.0 : 64.0, 1 };
		rows[r][1] = row("bandwidth", "read_avx2", 12, 65536, 2.0, none, none, none);
		rows[r][1].gb_per_s = (struct optional_real){ 32.0, 1 };
		runs[r] = run_of(r, 2);
	}
	run_match_build(&m, runs, 2, "bandwidth");
	CHECK(run_match_rate(&m) == 1, "bandwidth rows give GB/s: compared in GB/s");
	CHECK(run_match_figure(run_match_row(&m, 0, 1), 1) == 128.0 &&
	      run_match_figure(run_match_row(&m, 0, 1), 0) == 1.0, "the figure: GB/s, or ns");
	CHECK(fabs(run_match_geomean(&m, 1, 1, &n) - sqrt(2.0)) < 1e-9 && n == 2,
	      "geometric mean of the GB/s ratios 2 and 1: 1.414");
	CHECK(run_match_geomean(&m, 1, 0, &n) == 1.0, "of the ns ratios: 1");
	run_match_free(&m);
}

/* Large runs in shuffled order: every key matched to its own row in both
   runs (the sorted matching, checked for what it finds, not its time). */
static void test_many(void)
{
	struct run_folder runs[2];
	struct run_match m;
	size_t n = MAX_ROWS, bad = 0;

	for (size_t i = 0; i < n; i++) {
		rows[0][i] = row("latency", "chase", i % 2 ? 21 : 12, 4096 + 64 * (i / 2), 1 + i,
				 none, none, none);
		rows[1][(i * 7919) % n] = rows[0][i];
		rows[1][(i * 7919) % n].ns = 2 * (1 + i);
	}
	runs[0] = run_of(0, n);
	runs[1] = run_of(1, n);
	run_match_build(&m, runs, 2, "latency");
	for (size_t k = 0; k < m.nkeys; k++) {
		const struct run_row *a = run_match_row(&m, k, 0), *b = run_match_row(&m, k, 1);

		bad += !a || !b || b->ns != 2 * a->ns || a->working_set_bytes != m.key[k].working_set_bytes ||
		       b->page_shift != m.key[k].page_shift ||
		       (k && m.key[k].page_shift == m.key[k - 1].page_shift &&
			m.key[k].working_set_bytes <= m.key[k - 1].working_set_bytes);
	}
	CHECK(m.nkeys == n && !bad, "%zu shuffled rows a run: every key both runs' own row, in "
	      "order (%zu keys, %zu wrong)", n, m.nkeys, bad);
	run_match_free(&m);
}

/* mlp rows of one level and page size differ by their chases: k = 1 and
   k = 2 at one working set are two rows, matched across runs by k. */
static void test_chases(void)
{
	struct run_folder runs[2];
	struct run_match m;

	for (unsigned k = 1; k <= 2; k++) {
		rows[0][k - 1] = row("mlp", "memory", 12, 128u << 20, 100.0 / k, none, none, none);
		rows[0][k - 1].chases = count(k);
		rows[1][2 - k] = row("mlp", "memory", 12, 128u << 20, 110.0 / k, none, none, none);
		rows[1][2 - k].chases = count(k);
	}
	runs[0] = run_of(0, 2);
	runs[1] = run_of(1, 2);
	run_match_build(&m, runs, 2, "mlp");
	CHECK(m.nkeys == 2 && m.key[0].chases.value == 1 && m.key[1].chases.value == 2,
	      "mlp: 1 and 2 chases are two rows, in order (%zu)", m.nkeys);
	CHECK(m.nkeys == 2 && run_match_row(&m, 1, 1)->ns == 55.0,
	      "mlp: B's 2-chase row matched by its chases, not by position");
	run_match_free(&m);
}

int main(void)
{
	test_identity();
	test_chases();
	test_stride();
	test_order();
	test_least();
	test_rate();
	test_many();
	return check_summary();
}
