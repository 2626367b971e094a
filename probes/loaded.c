/* The loaded probe: the latency chase on CPU 0 at a working set past the
 * caches while 0, 1, ... N other CPUs stream their own buffers, each row
 * giving the chase's latency beside the bandwidth the loaders achieved
 * meanwhile: the loaded-latency curve. docs/METHOD.md explains the method.
 */

#include "probes/chase.h"
#include "probes/chase_run.h"
#include "results/emit.h"
#include "probes/load_kernel.h"
#include "probes/loaded_chart.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"
#include "probes/loaded_settings.h"
#include "results/report_table.h"
#include "results/results.h"
#include "core/timebase.h"
#include "results/trial_row.h"
#include "lib/fmt.h"
#include "lib/machine.h"
#include "probes/sweep.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_loaded.config.name)

/* ---- Constants -------------------------------------------------------- */

/* The latency probe's seed: the loaded chase's cycle has the same shape as
   the unloaded one at the same size. */
#define CYCLE_SEED 0x243f6a8885a308d3ull

/* One page size's rows, a row per count of loaders. */
static const struct table_column load_columns[] = {
	{ "loaders", NULL, 7, 0, 0 },
	TRIAL_COLUMNS("ns/load", 10, 9),
	{ "load GB/s", NULL, 10, 0, 0 },
};
static const struct table load_table = TABLE_OF(load_columns, "  ");

/* ---- Private Types ---------------------------------------------------- */

/* One loaded measurement: the chase, the loaders, the flag that stops them. */
struct loaded_run {
	struct chase_run chase;
	volatile uint32_t stop;
	struct load_kernel loader[PLAT_CPUS_MAX];
};

/* ---- Private Data ----------------------------------------------------- */

/* Static, not on the stack: the firmware's stack is small, and a loader that
   missed its deadline may still write its figures here. */
static struct loaded_run run;
static struct plat_buffer load_buf[PLAT_CPUS_MAX];
static unsigned load_bufs;
/* A loader that missed its deadline may still be streaming its buffer:
   then no loader buffer is given back. */
static int loader_missed;

/* ---- Private Functions ------------------------------------------------ */

/* CPU 0's role: the chase's trials, then the loaders' stop. */
static void chase_role(void *arg)
{
	struct loaded_run *r = arg;

	chase_run_trials(&r->chase);
	__atomic_store_n(&r->stop, 1, __ATOMIC_SEQ_CST);
}

/* The most loaders this run may use: the configured count, else every
   other CPU. */
static unsigned loaders_wanted(const struct config *c)
{
	unsigned others = plat_cpu_count() - 1, asked = LOADED_SETTINGS(c)->loaders;

	return asked && asked < others ? asked : others;
}

/* One buffer per loader, with 4 KiB pages (the loaders' bandwidth, not their
   TLB, is the point); fewer loaders when memory runs out, said so. */
static void get_load_buffers(const struct config *c, unsigned want)
{
	for (load_bufs = 0; load_bufs < want; load_bufs++)
		if (page_buffer_get(PROBE_NAME, &load_buf[load_bufs], LOADED_SETTINGS(c)->load_size,
				    PAGE_SHIFT_4K) != 0) {
			report_printf("loaded: only %u loader buffers fit: at most %u loaders\n",
				      load_bufs, load_bufs);
			return;
		}
}

/* The chase with `loaders` CPUs (1 .. loaders) streaming, every CPU done
   within deadline_ms. 0 measured, -1 failed (reported); *gb_per_s is what
   the loaders achieved together. */
static int measure_with(const struct config *c, unsigned loaders, double deadline_ms,
			double *gb_per_s, const char *what)
{
	static struct plat_role roles[PLAT_CPUS_MAX];
	uint64_t give_up = plat_ticks() + ms_to_ticks(deadline_ms);
	char why[160];
	int rc;

	run.stop = 0;
	roles[0] = (struct plat_role){ 0, chase_role, &run, 0 };
	for (unsigned k = 1; k <= loaders; k++) {
		load_kernel_init(&run.loader[k], &load_buf[k - 1], LOADED_SETTINGS(c)->mix, &run.stop,
				 give_up);
		roles[k] = (struct plat_role){ k, load_kernel_run, &run.loader[k], 0 };
	}
	rc = plat_cpus_run(roles, loaders + 1, (uint64_t)deadline_ms, why, sizeof why);
	if (rc < 0) {
		report_printf("%s: not measured: %s\n", what, why);
		return -1;
	}
	for (unsigned k = 1; k <= loaders; k++) {
		if (!roles[k].missed)
			continue;
		loader_missed = 1;
		report_printf("%s: CPU %u MISSED ITS DEADLINE of %.0f ms: the run goes on "
			      "without it\n", what, k, deadline_ms);
	}
	if (rc != 0 || chase_run_verdict(&run.chase, CHASE_SLOT, what) != 0)
		return -1;
	/* A loader that stopped on the deadline left part of the chase
	   unloaded: the figure would mix the two. */
	for (unsigned k = 1; k <= loaders; k++)
		if (run.loader[k].gave_up) {
			report_printf("%s: not measured: the chase outlasted its deadline (%.0f ms: "
				      "cpus.deadline and the unloaded row's own time) and CPU %u "
				      "stopped loading before it ended; raise cpus.deadline\n",
				      what, deadline_ms, k);
			return -1;
		}
	*gb_per_s = 0;
	for (unsigned k = 1; k <= loaders; k++)
		*gb_per_s += load_kernel_gb_per_s(&run.loader[k]);
	return 0;
}

/* Every loader count at one page size of the chase's buffer. */
static int sweep_page_size(const struct config *c, unsigned shift)
{
	static struct cache_claims claims;
	struct plat_buffer buf;
	char page_name[48], what[96];
	uint64_t max;
	double unloaded_ms = 0;
	int status = 0;

	page_size_name(page_name, sizeof page_name, shift);
	max = page_buffer_max(PROBE_NAME, shift);
	if (max == 0)
		return 1;
	if (max < LOADED_SETTINGS(c)->size) {
		char fits[24];
		mp_format_bytes(fits, sizeof fits, max);
		report_printf("loaded, %s: the largest buffer that fits now, %s, is below "
			      "loaded.size: skipped\n", page_name, fits);
		return 1;
	}
	if (page_buffer_get(PROBE_NAME, &buf, LOADED_SETTINGS(c)->size, shift) != 0)
		return -1;
	page_buffer_report(PROBE_NAME, page_name, &buf);
	run.chase = (struct chase_run){ .start = buf.base, .slots = LOADED_SETTINGS(c)->size / CHASE_SLOT,
					.c = c };
	/* Past four times the largest claimed cache a stretch of loads after
	   the warm-up lap measures what whole laps do (docs/METHOD.md). */
	plat_cache_claims(&claims);
	run.chase.partial_from_slots = chase_partial_from(sweep_largest_cache(&claims), 0,
							  CHASE_SLOT);
	chase_build(buf.base, run.chase.slots, CHASE_SLOT, CYCLE_SEED);
	mp_snprintf(what, sizeof what, "loaded, %s", page_name);
	report_table_begin(&load_table, what, NULL);
	for (unsigned loaders = 0; loaders <= load_bufs; loaders++) {
		struct result_row row = { 0 };
		/* cpus.deadline is there to catch a CPU that never comes back,
		   not to bound the chase's own work: a loaded row also gets
		   (loaders + 1) x the unloaded row's time, since the chase's CPU
		   may share a core with each loader (an emulator's vCPUs on
		   fewer host cores; under TCG a 32 MiB chase on 4 KiB pages
		   took 9 s unloaded). */
		double deadline_ms = c->cpus_deadline_ms + (loaders + 1) * unloaded_ms, gb_per_s;
		uint64_t t0 = plat_ticks();

		mp_snprintf(what, sizeof what, "loaded, %s, %u loader%s", page_name, loaders,
			    loaders == 1 ? "" : "s");
		if (measure_with(c, loaders, deadline_ms, &gb_per_s, what) != 0) {
			/* A CPU that missed is gone for good: more loaders
			   would need it. */
			status = -1;
			break;
		}
		if (!loaders)
			unloaded_ms = ticks_to_ns(plat_ticks() - t0) / 1e6;
		row.probe = PROBE_NAME;
		row.variant = LOADED_SETTINGS(c)->mix == LOAD_READ ? "read" : "read_write";
		row.page_shift = shift;
		row.working_set_bytes = LOADED_SETTINGS(c)->size;
		trial_row_fill(&row, &run.chase.trials, run.chase.stopped_by, run.chase.form);
		row.pages_verified = buf.verified;
		row.cpu = (struct optional_count){ 1, 0 };
		row.loaders = (struct optional_count){ 1, loaders };
		row.load_gb_per_s = (struct optional_real){ gb_per_s, 1 };
		emit_result_row(&row);
		loaded_chart_add(shift, page_name, loaders, gb_per_s, row.ns);
		report_table_cell("%u", loaders);
		trial_row_cells(&row);
		report_table_cell("%.3f", gb_per_s);
		report_table_row(0);
	}
	report_table_end();
	plat_buffer_put(&buf);
	return status;
}

/* ---- Public Functions ------------------------------------------------- */

int probe_loaded(const struct config *c)
{
	char size_text[24], load_text[24];
	unsigned want = loaders_wanted(c);
	int status;

	mp_format_bytes(size_text, sizeof size_text, LOADED_SETTINGS(c)->size);
	mp_format_bytes(load_text, sizeof load_text, LOADED_SETTINGS(c)->load_size);
	report_printf("loaded: the latency chase (%s, one random cycle) on CPU 0 while 0 .. %u "
		      "other CPUs (1, 2, ... in order) each stream a %s buffer of their own "
		      "(%s); load GB/s = the bytes they moved over each one's own time, "
		      "summed; the chase's stop rule as latency's; deadline %.0f ms per row\n",
		      size_text, want, load_text,
		      LOADED_SETTINGS(c)->mix == LOAD_READ ? "reads" : "every line read, every other one "
		      "also written", c->cpus_deadline_ms);
	report_printf("loaded: %s\n", plat_cpus_conditions());
	if (!want)
		report_printf("loaded: no other CPU: only the unloaded row is measured\n");
	get_load_buffers(c, want);
	loaded_chart_begin();
	status = page_sizes_each(PROBE_NAME, c, sweep_page_size);
	for (unsigned k = 0; k < load_bufs && !loader_missed; k++)
		plat_buffer_put(&load_buf[k]);
	if (loader_missed)
		report_printf("loaded: the loaders' buffers are kept: a CPU that missed its "
			      "deadline may still be reading them\n");
	loaded_chart_finish();
	return status;
}

/* The chase's buffer, and beside it one 4 KiB-page buffer per loader the
   run will use (loaders_wanted: the platform has counted its CPUs before
   the EFI app sizes its page-table pool from this), all held at once. */
static unsigned loaded_holds(const struct config *c, unsigned page_shift,
			     struct probe_hold out[PROBE_HOLDS_MAX])
{
	out[0] = (struct probe_hold){ LOADED_SETTINGS(c)->size, page_shift, 1 };
	out[1] = (struct probe_hold){ LOADED_SETTINGS(c)->load_size, PAGE_SHIFT_4K,
				      loaders_wanted(c) };
	return 2;
}

/* A chase well past any last-level cache (full: 256 MiB, as later's table;
   quick: 32 MiB, past a Zen 3 CCD's L3 though not a big server's) while
   each loader streams a buffer past its own core's caches. */
static const struct config_word mix_words[] = {
	{ "read", LOAD_READ }, { "read_write", LOAD_READ_WRITE }, { 0, 0 } };
static const struct config_key loaded_keys[] = {
	{ "size", KIND_SIZE, SETTING(struct loaded_settings, size), 4096, PROBE_BUFFER_MAX, 4096,
	  "32MiB", "256MiB", 0, 0, NULL },
	{ "load_size", KIND_SIZE, SETTING(struct loaded_settings, load_size), 65536,
	  PROBE_BUFFER_MAX, 65536, "8MiB", "64MiB", 0, 0, NULL },
	{ "mix", KIND_WORD, SETTING(struct loaded_settings, mix), 0, 0, 0, "read", "read",
	  mix_words, "load mix", NULL },
	{ "loaders", KIND_UINT, SETTING(struct loaded_settings, loaders), 0, CONFIG_CPUS_MAX - 1, 0,
	  "0", "0", 0, 0, NULL },
};

/* The loaders' buffers filled once; per asked page size the chase's
   buffer and cycle (per page size the platform can give), then one chase (its trials partial laps past 4 x the
   largest claim) per count of loaders, 0 .. every one wanted. */
static void loaded_cost(const struct config *c, struct probe_cost *cost)
{
	static struct cache_claims claims;
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	unsigned loaders = loaders_wanted(c);
	uint64_t slots = LOADED_SETTINGS(c)->size / CHASE_SLOT, partial;

	plat_cache_claims(&claims);
	partial = chase_partial_from(sweep_largest_cache(&claims), 0, CHASE_SLOT);
	cost->bytes += loaders * (double)LOADED_SETTINGS(c)->load_size;
	for (unsigned p = 0; p < nshifts; p++) {
		cost->bytes += (double)LOADED_SETTINGS(c)->size;
		for (unsigned k = 0; k <= loaders; k++)
			chase_run_cost(c, slots, partial && slots >= partial, cost);
	}
}

PROBE_DEFINE(loaded, 90) = {
	.config = { .name = "loaded", .profiles = PROBE_IN_FULL,
		    PROBE_KEYS(loaded_keys, struct loaded_settings, 0) },
	.run = probe_loaded,
	.holds = loaded_holds,
	.rows_read = ROWS_UNREAD,
	.cost = loaded_cost,
};
