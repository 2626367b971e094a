/* The mlp probe's pieces on synthetic figures: the plateau of loads in
 * flight and whether it is still rising, the bound named from the level's
 * bandwidth, the page walks in flight; and its cycle, whose k starts stand
 * a k-th apart and whose chases follow the cycle in both pointer forms. */

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/fmt.h"
#include "analysis/bandwidth_levels.h"
#include "analysis/mlp_read.h"
#include "probes/chase.h"
#include "probes/mlp_kernel.h"
#include "run/card.h"
#include "run/card_mlp.h"

/* A curve of ns per load for k = 1 .. n: loads in flight rise by one a
   chase up to `cap`, then stay. */
static void saturating(struct mlp_curve *c, double ns_one, unsigned n, double cap)
{
	*c = (struct mlp_curve){ .level = "L2", .page_shift = 12, .bytes = 1 << 19 };
	for (unsigned k = 1; k <= n; k++) {
		double in_flight = k < cap ? k : cap;

		c->k[c->n] = k;
		c->ns[c->n++] = ns_one / in_flight;
	}
}

static void test_plateau(void)
{
	struct mlp_curve c;
	struct mlp_plateau p;

	saturating(&c, 12.0, 32, 6.0);
	mlp_plateau_find(&c, &p);
	CHECK(p.known, "a curve from k = 1 has a plateau");
	CHECK(p.in_flight > 5.99 && p.in_flight < 6.01, "plateau 6 in flight (%.3f)", p.in_flight);
	CHECK(p.k == 6, "reached at 6 chases, 90%% of it first at 6 (%u)", p.k);
	CHECK(!p.rising, "flat after 6: not rising");
	CHECK(p.k_last == 32 && p.ns_one == 12.0, "measured to 32, 12 ns at one chase");

	saturating(&c, 100.0, 32, 64.0);
	mlp_plateau_find(&c, &p);
	CHECK(p.rising, "still rising at 32 chases is said");
	CHECK(mlp_bound_of(&p, 20.0) == MLP_BOUND_NOT_REACHED, "a rising curve has no bound");

	saturating(&c, 12.0, 32, 6.0);
	c.ns[0] = 300.0;   /* one chase read memory, the rest L2 */
	mlp_plateau_find(&c, &p);
	CHECK(p.over_k == 2 && mlp_bound_of(&p, 96.0) == MLP_BOUND_INCONSISTENT,
	      "more in flight than chases at 2: inconsistent, no bound (%u)", p.over_k);
	saturating(&c, 12.0, 32, 6.0);
	mlp_plateau_find(&c, &p);
	CHECK(!p.over_k, "a saturating curve never exceeds its chases");

	c.k[0] = 2;
	mlp_plateau_find(&c, &p);
	CHECK(!p.known, "no point at one chase: no plateau");
	CHECK(mlp_in_flight(&c, 3) == 0, "no point at one chase: no figure");
}

/* The L2: one 64-byte line every 2 cycles at 3 GHz is 96 GB/s;
   at 12 cycles (4 ns) a load that allows 6 in flight. */
static void test_bound(void)
{
	struct mlp_curve c;
	struct mlp_plateau p;
	double allowed = mlp_bandwidth_in_flight(96.0, 4.0);

	CHECK(allowed > 5.99 && allowed < 6.01, "96 GB/s x 4 ns is 6 lines in flight (%.3f)",
	      allowed);
	saturating(&c, 4.0, 32, 6.0);
	mlp_plateau_find(&c, &p);
	CHECK(mlp_bound_of(&p, 96.0) == MLP_BOUND_BANDWIDTH, "6 of 6 allowed: bandwidth");
	CHECK(mlp_bound_of(&p, 200.0) == MLP_BOUND_OUTSTANDING,
	      "6 of 12.5 allowed: the outstanding loads, not bandwidth");
	CHECK(mlp_bound_of(&p, 0) == MLP_BOUND_UNTOLD, "no bandwidth figure: untold");
	CHECK(mlp_bound_of(&p, 64.0) == MLP_BOUND_ABOVE,
	      "6 in flight where 64 GB/s x 4 ns allows 4: above the bandwidth, not told");
	CHECK(!strcmp(mlp_bound_name(MLP_BOUND_BANDWIDTH), "bandwidth") &&
	      !strcmp(mlp_bound_name(MLP_BOUND_UNTOLD), "untold"), "bound words");
}

/* The level's bandwidth: the levels' read variant only, the point nearest
   the working set within 2x, this page size before any other. */
static void test_level_bandwidth(void)
{
	static struct bandwidth_curves bw;
	const double bytes[] = { 16384, 262144, 1 << 20, 128u << 20 };

	mp_strlcpy(bw.levels_from, "read_avx2", sizeof bw.levels_from);
	bw.nseries = 3;
	mp_strlcpy(bw.series[0].variant, "write_avx2", sizeof bw.series[0].variant);
	mp_strlcpy(bw.series[1].variant, "read_avx2", sizeof bw.series[1].variant);
	mp_strlcpy(bw.series[2].variant, "read_avx2", sizeof bw.series[2].variant);
	bw.series[1].page_shift = 21;
	bw.series[2].page_shift = 12;
	for (unsigned s = 0; s < 3; s++) {
		bw.series[s].n = 4;
		for (unsigned i = 0; i < 4; i++) {
			bw.series[s].bytes[i] = bytes[i];
			bw.series[s].gb_per_s[i] = 10.0 * (s + 1) + i;
		}
	}
	CHECK(mlp_level_bandwidth(&bw, 12, 1 << 19) == 31.0,
	      "512 KiB at 4 KiB pages: the 4 KiB read series' 256 KiB point (2x), not write's");
	CHECK(mlp_level_bandwidth(&bw, 21, 3u << 20) == 0,
	      "3 MiB: no point within 2x, none");
	CHECK(mlp_level_bandwidth(&bw, 30, 128u << 20) == 23.0,
	      "1 GiB pages, not run there: the nearest read point of another page size");
	CHECK(mlp_level_bandwidth(NULL, 12, 1 << 19) == 0, "no bandwidth run: 0");
}

static void test_walks(void)
{
	struct mlp_curve small, large;
	struct mlp_plateau ps, pl;
	struct mlp_walks w;

	/* 4 KiB: 40 ns a load, of which 30 the walk, 4 in flight; 2 MiB:
	   10 ns, 12 in flight. */
	saturating(&small, 40.0, 32, 4.0);
	saturating(&large, 10.0, 32, 12.0);
	mlp_plateau_find(&small, &ps);
	mlp_plateau_find(&large, &pl);
	mlp_walks_find(&ps, &pl, &w);
	CHECK(w.known && w.limited, "the 4 KiB plateau below the 2 MiB one: walks limit it");
	CHECK(w.at_once > 2.99 && w.at_once < 3.01, "4 in flight x 75%% walk: 3 walks (%.3f)",
	      w.at_once);
	CHECK(w.at_most > 3.99 && w.at_most < 4.01, "at most the 4 loads in flight");

	saturating(&small, 10.2, 32, 12.0);
	mlp_plateau_find(&small, &ps);
	mlp_walks_find(&ps, &pl, &w);
	CHECK(!w.known, "a 2%% difference at one chase is no walk seen");
}

static void test_rows_and_card(void)
{
	static struct mlp_curves m;
	struct card_mlp card;
	char line[2][96];
	unsigned n;
	const unsigned ks[] = { 4, 1, 2, 3, 8, 6, 5, 7 };

	for (unsigned i = 0; i < 8; i++) {
		struct result_row row = { .probe = "mlp", .variant = "memory", .page_shift = 12,
					  .working_set_bytes = 1 << 28, .ns = 100.0 / (ks[i] < 5 ? ks[i] : 5),
					  .chases = { 1, ks[i] } };
		CHECK(mlp_curves_add_row(&m, &row) == 0, "an mlp row is taken");
	}
	struct result_row other = { .probe = "latency", .variant = "chase", .ns = 1 };
	CHECK(mlp_curves_add_row(&m, &other) == -1, "a latency row is not");
	CHECK(m.n == 1 && m.curve[0].n == 8, "one curve of 8 points");
	for (unsigned i = 0; i + 1 < m.curve[0].n; i++)
		CHECK(m.curve[0].k[i] < m.curve[0].k[i + 1], "k kept ascending at %u", i);
	card_mlp_build(&card, &m, NULL);
	n = card_mlp_lines(&card, line, 80);
	CHECK(n == 1 && strstr(line[0], "memory 5.0") && strlen(line[0]) <= 80,
	      "the card's line: %s", line[0]);
	card_mlp_mark_floor(&card, 256u << 20);
	n = card_mlp_lines(&card, line, 80);
	CHECK(n == 1 && strstr(line[0], "memory 5.0") && !card.level[0].cached,
	      "memory at the 256 MiB floor stays memory: %s", line[0]);
	card_mlp_mark_floor(&card, 1u << 30);
	n = card_mlp_lines(&card, line, 80);
	CHECK(n == 1 && strstr(line[0], " 256M 5.0") && !strstr(line[0], "memory") &&
	      card.level[0].cached, "256 MiB under a 1 GiB floor: named by its size, not "
	      "memory: %s", line[0]);
}

/* Through the card: mlp rows and page-walk rows into card_rows, the card
   built with no analysis, its text and figures carry the lines. */
static void test_card(void)
{
	static struct card_rows rows;
	static struct card card;
	static char text[CARD_TEXT_MAX];
	struct card_figure fig[CARD_MAX_FIGURES];
	size_t nfig;
	int level_fig = 0, walk_fig = 0;

	for (unsigned k = 1; k <= 8; k++) {
		struct result_row row = { .probe = "mlp", .variant = "L2", .page_shift = 12,
					  .working_set_bytes = 1 << 19, .ns = 4.0 / (k < 6 ? k : 6),
					  .chases = { 1, k } };
		card_rows_add(&rows, &row);
		row.variant = "page_walks";
		row.working_set_bytes = 64u << 20;
		row.ns = 40.0 / (k < 4 ? k : 4);
		card_rows_add(&rows, &row);
		row.page_shift = 21;
		row.ns = 10.0 / k;
		card_rows_add(&rows, &row);
	}
	card_build(&card, NULL, &rows, NULL);
	card_format(&card, text, sizeof text);
	CHECK(strstr(text, "mlp      in flight L2 6.0 (4K)") != NULL,
	      "the card's in-flight line");
	/* The same level at 2 MiB pages, as a run writes it after the 4 KiB
	   rows: the card takes the largest pages' figure, as the memory
	   line does. */
	for (unsigned k = 1; k <= 8; k++) {
		struct result_row row = { .probe = "mlp", .variant = "L2", .page_shift = 21,
					  .working_set_bytes = 1 << 19, .ns = 4.0 / (k < 5 ? k : 5),
					  .chases = { 1, k } };
		card_rows_add(&rows, &row);
	}
	card_build(&card, NULL, &rows, NULL);
	card_format(&card, text, sizeof text);
	CHECK(strstr(text, "mlp      in flight L2 5.0 (2M)") != NULL,
	      "the card's in-flight line at the largest pages");
	CHECK(strstr(text, "page walks in flight about 3.0 (at most 4.0), the 4 KiB limit") != NULL,
	      "the card's page-walk line");
	nfig = card_figures(&card, fig, CARD_MAX_FIGURES);
	for (size_t i = 0; i < nfig; i++) {
		level_fig |= !strcmp(fig[i].name, "L2 loads in flight") && fig[i].value > 4.99 &&
			     fig[i].value < 5.01;
		walk_fig |= !strcmp(fig[i].name, "page walks in flight") && fig[i].value > 2.99;
	}
	CHECK(level_fig && walk_fig, "compare and fleet get both figures");
}

/* Independent of the builder: k chases from mlp_start, followed together,
   visit every slot exactly once in slots / k steps each when k divides
   slots. */
static void test_kernel(unsigned k, size_t slots, size_t layout)
{
	char *base = aligned_alloc(4096, slots * layout);
	unsigned char *seen = calloc(slots, 1);
	void *ptr[MLP_CHASES_MAX];
	void *expect[MLP_CHASES_MAX];
	size_t steps = slots / k, visited = 0, astray = 0;
	char why[160];

	mlp_build(base, slots, layout, 7);
	CHECK(chase_check(base, slots, layout, why, sizeof why) == 0,
	      "%zu slots of %zu bytes: one cycle (%s)", slots, layout, why);
	for (unsigned j = 0; j < k; j++)
		ptr[j] = mlp_start(base, slots, layout, slots / 3, j, k);
	/* One step at a time through mlp_follow is MLP_UNROLL steps: follow
	   each in the kernel, then check the positions reached cover the
	   cycle's stretches without overlap. */
	for (size_t s = 0; s < steps; s += MLP_UNROLL) {
		for (unsigned j = 0; j < k; j++) {
			void *p = ptr[j];

			for (unsigned u = 0; u < MLP_UNROLL; u++) {
				size_t i = (size_t)((char *)p - base) / layout;

				if (i < slots && !seen[i]) {
					seen[i] = 1;
					visited++;
				}
				p = *(void **)p;
			}
			expect[j] = p;
		}
		mlp_follow(ptr, k, MLP_UNROLL);
		for (unsigned j = 0; j < k; j++)
			astray += ptr[j] != expect[j];
	}
	CHECK(!astray, "%u chases: the kernel stands where the walk does", k);
	CHECK(visited == slots, "%u chases (%s) over %zu slots visit each once (%zu)", k,
	      mlp_in_registers(k) ? "registers" : "memory", slots, visited);
	free(seen);
	free(base);
}

int main(void)
{
	test_plateau();
	test_bound();
	test_walks();
	test_level_bandwidth();
	test_rows_and_card();
	test_card();
	test_kernel(1, 256, 64);
	test_kernel(4, 1024, 64);
	test_kernel(12, 12 * 64, 64);
	test_kernel(16, 16 * 64, 64);
	test_kernel(32, 32 * 32, 4096);
	return check_summary();
}
