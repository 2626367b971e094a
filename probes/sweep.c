/* The sweep grid, its buffer and one curve's sweep (see sweep.h). */

#include "probes/sweep.h"
#include "core/probe.h"
#include "probes/latency_settings.h"
#include "probes/page_sizes.h"
#include "results/progress.h"
#include "results/report_table.h"
#include "results/results.h"
#include "lib/fmt.h"
#include "lib/machine.h"

/* ---- Constants -------------------------------------------------------- */

_Static_assert(SWEEP_POINTS_MAX <= EDGES_MAX_POINTS, "the analysis keeps every point of a sweep");

/* An octave from kib in quarters: kib, 1.25, 1.5 and 1.75 times it. */
#define QUARTERS(kib) (kib), (kib) / 4 * 5, (kib) / 2 * 3, (kib) / 4 * 7

/* The seed's top, past which the grid's quarter points are memory's alone. */
#define SEED_TOP_BYTES (512ull << 20)

/* The latency seed's sweep, in KiB: powers of two with a midpoint between
   each pair, so a plateau edge between 2^k and 2^(k+1) shows its shape
   rather than a single step. */
static const uint32_t sweep_kib[] = {
	4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
	1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768,
	49152, 65536, 98304, 131072, 262144,
	/* From the seed's top, quarter octaves to 1 TiB, for a sweep that
	   must reach four times a last-level cache of over 128 MiB: the
	   powers of two are the grid, and a quarter point only ever memory's
	   one point, the first size at or past four times the claim
	   (sweep_grid_skips). A 300 MiB claim puts it at 1.25 GiB, not 2 GiB:
	   memory's points in the latency, mlp and bandwidth probes cost in
	   proportion to their size. */
	QUARTERS(524288), QUARTERS(1048576), QUARTERS(2097152), QUARTERS(4194304),
	QUARTERS(8388608), QUARTERS(16777216), QUARTERS(33554432), QUARTERS(67108864),
	QUARTERS(134217728), QUARTERS(268435456), QUARTERS(536870912), 1073741824,
};
#define SWEEP_COUNT (sizeof sweep_kib / sizeof *sweep_kib)

/* ---- Private Functions ------------------------------------------------ */

/* One line after a curve's refinement: how many points it added and each
   edge as the points now stand, with the sizes (page counts) that bracket
   it. */
static void refine_report(const struct sweep_curve *s, unsigned added)
{
	struct refine_edge e[8];
	size_t ne = refine_edges(s->pt, s->n, s->spec.unit, e, sizeof e / sizeof *e);
	char below[24], above[24];

	report_printf("%s, %s: refinement added %u %s", s->spec.name, s->spec.page_name, added,
		      s->spec.pages ? (added == 1 ? "page count" : "page counts")
			    : (added == 1 ? "size" : "sizes"));
	if (!ne)
		report_printf("; no edge rises %.2fx or more over its neighbours\n",
			      REFINE_WINDOW_RISE);
	for (size_t i = 0; i < ne; i++) {
		if (s->spec.pages) {
			mp_snprintf(below, sizeof below, "%llu", (unsigned long long)e[i].below);
			mp_snprintf(above, sizeof above, "%llu pages",
				    (unsigned long long)e[i].above);
		} else {
			mp_format_bytes(below, sizeof below, e[i].below);
			mp_format_bytes(above, sizeof above, e[i].above);
		}
		report_printf("%s %s .. %s %s (%.2fx)%s", i ? ";" : "; edges:", below, above,
			      refine_kind_name(e[i].kind), e[i].rise,
			      e[i].kind == REFINE_OPEN ? ": at the sweep's top, or the refinement's limit "
			      "reached" : "");
	}
	if (ne)
		report_printf("\n");
}

/* refine_run's measure: a refined point through the curve's own. */
static int measure_refined(void *ctx, uint64_t x, double *y)
{
	struct sweep_curve *s = ctx;

	return s->spec.measure(s->spec.ctx, x, "refined", y);
}

/* Whether a larger size of the curve reads faster than point i by more
   than SWEEP_REVISIT_RISE. */
static int beaten_by_larger(const struct sweep_curve *s, size_t i)
{
	for (size_t j = i + 1; j < s->n; j++)
		if (s->pt[i].y > SWEEP_REVISIT_RISE * s->pt[j].y)
			return 1;
	return 0;
}

/* How often each size has been measured again, by size: refinement
   inserts points between passes, so an index would not stay put. */
struct revisits {
	uint64_t x[SWEEP_POINTS_MAX];
	unsigned char times[SWEEP_POINTS_MAX];
	size_t n;
	unsigned total;
	unsigned skipped;         /* beaten points left as read: over budget */
	double budget, spent;     /* SWEEP_REVISIT_COST_SHARE of the grid's cost */
};

static unsigned char *revisit_count(struct revisits *r, uint64_t x)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->x[i] == x)
			return &r->times[i];
	if (r->n == SWEEP_POINTS_MAX)
		return NULL;
	r->x[r->n] = x;
	r->times[r->n] = 0;
	return &r->times[r->n++];
}

/* Measures again, pass by pass, every point a larger size beats, keeping
   the least reading, until none is beaten or each has been measured again
   SWEEP_REVISIT_PASSES times in all (over every call for this curve). The
   points to revisit are chosen before each pass, so a fresh reading of
   one does not excuse or accuse another within it. 0, or -1 when a
   measurement failed. */
static int revisit_beaten(struct sweep_curve *s, struct revisits *r)
{
	for (unsigned pass = 0; pass < SWEEP_REVISIT_PASSES; pass++) {
		unsigned char beaten[SWEEP_POINTS_MAX];
		unsigned any = 0;

		for (size_t i = 0; i < s->n; i++) {
			unsigned char *times = revisit_count(r, s->pt[i].x);

			beaten[i] = times && *times < SWEEP_REVISIT_PASSES && beaten_by_larger(s, i);
			any += beaten[i];
		}
		if (!any)
			return 0;
		for (size_t i = 0; i < s->n; i++) {
			double y, cost = refine_points_cost(&s->pt[i], 1);

			if (!beaten[i])
				continue;
			/* A point past the budget stays as read, and not again. */
			if (r->spent + cost > r->budget) {
				(*revisit_count(r, s->pt[i].x)) = SWEEP_REVISIT_PASSES;
				r->skipped++;
				continue;
			}
			r->spent += cost;
			if (s->spec.measure(s->spec.ctx, s->pt[i].x, "revisited", &y) != 0)
				return -1;
			if (y < s->pt[i].y)
				s->pt[i].y = y;
			(*revisit_count(r, s->pt[i].x))++;
			r->total++;
		}
	}
	return 0;
}

/* The revisits' line, when there were any, and the points the budget
   left as read. */
static void revisit_report(const struct sweep_curve *s, const struct revisits *r)
{
	if (r->total)
		report_printf("%s, %s: %u %s measured again: each read over %.2fx a larger %s's "
			      "(a disturbance: a larger working set is never faster); the least "
			      "reading counts\n", s->spec.name, s->spec.page_name, r->total,
			      r->total == 1 ? "point" : "points", SWEEP_REVISIT_RISE,
			      s->spec.pages ? "page count" : "size");
	if (r->skipped)
		report_printf("%s, %s: %u %s over %.2fx a larger %s's left as read: measuring "
			      "%s again would pass %.0f%% of the grid's cost\n", s->spec.name,
			      s->spec.page_name, r->skipped, r->skipped == 1 ? "point" : "points",
			      SWEEP_REVISIT_RISE, s->spec.pages ? "page count" : "size",
			      r->skipped == 1 ? "it" : "them", SWEEP_REVISIT_COST_SHARE * 100);
}

/* ---- Public Functions ------------------------------------------------- */

uint64_t sweep_bytes(unsigned k)
{
	return (uint64_t)sweep_kib[k] * 1024u;
}

int sweep_range(uint64_t min_bytes, uint64_t max_bytes, unsigned *first, unsigned *last)
{
	unsigned k;
	int any = 0;

	for (k = 0; k < SWEEP_COUNT; k++) {
		if (sweep_bytes(k) < min_bytes || sweep_bytes(k) > max_bytes)
			continue;
		if (!any)
			*first = k;
		*last = k;
		any = 1;
	}
	return any;
}

int sweep_grid_skips(unsigned k, uint64_t largest_cache, uint64_t top)
{
	uint64_t bytes = sweep_bytes(k);

	if (!(bytes & (bytes - 1)) || bytes == top)
		return 0;
	return bytes > SEED_TOP_BYTES || (largest_cache && bytes / 2 > largest_cache);
}

unsigned sweep_count(void)
{
	return SWEEP_COUNT;
}

uint64_t sweep_past_caches(uint64_t largest_cache)
{
	return largest_cache > UINT64_MAX / SWEEP_PAST_CACHES_FACTOR
		       ? UINT64_MAX : largest_cache * SWEEP_PAST_CACHES_FACTOR;
}

uint64_t sweep_auto_top(uint64_t floor, uint64_t largest_cache)
{
	uint64_t want = sweep_past_caches(largest_cache);
	unsigned k;

	if (want < floor)
		want = floor;
	for (k = 0; k + 1 < SWEEP_COUNT && sweep_bytes(k) < want; k++)
		;
	return sweep_bytes(k);
}

uint64_t latency_sweep_top(const struct config *c, uint64_t *largest)
{
	static struct cache_claims live;

	*largest = 0;
	if (c->max_size)
		return c->max_size;
	plat_cache_claims(&live);
	*largest = claims_largest_cache(&live);
	return sweep_auto_top(c->profile == PROFILE_FULL ? LATENCY_TOP_FULL : LATENCY_TOP_QUICK,
			      *largest);
}

int sweep_buffer_get(const char *probe, struct plat_buffer *buf, unsigned shift,
		     const char *page_name, unsigned first, unsigned *last)
{
	char fits[24], capped[24];
	uint64_t max;
	unsigned k;

	max = page_buffer_max(probe, shift);
	if (max == 0)
		return 1;
	if (max >= sweep_bytes(*last))
		return page_buffer_get(probe, buf, sweep_bytes(*last), shift) == 0 ? 0 : -1;
	mp_format_bytes(fits, sizeof fits, max);
	for (k = *last; k > first && sweep_bytes(k) > max; k--)
		;
	if (sweep_bytes(k) > max) {
		report_printf("%s, %s: the largest buffer that fits now, %s, is below the "
			      "smallest size of the sweep: not measured\n", probe, page_name, fits);
		probe_failed_because("%s: %s fits, less than the smallest size", page_name,
				     fits);
		return -1;
	}
	mp_format_bytes(capped, sizeof capped, sweep_bytes(k));
	report_printf("%s, %s: the largest buffer that fits now is %s: the sweep is "
		      "capped at %s\n", probe, page_name, fits, capped);
	if (page_buffer_get(probe, buf, sweep_bytes(k), shift) != 0)
		return -1;
	*last = k;
	return 0;
}

void sweep_curve_begin(struct sweep_curve *s, const struct sweep_spec *spec)
{
	s->spec = *spec;
	s->ngrid = 0;
	s->n = 0;
}

void sweep_grid_add(struct sweep_curve *s, uint64_t x)
{
	if (s->ngrid < SWEEP_POINTS_MAX)
		s->grid[s->ngrid++] = x;
}

int sweep_curve_run(struct sweep_curve *s, const struct table *shape, const char *caption)
{
	struct progress progress;
	static struct revisits revisited;
	int status = 0, added = 0;

	s->n = 0;
	revisited.n = 0;
	revisited.total = 0;
	report_table_begin(shape, caption, NULL);
	progress_start(&progress);
	for (size_t i = 0; i < s->ngrid && status == 0; i++) {
		struct refine_point *p = &s->pt[s->n];

		if (s->spec.progress)
			progress_tick(&progress, s->spec.progress, (unsigned)i, (unsigned)s->ngrid);
		p->x = s->grid[i];
		status = s->spec.measure(s->spec.ctx, p->x, "grid", &p->y);
		if (status == 0)
			s->n++;
	}
	revisited.skipped = 0;
	revisited.spent = 0;
	revisited.budget = refine_points_cost(s->pt, s->n) * SWEEP_REVISIT_COST_SHARE;
	if (status == 0 && s->spec.revisit)
		status = revisit_beaten(s, &revisited);
	if (status == 0 && s->spec.refine) {
		added = refine_run(s->pt, &s->n, SWEEP_POINTS_MAX, s->spec.unit, measure_refined, s);
		if (added < 0)
			status = -1;
	}
	if (status == 0 && s->spec.revisit && added > 0)
		status = revisit_beaten(s, &revisited);
	report_table_end();
	if (status == 0 && s->spec.refine)
		refine_report(s, (unsigned)added);
	if (status == 0)
		revisit_report(s, &revisited);
	return status;
}
