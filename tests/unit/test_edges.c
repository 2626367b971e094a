/* The plateau/edge detector and its attribution on synthetic curves with
 * known edges, with and without noise.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "probes/analysis.h"
#include "probes/csvread.h"
#include "probes/edges.h"
#include "probes/json.h"
#include "probes/platform.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)
#define GHZ 2.95

/* The sweep the latency probe uses: powers of two with midpoints. */
static const uint64_t sweep_kib[] = {
	4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
	1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768,
	49152, 65536, 98304, 131072, 262144, 524288,
};
#define NSWEEP (sizeof sweep_kib / sizeof sweep_kib[0])

/* A Zen 3-like machine: L1 32 KiB 1.36 ns, L2 512 KiB 4.1 ns, L3 32 MiB
   15 ns, memory 90 ns; with 4 KiB pages an L1 DTLB of 64 entries (256 KiB)
   whose misses add 2.4 ns and an L2 TLB of 2048 (8 MiB) whose misses add a
   10 ns walk; with 2 MiB pages the 64-entry L1 DTLB reaches 128 MiB. */
static double model_ns(uint64_t bytes, unsigned page_shift)
{
	double ns;
	uint64_t pages = bytes >> page_shift;

	if (bytes <= 32 * KIB)
		ns = 1.36;
	else if (bytes <= 512 * KIB)
		ns = 4.1;
	else if (bytes <= 32 * MIB)
		ns = 15.0;
	else
		ns = 90.0;
	if (pages > 64)
		ns += 2.4;
	if (pages > 2048)
		ns += 10.0;
	return ns;
}

static uint64_t rng = 0x243f6a8885a308d3ull;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* noise: each point gains up to this fraction (noise only adds time);
   spikes: that many single points read three times slower. */
static void make_curve(struct curve *c, unsigned page_shift, double noise, int spikes)
{
	curve_init(c, page_shift);
	for (size_t i = 0; i < NSWEEP; i++) {
		uint64_t b = sweep_kib[i] * KIB;
		double ns = model_ns(b, page_shift) * (1.0 + noise * uniform());
		curve_add(c, b, ns, ns * GHZ);
	}
	/* Isolated spikes: two adjacent ones at a plateau's end read exactly
	   like an edge one point earlier, which no detector can tell apart. */
	for (int s = 0, placed = -2; s < spikes; s++) {
		int at = (int)(uniform() * (double)c->n);
		if (at == placed + 1 || at == placed - 1 || at == placed)
			at = (at + 3) % (int)c->n;
		c->pt[at].ns *= 3.0;
		c->pt[at].cycles *= 3.0;
		placed = at;
	}
}

static const struct level *find(const struct hierarchy *h, enum level_kind kind,
				uint64_t size, unsigned page_shift)
{
	for (size_t i = 0; i < h->nlevels; i++)
		if (h->level[i].kind == kind && h->level[i].size_bytes == size &&
		    (kind != LEVEL_TLB || h->level[i].page_shift == page_shift))
			return &h->level[i];
	return 0;
}

static size_t count(const struct hierarchy *h, enum level_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < h->nlevels; i++)
		n += h->level[i].kind == kind;
	return n;
}

static int near(double a, double b, double frac)
{
	return a > b * (1.0 - frac) && a < b * (1.0 + frac);
}

static void test_curve_basics(void)
{
	struct curve c;
	double ns[EDGES_MAX_POINTS], cy[EDGES_MAX_POINTS];
	struct plateau p[8];

	curve_init(&c, PAGE_SHIFT_4K);
	CHECK(curve_add(&c, 8192, 2.0, 6.0) == 0, "add");
	CHECK(curve_add(&c, 4096, 1.0, 3.0) == 0, "add out of order");
	CHECK(curve_add(&c, 4096, 1.5, 4.5) == 0 && c.pt[0].ns == 1.0,
	      "a repeated size keeps the lower reading");
	CHECK(curve_add(&c, 4096, 0.9, 2.7) == 0 && c.pt[0].ns == 0.9, "... either way round");
	CHECK(c.n == 2 && c.pt[0].bytes == 4096 && c.pt[1].bytes == 8192, "sorted, no duplicate");
	CHECK(curve_add(&c, 0, 1.0, 1.0) == -1, "zero size refused");
	CHECK(curve_add(&c, 16384, -1.0, 1.0) == -1, "negative latency refused");
	CHECK(curve_add(&c, 16384, 0.0 / 0.0, 1.0) == -1, "NaN refused");
	CHECK(curve_add(&c, 16384, 1.0 / 0.0, 1.0) == -1, "infinity refused");
	CHECK(curve_add(&c, 16384, 3.0, 0.0 / 0.0) == 0 && c.pt[2].cycles == 0.0,
	      "unknown cycles kept as 0");

	/* 1 1 5 1 ... : the 5 is above a later 1, so its envelope is 1. */
	curve_init(&c, PAGE_SHIFT_4K);
	curve_add(&c, 1000, 1.0, 1.0);
	curve_add(&c, 2000, 1.0, 1.0);
	curve_add(&c, 3000, 5.0, 5.0);
	curve_add(&c, 4000, 1.1, 1.1);
	curve_add(&c, 5000, 3.0, 3.0);
	curve_add(&c, 6000, 3.1, 3.1);
	curve_envelope(&c, ns, cy);
	CHECK(ns[2] == 1.1 && ns[3] == 1.1 && ns[4] == 3.0 && ns[5] == 3.1,
	      "envelope: each point at most any later point");
	CHECK(curve_plateaus(&c, p, 8) == 2, "spike made no level: two plateaus");
	CHECK(p[0].first == 0 && p[0].last == 1 && p[1].first == 4 && p[1].last == 5,
	      "plateau bounds 0-1, 4-5: the unsteady point and the lone one stand apart");

	for (int i = 0; i < EDGES_MAX_POINTS + 5; i++)
		curve_add(&c, 10000 + (uint64_t)i, 1.0, 1.0);
	CHECK(c.n == EDGES_MAX_POINTS && c.truncated, "overflow flagged, not written past");
}

static void test_plateau_rules(void)
{
	struct curve c;
	struct plateau p[8];

	/* 1 1 1 | 2.5 (one point) | 4 4 4: the lone point is a transition. */
	curve_init(&c, PAGE_SHIFT_4K);
	const double v[] = { 1, 1, 1, 2.5, 4, 4, 4 };
	for (int i = 0; i < 7; i++)
		curve_add(&c, (uint64_t)(i + 1) * 4096, v[i], v[i]);
	CHECK(curve_plateaus(&c, p, 8) == 2, "one transition point makes no level");
	CHECK(p[0].last == 2 && p[1].first == 4, "transition left between the plateaus");

	/* A slow drift, 10 % a step: no edge anywhere. */
	curve_init(&c, PAGE_SHIFT_4K);
	double x = 10.0;
	for (int i = 0; i < 8; i++, x *= 1.10)
		curve_add(&c, (uint64_t)(i + 1) * 4096, x, x);
	CHECK(curve_plateaus(&c, p, 8) == 1, "a 10 %% per step drift is one plateau");

	/* Two points well apart but a 20 % rise: below the rise factor. */
	curve_init(&c, PAGE_SHIFT_4K);
	const double w[] = { 10, 10, 10, 12, 12, 12 };
	for (int i = 0; i < 6; i++)
		curve_add(&c, (uint64_t)(i + 1) * 4096, w[i], w[i]);
	CHECK(curve_plateaus(&c, p, 8) == 1, "a 20 %% step is not an edge");
	CHECK(p[0].ns == 11.0, "merged level is the median (%.2f)", p[0].ns);
}

static void check_zen3_levels(const struct hierarchy *h, const char *what)
{
	const struct level *l;

	CHECK(h->attributed, "%s: two page sizes, edges attributed", what);
	CHECK(count(h, LEVEL_CACHE) == 3, "%s: three cache edges (%zu)", what,
	      count(h, LEVEL_CACHE));
	l = find(h, LEVEL_CACHE, 32 * KIB, 0);
	CHECK(l && strcmp(l->name, "L1") == 0 && l->next_bytes == 48 * KIB &&
	      near(l->ns, 1.36, 0.1), "%s: L1 at 32 KiB, ~1.36 ns", what);
	l = find(h, LEVEL_CACHE, 512 * KIB, 0);
	CHECK(l && strcmp(l->name, "L2") == 0 && near(l->ns, 4.1, 0.1) &&
	      near(l->increase_ns, 4.1 - 1.36, 0.2), "%s: L2 at 512 KiB, ~4.1 ns, +2.7", what);
	CHECK(l && l->page_shift == PAGE_SHIFT_2M, "%s: L2 latency from the 2 MiB curve", what);
	l = find(h, LEVEL_CACHE, 32 * MIB, 0);
	CHECK(l && strcmp(l->name, "L3") == 0 && near(l->ns, 15.0, 0.1),
	      "%s: L3 at 32 MiB, ~15 ns", what);
	l = find(h, LEVEL_TLB, 256 * KIB, PAGE_SHIFT_4K);
	CHECK(l && l->entries == 64 && near(l->increase_ns, 2.4, 0.35),
	      "%s: 4 KiB TLB reach 256 KiB = 64 entries, +2.4 ns", what);
	l = find(h, LEVEL_TLB, 8 * MIB, PAGE_SHIFT_4K);
	CHECK(l && l->entries == 2048, "%s: 4 KiB TLB reach 8 MiB = 2048 entries", what);
	CHECK(count(h, LEVEL_TLB) == 2, "%s: exactly two TLB edges (%zu)", what,
	      count(h, LEVEL_TLB));
	l = find(h, LEVEL_TOP, 48 * MIB, 0);
	CHECK(l && near(l->ns, 90.0, 0.1), "%s: memory from 48 MiB, ~90 ns", what);
	CHECK(count(h, LEVEL_EDGE) == 0, "%s: nothing left unattributed", what);
}

static void test_zen3_clean(void)
{
	static struct curve c[2];
	struct hierarchy h;

	make_curve(&c[0], PAGE_SHIFT_4K, 0.0, 0);
	make_curve(&c[1], PAGE_SHIFT_2M, 0.0, 0);
	hierarchy_find(c, 2, &h);
	check_zen3_levels(&h, "clean");
	CHECK(h.level[0].cycles > 3.9 && h.level[0].cycles < 4.1, "L1 in cycles ~4 (%.2f)",
	      h.level[0].cycles);

	/* The order of the curves does not matter. */
	struct curve swapped[2] = { c[1], c[0] };
	hierarchy_find(swapped, 2, &h);
	check_zen3_levels(&h, "2 MiB curve first");
}

static void test_zen3_noisy(void)
{
	static struct curve c[2];
	struct hierarchy h;
	int all_ok = 1;

	for (int seed = 0; seed < 200; seed++) {
		make_curve(&c[0], PAGE_SHIFT_4K, 0.08, 0);
		make_curve(&c[1], PAGE_SHIFT_2M, 0.08, 0);
		hierarchy_find(c, 2, &h);
		if (count(&h, LEVEL_CACHE) != 3 || count(&h, LEVEL_TLB) != 2 ||
		    !find(&h, LEVEL_CACHE, 32 * KIB, 0) || !find(&h, LEVEL_CACHE, 512 * KIB, 0) ||
		    !find(&h, LEVEL_TLB, 256 * KIB, PAGE_SHIFT_4K))
			all_ok = 0;
	}
	CHECK(all_ok, "200 curve pairs with up to 8 %% noise: the same levels every time");

	all_ok = 1;
	int worst = 0;
	for (int seed = 0; seed < 200; seed++) {
		make_curve(&c[0], PAGE_SHIFT_4K, 0.05, 2);
		make_curve(&c[1], PAGE_SHIFT_2M, 0.05, 2);
		hierarchy_find(c, 2, &h);
		/* A spike on the last point of a plateau can shorten it by one
		   point; it must never add a level. */
		if (count(&h, LEVEL_CACHE) > 3 || count(&h, LEVEL_TLB) > 2)
			all_ok = 0;
		if (!find(&h, LEVEL_CACHE, 32 * KIB, 0) && !find(&h, LEVEL_CACHE, 24 * KIB, 0))
			worst = 1;
	}
	CHECK(all_ok, "two isolated 3x spikes per curve never invent a level");
	CHECK(!worst, "... and L1 stays within one sweep point of 32 KiB");
}

/* With 4 KiB pages the curve leaves L2 latency at 256 KiB for good (the TLB
   step lands straight on L3-like latencies); with 2 MiB pages the L2 edge
   stands at 512 KiB. The 2 MiB-only edge would need a TLB of a quarter
   entry: it is a cache edge the 4 KiB curve did not separate. */
static void test_hidden_cache_edge(void)
{
	static struct curve c[2];
	struct hierarchy h;
	const struct level *l;

	make_curve(&c[0], PAGE_SHIFT_4K, 0.0, 0);
	make_curve(&c[1], PAGE_SHIFT_2M, 0.0, 0);
	for (size_t i = 0; i < c[0].n; i++)
		if (c[0].pt[i].bytes == 384 * KIB || c[0].pt[i].bytes == 512 * KIB)
			c[0].pt[i].ns = 17.4;
	hierarchy_find(c, 2, &h);
	l = find(&h, LEVEL_CACHE, 512 * KIB, 0);
	CHECK(l && strcmp(l->name, "L2") == 0, "L2 found from the 2 MiB curve alone");
	l = find(&h, LEVEL_TLB, 256 * KIB, PAGE_SHIFT_4K);
	CHECK(l && l->entries == 64, "the 4 KiB-only edge at 256 KiB is a TLB edge");
}

/* A TLB step running into a cache step, the points between them lone: one
   edge, placed where the curve crosses the levels' geometric mean, and no
   level made of the lone points. */
static void test_spread_edge(void)
{
	static struct curve c[2];
	struct hierarchy h;
	const struct level *l;

	make_curve(&c[0], PAGE_SHIFT_4K, 0.0, 0);
	make_curve(&c[1], PAGE_SHIFT_2M, 0.0, 0);
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < c[k].n; i++) {
			if (c[k].pt[i].bytes == 384 * KIB)
				c[k].pt[i].ns = 6.4;
			if (c[k].pt[i].bytes == 512 * KIB)
				c[k].pt[i].ns = 9.0;
			if (c[k].pt[i].bytes > 512 * KIB && c[k].pt[i].bytes <= 32 * MIB)
				c[k].pt[i].ns = 17.4;
		}
	hierarchy_find(c, 2, &h);
	l = find(&h, LEVEL_CACHE, 384 * KIB, 0);
	CHECK(l && strcmp(l->name, "L2") == 0 && l->next_bytes == 512 * KIB,
	      "L2 edge between 384 KiB (6.4, below the mean 8.4) and 512 KiB (9.0)");
	CHECK(count(&h, LEVEL_TLB) == 0,
	      "no TLB level made of the lone transition points");
}

static void test_single_curve(void)
{
	static struct curve c;
	struct hierarchy h;

	make_curve(&c, PAGE_SHIFT_4K, 0.0, 0);
	hierarchy_find(&c, 1, &h);
	CHECK(!h.attributed, "one page size: not attributed");
	CHECK(count(&h, LEVEL_CACHE) == 0 && count(&h, LEVEL_TLB) == 0,
	      "... no edge called cache or TLB");
	CHECK(count(&h, LEVEL_EDGE) == 5, "... five edges reported as such (%zu)",
	      count(&h, LEVEL_EDGE));
	CHECK(find(&h, LEVEL_EDGE, 256 * KIB, 0) != 0, "... among them 256 KiB");
}

static void test_short_and_flat(void)
{
	static struct curve c[2];
	struct hierarchy h;

	/* A quick sweep 4-24 KiB: one plateau, no edge. */
	curve_init(&c[0], PAGE_SHIFT_4K);
	curve_init(&c[1], PAGE_SHIFT_2M);
	for (uint64_t k = 4; k <= 24; k += 4) {
		curve_add(&c[0], k * KIB, 1.36, 4.0);
		curve_add(&c[1], k * KIB, 1.37, 4.0);
	}
	hierarchy_find(c, 2, &h);
	CHECK(h.nlevels == 1 && h.level[0].kind == LEVEL_TOP && h.level[0].points == 6,
	      "flat sweep: one top level of six points");

	curve_init(&c[0], PAGE_SHIFT_4K);
	hierarchy_find(c, 1, &h);
	CHECK(h.nlevels == 0, "empty curve: nothing");
	curve_add(&c[0], 4096, 1.0, 3.0);
	hierarchy_find(c, 1, &h);
	CHECK(h.nlevels == 0, "one point: not a plateau");
}

/* The 2 MiB curve stops at 4 MiB (max_size differs): the 32 MiB edge and the
   8 MiB TLB edge of the 4 KiB curve cannot be checked against it. */
static void test_unequal_spans(void)
{
	static struct curve c[2];
	struct hierarchy h;

	make_curve(&c[0], PAGE_SHIFT_4K, 0.0, 0);
	make_curve(&c[1], PAGE_SHIFT_2M, 0.0, 0);
	while (c[1].n && c[1].pt[c[1].n - 1].bytes > 4 * MIB)
		c[1].n--;
	hierarchy_find(c, 2, &h);
	CHECK(find(&h, LEVEL_CACHE, 512 * KIB, 0) && find(&h, LEVEL_TLB, 256 * KIB, PAGE_SHIFT_4K),
	      "the shared span is still attributed");
	CHECK(find(&h, LEVEL_EDGE, 8 * MIB, 0) && find(&h, LEVEL_EDGE, 32 * MIB, 0),
	      "edges beyond the 2 MiB sweep stay unattributed");
}

/* The 2 MiB curve turns to disturbed readings past 256 KiB (a busy machine
   in a quick run): it has not judged the 4 KiB curve's L2 edge, which must
   stay unattributed rather than become a TLB edge. */
static void test_curve_without_verdict(void)
{
	static struct curve c[2];
	struct hierarchy h;
	const struct level *l;

	make_curve(&c[0], PAGE_SHIFT_4K, 0.0, 0);
	make_curve(&c[1], PAGE_SHIFT_2M, 0.0, 0);
	c[0].n = c[1].n = 21;                 /* up to 4 MiB, as profile=quick */
	for (size_t i = 0; i < c[1].n; i++)
		if (c[1].pt[i].bytes > 256 * KIB)
			c[1].pt[i].ns = (i & 1) ? 300.0 : 60.0 + 20.0 * (double)i;
	c[1].pt[c[1].n - 1].ns = 15.0;
	hierarchy_find(c, 2, &h);
	CHECK(count(&h, LEVEL_TLB) == 0,
	      "no TLB edge claimed where the 2 MiB curve said nothing");
	l = find(&h, LEVEL_EDGE, 512 * KIB, 0);
	CHECK(l != 0, "the 512 KiB edge reported unattributed");
	CHECK(find(&h, LEVEL_CACHE, 32 * KIB, 0) != 0, "L1 still a cache edge");
}

/* The VMs' L3 range: 4-8 MiB read either ~18 or ~120 ns from run to run. */
static void test_unstable_l3(void)
{
	static struct curve c[2];
	struct hierarchy h;
	int ok = 1;

	for (int seed = 0; seed < 100; seed++) {
		make_curve(&c[0], PAGE_SHIFT_4K, 0.03, 0);
		make_curve(&c[1], PAGE_SHIFT_2M, 0.03, 0);
		for (int k = 0; k < 2; k++)
			for (size_t i = 0; i < c[k].n; i++)
				if (c[k].pt[i].bytes >= 2 * MIB && c[k].pt[i].bytes <= 32 * MIB &&
				    uniform() < 0.5)
					c[k].pt[i].ns = 100.0 + 50.0 * uniform();
		hierarchy_find(c, 2, &h);
		if (count(&h, LEVEL_CACHE) > 3 || !find(&h, LEVEL_CACHE, 32 * KIB, 0) ||
		    !find(&h, LEVEL_CACHE, 512 * KIB, 0))
			ok = 0;
	}
	CHECK(ok, "unstable L3 readings: L1 and L2 found, at most one level above");
}

/* ---- Real curves: tests/data, recorded with the Linux build on this
   project's Zen 3 VMs (L1d 32 KiB, L2 512 KiB); see tests/data/README.md. */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text;

	if (!f)
		return 0;
	text = malloc(1 << 20);
	*len = fread(text, 1, (1 << 20) - 1, f);
	text[*len] = 0;
	fclose(f);
	return text;
}

static void take(const struct result_row *row, void *ctx)
{
	analysis_add_row(ctx, row);
}

static const struct level *named(const struct analysis *a, const char *name,
				 const struct level_check **chk)
{
	for (size_t i = 0; i < a->h.nlevels; i++)
		if (!strcmp(a->h.level[i].name, name)) {
			*chk = &a->check[i];
			return &a->h.level[i];
		}
	return 0;
}

struct text {
	char buf[16384];
	size_t len;
};

static void to_text(void *ctx, const char *s)
{
	struct text *t = ctx;
	size_t n = strlen(s);

	if (t->len + n < sizeof t->buf) {
		memcpy(t->buf + t->len, s, n + 1);
		t->len += n;
	}
}

static void test_recorded(const char *csv)
{
	static struct analysis a;
	static struct cache_claims claims;
	static struct text report;
	static char json_buf[32768];
	const struct level_check *chk = 0;
	const struct level *l;
	struct csv_summary sum;
	struct json j;
	size_t len, jlen;
	char *text = read_all(csv, &len), *cpuid = read_all("tests/data/zen3-vm-cpuid.json", &jlen);

	CHECK(text && cpuid, "%s and the recorded CPUID registers are readable", csv);
	if (!text || !cpuid)
		return;
	analysis_init(&a);
	CHECK(results_csv_read(text, len, take, &a, &sum) == 0 && sum.skipped == 0,
	      "%s: every row reads", csv);
	CHECK(a.ncurves == 2 && a.curve[0].page_shift == PAGE_SHIFT_4K &&
	      a.curve[1].page_shift == PAGE_SHIFT_2M && a.curve[0].n == 29 && a.curve[1].n == 29,
	      "%s: two curves of 29 sizes, 4 KiB first", csv);
	CHECK(analysis_claims_from_json(cpuid, jlen, &claims) == 0 && claims.ncaches == 4,
	      "recorded registers decode to four caches");
	analysis_set_claims(&a, &claims, "tests/data/zen3-vm-cpuid.json");
	analysis_compute(&a);

	l = named(&a, "L1", &chk);
	CHECK(l && l->kind == LEVEL_CACHE && l->size_bytes == 32 * 1024 &&
	      chk->verdict == VERDICT_AGREES, "%s: L1 at 32 KiB, agrees with CPUID", csv);
	CHECK(l && l->cycles > 3.8 && l->cycles < 4.3, "%s: L1 load-to-use ~4 cycles (%.2f)", csv,
	      l ? l->cycles : 0.0);
	/* The sweep has 384 and 768 KiB beside 512 KiB; set conflicts make
	   512 KiB itself read partly missed, so one point of slack is honest. */
	l = named(&a, "L2", &chk);
	CHECK(l && l->kind == LEVEL_CACHE && l->size_bytes >= 384 * 1024 &&
	      l->size_bytes <= 512 * 1024 && chk->verdict == VERDICT_AGREES,
	      "%s: L2 at 512 KiB within one sweep point (%llu KiB), agrees", csv,
	      l ? (unsigned long long)l->size_bytes / 1024 : 0ull);
	CHECK(l && l->cycles > 11 && l->cycles < 14, "%s: L2 ~12 cycles (%.2f)", csv,
	      l ? l->cycles : 0.0);

	report.len = 0;
	analysis_print(&a, to_text, &report);
	CHECK(strstr(report.buf, "\n  L1 ") && strstr(report.buf, "agrees\n"),
	      "%s: the report lists L1 and a verdict", csv);

	json_init(&j, json_buf, sizeof json_buf);
	json_object_begin(&j, 0);
	json_object_begin(&j, "hierarchy");
	analysis_json(&j, &a);
	json_object_end(&j);
	json_object_end(&j);
	CHECK(!j.overflow && j.depth == 0, "%s: hierarchy JSON complete", csv);
	CHECK(analysis_claims_from_json(json_buf, j.len, &claims) == 0 && claims.ncaches == 4,
	      "%s: the section carries the registers a later analyze decodes", csv);
	FILE *f = fopen("/tmp/memprobe-test-hierarchy.json", "w");
	if (f) {
		fwrite(json_buf, 1, j.len, f);
		fclose(f);
	}
	CHECK(system("python3 -c 'import json; json.load(open(\"/tmp/memprobe-test-hierarchy.json\"))'")
	      == 0, "%s: Python's json module reads the section", csv);
	remove("/tmp/memprobe-test-hierarchy.json");
	free(text);
	free(cpuid);
}

static void test_claims_json_garbage(void)
{
	static struct cache_claims c;
	const char *cases[] = {
		"", "{}", "\"cpuid_cache_leaves\"", "\"cpuid_cache_leaves\": [",
		"\"cpuid_cache_leaves\": [\"00000000.0 1 2 3 4\"", "\"cpuid_cache_leaves\": []",
		"\"cpuid_cache_leaves\": [\"not a record\"]", "\"cpuid_cache_leaves\": [\"a\\\"b\"]",
	};
	int refused = 1;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (analysis_claims_from_json(cases[i], strlen(cases[i]), &c) != -1)
			refused = 0;
	CHECK(refused, "truncated or empty cpuid_cache_leaves lists refused");
	const char ok[] = "\"cpuid_cache_leaves\" : [ \"00000000.0 00000001 68747541 444d4163 69746e65\" ]";
	CHECK(analysis_claims_from_json(ok, strlen(ok), &c) == 0 && !strcmp(c.vendor, "AuthenticAMD"),
	      "a one-record list decodes");
}

int main(void)
{
	test_curve_basics();
	test_plateau_rules();
	test_zen3_clean();
	test_zen3_noisy();
	test_hidden_cache_edge();
	test_spread_edge();
	test_single_curve();
	test_short_and_flat();
	test_unequal_spans();
	test_unstable_l3();
	test_curve_without_verdict();
	test_recorded("tests/data/zen3-vm-latency-1.csv");
	test_recorded("tests/data/zen3-vm-latency-2.csv");
	test_claims_json_garbage();
	return check_summary();
}
