/* The adaptive sweep's decision (analysis/refine.c) on synthetic curves: a
   sharp step pinned to one eighth of an octave, at a grid point and at an
   odd capacity; a capacity point read half way up; a smeared rise left
   after a point or two; flat curves, clean and with noise, left alone; two
   edges in one curve; integer page counts; the split points themselves;
   and the sweep of one curve (probes/sweep.h) that runs it. */

#include <math.h>
#include <string.h>

#include "check.h"
#include "analysis/refine.h"
#include "probes/sweep.h"
#include "lib/machine.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

/* A model curve: the reading at x, and the noise added to each reading. */
struct model {
	double (*at)(const struct model *m, uint64_t x);
	uint64_t edge;            /* the capacity: readings low up to it */
	uint64_t edge2;           /* a second capacity, 0 none */
	double noise;             /* uniform, either way, as a fraction */
	int noise_adds_only;
	uint64_t seed;
	unsigned measured;        /* sizes measured by refine_run */
};

static double uniform(struct model *m)
{
	m->seed ^= m->seed >> 12;
	m->seed ^= m->seed << 25;
	m->seed ^= m->seed >> 27;
	return (double)((m->seed * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0;
}

static double noisy(struct model *m, double y)
{
	double u = uniform(m);

	if (m->noise_adds_only)
		return y * (1 + m->noise * u);
	return y * (1 + m->noise * (2 * u - 1));
}

static double step_at(const struct model *m, uint64_t x)
{
	double y = x <= m->edge ? 4.0 : 14.0;

	if (m->edge2 && x > m->edge2)
		y = 50.0;
	return y;
}

/* The capacity itself reads half way up (on the log scale). */
static double part_way(const struct model *m, uint64_t x)
{
	return x < m->edge ? 4.0 : x == m->edge ? 7.5 : 14.0;
}

/* A rise spread evenly in log2(size) over two octaves from edge. */
static double smeared(const struct model *m, uint64_t x)
{
	double octaves = log2((double)x / (double)m->edge);

	if (octaves <= 0)
		return 4.0;
	if (octaves >= 2)
		return 14.0;
	return 4.0 * pow(14.0 / 4.0, octaves / 2);
}

static double flat(const struct model *m, uint64_t x)
{
	(void)m;
	(void)x;
	return 10.0;
}

static int measure(void *ctx, uint64_t x, double *y)
{
	struct model *m = ctx;

	m->measured++;
	*y = noisy(m, m->at(m, x));
	return 0;
}

/* The coarse grid, powers of two and midpoints, from..to, measured. */
static size_t coarse(struct model *m, uint64_t from, uint64_t to, struct refine_point *pt)
{
	size_t n = 0;

	for (uint64_t x = from; x <= to; x = (x & (x - 1)) == 0 ? x / 2 * 3 : x / 3 * 4) {
		pt[n].x = x;
		pt[n].y = noisy(m, m->at(m, x));
		n++;
	}
	return n;
}

static size_t coarse_pages(struct model *m, uint64_t to, struct refine_point *pt)
{
	size_t n = 0;

	for (uint64_t x = 1; x <= to; x = x < 2 ? x + 1 : (x & (x - 1)) == 0 ? x / 2 * 3 : x / 3 * 4) {
		pt[n].x = x;
		pt[n].y = noisy(m, m->at(m, x));
		n++;
	}
	return n;
}

/* Coarse grid, then refinement; the edges as they stand at the end. */
static int sweep(struct model *m, uint64_t from, uint64_t to, uint64_t unit,
		 struct refine_point *pt, size_t *n, struct refine_edge *e, size_t *ne)
{
	int added;

	*n = unit == 1 ? coarse_pages(m, to, pt) : coarse(m, from, to, pt);
	m->measured = 0;
	added = refine_run(pt, n, 96, unit, measure, m);
	*ne = refine_edges(pt, *n, unit, e, 8);
	return added;
}

static int ascending(const struct refine_point *pt, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (pt[i].x <= pt[i - 1].x)
			return 0;
	return 1;
}

static void test_split(void)
{
	CHECK(refine_split(48 * KIB, 64 * KIB, 64) == 56 * KIB, "48..64 KiB splits at 56 KiB");
	CHECK(refine_split(512 * KIB, 768 * KIB, 64) == 640 * KIB,
	      "512..768 KiB splits at 640 KiB (eighths of the 512 KiB octave)");
	CHECK(refine_split(768 * KIB, 1024 * KIB, 64) == 896 * KIB, "768 KiB..1 MiB at 896 KiB");
	CHECK(refine_split(1 * MIB, 1536 * KIB, 64) == 1280 * KIB, "1..1.5 MiB at 1.25 MiB");
	CHECK(refine_split(48 * KIB, 52 * KIB, 64) == 0, "48..52 KiB: an eighth step, not split");
	CHECK(refine_split(60 * KIB, 64 * KIB, 64) == 0, "60..64 KiB: not split");
	CHECK(refine_split(64 * KIB, 80 * KIB, 64) == 72 * KIB, "64..80 KiB at 72 KiB");
	CHECK(refine_split(96, 128, 1) == 112, "96..128 pages at 112");
	CHECK(refine_split(96, 104, 1) == 0, "96..104 pages: not split");
	CHECK(refine_split(4, 6, 1) == 5, "4..6 pages at 5");
	CHECK(refine_split(1, 2, 1) == 0 && refine_split(3, 4, 1) == 0,
	      "1..2 and 3..4 pages: nothing whole between");
	CHECK(refine_split(4096, 6144, 4096) == 0 && refine_split(8192, 16384, 4096) == 12288,
	      "a unit of 4 KiB keeps only its multiples");
	CHECK(refine_split(64, 64, 1) == 0 && refine_split(64, 32, 1) == 0, "no interval, no split");
	CHECK(refine_split(3ull << 40, 4ull << 40, 64) == 3584ull << 30,
	      "3..4 TiB at 3.5 TiB, no overflow");
}

static void test_sharp(void)
{
	struct model m = { step_at, 48 * KIB, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	int added = sweep(&m, 4 * KIB, 8 * MIB, 64, pt, &n, e, &ne);

	CHECK(added >= 1 && added <= 4, "sharp step at 48 KiB: %d points added (1..4)", added);
	CHECK(ascending(pt, n), "the points stay ascending, one per size");
	CHECK(ne == 1 && e[0].kind == REFINE_SHARP, "one edge, sharp (%zu, %s)", ne,
	      ne ? refine_kind_name(e[0].kind) : "-");
	CHECK(ne == 1 && e[0].below == 48 * KIB && e[0].above == 52 * KIB,
	      "pinned between 48 and 52 KiB, an eighth of an octave (%llu .. %llu)",
	      ne ? (unsigned long long)e[0].below : 0ull, ne ? (unsigned long long)e[0].above : 0ull);
	CHECK(ne == 1 && fabs(e[0].rise - 3.5) < 1e-9, "its rise is the step's 3.5x (%g)",
	      ne ? e[0].rise : 0);
	CHECK(refine_next(pt, n, 64, (uint64_t[8]){ 0 }, 8) == 0, "nothing more to measure");
}

static void test_odd_capacity(void)
{
	struct model m = { step_at, 600 * KIB, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	int added = sweep(&m, 4 * KIB, 8 * MIB, 64, pt, &n, e, &ne);

	CHECK(added >= 1 && added <= 4, "sharp step at 600 KiB: %d points added", added);
	CHECK(ne == 1 && e[0].kind == REFINE_SHARP && e[0].below <= 600 * KIB &&
	      e[0].above > 600 * KIB && e[0].above - e[0].below == 64 * KIB,
	      "pinned to the 64 KiB eighth that holds 600 KiB (%llu .. %llu KiB)",
	      ne ? (unsigned long long)(e[0].below / KIB) : 0ull,
	      ne ? (unsigned long long)(e[0].above / KIB) : 0ull);
}

static void test_part_way(void)
{
	struct model m = { part_way, 64 * KIB, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	int added = sweep(&m, 4 * KIB, 8 * MIB, 64, pt, &n, e, &ne);

	CHECK(added >= 2 && added <= 6, "capacity read half way up: %d points added, both sides "
	      "refined", added);
	CHECK(ne == 1 && e[0].kind == REFINE_SHARP && e[0].below == 60 * KIB &&
	      e[0].above == 72 * KIB,
	      "sharp, the rise within the two eighths around 64 KiB (%llu .. %llu KiB)",
	      ne ? (unsigned long long)(e[0].below / KIB) : 0ull,
	      ne ? (unsigned long long)(e[0].above / KIB) : 0ull);
}

static void test_smeared(void)
{
	struct model m = { smeared, 512 * KIB, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	int added = sweep(&m, 4 * KIB, 16 * MIB, 64, pt, &n, e, &ne);

	CHECK(added >= 0 && added <= 4, "rise spread over two octaves: %d points added (at most 4)",
	      added);
	CHECK(ne == 1 && e[0].kind == REFINE_SMEARED, "one edge, smeared (%zu, %s)", ne,
	      ne ? refine_kind_name(e[0].kind) : "-");
	CHECK(ne == 1 && e[0].below <= 768 * KIB && e[0].above >= 1536 * KIB,
	      "spread from at most 768 KiB to at least 1.5 MiB (%llu .. %llu KiB)",
	      ne ? (unsigned long long)(e[0].below / KIB) : 0ull,
	      ne ? (unsigned long long)(e[0].above / KIB) : 0ull);

	/* With noise either way, 5 %: still not chased down to eighths. */
	unsigned worst = 0, smeared_seen = 0;
	for (uint64_t seed = 1; seed <= 100; seed++) {
		struct model mn = { smeared, 512 * KIB, 0, 0.05, 0, seed, 0 };

		added = sweep(&mn, 4 * KIB, 16 * MIB, 64, pt, &n, e, &ne);
		if ((unsigned)added > worst)
			worst = (unsigned)added;
		for (size_t k = 0; k < ne; k++)
			if (e[k].kind == REFINE_SMEARED && e[k].below <= 1 * MIB &&
			    e[k].above >= 1 * MIB)
				smeared_seen++;
	}
	CHECK(worst <= 8, "smeared with 5%% noise, 100 curves: at most %u points added (<= 8)", worst);
	CHECK(smeared_seen >= 90, "and %u of 100 call the rise around 1 MiB smeared", smeared_seen);
}

static void test_flat(void)
{
	struct model m = { flat, 0, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	unsigned proposed = 0, edges = 0;

	CHECK(sweep(&m, 4 * KIB, 512 * MIB, 64, pt, &n, e, &ne) == 0 && ne == 0,
	      "a flat curve: nothing added, no edge");
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct model mn = { flat, 0, 0, 0.10, (int)(seed & 1), seed, 0 };

		proposed += (unsigned)sweep(&mn, 4 * KIB, 512 * MIB, 64, pt, &n, e, &ne);
		edges += (unsigned)ne;
	}
	CHECK(proposed == 0 && edges == 0,
	      "200 flat curves with 10%% noise (either way, or adding only): %u points added, "
	      "%u edges", proposed, edges);
}

static void test_sharp_noisy(void)
{
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	unsigned pinned = 0, worst = 0;

	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct model m = { step_at, 48 * KIB, 0, 0.10, (int)(seed & 1), seed, 0 };
		int added = sweep(&m, 4 * KIB, 8 * MIB, 64, pt, &n, e, &ne);

		if ((unsigned)added > worst)
			worst = (unsigned)added;
		if (ne == 1 && e[0].kind == REFINE_SHARP && e[0].below == 48 * KIB &&
		    e[0].above == 52 * KIB)
			pinned++;
	}
	CHECK(pinned == 200, "a sharp 48 KiB step with 10%% noise: %u of 200 pinned at 48..52 KiB",
	      pinned);
	CHECK(worst <= 6, "at most %u points added (<= 6)", worst);
}

static void test_two_edges(void)
{
	struct model m = { step_at, 48 * KIB, 1 * MIB, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	int added = sweep(&m, 4 * KIB, 64 * MIB, 64, pt, &n, e, &ne);

	CHECK(added >= 2 && added <= 8, "two sharp steps: %d points added", added);
	CHECK(ne == 2 && e[0].kind == REFINE_SHARP && e[1].kind == REFINE_SHARP &&
	      e[0].below == 48 * KIB && e[0].above == 52 * KIB &&
	      e[1].below == 1 * MIB && e[1].above == 1152 * KIB,
	      "both pinned: 48..52 KiB and 1 MiB..1.125 MiB (%zu edges)", ne);
}

/* Two sharp steps one grid interval apart: one rise, two pinned edges. */
static void test_adjacent_steps(void)
{
	struct model m = { step_at, 48 * KIB, 96 * KIB, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;

	sweep(&m, 4 * KIB, 8 * MIB, 64, pt, &n, e, &ne);
	CHECK(ne == 2 && e[0].kind == REFINE_SHARP && e[1].kind == REFINE_SHARP &&
	      e[0].below == 48 * KIB && e[0].above == 52 * KIB && e[1].below == 96 * KIB &&
	      e[1].above == 104 * KIB,
	      "steps at 48 and 96 KiB: two sharp edges, 48..52 and 96..104 KiB (%zu edges)", ne);
}

static void test_pages(void)
{
	struct model m = { step_at, 96, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	int added = sweep(&m, 1, 16384, 1, pt, &n, e, &ne);

	CHECK(added >= 1 && added <= 4, "a 96-entry TLB's step: %d page counts added", added);
	CHECK(ne == 1 && e[0].kind == REFINE_SHARP && e[0].below == 96 && e[0].above == 104,
	      "pinned between 96 and 104 pages");

	struct model small = { step_at, 5, 0, 0, 0, 1, 0 };
	added = sweep(&small, 1, 64, 1, pt, &n, e, &ne);
	CHECK(added == 1 && ne == 1 && e[0].below == 5 && e[0].above == 6,
	      "a step after 5 pages: one count added (5), pinned at 5..6");
}

static void test_top(void)
{
	struct model m = { step_at, 6 * MIB, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	int added = sweep(&m, 4 * KIB, 8 * MIB, 64, pt, &n, e, &ne);

	CHECK(added == 0, "a step in the sweep's last interval (6..8 MiB): nothing added (%d)",
	      added);
	CHECK(ne == 1 && e[0].kind == REFINE_OPEN && e[0].below == 6 * MIB &&
	      e[0].above == 8 * MIB, "and it is left open, 6 .. 8 MiB");
}

/* A step just below the top of a grid whose cost is its top sizes: the
   refinement would cost more than half of the grid, so it is left open. */
static void test_budget(void)
{
	struct model m = { step_at, 4 * MIB, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	struct refine_edge e[8];
	size_t n, ne;
	int added = sweep(&m, 4 * KIB, 8 * MIB, 64, pt, &n, e, &ne);

	CHECK(added == 1 && m.measured == 1, "a step at 4 MiB below an 8 MiB top: one size (5 MiB), "
	      "%d added, then the budget is spent", added);
	CHECK(ne == 1 && e[0].kind == REFINE_OPEN && e[0].below == 4 * MIB && e[0].above == 5 * MIB,
	      "the edge is left open at 4 .. 5 MiB (%s)", ne ? refine_kind_name(e[0].kind) : "-");
}

static void test_limits(void)
{
	struct model m = { step_at, 48 * KIB, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	size_t n = coarse(&m, 4 * KIB, 8 * MIB, pt), before = n;
	uint64_t next[8];

	CHECK(refine_run(pt, &n, n, 64, measure, &m) == 0 && n == before,
	      "no room: nothing added");
	CHECK(refine_next(pt, 1, 64, next, 8) == 0, "one point: nothing to say");
	pt[3].x = pt[2].x;
	CHECK(refine_next(pt, n, 64, next, 8) == 0, "points not ascending: refused");
}

static int failing(void *ctx, uint64_t x, double *y)
{
	(void)ctx;
	(void)x;
	*y = 0;
	return -1;
}

static void test_failure(void)
{
	struct model m = { step_at, 48 * KIB, 0, 0, 0, 1, 0 };
	struct refine_point pt[96];
	size_t n = coarse(&m, 4 * KIB, 8 * MIB, pt), before = n;

	CHECK(refine_run(pt, &n, 96, 64, failing, NULL) == -1 && n == before,
	      "a failed measurement stops the refinement, nothing inserted");
}

/* The curve's measure (sweep.h) over a model: how many points of each
   kind it was asked for, in which order; it fails at fail_at. */
struct curve_model {
	struct model m;
	uint64_t fail_at;         /* 0: never */
	unsigned grid, refined, grid_after_refined, unlabelled;
};

static int curve_measure(void *ctx, uint64_t x, const char *point, double *y)
{
	struct curve_model *cm = ctx;

	if (!strcmp(point, "grid")) {
		cm->grid++;
		cm->grid_after_refined += cm->refined > 0;
	} else if (!strcmp(point, "refined")) {
		cm->refined++;
	} else {
		cm->unlabelled++;
	}
	*y = 0;
	return x == cm->fail_at ? -1 : measure(&cm->m, x, y);
}

/* One curve of 4 KiB .. 8 MiB with a step at 48 KiB through
   sweep_curve_run; its status. */
static int run_curve(struct sweep_curve *s, struct curve_model *cm, int refine)
{
	static const struct table_column column[] = { { "working set", NULL, 11, 0, 0 } };
	static const struct table shape = TABLE_OF(column, "  ");
	unsigned first, last;

	*cm = (struct curve_model){ .m = { step_at, 48 * KIB, 0, 0, 0, 1, 0 },
				    .fail_at = cm->fail_at };
	sweep_range(4 * KIB, 8 * MIB, &first, &last);
	sweep_curve_begin(s, &(struct sweep_spec){ .name = "test", .page_name = "4 KiB pages",
		.unit = 64, .refine = refine, .measure = curve_measure, .ctx = cm });
	for (unsigned k = first; k <= last; k++)
		sweep_grid_add(s, sweep_bytes(k));
	return sweep_curve_run(s, &shape, "test");
}

/* The sweep skeleton the latency, tlb and bandwidth probes share: the grid
   in order, then refined sizes at the edge; without refine the grid alone;
   a failed point stops the curve there. */
static void test_curve(void)
{
	static struct sweep_curve s;
	struct curve_model cm = { .fail_at = 0 };
	struct refine_edge e[8];
	size_t ne;

	CHECK(run_curve(&s, &cm, 1) == 0 && s.ngrid == 23 && cm.grid == 23 && cm.refined > 0 &&
	      !cm.grid_after_refined && !cm.unlabelled && s.n == cm.grid + cm.refined &&
	      ascending(s.pt, s.n),
	      "every grid point measured in order, labelled grid, then %u refined ones; the "
	      "curve's points ascending", cm.refined);
	ne = refine_edges(s.pt, s.n, 64, e, 8);
	CHECK(ne == 1 && e[0].kind == REFINE_SHARP && e[0].below == 48 * KIB &&
	      e[0].above == 52 * KIB, "the refined points pin the 48 KiB step");
	CHECK(run_curve(&s, &cm, 0) == 0 && cm.grid == 23 && cm.refined == 0 && s.n == 23,
	      "refine = 0: the grid alone");
	cm.fail_at = 64 * KIB;
	CHECK(run_curve(&s, &cm, 1) == -1 && cm.grid == 9 && cm.refined == 0 && s.n == 8,
	      "a point that fails stops the curve: nothing after it, no refinement, its "
	      "points before it kept (%u asked, %zu kept)", cm.grid, s.n);
}

/* A curve with a step at 48 KiB whose readings at `spiked` are 10x too
   slow the first `spikes` times they are measured (a neighbour holding
   the cache for a while); every measurement counted by its label. */
struct spike_model {
	struct model m;
	uint64_t spiked;
	unsigned spikes, grid, refined, revisited, other;
};

static int spike_measure(void *ctx, uint64_t x, const char *point, double *y)
{
	struct spike_model *sm = ctx;

	if (!strcmp(point, "grid"))
		sm->grid++;
	else if (!strcmp(point, "refined"))
		sm->refined++;
	else if (!strcmp(point, "revisited"))
		sm->revisited++;
	else
		sm->other++;
	measure(&sm->m, x, y);
	if (x == sm->spiked && sm->spikes) {
		sm->spikes--;
		*y *= 10;
	}
	return 0;
}

static int run_spiked(struct sweep_curve *s, struct spike_model *sm, int revisit)
{
	static const struct table_column column[] = { { "working set", NULL, 11, 0, 0 } };
	static const struct table shape = TABLE_OF(column, "  ");
	unsigned first, last;

	sm->m = (struct model){ step_at, 48 * KIB, 0, 0, 0, 1, 0 };
	sm->grid = sm->refined = sm->revisited = sm->other = 0;
	sweep_range(4 * KIB, 8 * MIB, &first, &last);
	sweep_curve_begin(s, &(struct sweep_spec){ .name = "test", .page_name = "4 KiB pages",
		.unit = 64, .refine = 1, .revisit = revisit, .measure = spike_measure, .ctx = sm });
	for (unsigned k = first; k <= last; k++)
		sweep_grid_add(s, sweep_bytes(k));
	return sweep_curve_run(s, &shape, "test");
}

static double reading_at(const struct sweep_curve *s, uint64_t x)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->pt[i].x == x)
			return s->pt[i].y;
	return -1;
}

/* A point a larger size beats is measured again (SWEEP_REVISIT_PASSES at
   most), its least reading kept; without revisit, or with no such point,
   nothing is measured twice. */
static void test_revisit(void)
{
	static struct sweep_curve s;
	struct spike_model sm = { .spiked = 16 * KIB, .spikes = 1 };
	struct refine_edge e[8];

	CHECK(run_spiked(&s, &sm, 1) == 0 && sm.revisited == 1 && !sm.other &&
	      reading_at(&s, 16 * KIB) == 4.0,
	      "a 16 KiB reading 10x the plateau's, beaten by every larger size up to the "
	      "step: measured once more, its fresh reading kept (%u revisits, reads %g)",
	      sm.revisited, reading_at(&s, 16 * KIB));
	CHECK(refine_edges(s.pt, s.n, 64, e, 8) == 1 && e[0].below == 48 * KIB,
	      "with it read again, one edge, at 48 KiB");
	sm = (struct spike_model){ .spiked = 16 * KIB, .spikes = 100 };
	CHECK(run_spiked(&s, &sm, 1) == 0 && sm.revisited == SWEEP_REVISIT_PASSES &&
	      reading_at(&s, 16 * KIB) == 40.0,
	      "a reading that stays slow: SWEEP_REVISIT_PASSES revisits, then left as read "
	      "(%u revisits)", sm.revisited);
	sm = (struct spike_model){ .spiked = 16 * KIB, .spikes = 1 };
	CHECK(run_spiked(&s, &sm, 0) == 0 && sm.revisited == 0 && reading_at(&s, 16 * KIB) == 40.0,
	      "revisit = 0: the spike stands, nothing measured twice");
	sm = (struct spike_model){ .spiked = 0, .spikes = 0 };
	CHECK(run_spiked(&s, &sm, 1) == 0 && sm.revisited == 0 && sm.refined > 0,
	      "a clean step: refined, but no point revisited (a step up is no disturbance)");
}

/* A midpoint past twice the largest claimed cache is left out of the
   grid, and every quarter point past 512 MiB; powers of two, sizes up to
   twice the cache, the sweep's top, and every size to 512 MiB when nothing
   is claimed stay. */
static void test_grid_skips(void)
{
	unsigned skipped = 0, k48 = 0, k96 = 0, quarters = 0, kept_past = 0;

	for (unsigned k = 0; k < sweep_count(); k++) {
		uint64_t b = sweep_bytes(k);

		k48 = b == 48 * MIB ? k : k48;
		k96 = b == 96 * MIB ? k : k96;
		if (sweep_grid_skips(k, 32 * MIB, 128 * MIB) && b <= 512 * MIB) {
			skipped++;
			CHECK((b & (b - 1)) && b > 64 * MIB, "only midpoints past 64 MiB go (%llu KiB "
			      "went)", (unsigned long long)(b / KIB));
		}
		if (b <= 512 * MIB)
			CHECK(!sweep_grid_skips(k, 0, 128 * MIB), "nothing claimed: every size to "
			      "512 MiB stays (%llu KiB went)", (unsigned long long)(b / KIB));
		else if (b & (b - 1))
			quarters += sweep_grid_skips(k, 0, 4ull << 40) &&
				    sweep_grid_skips(k, 32 * MIB, 4ull << 40) && !sweep_grid_skips(k, 0, b);
		else
			kept_past += !sweep_grid_skips(k, 0, 4ull << 40) &&
				     !sweep_grid_skips(k, 32 * MIB, 4ull << 40);
	}
	CHECK(sweep_grid_skips(k96, 32 * MIB, 128 * MIB) &&
	      !sweep_grid_skips(k48, 32 * MIB, 128 * MIB) && skipped == 1,
	      "L3 32 MiB: 96 MiB goes, 48 MiB (1.5x the cache) stays; %u skipped", skipped);
	CHECK(quarters == 33 && kept_past == 11, "past 512 MiB: the 33 quarter points go unless "
	      "one is the top (%u), the 11 powers of two to 1 TiB stay (%u)", quarters, kept_past);
	/* A 6, 12 or 24 MiB L3: the automatic top is a midpoint (24, 48, 96
	   MiB), memory's one point past 4x the cache, and stays. */
	for (uint64_t l3 = 6 * MIB; l3 <= 24 * MIB; l3 *= 2) {
		uint64_t top = sweep_auto_top(0, l3);
		unsigned kt = 0;

		for (unsigned k = 0; k < sweep_count(); k++)
			kt = sweep_bytes(k) == top ? k : kt;
		CHECK(top == 4 * l3 && !sweep_grid_skips(kt, l3, top) &&
		      sweep_grid_skips(kt, l3, 2 * top),
		      "L3 %llu MiB: the top, %llu MiB, stays (a midpoint below another top goes)",
		      (unsigned long long)(l3 / MIB), (unsigned long long)(top / MIB));
	}
}

/* The latency sweep's automatic top (probes/sweep.c): the first grid size
   at or past 4x the largest claimed cache, at least the profile's floor,
   with at least two grid sizes past the cache. */
static void test_auto_top(void)
{
	struct cache_claims claims = { .ncaches = 4 };
	unsigned short_plateau = 0;

	CHECK(sweep_auto_top(8 * MIB, 32 * MIB) == 128 * MIB, "L3 32 MiB, quick: 128 MiB");
	CHECK(sweep_auto_top(512 * MIB, 32 * MIB) == 512 * MIB, "L3 32 MiB, full: 512 MiB");
	CHECK(sweep_auto_top(8 * MIB, 0) == 8 * MIB, "no claim: the floor");
	CHECK(sweep_auto_top(8 * MIB, 1 * MIB) == 8 * MIB, "a 1 MiB last cache: the floor");
	CHECK(sweep_auto_top(8 * MIB, 96 * MIB) == 512 * MIB,
	      "96 MiB of L3: 384 MiB is not on the grid, 512 MiB");
	CHECK(sweep_auto_top(512 * MIB, 480 * MIB) == 2048 * MIB, "480 MiB: 2 GiB, past the seed's top");
	CHECK(sweep_auto_top(512 * MIB, 300 * MIB) == 1280 * MIB &&
	      sweep_auto_top(512 * MIB, 508 * MIB) == 2048 * MIB &&
	      sweep_auto_top(512 * MIB, 520 * MIB) == 2560 * MIB,
	      "past 512 MiB the top is the first quarter octave at or past 4x: 300 MiB (Emerald "
	      "Rapids' claim) 1.25 GiB, 508 MiB 2 GiB, 520 MiB 2.5 GiB");
	CHECK(sweep_auto_top(8 * MIB, 1ull << 42) == 1ull << 40 && sweep_auto_top(0, UINT64_MAX) ==
	      1ull << 40, "past the grid: its last size, 1 TiB");
	for (uint64_t llc = 256 * KIB; llc <= 64ull << 30; llc += llc / 8) {
		uint64_t top = sweep_auto_top(0, llc);
		unsigned past = 0;

		for (unsigned k = 0; k < sweep_count(); k++)
			past += sweep_bytes(k) > llc && sweep_bytes(k) <= top &&
				!sweep_grid_skips(k, llc, top);
		short_plateau += past < 2 || top < 4 * llc;
	}
	CHECK(short_plateau == 0, "from 256 KiB to 64 GiB in eighths, the top is at least 4x the "
	      "cache with two grid sizes or more past it (%u not)", short_plateau);

	claims.cache[0] = (struct cache_desc){ .level = 1, .kind = CACHE_DATA, .size_bytes = 48 * KIB };
	claims.cache[1] = (struct cache_desc){ .level = 1, .kind = CACHE_INSTRUCTION,
					       .size_bytes = 64 * MIB };
	claims.cache[2] = (struct cache_desc){ .level = 3, .kind = CACHE_UNIFIED, .size_bytes = 32 * MIB };
	claims.cache[3] = (struct cache_desc){ .level = 2, .kind = CACHE_UNIFIED, .size_bytes = 1 * MIB };
	CHECK(claims_largest_cache(&claims) == 32 * MIB,
	      "the largest data or unified cache, never an instruction cache");
	claims.ncaches = 0;
	CHECK(claims_largest_cache(&claims) == 0, "no caches claimed: 0");
}

int main(void)
{
	test_revisit();
	test_grid_skips();
	test_auto_top();
	test_split();
	test_sharp();
	test_odd_capacity();
	test_part_way();
	test_smeared();
	test_flat();
	test_sharp_noisy();
	test_two_edges();
	test_adjacent_steps();
	test_pages();
	test_top();
	test_budget();
	test_limits();
	test_failure();
	test_curve();
	return check_summary();
}
