/* The random-placement model (analysis/placement.c) on its own, and the
 * hierarchy read from curves that tests/unit/cachesim.h simulates: sharp
 * and smeared steps, LRU and random victims, 4 KiB and 2 MiB pages, 5-10%
 * noise, grids with and without midpoints, odd capacities, sweeps that
 * start at 1 or 2 KiB.
 */
#include <math.h>
#include <stdio.h>
#include "check.h"
#include "cachesim.h"
#include "analysis/edges.h"
#include "analysis/placement.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)

static void model_checks(void)
{
	struct cache_model lru = { 512 * KIB, 8, 0, 1.0, 0 }, rnd = { 512 * KIB, 8, 4096, 1.0, 0 };
	struct cache_model half = { 512 * KIB, 8, 4096, 0.5, 0 };
	struct cache_model reads = { 512 * KIB, 8, 0, 0.0, 1 };

	CHECK(placement_miss_fraction(&lru, 512 * KIB) == 0.0,
	      "contiguous LRU: a buffer of the capacity fits whole");
	CHECK(placement_miss_fraction(&lru, 576 * KIB) == 1.0,
	      "contiguous LRU 8-way: 9/8 of the capacity misses every load");
	CHECK(placement_miss_fraction(&rnd, 192 * KIB) > 0.0 &&
	      placement_miss_fraction(&rnd, 192 * KIB) < 0.05,
	      "random 4 KiB frames: a few sets already overflow at 3/8 of the capacity (%.4f)",
	      placement_miss_fraction(&rnd, 192 * KIB));
	CHECK(placement_miss_fraction(&rnd, 1536 * KIB) > 0.99,
	      "random frames: three times the capacity misses nearly every load");
	CHECK(placement_miss_fraction(&half, 768 * KIB) < placement_miss_fraction(&rnd, 768 * KIB),
	      "a mix of random victims keeps more lines than LRU");
	CHECK(placement_miss_fraction(&reads, 512 * KIB) == 0.0 &&
	      placement_miss_fraction(&reads, 1024 * KIB) > 0.49 &&
	      placement_miss_fraction(&reads, 1024 * KIB) < 0.51 &&
	      placement_miss_fraction(&reads, 2048 * KIB) > 0.74 &&
	      placement_miss_fraction(&reads, 2048 * KIB) < 0.76,
	      "random reads, contiguous: past the capacity C a working set S misses "
	      "1 - C/S (twice: %.3f, 4 times: %.3f)", placement_miss_fraction(&reads, 1024 * KIB),
	      placement_miss_fraction(&reads, 2048 * KIB));
	CHECK(placement_random_hit_rate(8, 8) == 1.0 && placement_random_hit_rate(9, 8) < 1.0 &&
	      placement_random_hit_rate(9, 8) > 0.5 && placement_random_hit_rate(64, 8) < 0.2,
	      "random victims: 9 lines in 8 ways mostly hit (%.3f), 64 rarely (%.3f)",
	      placement_random_hit_rate(9, 8), placement_random_hit_rate(64, 8));
	{
		uint64_t x[] = { 128 * KIB, 192 * KIB, 256 * KIB, 384 * KIB, 512 * KIB };
		double y[] = { 4, 4, 4, 4, 4 };
		struct placement_fit f;
		CHECK(placement_fit(x, y, 5, 4.0, 4.0, 4096, &f) == -1,
		      "no step (hi not above lo) is refused");
		CHECK(placement_fit(x, y, 2, 4.0, 15.0, 4096, &f) == -1,
		      "fewer than three points are refused");
	}
}

/* The grid: from `first` bytes up to `last`, powers of two, with the
   midpoints 3 * 2^(k-1) when asked, and `extra` points per octave more
   (eighth steps: 7) where refinement would put them, between lo and hi. */
static size_t grid(uint64_t *out, size_t max, uint64_t first, uint64_t last, int midpoints,
		   unsigned extra, uint64_t lo, uint64_t hi)
{
	size_t n = 0;

	for (uint64_t p = first; p <= last && n < max; p *= 2) {
		out[n++] = p;
		if (extra && p >= lo && p < hi) {
			for (unsigned k = 1; k <= extra && n < max; k++)
				out[n++] = p + p * k / (extra + 1);
		} else if (midpoints && p + p / 2 <= last && n < max) {
			out[n++] = p + p / 2;
		}
	}
	return n;
}

struct scenario {
	const char *what;
	struct sim_machine m;
	uint64_t first, last;
	int midpoints;
	unsigned extra;           /* refinement points per octave around L2 */
};

static void curve_of(struct curve *c, const struct scenario *s, unsigned page_shift)
{
	uint64_t x[EDGES_MAX_POINTS];
	size_t n = grid(x, EDGES_MAX_POINTS, s->first, s->last, s->midpoints, s->extra,
			s->m.level[1].capacity / 4, s->m.level[1].capacity * 3);
	struct sim_machine m = s->m;

	if (page_shift > 12)
		m.dtlb_entries = 0;   /* a 2 MiB page's TLB reaches past these sweeps */
	curve_init(c, page_shift);
	sim_new_buffer();
	for (size_t k = 0; k < n; k++)
		curve_add(c, x[k], sim_chase_ns(&m, x[k], 1ull << page_shift), 0.0);
}

static int near(uint64_t got, uint64_t want, double tol)
{
	return (double)got <= (double)want * (1.0 + tol) && (double)got >= (double)want / (1.0 + tol);
}

/* L1 and L2 named right (a smeared L2 within 15% and inside its own range,
   a sharp one within one sweep step), and no cache level between them. */
static void hierarchy_checks(const struct scenario *s)
{
	static struct curve c[2];
	struct hierarchy h;
	const struct level *l1 = 0, *l2 = 0;
	unsigned caches_below_l3 = 0;
	uint64_t l1_true = s->m.level[0].capacity, l2_true = s->m.level[1].capacity;

	curve_of(&c[0], s, 12);
	curve_of(&c[1], s, 21);
	hierarchy_find(c, 2, NULL, &h);
	if (getenv("SIM_DUMP")) {
		struct plateau p[EDGES_MAX_PLATEAUS];
		size_t np = curve_plateaus(&c[1], p, EDGES_MAX_PLATEAUS);
		printf("# %s\n#", s->what);
		for (size_t k = 0; k < c[1].n; k++)
			printf(" %llu:%.2f", (unsigned long long)(c[1].pt[k].bytes / KIB), c[1].pt[k].ns);
		printf("\n# plateaus:");
		for (size_t k = 0; k < np; k++)
			printf(" [%llu..%llu %.2f]", (unsigned long long)(c[1].pt[p[k].first].bytes / KIB),
			       (unsigned long long)(c[1].pt[p[k].last].bytes / KIB), p[k].ns);
		printf("\n");
	}
	for (size_t i = 0; i < h.nlevels; i++) {
		const struct level *l = &h.level[i];
		if (l->kind != LEVEL_CACHE && l->kind != LEVEL_EDGE)
			continue;
		if (l->size_bytes < (l2_true + s->m.level[2].capacity) / 3)
			caches_below_l3++;
		if (!l1)
			l1 = l;
		else if (!l2)
			l2 = l;
	}
	CHECK(l1 && near(l1->size_bytes, l1_true, 0.2), "%s: L1 %llu KiB (true %llu KiB)", s->what,
	      l1 ? (unsigned long long)(l1->size_bytes / KIB) : 0ull,
	      (unsigned long long)(l1_true / KIB));
	/* A smeared step gives its capacity to a range only: the name within
	   a fifth, and the range holding the truth, is what it can say. */
	CHECK(l2 && near(l2->size_bytes, l2_true, l2->smeared ? 0.2 : 0.125),
	      "%s: L2 %llu KiB, %s, range %llu .. %llu KiB (true %llu KiB)",
	      s->what, l2 ? (unsigned long long)(l2->size_bytes / KIB) : 0ull,
	      l2 ? level_method_name(l2->method) : "-",
	      l2 ? (unsigned long long)(l2->range_lo / KIB) : 0ull,
	      l2 ? (unsigned long long)(l2->range_hi / KIB) : 0ull,
	      (unsigned long long)(l2_true / KIB));
	if (l2 && s->m.frame_bytes)
		CHECK(l2->range_lo <= l2_true && l2->range_hi >= l2_true &&
		      (l2->smeared || !s->extra),
		      "%s: random frames: L2's range holds the truth%s", s->what,
		      s->extra ? "; with refined points the step reads as smeared" : "");
	if (l2 && !s->m.frame_bytes && !s->m.level[1].random_victim)
		CHECK(!l2->smeared, "%s: contiguous, LRU: L2 read as a sharp step", s->what);
	CHECK(caches_below_l3 == 2, "%s: no level between L1 and L2, none invented before L3 (%u)",
	      s->what, caches_below_l3);
	if (s->last >= 2 * s->m.level[2].capacity) {
		const struct level *l3 = 0;
		uint64_t l3_true = s->m.level[2].capacity;
		for (size_t i = 0; i < h.nlevels; i++)
			if ((h.level[i].kind == LEVEL_CACHE || h.level[i].kind == LEVEL_EDGE) &&
			    h.level[i].size_bytes > 2 * l2_true)
				l3 = &h.level[i];
		/* A sharp step's range starts at the last size that read as
		   fitting, which may pass the capacity by less than a set's
		   share (24 MiB against 24567 KiB): only a smeared range is
		   held to holding the truth. */
		CHECK(l3 && near(l3->size_bytes, l3_true, l3->smeared ? 0.2 : 0.125) &&
		      (!l3->smeared || (l3->range_lo <= l3_true && l3->range_hi >= l3_true)),
		      "%s: L3 %llu KiB, %s, range %llu .. %llu KiB (true %llu KiB)", s->what,
		      l3 ? (unsigned long long)(l3->size_bytes / KIB) : 0ull,
		      l3 ? level_method_name(l3->method) : "-",
		      l3 ? (unsigned long long)(l3->range_lo / KIB) : 0ull,
		      l3 ? (unsigned long long)(l3->range_hi / KIB) : 0ull,
		      (unsigned long long)(l3_true / KIB));
	}
}

#define ZEN3(frames, victim, noise) {                                         \
	{ { 32 * KIB, 8, 0, 1.3 }, { 512 * KIB, 8, victim, 4.0 },           \
	  { 16 * MIB, 16, victim, 15.0 } },                                 \
	90.0, 64, 2.2, frames, noise }

int main(void)
{
	const struct scenario scenarios[] = {
		{ "Zen 3-like, random 4 KiB frames, LRU, 5% noise", ZEN3(4096, 0, 0.05),
		  4 * KIB, 4 * MIB, 1, 0 },
		{ "Zen 3-like, random frames, random victims, 10% noise", ZEN3(4096, 1, 0.10),
		  4 * KIB, 4 * MIB, 1, 0 },
		{ "Zen 3-like, random frames, powers of two only", ZEN3(4096, 0, 0.05),
		  4 * KIB, 4 * MIB, 0, 0 },
		{ "Zen 3-like, random frames, from 1 KiB, eighth steps", ZEN3(4096, 0, 0.05),
		  1 * KIB, 4 * MIB, 1, 7 },
		{ "Zen 3-like, contiguous (bare metal), from 2 KiB", ZEN3(0, 0, 0.05),
		  2 * KIB, 4 * MIB, 1, 0 },
		{ "Zen 3-like, contiguous, eighth steps, 10% noise", ZEN3(0, 1, 0.10),
		  4 * KIB, 4 * MIB, 1, 7 },
		{ "odd L2 of 600 KiB, 12-way, random frames", {
		  { { 48 * KIB, 12, 0, 1.2 }, { 600 * KIB, 12, 0, 4.5 }, { 16 * MIB, 16, 0, 16.0 } },
		  95.0, 96, 2.0, 4096, 0.05 }, 4 * KIB, 4 * MIB, 1, 7 },
		{ "odd L2 of 600 KiB, contiguous, eighth steps", {
		  { { 48 * KIB, 12, 0, 1.2 }, { 600 * KIB, 12, 0, 4.5 }, { 16 * MIB, 16, 0, 16.0 } },
		  95.0, 96, 2.0, 0, 0.05 }, 4 * KIB, 4 * MIB, 1, 7 },
		{ "odd L3 of 24567 KiB, 12-way, contiguous, to 48 MiB", {
		  { { 48 * KIB, 12, 0, 1.1 }, { 1 * MIB, 16, 0, 3.9 }, { 24567 * KIB, 12, 0, 14.0 } },
		  95.0, 96, 2.0, 0, 0.05 }, 4 * KIB, 48 * MIB, 1, 0 },
		{ "Emerald Rapids-like, L2 2 MiB 16-way, random frames", {
		  { { 48 * KIB, 12, 0, 1.6 }, { 2 * MIB, 16, 0, 5.3 }, { 32 * MIB, 16, 1, 30.0 } },
		  110.0, 96, 2.5, 4096, 0.05 }, 4 * KIB, 12 * MIB, 1, 0 },
	};

	model_checks();
	for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
		hierarchy_checks(&scenarios[i]);
	return check_summary();
}
