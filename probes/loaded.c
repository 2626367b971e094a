/* The loaded probe: the latency chase on CPU 0 at a working set past the
 * caches while other CPUs stream buffers of their own, for each read/write
 * mix a curve of the chase's latency against the bandwidth the loaders
 * drew: one loader paced by a delay swept from near idle to none, then 2,
 * 3, ... N loaders at no delay (MLC's injection delay, the Mess
 * benchmark's curves by mix). Each point's chase is timed in short batches
 * (batches.h), so it carries its tail too. docs/METHOD.md section 10.
 */

#include "probes/batches.h"
#include "probes/chase.h"
#include "probes/chase_run.h"
#include "results/emit.h"
#include "probes/load_kernel.h"
#include "probes/loaded_chart.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"
#include "probes/loaded_settings.h"
#include "probes/sweep.h"
#include "results/report_table.h"
#include "results/results.h"
#include "core/timebase.h"
#include "lib/fmt.h"
#include "lib/machine.h"
#include "lib/stream.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_loaded.config.name)

/* ---- Constants -------------------------------------------------------- */

/* The latency probe's seed: the loaded chase's cycle has the same shape as
   the unloaded one at the same size. */
#define CYCLE_SEED 0x243f6a8885a308d3ull
/* loaded.size auto: past every cache (sweep_past_caches), and at least
   the profile's floor. */
#define AUTO_MIN_QUICK (32ull << 20)
#define AUTO_MIN_FULL (256ull << 20)

/* The one loader's delays, as multiples of its own time per line at no
   delay (measured first, alone): a delay of F such times paces it to about
   1 / (1 + F) of its own top rate. Largest first: from near idle (1/1024)
   up; then no delay. The last few reach past half the top rate, where a
   memory's latency starts to climb: the factors were once 2, 1.5 and 1.25
   last (a third to 44 % of it, ten percent apart, and nothing between
   that and the top), so on the Emerald Rapids VM 5 of 12 quick curves
   drew less at some shorter delay than at the longer one before it. Under
   1 the delay partly hides under the line's own misses: 0.6 and 0.35
   drew 78-81 % and 88-93 % of the top there. */
static const double delay_factor[] = { 1023, 255, 63, 31, 15, 7, 4, 2.33, 1.5, 1, 0.6, 0.35 };
#define DELAY_STEPS (sizeof delay_factor / sizeof delay_factor[0])

/* How long the loader runs alone to measure its time per line. */
#define ALONE_MS 20.0
#define ALONE_TRIES 3u
/* Tries of a point whose loaders drew less than the point before it, at
   a longer delay or with fewer loaders (measure_point). */
#define HELD_BACK_TRIES 3u
/* Tries of a point whose loader moved nothing (all_loaders_moved). */
#define POINT_TRIES 3u
/* How long CPU 0 waits for its loaders to be running. */
#define LOADERS_WAIT_MS 1000.0

/* Adds timed to calibrate the delay. */
#define CALIBRATION_ADDS (1u << 20)

/* One point of a curve, a row of the report's table. */
static const struct table_column point_columns[] = {
	{ "mix", NULL, 12, 1, 0 },
	{ "loaders", NULL, 7, 0, 0 },
	{ "delay ns", NULL, 9, 0, 0 },
	{ "load GB/s", NULL, 9, 0, 0 },
	{ "p50 ns", NULL, 8, 0, 0 },
	{ "mean", NULL, 8, 0, 0 },
	{ "p99", NULL, 8, 0, 0 },
	{ "p99.9", NULL, 8, 0, 0 },
	{ "max", NULL, 8, 0, 0 },
	{ "marked", NULL, 6, 0, 0 },
};
static const struct table point_table = TABLE_OF(point_columns, "  ");

/* ---- Private Types ---------------------------------------------------- */

/* One loaded measurement: the chase, the loaders, the flag that stops them. */
struct loaded_run {
	struct batch_run chase;
	const char *pages;        /* the chase's buffer (chase_bytes), for touch_pages
				     and the rows */
	uint64_t pages_bytes, page_bytes;
	volatile uint32_t stop;
	uint64_t alone_ticks;     /* how long the timer role lets a loader run */
	unsigned loaders;         /* how many run beside the chase */
	struct load_kernel loader[PLAT_CPUS_MAX];
};

/* One mix's curve so far: what its last point's loaders drew, GB/s (0
   before the first), the points measured again because they drew less,
   and those that still did; and its first (most paced) point's p50 and
   draw, for report_paced. */
struct held_back {
	double drawn;
	unsigned tried_again, still_less;
	double first_ns, first_gb;
};

/* A point's loading: how many loaders, and their plan. */
struct loading {
	unsigned loaders;
	struct load_plan plan;
	double delay_ns;
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
/* The delay's adds per ns on CPU 0; the non-temporal kernel, if any. */
static double adds_per_ns;
static stream_kernel_fn *nt_kernel;
static unsigned nt_block;
static const char *nt_set = "";
/* No loader: the chase alone. */
static const struct loading no_load = { 0, { LOAD_READ, 0, 0, 0 }, 0 };
/* The chase alone at one page size: before the mixes, then again after
   each mix's calibration (measure_alone); the idle row is their median
   (emit_idle). */
static struct batch_summary alone_seen[LOAD_MIXES + 1];
static unsigned alone_count;
/* Where touch_pages leaves its sum, so its loads are not optimised away. */
static volatile uint64_t touch_sink;
/* The idle row's time, for the loaded rows' deadlines. */
static double idle_ms;
/* A point's batches (loaded.batches), and the settling stretch's before
   them: a quarter as many. */
static uint64_t point_batches, settle_batches;

/* ---- Private Functions ------------------------------------------------ */

/* The chase's working set: loaded.size, else (auto) sweep_past_caches of
   the largest data cache the CPU claims, at least the profile's floor:
   past every cache, so the idle point and the loaded ones all read
   memory, as the card's label says. A chase inside a claimed cache reads
   what of it the cache keeps, and that moves with what ran just before:
   on an Emerald Rapids VM (300 MiB of L3 claimed) a 32 MiB chase read 100
   ns idle, just after chase_build had left its lines in the guest's
   share, and 120 to 136 ns beside a loader paced to 3 MB/s whose lone
   calibration had streamed 64 MiB through that share; at 256 MiB the two
   read 131.5 and 130.2. */
static uint64_t chase_bytes(const struct config *c)
{
	static struct cache_claims claims;
	uint64_t floor = c->profile == PROFILE_FULL ? AUTO_MIN_FULL : AUTO_MIN_QUICK, bytes;

	if (LOADED_SETTINGS(c)->size)
		return LOADED_SETTINGS(c)->size;
	plat_cache_claims(&claims);
	bytes = sweep_past_caches(claims_largest_cache(&claims));
	return bytes > floor ? bytes : floor;
}

/* Until every loader has begun, or LOADERS_WAIT_MS passed: the start
   line starts roles together only where each CPU is the role's alone, and
   a loader the OS (or an emulator) ran late found the chase over and
   moved nothing. */
static void wait_for_loaders(const struct loaded_run *r)
{
	uint64_t until = plat_ticks() + ms_to_ticks(LOADERS_WAIT_MS);
	unsigned running = 0;

	while (running < r->loaders && plat_ticks() < until) {
		running = 0;
		for (unsigned k = 1; k <= r->loaders; k++)
			running += __atomic_load_n(&r->loader[k].running, __ATOMIC_ACQUIRE);
	}
}

/* A load from each page of the chase's buffer, in address order: every
   page's translation walked, so the page-table lines the chase's walks
   read stand in the caches again. They are loads of their own, not a
   chain, so they overlap: a 1200 MiB buffer of 4 KiB pages took a few ms
   where a chase stretch of one load a page takes 60. */
static void touch_pages(const struct loaded_run *r)
{
	uint64_t sum = 0;

	for (uint64_t off = 0; off < r->pages_bytes; off += r->page_bytes)
		sum += *(const volatile uint64_t *)(const void *)(r->pages + off);
	touch_sink = sum;
}

/* CPU 0's role: once the loaders run, the chase's batches, then the
   loaders' stop. */
static void chase_role(void *arg)
{
	struct loaded_run *r = arg;

	wait_for_loaders(r);
	/* The point before (a loader's lone calibration at full speed above
	   all) streamed its buffer through the caches and took the lines of
	   the chase's page tables with it: with 4 KiB pages the 1200 MiB
	   chase's tables are 2.4 MiB, more than the L2, and its walks read
	   them from the L3 when the chase runs alone. Its quarter stretch
	   alone touched a twentieth of its pages, and on an Emerald Rapids
	   VM the least loaded point of each mix read 228 to 249 ns against
	   187 idle, where the 2 MiB chase (600 table entries) read within
	   3.4 %. The pages touched first, the stretch settles what the load
	   itself leaves. */
	touch_pages(r);
	/* A quarter stretch to settle, its times overwritten: the chase's
	   lines and the loaders' as this point's load leaves them (METHOD
	   section 10). */
	r->chase.batches = settle_batches;
	batch_run_stretch(&r->chase);
	r->chase.batches = point_batches;
	batch_run_stretch(&r->chase);
	__atomic_store_n(&r->stop, 1, __ATOMIC_SEQ_CST);
}

/* CPU 0's role while a loader runs alone: once it runs, wait alone_ticks,
   then stop it. */
static void timer_role(void *arg)
{
	struct loaded_run *r = arg;
	uint64_t until;

	wait_for_loaders(r);
	until = plat_ticks() + r->alone_ticks;
	while (plat_ticks() < until)
		;
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

/* The narrowest usable streaming set's non-temporal store, for write_nt. */
static void find_nt_kernel(void)
{
	struct plat_stream_sets sets;

	plat_stream_sets(&sets);
	nt_kernel = 0;
	for (unsigned s = 0; s < sets.count && !nt_kernel; s++)
		if ((sets.usable & (1u << s)) && sets.sets[s].op[STREAM_WRITE_NT]) {
			nt_kernel = sets.sets[s].op[STREAM_WRITE_NT];
			nt_block = sets.sets[s].block_bytes;
			nt_set = sets.sets[s].name;
		}
}

/* Runs `main` on CPU 0 beside the loaders of *l, every CPU done within
   deadline_ms. 0 when every loader ran to the stop flag; -1 failed
   (reported). */
static int run_with(const struct loading *l, void (*main)(void *), double deadline_ms,
		    const char *what)
{
	static struct plat_role roles[PLAT_CPUS_MAX];
	uint64_t give_up = plat_ticks() + ms_to_ticks(deadline_ms);
	char why[160];
	int rc;

	run.stop = 0;
	run.loaders = l->loaders;
	roles[0] = (struct plat_role){ 0, main, &run, 0 };
	for (unsigned k = 1; k <= l->loaders; k++) {
		load_kernel_init(&run.loader[k], &load_buf[k - 1], &l->plan, &run.stop, give_up);
		roles[k] = (struct plat_role){ k, load_kernel_run, &run.loader[k], 0 };
	}
	rc = plat_cpus_run_wide(roles, l->loaders + 1, (uint64_t)deadline_ms, why, sizeof why);
	if (rc < 0) {
		report_printf("%s: not measured: %s\n", what, why);
		return -1;
	}
	for (unsigned k = 1; k <= l->loaders; k++) {
		if (!roles[k].missed)
			continue;
		loader_missed = 1;
		report_printf("%s: CPU %u MISSED ITS DEADLINE of %.0f ms: the run goes on "
			      "without it\n", what, k, deadline_ms);
	}
	if (rc != 0)
		return -1;
	/* A loader that stopped on the deadline left part of the chase
	   unloaded: the figure would mix the two. */
	for (unsigned k = 1; k <= l->loaders; k++)
		if (run.loader[k].gave_up) {
			report_printf("%s: not measured: the chase outlasted its deadline (%.0f ms: "
				      "cpus.deadline and the idle row's own time) and CPU %u "
				      "stopped loading before it ended; raise cpus.deadline\n",
				      what, deadline_ms, k);
			return -1;
		}
	return 0;
}

/* The loaders' bandwidth together, GB/s. */
static double loaders_gb_per_s(unsigned loaders)
{
	double gb = 0;

	for (unsigned k = 1; k <= loaders; k++)
		gb += load_kernel_gb_per_s(&run.loader[k]);
	return gb;
}

/* 1 when each of the first `loaders` loaders moved at least one step. */
static int all_loaders_moved(unsigned loaders)
{
	for (unsigned k = 1; k <= loaders; k++)
		if (!run.loader[k].steps)
			return 0;
	return 1;
}

/* One loader alone at no delay for ALONE_MS: its ns per line (per block
   for write_nt), 0 when it could not run (reported). A loader that moved
   nothing (under an emulator its first look at the stop flag can come
   later than the window) is tried again in a window four times as long. */
static double alone_step_ns(const struct config *c, const struct loading *l, const char *what)
{
	const struct load_kernel *k = &run.loader[1];
	double window_ms = ALONE_MS;

	for (unsigned tries = 0; tries < ALONE_TRIES; tries++, window_ms *= 4) {
		run.alone_ticks = ms_to_ticks(window_ms);
		if (run_with(l, timer_role, c->cpus_deadline_ms + window_ms, what) != 0)
			return 0;
		if (k->steps)
			break;
	}
	if (!k->steps) {
		report_printf("%s: the loader moved nothing alone, in windows of %.0f to %.0f ms\n",
			      what, ALONE_MS, window_ms / 4);
		return 0;
	}
	report_printf("%s: one loader alone, no delay: %.2f GB/s, %.2f ns a %s\n", what,
		      loaders_gb_per_s(1), ticks_to_ns(k->ticks) / (double)k->steps,
		      l->plan.mix == LOAD_WRITE_NT ? "block" : "line");
	return ticks_to_ns(k->ticks) / (double)k->steps;
}

/* The chase's batches beside the loading *l, summarized into *s. 0
   measured, -1 failed (reported). */
static int run_point(const struct config *c, const struct loading *l, const char *variant,
		     const char *page_name, struct batch_summary *s)
{
	double deadline_ms = c->cpus_deadline_ms + (l->loaders + 1) * idle_ms;
	uint64_t t0 = plat_ticks();
	char what[96];

	mp_snprintf(what, sizeof what, "loaded, %s, %s, %u loader%s", page_name, variant,
		    l->loaders, l->loaders == 1 ? "" : "s");
	/* A loader the OS started after the chase had ended moved nothing:
	   such a point is no loaded point, so it is measured again. */
	for (unsigned tries = 0;; tries++) {
		if (run_with(l, chase_role, deadline_ms, what) != 0)
			return -1;
		if (all_loaders_moved(l->loaders))
			break;
		if (tries + 1 == POINT_TRIES) {
			report_printf("%s: not measured: a loader moved nothing while the chase ran, "
				      "%u times\n", what, POINT_TRIES);
			return -1;
		}
	}
	if (!l->loaders)
		idle_ms = ticks_to_ns(plat_ticks() - t0) / 1e6;
	batch_summarize(&run.chase, ticks_to_ns(1000000) / 1e6, s);
	return 0;
}

/* A point's row, table line and chart point, from its batches' summary
   *s beside the loading *l. */
static void emit_point(const struct plat_buffer *buf, const struct loading *l,
		       const char *variant, const char *page_name, const struct batch_summary *s,
		       double gb)
{
	struct result_row row = { 0 };

	row.probe = PROBE_NAME;
	row.variant = variant;
	row.page_shift = buf->page_shift;
	row.working_set_bytes = run.pages_bytes;
	/* The median, not the mean: on a shared machine a few batches that
	   the host stalled move a mean of 16384 by tens of percent. */
	row.ns = s->p50_ns;
	row.cycles = ns_to_cycles(s->p50_ns);
	row.trials = 1;
	row.stopped_by = "count";
	row.trial_form = "batches";
	row.pages_verified = buf->verified;
	row.cpu = (struct optional_count){ 1, 0 };
	row.loaders = (struct optional_count){ 1, l->loaders };
	row.load_gb_per_s = (struct optional_real){ gb, 1 };
	emit_result_row(&row);
	loaded_chart_add(page_name, variant, gb, s->p50_ns, l->loaders);
	report_table_cell("%s", variant);
	report_table_cell("%u", l->loaders);
	report_table_cell("%.0f", l->delay_ns);
	report_table_cell("%.3f", gb);
	report_table_cell("%.1f", s->p50_ns);
	report_table_cell("%.1f", s->mean_ns);
	report_table_cell("%.1f", s->p99_ns);
	report_table_cell("%.1f", s->p999_ns);
	report_table_cell("%.1f", s->max_ns);
	report_table_cell("%llu", (unsigned long long)s->marked);
	report_table_row(0);
}

/* The chase's batches beside the loading *l: one row, one table line and
   one chart point, of up to HELD_BACK_TRIES tries where the loaders drew
   less than h's last point; h then holds this point. 0 measured, -1
   failed (reported). */
static int measure_point(const struct config *c, const struct plat_buffer *buf,
			 const struct loading *l, const char *variant, const char *page_name,
			 struct held_back *h)
{
	static struct batch_summary s, again;
	double gb;
	unsigned tries = 1;

	if (run_point(c, l, variant, page_name, &s) != 0)
		return -1;
	gb = loaders_gb_per_s(l->loaders);
	/* Less than the point before, at a longer delay or with fewer
	   loaders: the loaders were held back (a preemption, the host's
	   neighbour), as no shorter delay draws less by itself. The try
	   whose loaders drew the most counts, its chase beside it. */
	for (; gb < h->drawn && tries < HELD_BACK_TRIES; tries++) {
		double g;

		if (run_point(c, l, variant, page_name, &again) != 0)
			return -1;
		g = loaders_gb_per_s(l->loaders);
		if (g > gb) {
			gb = g;
			s = again;
		}
	}
	h->tried_again += tries > 1;
	h->still_less += gb < h->drawn;
	h->drawn = gb;
	if (!(h->first_ns > 0)) {
		h->first_ns = s.p50_ns;
		h->first_gb = gb;
	}
	emit_point(buf, l, variant, page_name, &s, gb);
	return 0;
}

/* The line after a mix's points: how many were measured again, and how
   many still drew less than the point before them. */
static void report_held_back(const char *what, const struct held_back *h)
{
	if (!h->tried_again)
		return;
	report_printf("%s: %u %s measured again (up to %u tries): %s less than the point "
		      "before, at a longer delay or with fewer loaders (the loaders held back: "
		      "no shorter delay draws less by itself); the try that drew the most "
		      "counts; %u still drew less\n", what, h->tried_again,
		      h->tried_again == 1 ? "point" : "points", HELD_BACK_TRIES,
		      h->tried_again == 1 ? "it drew" : "each drew", h->still_less);
}

/* The line after a mix's points: its most paced point beside the chase
   alone just before it (the mix's own reading, after its calibration),
   which the chase's drift over the page size's mixes does not move as it
   moves the idle row (the median of every mix's). */
static void report_paced(const char *what, const struct held_back *h)
{
	double alone = alone_count ? alone_seen[alone_count - 1].p50_ns : 0, off;

	if (!(h->first_ns > 0) || !(alone > 0))
		return;
	off = (h->first_ns / alone - 1) * 100;
	report_printf("%s: its most paced point (%.3f GB/s) read %.1f ns, the chase alone just "
		      "before it %.1f (%s%.1f%%)\n", what, h->first_gb, h->first_ns, alone,
		      off >= 0 ? "+" : "", off);
}

/* The chase with no loader, kept for emit_idle: no row yet. */
static int measure_alone(const struct config *c, const char *page_name)
{
	struct batch_summary s;

	if (run_point(c, &no_load, "idle", page_name, &s) != 0)
		return -1;
	if (alone_count < LOAD_MIXES + 1)
		alone_seen[alone_count++] = s;
	return 0;
}

/* Which of the chase's readings alone is their median (the lower middle
   of an even count), by p50. alone_count >= 1. */
static unsigned median_alone(void)
{
	unsigned order[LOAD_MIXES + 1], n = alone_count;

	for (unsigned i = 0; i < n; i++) {
		unsigned k = i;

		/* Insertion by p50: a few readings. */
		while (k > 0 && alone_seen[order[k - 1]].p50_ns > alone_seen[i].p50_ns) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	return order[(n - 1) / 2];
}

/* The idle row, once a page size's mixes have run: of the chase's
   readings alone, before the mixes and after each mix's calibration, the
   median one. The chase's own latency drifts while nothing loads it: on
   an Emerald Rapids VM a sweep whose first reading alone was 192.4 ns read
   162.9 at its end, and its least loaded points 169 to 217 ns; against
   one reading taken before the mixes, a loaded point could stand 15 %
   off with no effect of its load. */
static void emit_idle(const struct plat_buffer *buf, const char *page_name)
{
	if (alone_count)
		emit_point(buf, &no_load, "idle", page_name, &alone_seen[median_alone()], 0);
}

/* The report's line under the table: every reading alone, the idle row's
   among them, and how far they moved. */
static void report_alone(const char *page_name)
{
	char text[256];
	struct mp_text o = { text, sizeof text, 0 };
	double lo, hi;

	if (!alone_count)
		return;
	lo = hi = alone_seen[0].p50_ns;
	for (unsigned i = 0; i < alone_count; i++) {
		double ns = alone_seen[i].p50_ns;

		mp_append(&o, "%s%.1f", i ? ", " : "", ns);
		lo = ns < lo ? ns : lo;
		hi = ns > hi ? ns : hi;
	}
	report_printf("loaded, %s: the chase alone, before the mixes and after each mix's "
		      "calibration: %s ns; the idle row is their median, %.1f; they moved %.1f%% "
		      "while the mixes ran, and a loaded point within that of idle shows no "
		      "effect of its load (METHOD section 10)\n", page_name, text,
		      alone_seen[median_alone()].p50_ns, lo > 0 ? (hi / lo - 1) * 100 : 0.0);
}

/* Paced non-temporal stores go a block of at most NT_PACE_BYTES per
   delay. Each call of the streaming kernel ends in a store fence, which
   waits for the write-combining buffers to drain: with one 64-byte block
   per delay every paced point of the Zen 5 VM drew 1.07 GB/s (a fence of
   about 60 ns a line), whatever the delay, and only the unpaced point
   reached 30 GB/s. Over 16 KiB the fence is a tenth of the block's time. */
#define NT_PACE_BYTES 16384u

/* The block nt_block grows to for pacing: doubled while it stays within
   NT_PACE_BYTES and divides LOAD_CHUNK_BYTES (a loader's look at the
   clock falls between blocks). */
static unsigned nt_pace_block(void)
{
	unsigned b = nt_block;

	while (b && 2 * b <= NT_PACE_BYTES && LOAD_CHUNK_BYTES % (2 * b) == 0)
		b *= 2;
	return b;
}

/* One mix's curve: the idle point, one loader at each delay, then 1 .. N
   loaders at no delay. */
static int sweep_mix(const struct config *c, const struct plat_buffer *buf, enum load_mix mix,
		     const char *page_name)
{
	struct loading l = { 1, { mix, 0, nt_kernel, nt_pace_block() }, 0 };
	struct held_back h = { 0, 0, 0, 0, 0 };
	const char *name = load_mix_name(mix);
	char what[96];
	double step_ns;

	if (mix == LOAD_WRITE_NT && !nt_kernel) {
		report_printf("loaded, %s: no usable non-temporal store kernel: skipped\n", name);
		return 1;
	}
	mp_snprintf(what, sizeof what, "loaded, %s, %s", page_name, name);
	step_ns = alone_step_ns(c, &l, what);
	if (step_ns <= 0)
		return -1;
	if (measure_alone(c, page_name) != 0)
		return -1;
	for (unsigned d = 0; d < DELAY_STEPS; d++) {
		l.delay_ns = delay_factor[d] * step_ns;
		l.plan.delay_adds = (uint64_t)(l.delay_ns * adds_per_ns + 0.5);
		if (measure_point(c, buf, &l, name, page_name, &h) != 0)
			return -1;
	}
	l.plan.delay_adds = 0;
	l.delay_ns = 0;
	for (l.loaders = 1; l.loaders <= load_bufs; l.loaders++)
		if (measure_point(c, buf, &l, name, page_name, &h) != 0)
			return -1;
	report_paced(what, &h);
	report_held_back(what, &h);
	return 0;
}

/* Every mix at one page size of the chase's buffer. */
static int sweep_page_size(const struct config *c, unsigned shift)
{
	struct plat_buffer buf;
	enum load_mix mix = LOADED_SETTINGS(c)->mix;
	char page_name[48];
	uint64_t max, bytes = (uint64_t)LOADED_SETTINGS(c)->batches * sizeof(uint32_t);
	uint64_t chase = chase_bytes(c);
	int status = 0;

	page_size_name(page_name, sizeof page_name, shift);
	max = page_buffer_max(PROBE_NAME, shift);
	if (max == 0)
		return 1;
	if (max < chase) {
		char fits[24];
		mp_format_bytes(fits, sizeof fits, max);
		report_printf("loaded, %s: the largest buffer that fits now, %s, is below "
			      "loaded.size: skipped\n", page_name, fits);
		return 1;
	}
	run.chase.ticks = plat_alloc(bytes);
	if (!run.chase.ticks) {
		report_printf("loaded, %s: no room for the batches' times: skipped\n", page_name);
		return -1;
	}
	if (page_buffer_get(PROBE_NAME, &buf, chase, shift) != 0) {
		plat_free(run.chase.ticks, bytes);
		return -1;
	}
	page_buffer_report(PROBE_NAME, page_name, &buf);
	chase_build(buf.base, chase / CHASE_SLOT, CHASE_SLOT, CYCLE_SEED);
	/* The build wrote every line and the last level keeps the last of
	   them, at random along the cycle. */
	run.chase.at = chase_settle_past_caches(buf.base, chase);
	run.pages = buf.base;
	run.pages_bytes = chase;
	run.page_bytes = 1ull << shift;
	point_batches = LOADED_SETTINGS(c)->batches;
	settle_batches = point_batches / 4 ? point_batches / 4 : 1;
	run.chase.batches = point_batches;
	run.chase.loads = BATCH_LOADS;
	/* Warm-up: a first stretch untimed, the batches' own loop and times
	   brought in before the first reading. */
	batch_run_stretch(&run.chase);
	report_table_begin(&point_table, page_name, NULL);
	idle_ms = 0;
	alone_count = 0;
	if (measure_alone(c, page_name) != 0)
		status = -1;
	/* A mix that failed leaves the others to run, unless a CPU missed
	   its deadline: then every later point would need it. */
	for (unsigned m = 0; m < LOAD_MIXES && !loader_missed && load_bufs; m++)
		if (mix == LOAD_MIX_ALL || mix == (enum load_mix)m) {
			int rc = sweep_mix(c, &buf, (enum load_mix)m, page_name);
			status = rc < 0 ? -1 : status;
		}
	emit_idle(&buf, page_name);
	report_table_end();
	report_alone(page_name);
	plat_buffer_put(&buf);
	plat_free(run.chase.ticks, bytes);
	return status;
}

/* The report's opening lines: what each point is, the mixes, the delay's
   calibration. */
static void describe(const struct config *c, unsigned want)
{
	char size_text[64], load_text[24];
	enum load_mix mix = LOADED_SETTINGS(c)->mix;

	mp_format_bytes(size_text, sizeof size_text, chase_bytes(c));
	if (!LOADED_SETTINGS(c)->size)
		mp_snprintf(size_text + mp_strlen(size_text), sizeof size_text - mp_strlen(size_text),
			    ": 4x the largest cache claimed");
	mp_format_bytes(load_text, sizeof load_text, LOADED_SETTINGS(c)->load_size);
	report_printf("loaded: the latency chase (%s, one random cycle, the page sizes asked) on "
		      "CPU 0, timed in %u batches of %u loads (the counter's cost subtracted), "
		      "while other CPUs each stream a %s buffer of their own with 4 KiB pages: "
		      "per mix one loader paced by a delay before each line, from %.0f x its own "
		      "time per line down to none, then 1 .. %u loaders with none; load GB/s = "
		      "the bytes they moved over each one's own time, summed; a point's latency "
		      "= the batches' p50 per load (mean, tail and marked batches beside it); "
		      "deadline %.0f ms per point\n",
		      size_text, LOADED_SETTINGS(c)->batches, BATCH_LOADS, load_text,
		      delay_factor[0], want, c->cpus_deadline_ms);
	for (unsigned m = 0; m < LOAD_MIXES; m++)
		if (mix == LOAD_MIX_ALL || mix == (enum load_mix)m)
			report_printf("loaded: mix %s: %s%s%s\n", load_mix_name((enum load_mix)m),
				      load_mix_counts((enum load_mix)m),
				      m == LOAD_WRITE_NT && nt_kernel ? "; kernel " : "",
				      m == LOAD_WRITE_NT && nt_kernel ? nt_set : "");
	report_printf("loaded: the delay: %.2f dependent adds a ns on CPU 0 (%u adds timed, "
		      "least of 3), taken to hold on every CPU\n", adds_per_ns, CALIBRATION_ADDS);
	report_printf("loaded: %s\n", plat_cpus_conditions());
	if (!want)
		report_printf("loaded: no other CPU: only the idle point is measured\n");
}

/* ---- Public Functions ------------------------------------------------- */

int probe_loaded(const struct config *c)
{
	unsigned want = loaders_wanted(c);
	int status;

	adds_per_ns = CALIBRATION_ADDS / ticks_to_ns(load_kernel_delay_ticks(CALIBRATION_ADDS));
	find_nt_kernel();
	describe(c, want);
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
	out[0] = (struct probe_hold){ chase_bytes(c), page_shift, 1 };
	out[1] = (struct probe_hold){ LOADED_SETTINGS(c)->load_size, PAGE_SHIFT_4K,
				      loaders_wanted(c) };
	return 2;
}

/* A point's batches: 16384 x 4 loads of ~100 ns is 7 ms, a quarter more
   with the settling stretch, so a mix's 14 points take about a second and
   a quarter at quick;
   full doubles it (its p99.9 then
   rests on 32 batches), not more, since the full profile runs about 85
   points a page size.
   A chase past every cache (chase_bytes: 4 x the largest claimed, at
   least 32 MiB quick, 256 MiB full) while each loader streams a buffer
   past a client's last-level cache (64 MiB: an 8 MiB one stayed in a 32
   MiB L3, and its loader loaded no memory). */
static const struct config_word mix_words[] = {
	{ "all", LOAD_MIX_ALL }, { "read", LOAD_READ }, { "read3_write1", LOAD_READ3_WRITE1 },
	{ "read2_write1", LOAD_READ2_WRITE1 }, { "read1_write1", LOAD_READ1_WRITE1 },
	{ "write", LOAD_WRITE }, { "write_nt", LOAD_WRITE_NT }, { 0, 0 } };
static const struct config_key loaded_keys[] = {
	{ "size", KIND_SIZE_AUTO, SETTING(struct loaded_settings, size), 4096, PROBE_BUFFER_MAX,
	  4096, "auto", "auto", 0, 0, NULL },
	{ "load_size", KIND_SIZE, SETTING(struct loaded_settings, load_size), 65536,
	  PROBE_BUFFER_MAX, 65536, "64MiB", "64MiB", 0, 0, NULL },
	{ "mix", KIND_WORD, SETTING(struct loaded_settings, mix), 0, 0, 0, "all", "all",
	  mix_words, "load mix", NULL },
	{ "loaders", KIND_UINT, SETTING(struct loaded_settings, loaders), 0, CONFIG_CPUS_MAX - 1, 0,
	  "0", "0", 0, 0, NULL },
	{ "batches", KIND_UINT, SETTING(struct loaded_settings, batches), 1024, 16777216, 0,
	  "16384", "32768", 0, 0, NULL },
};

/* The loaders' buffers filled once; per page size the platform can give,
   the chase's buffer built and settled (a load per 4 KiB), and points of
   `batches` batches of BATCH_LOADS loads each: the idle one, and per mix
   asked its loader's lone calibration (ALONE_MS) with DELAY_STEPS paced
   points and one at no delay per count of loaders, each after a settling
   stretch a quarter as long. */
static void loaded_cost(const struct config *c, struct probe_cost *cost)
{
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	unsigned loaders = loaders_wanted(c);
	unsigned mixes = LOADED_SETTINGS(c)->mix == LOAD_MIX_ALL ? LOAD_MIXES : 1;
	double points = 1 + (double)mixes * (DELAY_STEPS + loaders);
	double point_loads = (double)LOADED_SETTINGS(c)->batches * BATCH_LOADS;

	cost->bytes += loaders * (double)LOADED_SETTINGS(c)->load_size;
	for (unsigned p = 0; p < nshifts; p++) {
		cost->bytes += (double)chase_bytes(c);
		chase_build_cost(chase_bytes(c) / CHASE_SLOT, cost);
		probe_cost_loads(cost, (double)(chase_bytes(c) / CHASE_WARM_PAGE_BYTES) +
				 points * point_loads * 1.25, chase_bytes(c));
		cost->ms += (double)mixes * ALONE_MS;
	}
}

PROBE_DEFINE(loaded, 90) = {
	.config = { .name = "loaded", .profiles = PROBE_IN_FULL,
		    PROBE_KEYS(loaded_keys, struct loaded_settings, 0) },
	.run = probe_loaded,
	.holds = loaded_holds,
	.rows_read = ROWS_LOADED,
	.cost = loaded_cost,
};
