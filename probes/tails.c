/* The tails probe: the distribution of single loads' latency at each
 * level's working set, not only its best trial. At half of each cache
 * level, or the middle of its plateau where that lies below (the latency
 * probe's levels where it ran before, else the claims:
 * level_pick.h) and at memory (the latency sweep's size past four times
 * the largest), a random chase is
 * timed in many short batches of a few loads (batches.h), the counter's
 * own cost subtracted: p50, p90, p99, p99.9 and the maximum, the batches
 * an interrupt, NMI, SMI or preemption hit marked and left out, and a
 * mode that stands apart (on bare metal, DRAM refresh) given its share
 * and size. docs/METHOD.md section 15.
 */

#include "analysis/analysis.h"
#include "probes/batches.h"
#include "probes/chase.h"
#include "probes/chase_run.h"
#include "probes/level_pick.h"
#include "results/emit.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"
#include "results/report_table.h"
#include "results/results.h"
#include "probes/sweep.h"
#include "probes/tails_chart.h"
#include "probes/tails_settings.h"
#include "core/timebase.h"
#include "lib/fmt.h"
#include "lib/machine.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_tails.config.name)

/* ---- Constants -------------------------------------------------------- */

/* The latency probe's seed: the same cycle as its at each size. */
#define CYCLE_SEED 0x243f6a8885a308d3ull

/* Memory's working set without any cache found or claimed. */
#define MEMORY_UNKNOWN (256ull << 20)

/* The warm-up's batches, of BATCH_LOADS_MAX loads (at most tails.batches). */
#define WARM_BATCHES 1024u

static const struct table_column tail_columns[] = {
	{ "level", NULL, 6, 1, 0 },
	{ "working set", NULL, 11, 0, 0 },
	{ "loads", NULL, 5, 0, 0 },
	{ "p50 ns", NULL, 8, 0, 0 },
	{ "p90", NULL, 8, 0, 0 },
	{ "p99", NULL, 8, 0, 0 },
	{ "p99.9", NULL, 8, 0, 0 },
	{ "max", NULL, 8, 0, 0 },
	{ "mean", NULL, 8, 0, 0 },
	{ "over 2x p50", NULL, 16, 0, 0 },
	{ "marked", NULL, 6, 0, 0 },
};
static const struct table tail_table = TABLE_OF(tail_columns, "  ");

/* ---- Private Data ----------------------------------------------------- */

static struct level_picks picks;
/* The run's analysis of the probes before this one (NULL: none). */
static const struct analysis *before;
/* Static, not on the stack: the firmware's stack is small. */
static struct batch_run run;

/* ---- Private Functions ------------------------------------------------ */

/* The largest cache found or claimed; 0 when neither is known. */
static uint64_t largest_cache(const struct level_picks *p)
{
	return p->largest_found > p->largest_claimed ? p->largest_found : p->largest_claimed;
}

/* Memory's working set: the latency sweep's first size at or past
   sweep_past_caches of the largest cache found or claimed, where the latency
   probe's memory figure comes from, so that the p50 there stands beside
   that probe's reading at the same size (MEMORY_UNKNOWN when neither is
   known); within tails.max_buffer, and when the cap keeps it under
   sweep_past_caches, says how far (when `say`). */
static uint64_t memory_bytes(const struct config *c, const struct level_picks *p, int say)
{
	uint64_t largest = largest_cache(p), cap = TAILS_SETTINGS(c)->max_buffer;
	uint64_t want = largest ? sweep_auto_top(0, largest) : MEMORY_UNKNOWN;
	char cap_text[24], largest_text[24];

	if (want <= cap)
		return want;
	if (largest && sweep_past_caches(largest) <= cap)
		return cap;   /* past the caches, though no size of the latency sweep */
	mp_format_bytes(cap_text, sizeof cap_text, cap);
	mp_format_bytes(largest_text, sizeof largest_text, largest);
	if (say && largest)
		report_printf("tails: memory's working set is tails.max_buffer, %s, below %u x the "
			      "largest cache %s (%s): %s\n", cap_text, SWEEP_PAST_CACHES_FACTOR,
			      largest == p->largest_found ? "the latency probe found" : "claimed",
			      largest_text, cap <= largest ?
			      "inside that cache, so its figures may be the cache's, not memory's" :
			      "part of it may stay in that cache");
	return cap;
}

/* The levels: picks' caches, and memory, the largest (a cache level at or
   past it left out, said). */
static void choose_levels(const struct config *c)
{
	static struct cache_claims claims;
	uint64_t memory;

	plat_cache_claims(&claims);
	before = analysis_so_far();
	level_picks_caches(&picks, before, &claims);
	memory = memory_bytes(c, &picks, 1);
	for (unsigned i = 0; i < picks.count; i++)
		if (picks.level[i].bytes >= memory)
			report_printf("tails: %s (its working set %llu bytes) is not below memory's "
				      "working set: left out\n", picks.level[i].name,
				      (unsigned long long)picks.level[i].bytes);
	level_picks_add_memory(&picks, memory);
}

/* One stretch of batches in a timed section; 0, or -1 when it faulted
   (reported). *moved: whether an NMI or SMI count moved meanwhile;
   *preempted: the thread's preemptions meanwhile (0 where not counted). */
static int timed_stretch(struct batch_run *r, const char *what, int *moved,
			 uint64_t *preempted)
{
	struct plat_disturbances before, after;
	struct plat_fault fault;

	plat_disturbances(&before);
	if (plat_timed(batch_run_stretch, r, &fault) != 0) {
		report_printf("%s: FAULT: %s\n", what, fault.text);
		return -1;
	}
	plat_disturbances(&after);
	*moved = after.nmi != before.nmi || after.smi != before.smi;
	*preempted = after.preemptions_counted ? after.preemptions - before.preemptions : 0;
	return 0;
}

/* One statistic of a level as a row. */
static void emit_statistic(const struct plat_buffer *buf, uint64_t bytes, const char *variant,
			   double ns)
{
	struct result_row row = { 0 };

	row.probe = PROBE_NAME;
	row.variant = variant;
	row.page_shift = buf->page_shift;
	row.working_set_bytes = bytes;
	row.ns = ns;
	row.cycles = ns_to_cycles(ns);
	row.trials = 1;
	row.stopped_by = "count";
	row.trial_form = "batches";
	row.pages_verified = buf->verified;
	emit_result_row(&row);
}

/* A level's figures: its rows, its line of the table, its histogram. */
static void report_level(const struct level_pick *l, const struct plat_buffer *buf,
			 const char *page_name, const struct batch_summary *s)
{
	char size_text[24], name[48], slow[32] = "none";

	emit_statistic(buf, l->bytes, "p50", s->p50_ns);
	emit_statistic(buf, l->bytes, "p90", s->p90_ns);
	emit_statistic(buf, l->bytes, "p99", s->p99_ns);
	emit_statistic(buf, l->bytes, "p99.9", s->p999_ns);
	emit_statistic(buf, l->bytes, "max", s->max_ns);
	emit_statistic(buf, l->bytes, "mean", s->mean_ns);
	mp_format_bytes(size_text, sizeof size_text, l->bytes);
	if (s->slow_share > 0)
		mp_snprintf(slow, sizeof slow, "%.2f%% at %.0f", s->slow_share * 100, s->slow_ns);
	report_table_cell("%s", l->name);
	report_table_cell("%s", size_text);
	report_table_cell("%u", s->loads);
	report_table_cell("%.2f", s->p50_ns);
	report_table_cell("%.2f", s->p90_ns);
	report_table_cell("%.2f", s->p99_ns);
	report_table_cell("%.2f", s->p999_ns);
	report_table_cell("%.1f", s->max_ns);
	report_table_cell("%.2f", s->mean_ns);
	report_table_cell("%s", slow);
	report_table_cell("%llu", (unsigned long long)s->marked);
	report_table_row(0);
	mp_snprintf(name, sizeof name, "%s, %s", l->name, page_name);
	tails_chart_add(name, run.ticks, s->batches - s->marked, s->counter_ticks, s->p50_ticks);
}

/* What came from outside during the batches, where it can be seen. */
static void report_disturbed(const char *what, int moved, uint64_t preempted,
			     const struct batch_summary *s)
{
	if (moved)
		report_printf("%s: an NMI or SMI came during the batches: the marked batches "
			      "(over %.0f us) hold it\n", what, BATCH_MARK_NS / 1000);
	if (preempted)
		report_printf("%s: the thread was preempted %llu times during the batches: the "
			      "marked batches (%llu) hold those that stopped a batch\n", what,
			      (unsigned long long)preempted, (unsigned long long)s->marked);
}

/* One level at one page size in a buffer of whole pages (the level's
   working set inside it: a 24 KiB L1 chased in one 2 MiB page, not over
   all of it); memory's (`memory`) is flushed first. 0 measured, 1
   skipped (said), -1 failed. *s: its figures. */
static int measure_level(const struct config *c, const struct level_pick *l, int memory,
			 unsigned shift, const char *page_name, uint64_t max,
			 struct batch_summary *s)
{
	struct plat_buffer buf;
	uint64_t page = 1ull << shift, bytes = (l->bytes + page - 1) / page * page;
	char what[96];
	int moved_warm, moved;
	uint64_t preempted;
	double ns_per_tick = ticks_to_ns(1000000) / 1e6;

	mp_snprintf(what, sizeof what, "tails, %s, %s", page_name, l->name);
	if (bytes > max) {
		report_printf("%s: no buffer of that size fits now: skipped\n", what);
		return 1;
	}
	if (page_buffer_get(PROBE_NAME, &buf, bytes, shift) != 0)
		return -1;
	chase_build(buf.base, l->bytes / CHASE_SLOT, CHASE_SLOT, CYCLE_SEED);
	/* Memory's buffer flushed and settled, as the latency probe's past the
	   caches: without it the build's last writes stay in the last level,
	   and 256 MiB on the EMR VM read a p50 of 89 ns with 2 MiB pages
	   against the latency probe's 115. The batches go on from there. */
	run.at = memory ? chase_settle_past_caches(buf.base, l->bytes) : buf.base;
	/* The first stretch warms the level (caches, TLB) and is dropped; its
	   median sizes the batches of the second. */
	run.batches = WARM_BATCHES;
	run.loads = BATCH_LOADS_MAX;
	if (timed_stretch(&run, what, &moved_warm, &preempted) != 0) {
		plat_buffer_put(&buf);
		return -1;
	}
	batch_summarize(&run, ns_per_tick, s);
	run.loads = batch_loads_for(s->p50_ns);
	run.batches = TAILS_SETTINGS(c)->batches;
	if (timed_stretch(&run, what, &moved, &preempted) != 0) {
		plat_buffer_put(&buf);
		return -1;
	}
	batch_summarize(&run, ns_per_tick, s);
	report_level(l, &buf, page_name, s);
	report_disturbed(what, moved, preempted, s);
	plat_buffer_put(&buf);
	return 0;
}

/* Below a page size's table: the counter's step and cost, and each
   level's p50 beside the latency probe's reading at the same working set
   and page size, else a cache level's plateau, where it ran. */
static void report_against_latency(unsigned shift, const char *page_name, const double p50[],
				   const double p50_cycles[], const double mean[],
				   const struct batch_summary *last)
{
	const char *sep = "; p50 against the latency probe's (at the same size and pages, "
			  "else on the line between its sizes either side within an octave, "
			  "else a cache level's plateau; the mean beside it; the p50 in cycles "
			  "too, each by its own sections' clock):";

	report_printf("tails, %s: the counter moves in steps of %u ticks (%.2f ns), its own "
		      "cost %.2f ns a bracket", page_name, last->step_ticks, last->step_ns,
		      last->counter_ns);
	for (unsigned i = 0; i < picks.count; i++) {
		const struct level_pick *l = &picks.level[i];
		double ref = level_pick_latency_at(before, shift, l->bytes), off;
		double ref_cycles = level_pick_cycles_at(before, shift, l->bytes);
		uint64_t lo = 0, hi = 0;
		char between[64] = "";

		if (ref <= 0)
			ref = level_pick_latency_between(before, shift, l->bytes, &lo, &hi,
							 &ref_cycles);
		if (ref > 0 && lo) {
			between[0] = ' ';
			level_pick_between_text(between + 1, sizeof between - 1, lo, hi);
		}
		/* A cache level's plateau stands for its half; memory's
		   top plateau may be a cache's where the sweep stopped short. */
		if (ref <= 0 && i + 1 < picks.count) {
			ref = l->latency_ns;
			ref_cycles = l->latency_cycles;
		}
		if (p50[i] <= 0 || ref <= 0)
			continue;
		off = 100 * (p50[i] / ref - 1);
		report_printf("%s %s %.2f ns against %.2f%s (%s%.1f%%)", sep, l->name, p50[i], ref,
			      between, off >= 0 ? "+" : "", off);
		/* The mean beside it: the latency probe's figure is a mean
		   over loads, and where single loads' times skew right (memory)
		   the median of short batches stands under the mean. */
		if (mean[i] > 0) {
			off = 100 * (mean[i] / ref - 1);
			report_printf(", mean %.2f (%s%.1f%%)", mean[i], off >= 0 ? "+" : "", off);
		}
		/* In cycles too, each by its own section's clock: a host
		   that moved the clock between the probes moves the ns. */
		if (ref_cycles > 0 && p50_cycles[i] > 0) {
			off = 100 * (p50_cycles[i] / ref_cycles - 1);
			report_printf(", %.2f cycles against %.2f (%s%.1f%%)", p50_cycles[i],
				      ref_cycles, off >= 0 ? "+" : "", off);
		}
		sep = ";";
	}
	report_printf("\n");
}

/* Every level at one page size: one table, none when the page size is
   unavailable (page_buffer_max says so once). */
static int sweep_page_size(const struct config *c, unsigned shift)
{
	uint64_t room = (uint64_t)TAILS_SETTINGS(c)->batches * sizeof(uint32_t), max;
	struct batch_summary s = { 0 };
	double p50[LEVEL_PICKS_MAX] = { 0 }, p50_cycles[LEVEL_PICKS_MAX] = { 0 };
	double mean[LEVEL_PICKS_MAX] = { 0 };
	char page_name[48];
	int status = 0, measured = 0;

	max = page_buffer_max(PROBE_NAME, shift);
	if (max == 0)
		return 1;
	run.ticks = plat_alloc(room);
	if (!run.ticks) {
		report_printf("tails: no room for the batches' times\n");
		return -1;
	}
	page_size_name(page_name, sizeof page_name, shift);
	report_table_begin(&tail_table, page_name, NULL);
	for (unsigned i = 0; i < picks.count && status == 0; i++) {
		int rc = measure_level(c, &picks.level[i], i + 1 == picks.count, shift,
				       page_name, max, &s);

		status = rc < 0 ? -1 : 0;
		measured += rc == 0;
		p50[i] = rc == 0 ? s.p50_ns : 0;
		p50_cycles[i] = rc == 0 ? ns_to_cycles(s.p50_ns) : 0;
		mean[i] = rc == 0 ? s.mean_ns : 0;
	}
	report_table_end();
	if (measured)
		report_against_latency(shift, page_name, p50, p50_cycles, mean, &s);
	plat_free(run.ticks, room);
	return status < 0 ? -1 : measured ? 0 : 1;
}

/* ---- Public Functions ------------------------------------------------- */

int probe_tails(const struct config *c)
{
	int status;

	choose_levels(c);
	report_printf("tails: levels from %s, memory at the latency sweep's first size at or "
		      "past %u x the largest cache found or claimed, within tails.max_buffer:",
		      picks.from, SWEEP_PAST_CACHES_FACTOR);
	for (unsigned i = 0; i < picks.count; i++) {
		char size_text[24];

		mp_format_bytes(size_text, sizeof size_text, picks.level[i].bytes);
		report_printf(" %s %s%s", picks.level[i].name, size_text,
			      i + 1 < picks.count ? "," : "\n");
	}
	report_printf("tails: at each level's working set (half of the cache level, or the middle "
		      "of its plateau on the latency curve where that lies below), one random "
		      "cycle of %u-byte slots timed in %u batches of dependent loads (a column says "
		      "how many: enough for %.0f ns, %u to %u) after a first stretch of %u batches of "
		      "%u that warms it and sizes them; each batch's time less the counter's own "
		      "(%u empty brackets in the same timed section), over its loads; every median "
		      "and quantile read between the counter's steps; batches over %.0f us are "
		      "marked (an interrupt, NMI, SMI or preemption: no few loads take that long) "
		      "and left out of the figures; 'over 2x p50' is the share of batches past "
		      "twice the median and their median, a mode apart where there is one\n",
		      CHASE_SLOT, TAILS_SETTINGS(c)->batches, BATCH_MIN_NS, BATCH_LOADS,
		      BATCH_LOADS_MAX, WARM_BATCHES, BATCH_LOADS_MAX, BATCH_EMPTY,
		      BATCH_MARK_NS / 1000);
	report_printf("tails: %s\n", plat_timed_conditions());
	tails_chart_begin();
	status = page_sizes_each(PROBE_NAME, c, sweep_page_size);
	tails_chart_finish();
	return status;
}

/* One buffer at a time, memory's the largest. */
static unsigned tails_holds(const struct config *c, unsigned page_shift,
			    struct probe_hold out[PROBE_HOLDS_MAX])
{
	out[0] = (struct probe_hold){ TAILS_SETTINGS(c)->max_buffer, page_shift, 1 };
	return 1;
}

/* 16384 batches of 4 loads put 16 batches past p99.9 (quick); 131072, 131
   (full). Memory at most 2 GiB in both profiles, four times any claim up
   to 512 MiB: an Emerald Rapids VM's 300 MiB puts memory at 1.25 GiB, a
   Zen 5 VM's 508 MiB at 2 GiB, as the latency sweep's top in either
   profile. At 1 GiB the card's tails line read memory 1 GiB beside the
   latency probe's 1.25 GiB; the quick profile's 256 MiB, inside the EMR
   VM's claimed L3, read its p50 -7.5 and -13.5 % from the latency probe's
   256 MiB. Building 1.25 GiB's cycle costs the quick profile about a
   second (tails 0.3 s to 1.25 s there). */
static const struct config_key tails_keys[] = {
	{ "batches", KIND_UINT, SETTING(struct tails_settings, batches), WARM_BATCHES, 16777216, 0,
	  "16384", "131072", 0, 0, NULL },
	{ "max_buffer", KIND_SIZE, SETTING(struct tails_settings, max_buffer), 4096,
	  PROBE_BUFFER_MAX, 4096, "2GiB", "2GiB", 0, 0, NULL },
};

/* Per page size the platform can give: memory's buffer filled, its cycle
   built and settled (a load per 4 KiB), its batches of BATCH_LOADS loads
   as loads, and each cache
   level's batches, sized to BATCH_MIN_NS, as time; the warm-up stretches
   counted with them. */
static void tails_cost(const struct config *c, struct probe_cost *cost)
{
	static struct cache_claims claims;
	static struct level_picks claimed;
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	double batches = (double)TAILS_SETTINGS(c)->batches + WARM_BATCHES;
	uint64_t memory;

	plat_cache_claims(&claims);
	level_picks_caches(&claimed, NULL, &claims);
	memory = memory_bytes(c, &claimed, 0);
	for (unsigned p = 0; p < nshifts; p++) {
		cost->bytes += (double)memory;
		chase_build_cost(memory / CHASE_SLOT, cost);
		probe_cost_loads(cost, (double)(memory / CHASE_WARM_PAGE_BYTES) +
				 batches * BATCH_LOADS, memory);
		cost->ms += claimed.count * batches * BATCH_MIN_NS / 1e6;
	}
}

PROBE_DEFINE(tails, 25) = {
	.config = { .name = "tails", .profiles = PROBE_IN_FULL,
		    PROBE_KEYS(tails_keys, struct tails_settings, 0) },
	.run = probe_tails,
	.holds = tails_holds,
	.rows_read = ROWS_TAILS,
	.cost = tails_cost,
};
