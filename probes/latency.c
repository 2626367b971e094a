/* The latency probe: a dependent-load chase through one random cycle of
 * line-sized slots, for each working set of the sweep and each page size.
 * docs/METHOD.md explains the method and where it departs from the seed.
 */

#include "probes/chase.h"
#include "probes/chase_run.h"
#include "results/emit.h"
#include "lib/fmt.h"
#include "lib/machine.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"
#include "probes/latency_settings.h"
#include "analysis/refine.h"
#include "results/report_table.h"
#include "results/results.h"
#include "probes/sweep.h"
#include "core/timebase.h"
#include "results/trial_row.h"
#include "core/trials.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_latency.config.name)

/* ---- Constants -------------------------------------------------------- */

/* One seed for every size and page size: the same permutation shape at a
   size under 4 KiB and 2 MiB pages, so the pair differs only in the pages. */
#define CYCLE_SEED 0x243f6a8885a308d3ull

/* One page size's sweep, a row per working set: the grid's first, then the
   sizes refinement added. */
static const struct table_column sweep_columns[] = {
	{ "working set", NULL, 11, 0, 0 },
	TRIAL_COLUMNS("ns/load", 10, 9),
	{ "laps", NULL, 7, 0, 0 },
	{ "elapsed", NULL, 11, 0, 0 },
	{ "point", NULL, 8, 1, 0 },
};
static const struct table sweep_table = TABLE_OF(sweep_columns, "  ");

/* ---- Private Types ---------------------------------------------------- */

/* One page size's sweep in progress, for the curve's measure calls. */
struct sweep_state {
	const struct config *c;
	const struct plat_buffer *buf;
	const char *page_name;
	double last_ns;
	uint64_t largest_claim;          /* the largest cache the CPU claims, bytes */
	const struct sweep_curve *curve; /* its points measured so far */
};

/* ---- Private Functions ------------------------------------------------ */

/* A size expected to take over a second gets a line before it, so a long
   sweep never looks hung: the previous size's latency times the loads this
   one costs, in laps. The build is BUILD_LAPS of a lap: its random writes
   do not wait on each other (the Zen 5 VM built, scanned and flushed 2 GiB
   in 2.5 s, where a lap took 14 s). Whole laps: the build, a warm-up lap
   and the minimum trials' laps; where a lap is long (chase_long_lap), or
   at partial_from slots itself (chase_partial_from), the build, the
   warm-up lap and at most max_trials stretches, or where the region
   warm-up applies (chase_region_lap) the build, REGION_PASS_LAPS of a lap
   for its pass over the other lines, its dependent loads (four times the
   stretches') and the stretches; past partial_from the build, a load per
   4 KiB and the stretches. */
#define BUILD_LAPS 0.2
/* The region warm-up's independent loads over the lines outside the
   region, in laps: 0.12 at 1 GiB on the Zen 5 VM. */
#define REGION_PASS_LAPS 0.15
static void announce_long_size(const struct config *c, uint64_t bytes, double previous_ns,
			       uint64_t partial_from)
{
	double slots = (double)(bytes / CHASE_SLOT), stretches = c->max_trials * c->step_ms;
	double lap_ms = previous_ns * slots / 1e6, ms;
	char size_text[24];

	if (partial_from && slots > (double)partial_from)
		ms = lap_ms * (BUILD_LAPS + (double)CHASE_SLOT / CHASE_WARM_PAGE_BYTES) + stretches;
	else if (chase_region_lap(slots, previous_ns, c))
		ms = lap_ms * (BUILD_LAPS + REGION_PASS_LAPS) + 5 * stretches;
	else if ((partial_from && slots == (double)partial_from) ||
		 chase_long_lap(slots, previous_ns, c->step_ms))
		ms = lap_ms * (BUILD_LAPS + 1) + stretches;
	else
		ms = lap_ms * (BUILD_LAPS + 1 + (double)c->trials * CHASE_TRIAL_LAPS_MIN);

	if (ms < 1000)
		return;
	mp_format_bytes(size_text, sizeof size_text, bytes);
	report_printf("  %11s ... measuring, about %.0f s at the last size's latency\n",
		      size_text, ms / 1000);
}

/* The top of the last edge the points so far show, pinned or smeared
   (one still open is not found yet), bytes; 0 none. */
static uint64_t last_edge(const struct refine_point *pt, size_t n)
{
	struct refine_edge e[8];
	size_t ne = n >= 2 ? refine_edges(pt, n, CHASE_SLOT, e, sizeof e / sizeof *e) : 0;
	uint64_t top = 0;

	for (size_t i = 0; i < ne; i++)
		if (e[i].kind != REFINE_OPEN && e[i].above > top)
			top = e[i].above;
	return top;
}

/* One working set: build the cycle (untimed), run the trials, report the
   row (the curve's measure: ctx is the struct sweep_state). 0 on success. */
static int measure_size(void *ctx, uint64_t bytes, const char *point, double *ns)
{
	struct sweep_state *s = ctx;
	const struct config *c = s->c;
	struct chase_run run;
	struct result_row fig = { 0 };
	char size_text[24], what[96];

	run.partial_from_slots = chase_partial_from(s->largest_claim,
						    last_edge(s->curve->pt, s->curve->n), CHASE_SLOT);
	run.stretch_long_laps = 1;
	announce_long_size(c, bytes, s->last_ns, run.partial_from_slots);
	mp_format_bytes(size_text, sizeof size_text, bytes);
	run.start = s->buf->base;
	run.slots = (size_t)(bytes / CHASE_SLOT);
	run.c = c;
	chase_build(run.start, run.slots, CHASE_SLOT, CYCLE_SEED);

	mp_snprintf(what, sizeof what, "latency, %s, %s", s->page_name, size_text);
	if (chase_run_measure(&run, CHASE_SLOT, what) != 0)
		return -1;
	fig.probe = PROBE_NAME;
	fig.variant = "chase";
	fig.page_shift = s->buf->page_shift;
	fig.working_set_bytes = bytes;
	trial_row_fill(&fig, &run.trials, run.stopped_by, run.form);
	fig.pages_verified = s->buf->verified;
	fig.sweep_point = point;
	emit_result_row(&fig);
	*ns = s->last_ns = fig.ns;
	report_table_cell("%s", size_text);
	trial_row_cells(&fig);
	if (run.laps_per_trial)
		report_table_cell("%llu", (unsigned long long)run.laps_per_trial);
	else
		report_table_cell("%.3f", (double)run.loads_per_trial / (double)run.slots);
	report_table_cell("%llu ms", (unsigned long long)plat_elapsed_ms());
	report_table_cell("%s", point);
	report_table_row(0);
	return 0;
}

/* 1 skipped (page size unavailable), 0 measured, -1 failed (reported). */
static int sweep_page_size(const struct config *c, unsigned shift)
{
	static struct sweep_curve curve;
	static struct cache_claims claims;
	struct sweep_state s = { c, NULL, NULL, 0, 0, &curve };
	struct plat_buffer buf;
	char page_name[48], caption[64];
	uint64_t largest, top = latency_sweep_top(c, &largest);
	unsigned k, first = 0, last = 0;
	int status;

	/* The claim whatever set the top (max_size too): past four times it
	   every load misses, and trials may be partial laps. */
	plat_cache_claims(&claims);
	s.largest_claim = claims_largest_cache(&claims);

	if (top > LATENCY_SETTINGS(c)->max_buffer)
		top = LATENCY_SETTINGS(c)->max_buffer;
	sweep_range(c->min_size, top, &first, &last);
	page_size_name(page_name, sizeof page_name, shift);
	status = sweep_buffer_get(PROBE_NAME, &buf, shift, page_name, first, &last);
	if (status != 0)
		return status;
	s.buf = &buf;
	s.page_name = page_name;
	page_buffer_report(PROBE_NAME, page_name, &buf);
	sweep_curve_begin(&curve, &(struct sweep_spec){
		.name = PROBE_NAME, .page_name = page_name, .unit = CHASE_SLOT, .refine = 1,
		.revisit = 1, .measure = measure_size, .ctx = &s });
	for (k = first; k <= last; k++)
		if (!sweep_grid_skips(k, s.largest_claim, sweep_bytes(last)))
			sweep_grid_add(&curve, sweep_bytes(k));
	mp_snprintf(caption, sizeof caption, "latency, %s", page_name);
	status = sweep_curve_run(&curve, &sweep_table, caption);
	plat_buffer_put(&buf);
	return status;
}

/* ---- Public Functions ------------------------------------------------- */

int probe_latency(const struct config *c)
{
	char top_text[24], cap_text[24], claim_text[24], floor_text[24];
	uint64_t largest, top = latency_sweep_top(c, &largest);
	unsigned first = 0, last = 0;

	mp_format_bytes(top_text, sizeof top_text, top);
	mp_format_bytes(cap_text, sizeof cap_text, LATENCY_SETTINGS(c)->max_buffer);
	mp_format_bytes(claim_text, sizeof claim_text, largest);
	mp_format_bytes(floor_text, sizeof floor_text,
			c->profile == PROFILE_FULL ? LATENCY_TOP_FULL : LATENCY_TOP_QUICK);
	if (c->max_size)
		report_printf("latency: the sweep's top is max_size = %s\n", top_text);
	else if (largest)
		report_printf("latency: the sweep's top is %s, the first grid size at or past 4 x "
			      "the largest cache the CPU claims (%s) and at least the %s profile's "
			      "%s\n", top_text, claim_text,
			      c->profile == PROFILE_FULL ? "full" : "quick", floor_text);
	else
		report_printf("latency: the sweep's top is %s: the CPU claims no cache, so the %s "
			      "profile's own top\n", top_text,
			      c->profile == PROFILE_FULL ? "full" : "quick");
	if (top > LATENCY_SETTINGS(c)->max_buffer) {
		report_printf("latency: the memory cap, latency.max_buffer = %s, stops the sweep "
			      "short of it%s\n", cap_text,
			      largest ? ": the last claimed cache's edge may have no plateau of "
			      "memory past it" : "");
		top = LATENCY_SETTINGS(c)->max_buffer;
	} else {
		report_printf("latency: the memory cap is latency.max_buffer = %s; what the "
			      "machine can give caps the sweep too, and is said so\n", cap_text);
	}
	if (!sweep_range(c->min_size, top, &first, &last)) {
		report_printf("latency: no working set of the sweep (4 KiB .. 1 TiB) lies in "
			      "min_size .. the top: nothing measured\n");
		return -1;
	}
	report_printf("latency: dependent-load chase, one random cycle of %u-byte slots, "
		      "%u loads per loop iteration; per size at least %u trials of >= %.0f ms "
		      "(whole laps, at least %u, after a warm-up lap; where a lap holds %u trials or "
		      "more, stretches of the cycle after that lap, or, where it holds %u times "
		      "thrice max_trials stretches, after the region warm-up instead of the lap: "
		      "the stretches' lines followed, every other line loaded once in a scrambled "
		      "order, a settling stretch; from 4 x the largest claimed "
		      "cache (else the last edge found) up, a warm-up of one lap at that size (past "
		      "it the links checked by a scan, the buffer flushed from every cache and a "
		      "stretch of a load per 4 KiB) and then stretches; a stretch >= %u loads), "
		      "stop when the best three agree within %.1f%% (settled) or "
		      "%u more trials moved the best by less (steady), at most %u trials or, past "
		      "%u, %.0f ms of trials; figure = best trial; after the grid, sizes refined "
		      "between the two that bracket each edge (eighths of an octave) until it is "
		      "pinned or shown smeared\n",
		      CHASE_SLOT, CHASE_UNROLL, c->trials, c->step_ms, CHASE_TRIAL_LAPS_MIN,
		      CHASE_LONG_LAP_TRIALS, CHASE_REGION_LAPS, CHASE_PARTIAL_LOADS_MIN, c->precision * 100,
		      trials_steady_span(c->trials), c->max_trials, c->trials, c->max_trials * c->step_ms);
	return page_sizes_each(PROBE_NAME, c, sweep_page_size);
}

/* One buffer: the sweep's top (sweep.c), within latency.max_buffer. */
static unsigned latency_holds(const struct config *c, unsigned page_shift,
			      struct probe_hold out[PROBE_HOLDS_MAX])
{
	uint64_t largest, top = latency_sweep_top(c, &largest);
	uint64_t cap = LATENCY_SETTINGS(c)->max_buffer;

	out[0] = (struct probe_hold){ top < cap ? top : cap, page_shift, 1 };
	return 1;
}

/* Per page size the platform can give: the buffer faulted in and filled,
   and each grid size's chase that fits what it can give now (its trials
   partial laps from 4 x the largest claim up); the refined sizes between
   grid points are left out. */
static void latency_cost(const struct config *c, struct probe_cost *cost)
{
	static struct cache_claims claims;
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	uint64_t largest, top = latency_sweep_top(c, &largest);
	uint64_t partial, largest_claim;
	unsigned first = 0, last = 0;

	plat_cache_claims(&claims);
	largest_claim = claims_largest_cache(&claims);
	partial = chase_partial_from(largest_claim, 0, CHASE_SLOT);
	if (top > LATENCY_SETTINGS(c)->max_buffer)
		top = LATENCY_SETTINGS(c)->max_buffer;
	if (!sweep_range(c->min_size, top, &first, &last))
		return;
	for (unsigned p = 0; p < nshifts; p++) {
		uint64_t fits = plat_buffer_max(shifts[p]);

		cost->bytes += (double)(sweep_bytes(last) < fits ? sweep_bytes(last) : fits);
		for (unsigned k = first; k <= last && sweep_bytes(k) <= fits; k++) {
			uint64_t slots = sweep_bytes(k) / CHASE_SLOT;

			if (sweep_grid_skips(k, largest_claim, sweep_bytes(last)))
				continue;
			chase_run_cost(c, slots, partial && slots >= partial ? CHASE_COST_PARTIAL :
				       chase_long_lap((double)slots, 0, c->step_ms) ?
				       CHASE_COST_STRETCHES : CHASE_COST_LAPS, cost);
		}
	}
}

/* Buffers of at most 8 GiB in both profiles (as tlb's full one), so the
   quick profile too reaches memory's floor, four times the largest claimed
   cache: a hypervisor's 508 MiB L3 claim puts it at 2 GiB, whose one point
   is a partial lap (chase_partial_from). What the machine can give (its
   free memory, a cgroup's limit, the firmware's map) caps the sweep below
   that, and the report says where. */
static const struct config_key latency_keys[] = {
	{ "max_buffer", KIND_SIZE, SETTING(struct latency_settings, max_buffer), 4096,
	  PROBE_BUFFER_MAX, 4096, "8GiB", "8GiB", 0, 0, NULL },
};

PROBE_DEFINE(latency, 10) = {
	.config = { .name = "latency", .profiles = PROBE_IN_QUICK | PROBE_IN_FULL,
		    PROBE_KEYS(latency_keys, struct latency_settings, 0) },
	.run = probe_latency,
	.holds = latency_holds,
	.rows_read = ROWS_LATENCY_CURVE,
	.cost = latency_cost,
};
