/* The bandwidth probe: read, write, copy and non-temporal write, streamed
 * with each vector width the CPU and the platform allow (lib/stream.h's
 * kernel sets, supplied by the architecture), for each working set of the
 * sweep and each page size, on one CPU or, with bandwidth.cores, on several
 * at once (bandwidth_gang.h). docs/METHOD.md explains the method and the
 * cores' limits the figures are held against.
 */

#include "lib/base2.h"
#include "lib/fmt.h"
#include "lib/machine.h"
#include "lib/stream.h"
#include "probes/bandwidth_gang.h"
#include "results/emit.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"
#include "probes/bandwidth_settings.h"
#include "results/report_table.h"
#include "results/results.h"
#include "probes/sweep.h"
#include "core/timebase.h"
#include "results/trial_row.h"
#include "core/trials.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_bandwidth.config.name)

/* ---- Constants -------------------------------------------------------- */


/* ns and cycles are given per line moved, the unit caches and memory move. */
#define LINE_BYTES 64u

/* The untimed warm-up streams at least this many bytes, and two passes, so
   the pass it times is past the first touch of each line and page and, on
   cores that lower their clock for wide vectors, past the clock's change. */
#define WARM_BYTES_MIN (8u << 20)
#define WARM_PASSES_MIN 2u

/* The written pattern: not zero, which a core may store by a shortcut
   (the kernels' own stores are all ones). */
#define FILL_PATTERN 0x5a5a5a5a5a5a5a5aull

/* The variant's first word per operation, as results.csv names it. */
static const char *const op_names[STREAM_OPS] = {
	[STREAM_READ] = "read",
	[STREAM_WRITE] = "write",
	[STREAM_COPY] = "copy",
	[STREAM_WRITE_NT] = "ntwrite",
};

/* One variant's sweep, a row per working set. */
static const struct table_column sweep_columns[] = {
	{ "working set", NULL, 11, 0, 0 },
	{ "GB/s", NULL, 9, 0, 0 },
	{ "B/cycle", NULL, 8, 0, 0 },
	TRIAL_COLUMNS("ns/line", 9, 8),
	{ "passes", NULL, 9, 0, 0 },
	{ "elapsed", NULL, 11, 0, 0 },
	{ "point", NULL, 8, 1, 0 },
};
static const struct table sweep_table = TABLE_OF(sweep_columns, "  ");
/* Refined working sets are whole multiples of this, as bandwidth.min_size
   and bandwidth.max_size are: every kernel and copy's halves divide it. */
#define REFINE_UNIT 4096u

/* ---- Private Types ---------------------------------------------------- */

/* One variant at one working set, as the timed section sees it. */
struct stream_run {
	/* In. */
	stream_kernel_fn *kernel;
	void *dst;
	const void *src;
	size_t bytes;             /* per pass and call: the working set, half of it for copy */
	uint64_t working_set;     /* bytes moved per pass, read and written together */
	int stretch;              /* past every cache: stretches round it, not passes */
	unsigned block;           /* the kernel's bytes per block */
	const struct config *c;
	/* Out. */
	struct trials trials;     /* ns per 64-byte line moved */
	uint64_t passes;          /* per trial */
	const char *stopped_by;
};

/* ---- Private Data ----------------------------------------------------- */

/* How many CPUs stream together (bandwidth.cores, resolved when the probe
   starts), and the sets every one of them can run. */
static unsigned gang_cpus = 1;
static unsigned gang_sets;
/* The passes each page size runs, in order, as CPU counts: one core first
   where bandwidth.one_core asks for it beside a gang, then the gang; and
   the pass running now, which the sweep and its rows read. */
static unsigned passes[2], npasses;
static unsigned pass_cpus = 1;

/* ---- Private Functions ------------------------------------------------ */

/* The untimed passes over `bytes` before a variant's trials. */
static uint64_t warm_passes(uint64_t bytes)
{
	uint64_t warm = (WARM_BYTES_MIN + bytes - 1) / bytes;

	return warm < WARM_PASSES_MIN ? WARM_PASSES_MIN : warm;
}

/* The timed section: a warm-up, then trials of whole passes sized to
   c->step_ms until the shared stop rule (trials_stop) ends them. */
static void stream_trials(void *arg)
{
	struct stream_run *run = arg;
	uint64_t warm = warm_passes(run->working_set);
	uint64_t lines = run->working_set / LINE_BYTES;
	uint64_t t0, t1, target = ms_to_ticks(run->c->step_ms), spent = 0, offset = 0, length = 0;
	struct plat_disturbances before, after;

	if (run->stretch) {
		/* Past every cache: a warm-up stretch, then stretches going on
		   round the buffer, each of lines nothing has touched for over
		   three times the largest cache's bytes (docs/METHOD.md
		   section 11). */
		length = bandwidth_stretch_bytes(1, 1, WARM_BYTES_MIN, run->bytes, run->block);
		t0 = plat_ticks();
		run->kernel(run->dst, run->src, length, 1);
		t1 = plat_ticks();
		offset = length;
		length = bandwidth_stretch_bytes(target, t1 - t0, length, run->bytes, run->block);
		lines = run->working_set / run->bytes * length / LINE_BYTES;
		run->passes = 0;
	} else {
		t0 = plat_ticks();
		run->kernel(run->dst, run->src, run->bytes, warm);
		t1 = plat_ticks();
		run->passes = reps_for_ticks(target, t1 - t0, warm);
	}

	trials_init(&run->trials);
	do {
		if (length && offset + length > run->bytes)
			offset = 0;
		plat_disturbances(&before);
		t0 = plat_ticks();
		if (length)
			run->kernel((char *)run->dst + offset, (const char *)run->src + offset, length, 1);
		else
			run->kernel(run->dst, run->src, run->bytes, run->passes);
		t1 = plat_ticks();
		offset += length;
		plat_disturbances(&after);
		spent += t1 - t0;
		/* A disturbed trial is dropped: the loop measures again. */
		if (trials_add_checked(&run->trials,
				       ticks_to_ns(t1 - t0) / (double)((length ? 1 : run->passes) *
									lines),
				       &before, &after))
			run->stopped_by = trials_stop(&run->trials, run->c, spent,
						      target * run->c->max_trials);
	} while (!run->stopped_by);
}

/* Every byte written before anything is timed: an untouched page may read
   as a shared zero page (Linux) and stay in cache whatever its size. */
static void fill_buffer(const struct plat_buffer *buf)
{
	uint64_t *p = buf->base;

	for (size_t i = 0; i < buf->bytes / sizeof *p; i++)
		p[i] = FILL_PATTERN;
}

/* The trials on pass_cpus CPUs, each its own part of the working set,
   into run's outputs; run->working_set becomes the parts together. 1 when
   the size is too small to share out (reported), 0 measured, -1 not
   (reported). */
static int measure_gang(struct stream_run *run, const struct plat_buffer *buf,
			const struct stream_kernels *set, unsigned set_index, enum stream_op op,
			const char *what)
{
	unsigned unit = op == STREAM_COPY ? 2 * set->block_bytes : set->block_bytes;
	/* Static, not on the stack: a CPU that missed its deadline may still
	   read its kernel and part from it after the call returned. */
	static struct gang_stream g;

	g = (struct gang_stream){ .kernel = run->kernel, .set = set_index, .base = buf->base,
				  .copy = op == STREAM_COPY, .cpus = pass_cpus, .c = run->c };
	g.part = bandwidth_gang_part(run->working_set, pass_cpus, unit);
	if (!g.part) {
		report_printf("%s: not measured: under %u bytes for each of %u CPUs\n", what,
			      unit, pass_cpus);
		return 1;
	}
	g.warm_passes = warm_passes(g.part);
	g.stretch = run->stretch;
	g.block = set->block_bytes;
	if (bandwidth_gang_measure(&g) != 0) {
		report_printf("%s: %s\n", what, g.why);
		return -1;
	}
	run->working_set = g.part * pass_cpus;
	run->trials = g.trials;
	run->passes = g.passes;
	run->stopped_by = g.stopped_by;
	return 0;
}

/* bandwidth_grid_plan with this CPU's claims; *largest: the largest cache
   they claim when max_size is auto (0: none, or max_size set). */
static int bandwidth_grid(const struct config *c, struct bandwidth_grid *g, uint64_t *largest)
{
	static struct cache_claims claims;

	*largest = 0;
	if (!BANDWIDTH_SETTINGS(c)->max_size) {
		plat_cache_claims(&claims);
		*largest = claims_largest_cache(&claims);
	}
	return bandwidth_grid_plan(BANDWIDTH_SETTINGS(c), c->profile, *largest, g);
}

/* One variant's sweep in progress, for the curve's measure calls. */
struct variant_sweep {
	const struct config *c;
	const struct plat_buffer *buf;
	const struct stream_kernels *set;
	unsigned set_index;
	enum stream_op op;
	const char *variant;
	uint64_t past_caches;     /* sweep_past_caches of the largest claimed:
				     from here up, stretches (0: never) */
};

/* One variant at working set ws: the trials, the row, the report line; the
   ns per line in *ns (the curve's measure: ctx is the struct
   variant_sweep). 0, or -1 when the section faulted or the CPUs failed
   (reported). */
static int measure_size(void *ctx, uint64_t ws, const char *point, double *ns)
{
	const struct variant_sweep *v = ctx;
	const struct config *c = v->c;
	const struct plat_buffer *buf = v->buf;
	const struct stream_kernels *set = v->set;
	unsigned set_index = v->set_index;
	enum stream_op op = v->op;
	const char *variant = v->variant;
	struct stream_run run = { .kernel = set->op[op], .working_set = ws, .c = c };
	struct result_row fig = { 0 };
	struct plat_fault fault;
	char size_text[24], what[96];
	int rc;

	*ns = 0;
	/* Copy reads one half of the working set and writes the other. */
	run.src = buf->base;
	run.dst = op == STREAM_COPY ? (char *)buf->base + ws / 2 : buf->base;
	run.bytes = op == STREAM_COPY ? ws / 2 : ws;
	run.block = set->block_bytes;
	run.stretch = v->past_caches && ws >= v->past_caches;
	mp_format_bytes(size_text, sizeof size_text, ws);
	mp_snprintf(what, sizeof what, "%s, %s, %s", PROBE_NAME, variant, size_text);
	if (pass_cpus > 1) {
		rc = measure_gang(&run, buf, set, set_index, op, what);
		if (rc != 0)
			return rc > 0 ? 0 : -1;
		mp_format_bytes(size_text, sizeof size_text, run.working_set);
	} else if (plat_timed_wide(stream_trials, &run, &fault) != 0) {
		report_printf("%s: FAULT: %s\n", what, fault.text);
		return -1;
	}
	fig.probe = PROBE_NAME;
	fig.variant = variant;
	fig.page_shift = buf->page_shift;
	fig.working_set_bytes = run.working_set;
	trial_row_fill(&fig, &run.trials, run.stopped_by, NULL);
	fig.gb_per_s = (struct optional_real){ LINE_BYTES / fig.ns, 1 };
	fig.pages_verified = buf->verified;
	fig.sweep_point = point;
	emit_result_row(&fig);
	*ns = fig.ns;
	report_table_cell("%s", size_text);
	report_table_cell("%.2f", fig.gb_per_s.value);
	report_table_cell("%.2f", fig.bytes_per_cycle.value);
	trial_row_cells(&fig);
	if (run.stretch)
		report_table_cell("stretch");
	else
		report_table_cell("%llu", (unsigned long long)run.passes);
	report_table_cell("%llu ms", (unsigned long long)plat_elapsed_ms());
	report_table_cell("%s", point);
	report_table_row(0);
	return 0;
}

/* One variant's sweep over the grid's sizes, memory's point last, then
   one CPU's sizes refined at its edges (an all-core run's working set is
   shared out, so its edges are not one cache's, and it runs the grid's
   powers of two and its top alone: no edge is read from it; the interval
   up to the last point is never split, so memory's point adds no refined
   size);
   0, or -1 at a fault: a fault at one size would recur at the next, so
   the variant stops and the other variants still run. */
static int sweep_variant(const struct config *c, const struct plat_buffer *buf,
			 const struct plat_stream_sets *sets, unsigned set_index,
			 enum stream_op op, const struct bandwidth_grid *g, uint64_t past_caches)
{
	static struct sweep_curve curve;
	const struct stream_kernels *set = &sets->sets[set_index];
	char variant[32], page_name[48], caption[96], name[64];
	struct variant_sweep v = { c, buf, set, set_index, op, variant, past_caches };

	/* With several CPUs the count is part of the name (read_avx2_x4), so
	   no aggregate is read as one core's figure. */
	if (pass_cpus > 1)
		mp_snprintf(variant, sizeof variant, "%s_%s_x%u", op_names[op], set->name,
			    pass_cpus);
	else
		mp_snprintf(variant, sizeof variant, "%s_%s", op_names[op], set->name);
	report_printf("  %s:\n", variant);
	page_size_name(page_name, sizeof page_name, buf->page_shift);
	mp_snprintf(name, sizeof name, "%s, %s", PROBE_NAME, variant);
	sweep_curve_begin(&curve, &(struct sweep_spec){
		.name = name, .page_name = page_name, .unit = REFINE_UNIT,
		.refine = pass_cpus == 1, .progress = variant,
		.measure = measure_size, .ctx = &v });
	for (unsigned k = g->first; k <= g->last; k++)
		if ((pass_cpus == 1 || base2_is_power(sweep_bytes(k)) || k == g->last) &&
		    !sweep_grid_skips(k, 0, sweep_bytes(g->last)))
			sweep_grid_add(&curve, sweep_bytes(k));
	if (g->memory)
		sweep_grid_add(&curve, sweep_bytes(g->memory));
	mp_snprintf(caption, sizeof caption, "%s, %s", name, page_name);
	return sweep_curve_run(&curve, &sweep_table, caption);
}

/* The sets to run of the usable ones: all, or the widest alone (the
   highest bit: sets are ordered narrowest first). */
static unsigned sets_to_run(const struct config *c, unsigned usable)
{
	while (BANDWIDTH_SETTINGS(c)->sets == BANDWIDTH_WIDEST && (usable & (usable - 1)))
		usable &= usable - 1;
	return usable;
}

/* 1 skipped (page size unavailable), 0 measured, -1 failed (reported). */
static int sweep_page_size(const struct config *c, unsigned shift)
{
	struct plat_stream_sets sets;
	struct plat_buffer buf;
	struct bandwidth_grid g;
	char page_name[48];
	uint64_t largest;
	unsigned last;
	int status;

	plat_stream_sets(&sets);
	bandwidth_grid(c, &g, &largest);
	last = g.memory ? g.memory : g.last;
	page_size_name(page_name, sizeof page_name, shift);
	status = sweep_buffer_get(PROBE_NAME, &buf, shift, page_name, g.first, &last);
	if (status != 0)
		return status;
	/* Memory's point needs its whole buffer; a smaller one caps the grid. */
	if (g.memory && last < g.memory) {
		report_printf("%s, %s: memory's point does not fit: memory's bandwidth is not "
			      "measured with these pages\n", PROBE_NAME, page_name);
		g.memory = 0;
	}
	if (last < g.last)
		g.last = last;
	page_buffer_report(PROBE_NAME, page_name, &buf);
	fill_buffer(&buf);
	for (unsigned p = 0; p < npasses; p++) {
		pass_cpus = passes[p];
		for (unsigned s = 0; s < sets.count; s++) {
			if (!(sets_to_run(c, sets.usable & (pass_cpus > 1 ? gang_sets : ~0u)) &
			      (1u << s)))
				continue;
			for (unsigned op = 0; op < STREAM_OPS; op++)
				if (sweep_variant(c, &buf, &sets, s, (enum stream_op)op, &g,
						  sweep_past_caches(largest)) != 0)
					status = -1;
		}
	}
	if (bandwidth_gang_buffer_held())
		report_printf("%s: the %s buffer is kept: a CPU that missed its deadline may "
			      "still be streaming it\n", PROBE_NAME, page_name);
	else
		plat_buffer_put(&buf);
	return status;
}

/* "sse2, avx2" for the sets in mask. */
static void set_names(char *buf, size_t size, const struct plat_stream_sets *sets,
		      unsigned mask)
{
	struct mp_text t = { buf, size, 0 };

	buf[0] = '\0';
	for (unsigned s = 0; s < sets->count; s++)
		if (mask & (1u << s))
			mp_append(&t, "%s%s", t.len ? ", " : "", sets->sets[s].name);
	if (!t.len)
		mp_strlcpy(buf, "none", size);
}

/* Which sets run (the widest that can, or each with bandwidth.sets=all),
   and plainly which the CPU has that cannot. 0, or -1 when none can run. */
static int report_sets(const struct config *c)
{
	struct plat_stream_sets sets;
	char offered[64], usable[64], refused[64];
	unsigned run;

	plat_stream_sets(&sets);
	run = sets_to_run(c, sets.usable);
	set_names(offered, sizeof offered, &sets, sets.offered);
	set_names(usable, sizeof usable, &sets, run);
	report_printf("%s: the CPU offers %s; running %s%s\n", PROBE_NAME, offered, usable,
		      run != sets.usable
		      ? " (the widest that can run; bandwidth.sets=all runs each)" : "");
	if (sets.offered & ~sets.usable) {
		set_names(refused, sizeof refused, &sets, sets.offered & ~sets.usable);
		report_printf("%s: %s not run: %s\n", PROBE_NAME, refused, sets.why_not);
	}
	return sets.usable ? 0 : -1;
}

/* The sweep's top and memory's point, in a line. */
static void report_grid(const struct config *c, const struct bandwidth_grid *g,
			uint64_t largest)
{
	char top[24], memory[24], claim[24], cap[24];

	mp_format_bytes(top, sizeof top, sweep_bytes(g->last));
	mp_format_bytes(memory, sizeof memory, g->capped ? g->capped : sweep_bytes(g->memory));
	mp_format_bytes(claim, sizeof claim, largest);
	mp_format_bytes(cap, sizeof cap, BANDWIDTH_MEMORY_CAP_QUICK);
	if (BANDWIDTH_SETTINGS(c)->max_size)
		report_printf("%s: the sweep's top is bandwidth.max_size, %s\n", PROBE_NAME, top);
	else if (g->memory)
		report_printf("%s: the sweep's grid ends at %s (the %s profile's), then memory's "
			      "point, %s: the first grid size at or past 4 x the largest cache CPUID "
			      "claims (%s)\n", PROBE_NAME, top,
			      c->profile == PROFILE_FULL ? "full" : "quick", memory, claim);
	else if (g->capped)
		report_printf("%s: the sweep's grid ends at %s (the quick profile's); memory's point, "
			      "%s (4 x the largest cache the CPU claims, %s), lies past the quick "
			      "profile's %s cap: memory's bandwidth is not measured (the full profile, "
			      "or bandwidth.max_size, reaches it)\n", PROBE_NAME, top, memory, claim,
			      cap);
	else
		report_printf("%s: the sweep's top is %s, the %s profile's%s\n", PROBE_NAME, top,
			      c->profile == PROFILE_FULL ? "full" : "quick",
			      largest ? ", at or past 4 x the largest cache the CPU claims"
				      : ": the CPU claims no cache, so no size is known to be memory");
}

/* The passes (passes[], npasses) from the gang bandwidth_gang_begin
   resolved (gang_rc: its status): one core, then the gang where
   bandwidth.one_core asks for both; one core alone where the gang could
   not start but one core was asked for too (said; the probe then fails).
   0 when nothing is left to run. */
static int plan_passes(const struct config *c, int gang_rc)
{
	int one_core = BANDWIDTH_SETTINGS(c)->one_core;

	npasses = 0;
	if (gang_rc != 0) {
		if (one_core && BANDWIDTH_SETTINGS(c)->cores != 1) {
			report_printf("%s: one core's figures only: the CPUs together could not "
				      "run (above)\n", PROBE_NAME);
			passes[npasses++] = 1;
		}
		return npasses > 0;
	}
	if (gang_cpus == 1 || one_core)
		passes[npasses++] = 1;
	if (gang_cpus > 1) {
		passes[npasses++] = gang_cpus;
		if (one_core)
			report_printf("%s: each page size runs one core first, then the %u CPUs "
				      "together (bandwidth.one_core = yes)\n", PROBE_NAME, gang_cpus);
	}
	return 1;
}

/* ---- Public Functions ------------------------------------------------- */

int bandwidth_grid_plan(const struct bandwidth_settings *s, enum profile profile,
			uint64_t largest, struct bandwidth_grid *g)
{
	uint64_t top = s->max_size, memory;
	unsigned first = 0, last = 0;

	*g = (struct bandwidth_grid){ 0, 0, 0, 0 };
	if (!top) {
		top = profile == PROFILE_FULL ? BANDWIDTH_TOP_FULL : BANDWIDTH_TOP_QUICK;
		top = top > s->min_size ? top : s->min_size;
	}
	if (!sweep_range(s->min_size, top, &g->first, &g->last))
		return 0;
	memory = !s->max_size && largest ? sweep_auto_top(0, largest) : 0;
	if (memory <= sweep_bytes(g->last))
		return 1;
	if (profile != PROFILE_FULL && memory > BANDWIDTH_MEMORY_CAP_QUICK)
		g->capped = memory;
	else if (sweep_range(memory, memory, &first, &last))
		g->memory = first;
	return 1;
}

int probe_bandwidth(const struct config *c)
{
	struct plat_stream_sets sets;
	struct bandwidth_grid g;
	uint64_t largest;
	int gang_rc, rc;

	if (!bandwidth_grid(c, &g, &largest)) {
		report_printf("%s: no working set of the sweep (4 KiB .. 1 TiB) lies in "
			      "bandwidth.min_size .. bandwidth.max_size: nothing measured\n",
			      PROBE_NAME);
		return -1;
	}
	report_grid(c, &g, largest);
	report_printf("%s: read, write, copy and non-temporal write, 8 vectors per loop "
		      "iteration, 8 independent accumulators for read; per size a warm-up "
		      "of >= %u MiB, then at least %u trials of whole passes of >= %.0f ms, "
		      "stop when the best three agree within %.1f%%, at most %u trials or, "
		      "past %u, %.0f ms of trials; figure = best trial; copy reads half the "
		      "working set and writes the other half, its GB/s counts both; ns and "
		      "cycles per 64-byte line\n", PROBE_NAME, WARM_BYTES_MIN >> 20, c->trials,
		      c->step_ms, c->precision * 100, c->max_trials, c->trials,
		      c->max_trials * c->step_ms);
	if (report_sets(c) != 0) {
		report_printf("%s: no kernel set can run here: nothing measured\n", PROBE_NAME);
		return -1;
	}
	plat_stream_sets(&sets);
	gang_rc = bandwidth_gang_begin(c, &sets, &gang_cpus, &gang_sets);
	if (!plan_passes(c, gang_rc))
		return -1;
	rc = page_sizes_each(PROBE_NAME, c, sweep_page_size);
	return gang_rc != 0 ? -1 : rc;
}

/* One buffer: the sweep's largest working set (memory's point where there
   is one), shared by every CPU of the gang. */
static unsigned bandwidth_holds(const struct config *c, unsigned page_shift,
				struct probe_hold out[PROBE_HOLDS_MAX])
{
	struct bandwidth_grid g;
	uint64_t largest;

	if (!bandwidth_grid(c, &g, &largest))
		return 0;
	out[0] = (struct probe_hold){ sweep_bytes(g.memory ? g.memory : g.last), page_shift, 1 };
	return 1;
}

/* Per page size the platform can give: the buffer faulted in and
   filled; per pass (one core, the CPUs together), per operation of the
   widest set, each point's warm-up streamed and its trials of step_ms
   (refined points left out; bandwidth.sets = all counted as the widest). */
static void bandwidth_cost(const struct config *c, struct probe_cost *cost)
{
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	const struct bandwidth_settings *s = BANDWIDTH_SETTINGS(c);
	unsigned cpus = s->cores == BANDWIDTH_CORES_ALL ? plat_cpu_count() : s->cores;
	unsigned runs = cpus > 1 && s->one_core ? 2 : 1;
	double trials = (c->trials + (c->max_trials > c->trials ? c->max_trials : c->trials)) / 2.0;
	struct bandwidth_grid g;
	uint64_t largest;

	if (!bandwidth_grid(c, &g, &largest))
		return;
	for (unsigned p = 0; p < nshifts; p++) {
		cost->bytes += (double)sweep_bytes(g.memory ? g.memory : g.last);
		for (unsigned k = g.first; k <= (g.memory ? g.memory : g.last); k++) {
			if ((k > g.last && k != g.memory) ||
			    (k <= g.last && sweep_grid_skips(k, 0, sweep_bytes(g.last))))
				continue;
			probe_cost_streamed(cost, runs * STREAM_OPS *
					    (double)(warm_passes(sweep_bytes(k)) * sweep_bytes(k)),
					    sweep_bytes(k));
			cost->ms += runs * STREAM_OPS * trials * c->step_ms;
		}
	}
}

/* The latency sweep's grid; auto (bandwidth_settings.h): quick's grid stops
   at 8 MiB, past L2 on every current core, and one point in memory follows
   it. The widest set only: the figure the hardware's
   limit is about, and a third of the time of all three; `all` compares the
   widths. One core: what the cores' limits (docs/METHOD.md) are about;
   `all` or a count gives the CPUs' aggregate. */
static const struct config_word sets_words[] = {
	{ "widest", BANDWIDTH_WIDEST }, { "all", BANDWIDTH_ALL }, { 0, 0 } };
static const struct config_key bandwidth_keys[] = {
	{ "min_size", KIND_SIZE, SETTING(struct bandwidth_settings, min_size), 4096,
	  PROBE_BUFFER_MAX, 4096, "4KiB", "4KiB", 0, 0, NULL },
	{ "max_size", KIND_SIZE_AUTO, SETTING(struct bandwidth_settings, max_size), 4096,
	  PROBE_BUFFER_MAX, 4096, "auto", "auto", 0, 0, NULL },
	{ "sets", KIND_WORD, SETTING(struct bandwidth_settings, sets), 0, 0, 0, "widest", "widest",
	  sets_words, "kernel set choice", NULL },
	{ "cores", KIND_CORES, SETTING(struct bandwidth_settings, cores), 1, CONFIG_CPUS_MAX, 0,
	  "1", "all", 0, 0, NULL },
	{ "one_core", KIND_YESNO, SETTING(struct bandwidth_settings, one_core), 0, 0, 0, "yes",
	  "yes", 0, 0, NULL },
};

static const char *bandwidth_check(const void *settings, const char **a, const char **b)
{
	const struct bandwidth_settings *s = settings;

	*a = "min_size";
	*b = "max_size";
	return s->max_size && s->min_size > s->max_size ? "is larger than bandwidth.max_size" : 0;
}

PROBE_DEFINE(bandwidth, 60) = {
	.config = { .name = "bandwidth", .profiles = PROBE_IN_QUICK | PROBE_IN_FULL,
		    PROBE_KEYS(bandwidth_keys, struct bandwidth_settings, bandwidth_check) },
	.run = probe_bandwidth,
	.holds = bandwidth_holds,
	.cost = bandwidth_cost,
	.rows_read = ROWS_BANDWIDTH,
};
