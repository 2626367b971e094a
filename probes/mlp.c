/* The mlp probe: memory-level parallelism. k = 1, 2, 3, ... independent
 * chases interleaved in one timed loop, at one working set per level of
 * the hierarchy and once per page size: ns per load, and loads in flight
 * (ns per load at k = 1 over ns per load at k), up to where the time per
 * load stops falling; per level the plateau and what bounds it; and the
 * same over one line per page past the last TLB's reach with 4 KiB and
 * 2 MiB pages, whose difference bounds the page walks the core runs at
 * once. docs/METHOD.md, "The mlp probe", gives the method and its limits.
 */

#include "analysis/analysis.h"
#include "analysis/mlp_read.h"
#include "core/platform.h"
#include "core/probe.h"
#include "core/timebase.h"
#include "lib/fmt.h"
#include "lib/machine.h"
#include "probes/chase.h"
#include "probes/chase_run.h"
#include "probes/level_pick.h"
#include "probes/mlp_chart.h"
#include "probes/mlp_kernel.h"
#include "probes/mlp_settings.h"
#include "probes/page_sizes.h"
#include "probes/sweep.h"
#include "results/emit.h"
#include "results/report_table.h"
#include "results/results.h"
#include "results/trial_row.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_mlp.config.name)

/* ---- Constants -------------------------------------------------------- */

#define CYCLE_SEED 0x13198a2e03707344ull
/* Without any cache known, memory's working set. */
#define MEMORY_UNKNOWN_BYTES (256ull << 20)
/* The page-walk chase: past four times the largest TLB claimed, and at
   least this many pages (one line each, 4 KiB apart). */
#define WALK_PAGES_MIN 16384u
#define WALK_STRIDE 4096u
/* After a curve's first point, the warm-up is this many loads: the lap
   before it left the lines where they stay. */
#define WARM_LOADS 16384u
/* Beyond mlp.chases, k grows while loads in flight grow by this much. */
#define GROWTH_MIN 0.03

static const struct table_column point_columns[] = {
	{ "chases", NULL, 6, 0, 0 },
	TRIAL_COLUMNS("ns/load", 10, 9),
	{ "in flight", NULL, 9, 0, 0 },
	{ "pointers", NULL, 9, 1, 0 },
};
static const struct table point_table = TABLE_OF(point_columns, "  ");

/* ---- Private Types ---------------------------------------------------- */

/* One point's timed section: k chases over one built cycle. */
struct point_run {
	void *base;
	size_t slots, layout_bytes;
	unsigned k;
	int warm_lap;             /* warm up with a whole lap first (a curve's first
				     point); cleared after it: the lines stay where
				     it left them */
	int flush_first;          /* past every cache: the first warm-up flushes
				     the span and loads once per 4 KiB instead */
	const struct config *c;
	struct chase_rng rng;     /* each point's turn of the cycle */
	void *ptr[MLP_CHASES_MAX];
	struct trials trials;     /* ns per load */
	uint64_t steps;           /* of each chase, per trial */
	const char *stopped_by;
};

/* ---- Private Data ----------------------------------------------------- */

static struct level_picks picks;
static uint64_t walk_pages;
/* sweep_past_caches of the largest cache (claimed, else found): a working set
   from here up has no part any cache holds; 0 where none is known. */
static uint64_t past_caches_from;
/* Every curve measured this run: the chart's and the page walks'. */
static struct mlp_curves curves;
/* The run's analysis of the probes before this one (NULL: none). */
static const struct analysis *before;
/* Static, not on the stack: the firmware's stack is small. */
static struct point_run point;
static void *volatile chase_sink;

/* ---- Private Functions ------------------------------------------------ */

static uint64_t round_up(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

/* The largest TLB the CPU claims, entries; 0 none. */
static unsigned largest_tlb(const struct cache_claims *claims)
{
	unsigned most = 0;

	for (unsigned i = 0; i < claims->ntlbs; i++)
		if (claims->tlb[i].kind != TLB_INSTRUCTION && claims->tlb[i].entries > most)
			most = claims->tlb[i].entries;
	return most;
}

/* Memory's working set: mlp.memory_size, else the latency sweep's first
   size at or past sweep_past_caches of the largest cache (largest, bytes; 0:
   none known), so that the one-chase figure there is held against the
   latency probe's own reading at that size and page size: at 4x an
   Emerald Rapids VM's 300 MiB claim, 1200 MiB, the 4 KiB chase read 165
   ns and was shown beside the latency probe's memory level, 111 ns, read
   with 2 MiB pages at 2 GiB. */
static uint64_t memory_bytes(const struct config *c, uint64_t largest)
{
	if (MLP_SETTINGS(c)->memory_size)
		return MLP_SETTINGS(c)->memory_size;
	return largest ? sweep_auto_top(0, largest) : MEMORY_UNKNOWN_BYTES;
}

/* The working sets: the latency probe's levels when it ran in this run,
   else the claims (level_pick.h); memory past SWEEP_PAST_CACHES_FACTOR x the largest
   cache. */
static void choose_levels(const struct config *c)
{
	static struct cache_claims claims;
	uint64_t largest;

	before = analysis_so_far();
	plat_cache_claims(&claims);
	level_picks_caches(&picks, before, &claims);
	/* Memory from the claim where there is one, as mlp_holds sizes the
	   buffer: a latency edge past every cache (a VM's host caches) would
	   ask for more than the bare-metal app mapped. */
	largest = picks.largest_claimed ? picks.largest_claimed : picks.largest_found;
	while (picks.count && picks.level[picks.count - 1].bytes * 2 > largest)
		picks.count--;
	level_picks_add_memory(&picks, memory_bytes(c, largest));
	past_caches_from = sweep_past_caches(largest);
	walk_pages = (uint64_t)largest_tlb(&claims) * 4;
	walk_pages = walk_pages > WALK_PAGES_MIN ? walk_pages : WALK_PAGES_MIN;
}

/* The level's read bandwidth from the bandwidth probe in this run; 0 when
   it did not run before this one. */
static double bandwidth_at(unsigned shift, uint64_t bytes)
{
	return before ? mlp_level_bandwidth(&before->bw, shift, bytes) : 0;
}

/* The warm-up and the trials of one point, inside plat_timed. */
static void point_trials(void *arg)
{
	struct point_run *r = arg;
	uint64_t warm, t0, t1, target, budget, steps_min, spent = 0;
	size_t turn;
	struct plat_disturbances d0, d1;
	double step_ticks;

	/* A turn of the cycle drawn afresh for each point: chases that
	   started where the last point's did would walk the lines it just
	   left in the caches, and past the caches read them as hits. */
	turn = (size_t)chase_rng_below(&r->rng, r->slots);
	for (unsigned j = 0; j < r->k; j++)
		r->ptr[j] = mlp_start(r->base, r->slots, r->layout_bytes, turn, j, r->k);
	/* A lap of every chase together covers the cycle: each line loaded
	   once before timing, so a cache level is read warm. Past every
	   cache the span is flushed from the caches instead, as the latency
	   probe's chase is there (chase_run.h), and a load per 4 KiB settles
	   the TLBs and page walks: a lap of 2 GiB took 15 s on the Zen 5 VM. */
	warm = WARM_LOADS;
	if (r->warm_lap && r->flush_first) {
		plat_data_flush(r->base, r->slots * r->layout_bytes);
		if (r->slots * r->layout_bytes / CHASE_WARM_PAGE_BYTES > warm)
			warm = r->slots * r->layout_bytes / CHASE_WARM_PAGE_BYTES;
	} else if (r->warm_lap) {
		warm = r->slots;
	}
	warm = (warm + r->k - 1) / r->k;
	warm = round_up(warm, MLP_UNROLL);
	r->warm_lap = 0;
	t0 = plat_ticks();
	mlp_follow(r->ptr, r->k, warm);
	t1 = plat_ticks();
	step_ticks = (double)(t1 - t0) / (double)warm;
	target = ms_to_ticks(r->c->step_ms);
	/* At least the latency probe's partial trial, in loads over every
	   chase: at memory on this project's VMs trials of 1 ms read a
	   quarter of what trials of 16384 loads and more do (bench/, METHOD),
	   so the one-chase point would not be the latency probe's. */
	steps_min = (CHASE_PARTIAL_LOADS_MIN + r->k - 1) / r->k;
	r->steps = step_ticks > 0 ? (uint64_t)((double)target / step_ticks) : steps_min;
	r->steps = round_up(r->steps > steps_min ? r->steps : steps_min, MLP_UNROLL);
	budget = target * r->c->max_trials;
	trials_init(&r->trials);
	for (;;) {
		plat_disturbances(&d0);
		t0 = plat_ticks();
		mlp_follow(r->ptr, r->k, r->steps);
		t1 = plat_ticks();
		plat_disturbances(&d1);
		spent += t1 - t0;
		if (!trials_add_checked(&r->trials,
					ticks_to_ns(t1 - t0) / (double)(r->steps * r->k), &d0, &d1))
			continue;
		r->stopped_by = trials_stop(&r->trials, r->c, spent, budget);
		if (r->stopped_by)
			break;
	}
	chase_sink = r->ptr[0];
}

/* The k after k: one by one to 16, then by twos to 32, then by eights. */
static unsigned next_k(unsigned k)
{
	return k < 16 ? k + 1 : k < 32 ? k + 2 : k + 8;
}

/* One point: its row, its table line, its place in curve. 0, or -1 on a
   fault (reported). */
static int measure_point(struct mlp_curve *curve, const char *what)
{
	struct plat_fault fault;
	struct result_row row = { 0 };

	if (plat_timed(point_trials, &point, &fault) != 0) {
		report_printf("%s, %u chases: FAULT: %s\n", what, point.k, fault.text);
		return -1;
	}
	curve->k[curve->n] = point.k;
	curve->ns[curve->n] = trials_best(&point.trials);
	curve->n++;
	row.probe = PROBE_NAME;
	row.variant = curve->level;
	row.page_shift = curve->page_shift;
	row.working_set_bytes = curve->bytes;
	trial_row_fill(&row, &point.trials, point.stopped_by, NULL);
	row.chases = (struct optional_count){ 1, point.k };
	row.in_flight = (struct optional_real){ mlp_in_flight(curve, curve->n - 1), 1 };
	emit_result_row(&row);
	report_table_cell("%u", point.k);
	trial_row_cells(&row);
	report_table_cell("%.2f", row.in_flight.value);
	report_table_cell("%s", mlp_in_registers(point.k) ? "registers" : "memory");
	report_table_row(0);
	return 0;
}

/* The index of k in curve (present). */
static size_t over_index(const struct mlp_curve *curve, unsigned k)
{
	size_t i = 0;

	while (i + 1 < curve->n && curve->k[i] != k)
		i++;
	return i;
}

/* The report's line on a curve's plateau and its bound; the one-chase
   figure beside the latency probe's reading at this working set and page
   size where it has one near, else on the line between its sizes either
   side (level_pick_latency_between), else beside the level's figure. A chase of
   one line per page (layout_bytes past CHASE_SLOT) touches a 64th of the
   lines the latency probe's does over the same span, so no figure of that
   probe is its own: the page-walk chase over 64 MiB read 67 ns where the
   latency probe read 193 at 64 MiB, and was shown as -65 %. */
static void report_plateau(const struct mlp_curve *curve, const char *what, double gb_per_s,
			   double level_ns, unsigned shift, size_t layout_bytes)
{
	struct mlp_plateau p;
	enum mlp_bound b;
	uint64_t at = 0, lo = 0, hi = 0;
	double near = layout_bytes == CHASE_SLOT
			      ? level_pick_latency_near(before, shift, curve->bytes, &at) : 0;
	double cycles, between = layout_bytes == CHASE_SLOT && near <= 0
		? level_pick_latency_between(before, shift, curve->bytes, &lo, &hi, &cycles) : 0;
	char size[24], span[64];

	mlp_plateau_find(curve, &p);
	b = mlp_bound_of(&p, gb_per_s);
	if (!p.known)
		return;
	report_printf("%s: plateau %.1f loads in flight from %u chases (measured to %u); "
		      "1 chase %.2f ns a load", what, p.in_flight, p.k, p.k_last, p.ns_one);
	mp_format_bytes(size, sizeof size, at);
	if (near > 0)
		/* The sign by hand: the firmware's formatter has no '+' flag. */
		report_printf(" (the latency probe at %s: %.2f ns, %s%.1f%%)", size, near,
			      p.ns_one < near ? "-" : "+",
			      (p.ns_one < near ? near - p.ns_one : p.ns_one - near) / near * 100);
	else if (layout_bytes != CHASE_SLOT)
		report_printf(" (one line per %llu bytes: the latency probe has no figure of "
			      "this layout)", (unsigned long long)layout_bytes);
	else if (between > 0) {
		level_pick_between_text(span, sizeof span, lo, hi);
		report_printf(" (the latency probe %s: %.2f ns, %s%.1f%%)", span,
			      between, p.ns_one < between ? "-" : "+",
			      (p.ns_one < between ? between - p.ns_one : p.ns_one - between) /
			      between * 100);
	} else if (level_ns > 0)
		report_printf(" (the latency probe's level: %.2f ns)", level_ns);
	report_printf("\n%s: bound: ", what);
	switch (b) {
	case MLP_BOUND_INCONSISTENT:
		report_printf("none: INCONSISTENT: %.1f loads in flight at %u chases, more than "
			      "the chases: the one-chase time is not this working set's (a level "
			      "that moved under the run, or a disturbed point); the curve's figures "
			      "do not hold\n", mlp_in_flight(curve, over_index(curve, p.over_k)),
			      p.over_k);
		break;
	case MLP_BOUND_NOT_REACHED:
		report_printf("not reached: still rising at %u chases\n", p.k_last);
		break;
	case MLP_BOUND_UNTOLD:
		report_printf("not told: no bandwidth figure at this working set in this run "
			      "(run the bandwidth probe before it)\n");
		break;
	case MLP_BOUND_BANDWIDTH:
		report_printf("the level's bandwidth: %.1f GB/s read x %.2f ns allows %.1f lines in "
			      "flight, and the chases reach %.0f%% of it\n", gb_per_s, p.ns_one,
			      mlp_bandwidth_in_flight(gb_per_s, p.ns_one),
			      100 * p.in_flight / mlp_bandwidth_in_flight(gb_per_s, p.ns_one));
		break;
	case MLP_BOUND_ABOVE:
		report_printf("not told: the chases keep more in flight than %.1f GB/s read x "
			      "%.2f ns allows (%.1f lines): the streaming read's figure is not this "
			      "level's limit for single loads\n", gb_per_s, p.ns_one,
			      mlp_bandwidth_in_flight(gb_per_s, p.ns_one));
		break;
	case MLP_BOUND_OUTSTANDING:
		report_printf("the loads the core keeps outstanding (miss buffers): %.1f GB/s read "
			      "x %.2f ns would allow %.1f in flight\n", gb_per_s, p.ns_one,
			      mlp_bandwidth_in_flight(gb_per_s, p.ns_one));
		break;
	}
}

/* One curve: the cycle built over bytes of buf (layout_bytes apart), then
   k = 1, 2, ... to mlp.chases and on while loads in flight still grow.
   0, or -1 on a fault. */
static int measure_curve(const struct config *c, const struct plat_buffer *buf, unsigned shift,
			 const struct level_pick *l, size_t layout_bytes)
{
	struct mlp_curve curve = { .page_shift = shift, .bytes = l->bytes };
	char page_name[32], size_text[24], what[96];
	double best = 0, gb_per_s = layout_bytes == CHASE_SLOT ? bandwidth_at(shift, l->bytes) : 0;

	mp_strlcpy(curve.level, l->name, sizeof curve.level);
	page_size_name(page_name, sizeof page_name, shift);
	mp_format_bytes(size_text, sizeof size_text, l->bytes);
	mp_snprintf(what, sizeof what, "mlp, %s, %s %s", page_name, l->name, size_text);
	point = (struct point_run){ .base = buf->base, .slots = l->bytes / layout_bytes,
				    .layout_bytes = layout_bytes, .c = c,
				    .warm_lap = 1,
				    .flush_first = past_caches_from && l->bytes >= past_caches_from };
	mlp_build(buf->base, point.slots, layout_bytes, CYCLE_SEED);
	chase_rng_seed(&point.rng, CYCLE_SEED + 1);
	report_table_begin(&point_table, what, NULL);
	for (unsigned k = 1; k <= MLP_CHASES_MAX && curve.n < MLP_POINTS_MAX; k = next_k(k)) {
		double v;

		point.k = k;
		if (measure_point(&curve, what) != 0) {
			report_table_end();
			return -1;
		}
		v = mlp_in_flight(&curve, curve.n - 1);
		if (k >= MLP_SETTINGS(c)->chases && v < best * (1 + GROWTH_MIN))
			break;
		best = v > best ? v : best;
	}
	report_table_end();
	report_plateau(&curve, what, gb_per_s, l->latency_ns, shift, layout_bytes);
	if (curves.n < MLP_CURVES_MAX)
		curves.curve[curves.n++] = curve;
	return 0;
}

/* Every level at one page size, and the page walks at 4 KiB and 2 MiB. */
static int run_page_size(const struct config *c, unsigned shift)
{
	struct plat_buffer buf;
	struct level_pick walk = { "page_walks", walk_pages * WALK_STRIDE, 0, 0 };
	char page_name[32];
	uint64_t need = picks.level[picks.count - 1].bytes, max;
	int walks = MLP_SETTINGS(c)->walks && (shift == PAGE_SHIFT_4K || shift == PAGE_SHIFT_2M);
	int status = 0;

	page_size_name(page_name, sizeof page_name, shift);
	max = page_buffer_max(PROBE_NAME, shift);
	if (max == 0)
		return 1;
	if (walks && walk.bytes > need)
		need = walk.bytes;
	if (max < need) {
		char fits[24];

		mp_format_bytes(fits, sizeof fits, max);
		report_printf("mlp, %s: the largest buffer that fits now, %s, is below the "
			      "largest working set: skipped\n", page_name, fits);
		return 1;
	}
	if (page_buffer_get(PROBE_NAME, &buf, need, shift) != 0)
		return -1;
	page_buffer_report(PROBE_NAME, page_name, &buf);
	for (unsigned i = 0; i < picks.count && status == 0; i++)
		status = measure_curve(c, &buf, shift, &picks.level[i], CHASE_SLOT);
	if (walks && status == 0)
		status = measure_curve(c, &buf, shift, &walk, WALK_STRIDE);
	plat_buffer_put(&buf);
	return status;
}

/* The page walks' line, from the page-walk curves at 4 KiB and 2 MiB. */
static void report_walks(void)
{
	const struct mlp_curve *small = mlp_curves_find(&curves, "page_walks", PAGE_SHIFT_4K);
	const struct mlp_curve *large = mlp_curves_find(&curves, "page_walks", PAGE_SHIFT_2M);
	struct mlp_plateau ps, pl;
	struct mlp_walks w;

	if (!small || !large) {
		report_printf("mlp: page walks in flight: not measured (needs both 4 KiB and "
			      "2 MiB pages)\n");
		return;
	}
	mlp_plateau_find(small, &ps);
	mlp_plateau_find(large, &pl);
	mlp_walks_find(&ps, &pl, &w);
	if (!w.known) {
		report_printf("mlp: page walks in flight: not seen: one chase at 4 KiB pages "
			      "(%.2f ns) costs no more than at 2 MiB (%.2f ns)\n", ps.ns_one,
			      pl.ns_one);
		return;
	}
	report_printf("mlp: page walks in flight: about %.1f at once (%.1f loads in flight at "
		      "4 KiB pages x the walk's share of a load, %.0f%%: 1 chase %.2f ns there, "
		      "%.2f ns at 2 MiB); %s\n", w.at_once, w.at_most, 100 * w.walk_share,
		      ps.ns_one, pl.ns_one,
		      w.limited ? "the walks limit it: 2 MiB pages reach more loads in flight "
				  "at the same working set" :
				  "not the limit: 2 MiB pages reach no more loads in flight, so "
				  "the core runs at least that many");
}

/* Per level, whether page walks bound its 4 KiB plateau: below
   MLP_WALK_LIMIT_SHARE of the same working set's at 2 MiB pages. */
static void report_level_walks(void)
{
	for (unsigned i = 0; i < picks.count; i++) {
		const char *name = picks.level[i].name;
		const struct mlp_curve *small = mlp_curves_find(&curves, name, PAGE_SHIFT_4K);
		const struct mlp_curve *large = mlp_curves_find(&curves, name, PAGE_SHIFT_2M);
		struct mlp_plateau ps, pl;

		if (!small || !large)
			continue;
		mlp_plateau_find(small, &ps);
		mlp_plateau_find(large, &pl);
		if (ps.known && pl.known && ps.in_flight < pl.in_flight * MLP_WALK_LIMIT_SHARE)
			report_printf("mlp, %s: at 4 KiB pages page walks bound it: %.1f in flight "
				      "against %.1f at 2 MiB pages over the same working set\n",
				      name, ps.in_flight, pl.in_flight);
	}
}

/* ---- Public Functions ------------------------------------------------- */

int probe_mlp(const struct config *c)
{
	char bytes[24];
	int status;

	choose_levels(c);
	curves.n = 0;
	mp_format_bytes(bytes, sizeof bytes, walk_pages * WALK_STRIDE);
	report_printf("mlp: k chases interleaved in one loop, each a k-th of one random cycle "
		      "over the working set's lines; ns per load over every chase; in flight = "
		      "ns/load at 1 chase over ns/load at k; k = 1 .. at least %u; working sets "
		      "half of each cache (or the middle of its plateau on the latency curve, "
		      "where that lies below), memory the latency sweep's first size at or past "
		      "%ux the largest, from %s; up to %u chases the "
		      "pointers are in registers, past that in memory (one more load and store "
		      "a step)\n", MLP_SETTINGS(c)->chases, SWEEP_PAST_CACHES_FACTOR, picks.from,
		      MLP_REGISTER_CHASES);
	if (MLP_SETTINGS(c)->walks)
		report_printf("mlp: page walks: one line per 4 KiB over %llu pages (%s), past 4x "
			      "the largest TLB claimed, at 4 KiB and at 2 MiB pages\n",
			      (unsigned long long)walk_pages, bytes);
	status = page_sizes_each(PROBE_NAME, c, run_page_size);
	report_level_walks();
	if (MLP_SETTINGS(c)->walks)
		report_walks();
	mlp_chart_write(&curves);
	return status;
}

/* The largest working set: memory's, or the page walks' when larger. */
static unsigned mlp_holds(const struct config *c, unsigned page_shift,
			  struct probe_hold out[PROBE_HOLDS_MAX])
{
	static struct cache_claims claims;
	uint64_t bytes;

	plat_cache_claims(&claims);
	bytes = memory_bytes(c, claims_largest_cache(&claims));
	if ((uint64_t)largest_tlb(&claims) * 4 * WALK_STRIDE > bytes)
		bytes = (uint64_t)largest_tlb(&claims) * 4 * WALK_STRIDE;
	if ((uint64_t)WALK_PAGES_MIN * WALK_STRIDE > bytes)
		bytes = (uint64_t)WALK_PAGES_MIN * WALK_STRIDE;
	out[0] = (struct probe_hold){ bytes, page_shift, 1 };
	return 1;
}

/* One working set's curve: its cycle built and warmed once, then a point
   for each k up to mlp.chases (chase_point_ms each). */
static void curve_cost(const struct config *c, uint64_t slots, struct probe_cost *cost)
{
	unsigned points = 0;

	for (unsigned k = 1; k <= MLP_SETTINGS(c)->chases; k = next_k(k))
		points++;
	chase_run_cost(c, slots, CHASE_COST_PARTIAL, cost);
	cost->ms += (points - 1) * chase_point_ms(c);
}

/* Per page size the platform can give: the buffer filled, a curve at half
   of each claimed data cache level and at memory, and at 4 KiB and 2 MiB
   the page walks' curve. */
static void mlp_cost(const struct config *c, struct probe_cost *cost)
{
	static struct cache_claims claims;
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	struct probe_hold hold[PROBE_HOLDS_MAX];
	uint64_t memory, walk;

	plat_cache_claims(&claims);
	memory = memory_bytes(c, claims_largest_cache(&claims));
	walk = (uint64_t)largest_tlb(&claims) * 4;
	walk = walk > WALK_PAGES_MIN ? walk : WALK_PAGES_MIN;
	for (unsigned p = 0; p < nshifts; p++) {
		mlp_holds(c, shifts[p], hold);
		cost->bytes += (double)hold[0].bytes;
		for (unsigned i = 0; i < claims.ncaches; i++)
			if (claims.cache[i].kind != CACHE_INSTRUCTION &&
			    claims.cache[i].size_bytes < memory)
				curve_cost(c, claims.cache[i].size_bytes / 2 / CHASE_SLOT, cost);
		curve_cost(c, memory / CHASE_SLOT, cost);
		if (MLP_SETTINGS(c)->walks &&
		    (shifts[p] == PAGE_SHIFT_4K || shifts[p] == PAGE_SHIFT_2M))
			curve_cost(c, walk, cost);
	}
}

static const struct config_key mlp_keys[] = {
	{ "chases", KIND_UINT, SETTING(struct mlp_settings, chases), 1, MLP_CHASES_MAX, 0,
	  "32", "32", 0, 0, NULL },
	{ "walks", KIND_YESNO, SETTING(struct mlp_settings, walks), 0, 0, 0, "yes", "yes",
	  0, 0, NULL },
	{ "memory_size", KIND_SIZE_AUTO, SETTING(struct mlp_settings, memory_size), 4096,
	  PROBE_BUFFER_MAX, 4096, "auto", "auto", 0, 0, NULL },
};

PROBE_DEFINE(mlp, 65) = {
	.config = { .name = "mlp", .profiles = PROBE_IN_FULL,
		    PROBE_KEYS(mlp_keys, struct mlp_settings, 0) },
	.run = probe_mlp,
	.holds = mlp_holds,
	.rows_read = ROWS_MLP,
	.cost = mlp_cost,
};
