/* The timed chase shared by the latency and tlb probes (see chase_run.h). */

#include "probes/chase.h"
#include "probes/chase_run.h"
#include "results/results.h"
#include "core/timebase.h"

/* ---- Constants -------------------------------------------------------- */

/* The untimed warm-up runs whole laps and at least this many loads, so the
   lap time it yields is long enough to size a trial by even at 4 KiB. */
#define WARM_LOADS_MIN 65536u
/* chase_build_cost: the shuffle's random swaps a dependent load's time
   covers. */
#define BUILD_SWAPS_AT_ONCE 4.0

/* ---- Private Data ----------------------------------------------------- */

/* The chain's last pointer goes here, so no load of it is dead code. */
static void *volatile chase_sink;

/* ---- Private Functions ------------------------------------------------ */

/* The fewest laps that make whole blocks of CHASE_UNROLL loads: a lap of 12
   slots needs 4 laps (48 loads, 3 blocks). CHASE_UNROLL is a power of two. */
static uint64_t laps_per_block_unit(size_t slots)
{
	uint64_t unit = CHASE_UNROLL;

	while (unit > 1 && slots % 2 == 0) {
		slots /= 2;
		unit /= 2;
	}
	return unit;
}

static uint64_t round_up(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

/* A stretch's loads: trial_loads (step_ms at the lap's rate; 0 unknown),
   at least CHASE_PARTIAL_LOADS_MIN. */
static double stretch_loads(double trial_loads)
{
	return trial_loads > CHASE_PARTIAL_LOADS_MIN ? trial_loads : CHASE_PARTIAL_LOADS_MIN;
}

/* Whether a lap of `slots` loads holds CHASE_LONG_LAP_TRIALS stretches of
   `loads` each (stretch_loads). The one rule of chase_run_trials and
   chase_long_lap. */
static int holds_stretches(double slots, double loads)
{
	return slots >= loads * CHASE_LONG_LAP_TRIALS;
}

/* The stretches the trials may run: twice max_trials, so that trials
   measured again after a disturbance (the EFI build counts them) stay
   inside the region too. */
static uint64_t trial_region_loads(const struct config *c, uint64_t loads)
{
	return 2 * (uint64_t)c->max_trials * round_up(loads, CHASE_UNROLL);
}

/* The region warm-up's loads from start: a settling stretch of half the
   trials' region (chase_run.h), then the trials' region. */
static uint64_t region_loads(const struct config *c, uint64_t loads)
{
	return trial_region_loads(c, loads) / 2 * 3;
}

/* Whether a lap of `slots` loads holds CHASE_REGION_LAPS regions for
   stretches of `loads` each (region_loads). The one rule of warm_region,
   region_may_apply and chase_region_lap. */
static int holds_regions(double slots, const struct config *c, uint64_t loads)
{
	return slots >= (double)region_loads(c, loads) * CHASE_REGION_LAPS;
}

/* Whether run could take the region warm-up: stretches asked, below the
   flushed warm-up's sizes, and a lap that holds CHASE_REGION_LAPS of the
   shortest region (stretches of CHASE_PARTIAL_LOADS_MIN). */
static int region_may_apply(const struct chase_run *run)
{
	return run->stretch_long_laps &&
	       !(run->partial_from_slots && run->slots > run->partial_from_slots) &&
	       holds_regions((double)run->slots, run->c, CHASE_PARTIAL_LOADS_MIN);
}

/* The region warm-up (chase_run.h, region_marks): 1 done, with the ticks
   a load took at its start in *load_ticks and where the trials start in
   *from; 0 where a lap does not hold CHASE_REGION_LAPS regions at the rate
   measured (nothing changed but the links checked and some loads
   followed: the caller warms up by laps); -1 broken (run->cycle_broken
   set). */
static int warm_region(struct chase_run *run, double *load_ticks, void **from)
{
	uint64_t t0, t1, loads, region, settle, touched;

	if (chase_scan_links(run->start, run->slots, run->broken_why,
			     sizeof run->broken_why) != 0) {
		run->cycle_broken = 1;
		return -1;
	}
	t0 = plat_ticks();
	chase_follow(run->start, CHASE_PARTIAL_LOADS_MIN / CHASE_UNROLL);
	t1 = plat_ticks();
	*load_ticks = (double)(t1 - t0) / CHASE_PARTIAL_LOADS_MIN;
	loads = (uint64_t)stretch_loads((double)ms_to_ticks(run->c->step_ms) /
					(*load_ticks > 0 ? *load_ticks : 1));
	if (!holds_regions((double)run->slots, run->c, loads))
		return 0;
	region = region_loads(run->c, loads);
	settle = region - trial_region_loads(run->c, loads);
	for (size_t w = 0; w < chase_region_marks_bytes(run->slots) / sizeof *run->region_marks; w++)
		run->region_marks[w] = 0;
	chase_follow_marking(run->start, run->start, region, run->region_marks);
	chase_sink = (void *)(uintptr_t)chase_touch_unmarked(run->start, run->slots,
							     run->region_marks, &touched);
	*from = chase_follow(run->start, settle / CHASE_UNROLL);
	return 1;
}

/* The untimed warm-up: whole laps coming home to start (the cycle's check);
   or past partial_from_slots a scan of the links, the buffer flushed from
   every cache and a stretch of one load per 4 KiB of it; or, with
   region_marks where a lap is long, the region's (chase_run.h). Where the
   chain stands after it, and the ticks a lap takes at the rate it ran in
   *lap_ticks; NULL when the cycle is broken (run->cycle_broken set). */
static void *warm_up(struct chase_run *run, uint64_t *lap_ticks)
{
	uint64_t loads, laps, t0, t1;
	double load_ticks = 0;
	int region;
	void *p;

	if (run->partial_from_slots && run->slots > run->partial_from_slots) {
		if (chase_scan_links(run->start, run->slots, run->broken_why,
				     sizeof run->broken_why) != 0) {
			run->cycle_broken = 1;
			return NULL;
		}
		plat_data_flush(run->start, run->slots * CHASE_SLOT);
		loads = run->slots * CHASE_SLOT / CHASE_WARM_PAGE_BYTES;
		loads = round_up(loads > WARM_LOADS_MIN ? loads : WARM_LOADS_MIN, CHASE_UNROLL);
		t0 = plat_ticks();
		p = chase_follow(run->start, loads / CHASE_UNROLL);
		t1 = plat_ticks();
		load_ticks = (double)(t1 - t0) / (double)loads;
	} else if ((region = run->stretch_long_laps && run->region_marks
				     ? warm_region(run, &load_ticks, &p) : 0) != 0) {
		if (region < 0)
			return NULL;
		run->region_warm_up = 1;
	} else {
		laps = round_up((WARM_LOADS_MIN + run->slots - 1) / run->slots,
				laps_per_block_unit(run->slots));
		t0 = plat_ticks();
		p = chase_follow(run->start, laps * run->slots / CHASE_UNROLL);
		t1 = plat_ticks();
		if (p != run->start) {
			run->cycle_broken = 1;
			return NULL;
		}
		load_ticks = (double)(t1 - t0) / (double)(laps * run->slots);
	}
	*lap_ticks = (uint64_t)(load_ticks * (double)run->slots);
	if (!*lap_ticks)
		*lap_ticks = 1;
	return p;
}

/* A run's record emptied before a measurement: what a fault or a broken
   cycle leaves behind must never read as this size's result. */
static void run_reset(struct chase_run *run)
{
	run->cycle_broken = 0;
	run->region_warm_up = 0;
	run->broken_why[0] = '\0';
	run->stopped_by = "-";
	run->laps_per_trial = 0;
	run->loads_per_trial = 0;
	run->form = CHASE_FORM_LAPS;
	trials_init(&run->trials);
}

/* The timed section. max_trials bounds the time as well as the count: past
   the first `trials`, a size gets no more trial time than max_trials *
   step_ms (trials_stop). */
void chase_run_trials(void *arg)
{
	struct chase_run *run = arg;
	uint64_t unit = laps_per_block_unit(run->slots);
	uint64_t t0, t1, lap_ticks, target, budget, blocks, loads, spent = 0;
	struct plat_disturbances before, after;
	void *p;

	run_reset(run);
	p = warm_up(run, &lap_ticks);
	if (!p)
		return;
	target = ms_to_ticks(run->c->step_ms);
	loads = (uint64_t)stretch_loads((double)target / (double)lap_ticks * (double)run->slots);
	if ((run->partial_from_slots && run->slots >= run->partial_from_slots) ||
	    run->region_warm_up ||
	    (run->stretch_long_laps && holds_stretches((double)run->slots, (double)loads))) {
		/* A stretch of loads sized to step_ms, at the lap's rate, in
		   whole blocks; it may end anywhere in the cycle, and the next
		   one goes on from there. */
		blocks = (loads + CHASE_UNROLL - 1) / CHASE_UNROLL;
		run->form = CHASE_FORM_PARTIAL;
		run->laps_per_trial = 0;
	} else {
		run->laps_per_trial = (target + lap_ticks - 1) / lap_ticks;
		if (run->laps_per_trial < CHASE_TRIAL_LAPS_MIN)
			run->laps_per_trial = CHASE_TRIAL_LAPS_MIN;
		run->laps_per_trial = round_up(run->laps_per_trial, unit);
		blocks = run->laps_per_trial * run->slots / CHASE_UNROLL;
		run->form = CHASE_FORM_LAPS;
	}
	run->loads_per_trial = blocks * CHASE_UNROLL;

	budget = target * run->c->max_trials;

	trials_init(&run->trials);
	for (;;) {
		plat_disturbances(&before);
		t0 = plat_ticks();
		p = chase_follow(p, blocks);
		t1 = plat_ticks();
		plat_disturbances(&after);
		spent += t1 - t0;
		/* A disturbed trial is dropped: the loop measures again. */
		if (!trials_add_checked(&run->trials,
					ticks_to_ns(t1 - t0) /
					(double)run->loads_per_trial,
					&before, &after))
			continue;
		run->stopped_by = trials_stop(&run->trials, run->c, spent, budget);
		if (run->stopped_by)
			break;
	}
	chase_sink = p;
}

/* ---- Public Functions ------------------------------------------------- */

int chase_run_measure(struct chase_run *run, size_t page_bytes, const char *what)
{
	struct plat_fault fault;
	size_t marks_bytes = chase_region_marks_bytes(run->slots);
	int status;

	/* NULL (none may apply, or no memory for them): whole laps. */
	run->region_marks = page_bytes == CHASE_SLOT && region_may_apply(run)
				    ? plat_alloc(marks_bytes) : NULL;
	run_reset(run);
	status = plat_timed(chase_run_trials, run, &fault);
	if (run->region_marks)
		plat_free(run->region_marks, marks_bytes);
	run->region_marks = NULL;
	if (status != 0) {
		report_printf("%s: FAULT: %s\n", what, fault.text);
		return -1;
	}
	return chase_run_verdict(run, page_bytes, what);
}

size_t chase_region_marks_bytes(size_t slots)
{
	return (slots + 63) / 64 * sizeof(uint64_t);
}

void *chase_settle_past_caches(void *base, uint64_t bytes)
{
	plat_data_flush(base, bytes);
	return chase_follow(base, bytes / CHASE_WARM_PAGE_BYTES / CHASE_UNROLL + 1);
}

uint64_t chase_partial_from(uint64_t largest_claim, uint64_t last_edge, uint64_t slot_bytes)
{
	uint64_t from = largest_claim ? largest_claim : last_edge;

	if (!from || !slot_bytes || from > UINT64_MAX / 4)
		return 0;
	return from * 4 / slot_bytes;
}

int chase_run_verdict(const struct chase_run *run, size_t page_bytes, const char *what)
{
	char why[160];

	if (run->cycle_broken && run->broken_why[0]) {
		report_printf("%s: the chase's links are broken (%s): not measured\n", what,
			      run->broken_why);
		return -1;
	}
	if (run->cycle_broken) {
		chase_check(run->start, run->slots, page_bytes, why, sizeof why);
		report_printf("%s: the chase did not return to its start after whole laps (%s): "
			      "not measured\n", what, why);
		return -1;
	}
	return 0;
}

int chase_long_lap(double slots, double ns, double step_ms)
{
	return holds_stretches(slots, stretch_loads(ns > 0 ? step_ms * 1e6 / ns : 0));
}

int chase_region_lap(double slots, double ns, const struct config *c)
{
	return holds_regions(slots, c, (uint64_t)stretch_loads(ns > 0 ? c->step_ms * 1e6 / ns : 0));
}

void chase_build_cost(uint64_t slots, struct probe_cost *cost)
{
	/* The build writes every slot in order, then swaps them at random,
	   its writes prefetched ahead: on an Emerald Rapids VM the shuffle
	   took about a quarter of a dependent load's time a slot past the
	   caches (4 KiB pages). */
	probe_cost_streamed(cost, (double)(slots * CHASE_SLOT), slots * CHASE_SLOT);
	probe_cost_loads(cost, (double)slots / BUILD_SWAPS_AT_ONCE, slots * CHASE_SLOT);
}

/* The trials a point runs, midway between c->trials and c->max_trials. */
static double cost_trials(const struct config *c)
{
	return (c->trials + (c->max_trials > c->trials ? c->max_trials : c->trials)) / 2.0;
}

double chase_point_ms(const struct config *c)
{
	return cost_trials(c) * c->step_ms;
}

void chase_run_cost(const struct config *c, uint64_t slots, enum chase_cost_form form,
		    struct probe_cost *cost)
{
	double trials = cost_trials(c);
	double warm = slots > WARM_LOADS_MIN ? (double)slots : (double)WARM_LOADS_MIN;
	uint64_t bytes = slots * CHASE_SLOT;

	chase_build_cost(slots, cost);
	switch (form) {
	case CHASE_COST_LAPS:
		probe_cost_loads(cost, warm + trials * (double)slots, bytes);
		break;
	case CHASE_COST_STRETCHES:
		probe_cost_loads(cost, (double)slots / CHASE_REGION_LAPS +
				 trials * CHASE_PARTIAL_LOADS_MIN, bytes);
		probe_cost_streamed(cost, (double)bytes, bytes);
		break;
	case CHASE_COST_PARTIAL:
		probe_cost_loads(cost, (double)(bytes / CHASE_WARM_PAGE_BYTES) +
				 trials * CHASE_PARTIAL_LOADS_MIN, bytes);
		probe_cost_streamed(cost, (double)bytes, bytes);
		break;
	}
	cost->ms += chase_point_ms(c);
}
