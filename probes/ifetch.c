/* The ifetch probe: the instruction side of the hierarchy, measured by
 * running code written at run time (probes/codegen.h) in a buffer of each
 * asked page size.
 *
 *  - fetch: NOP sleds of ifetch.nop_bytes per instruction, with a
 *    loop-back, from 1 KiB to ifetch.max_footprint: bytes and instructions
 *    fetched per core cycle by footprint.
 *  - line: a chain of taken jumps, one per 64-byte line, through a random
 *    cycle of lines; its control, line_control, has the same number of
 *    jumps one per 16 bytes, a quarter of the footprint, so the branch
 *    predictor sees as many branches while the lines fit the L1i longer.
 *    The step of line over its control is the L1i's capacity and miss cost.
 *  - page: a chain of jumps one per page through k pages in random order;
 *    its control, page_control, the same k jumps packed one per line. The
 *    step of page over its control is an instruction TLB's reach.
 *
 * Each point is written, made executable (plat_code_seal), and timed as
 * a series of trials in plat_timed; cycles come from the core clock the
 * timebase converts with (core/timebase.h). analysis/ifetch_levels.c
 * reads the curves against the CPU's claims. docs/METHOD.md, "ifetch".
 */

#include "analysis/ifetch_levels.h"
#include "core/platform.h"
#include "core/probe.h"
#include "core/timebase.h"
#include "core/trials.h"
#include "lib/fmt.h"
#include "probes/chase_run.h"
#include "probes/codegen.h"
#include "probes/ifetch_settings.h"
#include "probes/page_sizes.h"
#include "results/emit.h"
#include "results/report_table.h"
#include "results/results.h"
#include "results/trial_row.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_ifetch.config.name)

/* ---- Constants -------------------------------------------------------- */

#define CYCLE_SEED 0x13198a2e03707344ull
/* The sled's smallest footprint. */
#define FETCH_MIN_BYTES 1024u
/* The line chain's fewest jumps (1 KiB of lines). */
#define LINE_MIN_JUMPS 16u
/* The page chain's fewest pages. */
#define PAGE_MIN_JUMPS 2u
/* The page chain's top, at least: four times the L2 TLBs shipped (2048
   entries on Zen 5 and Golden Cove's STLB), so the last step has a
   plateau of several points past it. */
#define PAGE_AUTO_JUMPS 8192u
/* Laps of a point's warm-up, so the predictor has learnt the code: at
   most WARM_CALLS, and no more once WARM_STEPS x step_ms have gone by, at
   least WARM_CALLS_MIN. A chain of a million jumps outgrows every
   predictor and cache in its first lap: 64 of its laps (10 s at 64 MiB)
   taught it nothing, and made the full profile's ifetch 90 s of warm-up. */
#define WARM_CALLS 64u
#define WARM_CALLS_MIN 2u
#define WARM_STEPS 8u

static const struct table_column fetch_columns[] = {
	{ "footprint", NULL, 10, 0, 0 },
	{ "ns/line", NULL, 9, 0, 0 },
	{ "B/cycle", NULL, 8, 0, 0 },
	{ "insn/cycle", NULL, 10, 0, 0 },
	{ "GB/s", NULL, 8, 0, 0 },
	{ "trials", NULL, 7, 0, 0 },
	{ "stopped by", NULL, 10, 1, 0 },
};
static const struct table fetch_table = TABLE_OF(fetch_columns, "  ");

static const struct table_column chain_columns[] = {
	{ "jumps", NULL, 8, 0, 0 },
	{ "footprint", NULL, 10, 0, 0 },
	{ "ns/jump", NULL, 9, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "ctrl ns", NULL, 9, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "+cycles", NULL, 8, 0, 0 },
	{ "trials", NULL, 10, 0, 0 },
	{ "stopped by", NULL, 10, 1, 0 },
};
static const struct table chain_table = TABLE_OF(chain_columns, "  ");

/* ---- Private Types ---------------------------------------------------- */

/* One point's timed series: the code and what it ran. */
struct code_trials {
	const struct config *c;
	int cpu;                      /* the logical CPU it runs on as a role
					 (plat_cpus_run), or -1: the calling one */
	void (*sled)(uint64_t laps);  /* a sled, or NULL */
	void (*chain)(void);          /* a chain, or NULL */
	struct trials trials;         /* ns per lap */
	uint64_t laps_per_trial;
	const char *stopped_by;
};

/* A chain sweep's shape: the test's and the control's slots. */
struct chain_shape {
	const char *variant, *control_variant;
	size_t slot_bytes, control_slot_bytes;
	enum code_jump form;
};

/* ---- File-scope Data -------------------------------------------------- */

/* This run's rows, read for the report's closing lines. */
static struct ifetch_rows seen;

/* ---- Private Functions ------------------------------------------------ */

/* The grid: powers of two with a midpoint between each pair, from first. */
static uint64_t grid_after(uint64_t n)
{
	if (n < 2)
		return n + 1;
	return (n & (n - 1)) == 0 ? n + n / 2 : n / 3 * 4;
}

static void run_laps(const struct code_trials *t, uint64_t laps)
{
	if (t->sled) {
		t->sled(laps);
		return;
	}
	for (uint64_t i = 0; i < laps; i++)
		t->chain();
}

/* The untimed warm-up: laps until caches and predictors hold what they
   can (WARM_CALLS, WARM_CALLS_MIN, WARM_STEPS); returns the laps run, and
   their ticks in *ticks. */
static uint64_t warm_up(const struct code_trials *t, uint64_t target, uint64_t *ticks)
{
	uint64_t laps = 0, t0 = plat_ticks(), t1 = t0;

	while (laps < WARM_CALLS && (laps < WARM_CALLS_MIN || t1 - t0 < WARM_STEPS * target)) {
		/* Doubling batches: a short lap is not timed one at a time. */
		uint64_t batch = laps ? laps : 1;

		if (batch > WARM_CALLS - laps)
			batch = WARM_CALLS - laps;
		run_laps(t, batch);
		laps += batch;
		t1 = plat_ticks();
	}
	*ticks = t1 - t0;
	return laps;
}

/* The timed section: a warm-up (warm_up), then trials of whole laps sized
   to step_ms until the stop rule ends them. */
static void timed_trials(void *arg)
{
	struct code_trials *t = arg;
	uint64_t t0, t1, target = ms_to_ticks(t->c->step_ms), spent = 0, warm_ticks, warm_laps;
	struct plat_disturbances before, after;

	warm_laps = warm_up(t, target, &warm_ticks);
	t->laps_per_trial = reps_for_ticks(target, warm_ticks, warm_laps);
	trials_init(&t->trials);
	for (;;) {
		plat_disturbances(&before);
		t0 = plat_ticks();
		run_laps(t, t->laps_per_trial);
		t1 = plat_ticks();
		plat_disturbances(&after);
		spent += t1 - t0;
		if (!trials_add_checked(&t->trials, ticks_to_ns(t1 - t0) / (double)t->laps_per_trial,
					&before, &after))
			continue;
		t->stopped_by = trials_stop(&t->trials, t->c, spent, target * t->c->max_trials);
		if (t->stopped_by)
			break;
	}
}

/* timed_trials on t->cpu, as a role of its own (or on the calling CPU in
   plat_timed, with t->cpu -1): 0, or -1 reported under `what`. */
static int timed_on_cpu(struct code_trials *t, const char *what)
{
	struct plat_role role = { .cpu = (unsigned)t->cpu, .fn = timed_trials, .arg = t };
	struct plat_fault fault;
	char why[160];
	int rc;

	if (t->cpu < 0) {
		if (plat_timed(timed_trials, t, &fault) == 0)
			return 0;
		report_printf("%s: FAULT: %s\n", what, fault.text);
		probe_failed_because("a fault in generated code: %s", fault.text);
		return -1;
	}
	rc = plat_cpus_run(&role, 1, (uint64_t)t->c->cpus_deadline_ms, why, sizeof why);
	if (rc == 0)
		return 0;
	if (rc > 0 && plat_cpu_fault((unsigned)t->cpu, &fault)) {
		report_printf("%s: FAULT on CPU %d: %s\n", what, t->cpu, fault.text);
		probe_failed_because("a fault in generated code on CPU %d: %s", t->cpu, fault.text);
	} else {
		report_printf("%s: CPU %d did not run it: %s\n", what, t->cpu,
			      rc > 0 ? "it missed cpus.deadline" : why);
		probe_failed_because("CPU %d did not run the chain", t->cpu);
	}
	return -1;
}

/* Makes the code written in buf runnable and times it (timed_on_cpu);
   0, or -1 reported under `what`. */
static int time_code(struct plat_buffer *buf, struct code_trials *t, const char *what)
{
	char why[160];

	if (plat_code_seal(buf, why, sizeof why) != 0) {
		report_printf("%s: the code could not be made runnable: %s\n", what, why);
		probe_failed_because("code not runnable: %s", why);
		return -1;
	}
	t->stopped_by = "-";
	if (timed_on_cpu(t, what) != 0) {
		plat_code_unseal(buf, why, sizeof why);
		return -1;
	}
	if (plat_code_unseal(buf, why, sizeof why) != 0) {
		report_printf("%s: the code buffer could not be written again: %s\n", what, why);
		return -1;
	}
	return 0;
}

/* The row every point shares; the caller fills the figures. */
static struct result_row point_row(const struct plat_buffer *buf, const char *variant,
				   uint64_t bytes, const struct code_trials *t, double ns)
{
	struct result_row row = { .probe = PROBE_NAME, .variant = variant,
				  .page_shift = buf->page_shift, .working_set_bytes = bytes,
				  .pages_verified = buf->verified, .sweep_point = "grid" };

	trial_row_fill(&row, &t->trials, t->stopped_by, NULL);
	row.ns = ns;
	return row;
}

/* One sled footprint: its row, and its line of the table. */
static int measure_sled(const struct config *c, struct plat_buffer *buf, uint64_t bytes,
			const char *page_name)
{
	struct code_trials t = { .c = c, .cpu = -1 };
	struct code_sled s;
	struct result_row row;
	double lap_ns, lines = (double)bytes / 64.0;
	char why[160], what[96], size[24];

	mp_format_bytes(size, sizeof size, bytes);
	mp_snprintf(what, sizeof what, "ifetch, %s, sled of %s", page_name, size);
	if (codegen_sled((enum code_isa)plat_code_isa(), buf->base, (size_t)bytes,
			 IFETCH_SETTINGS(c)->nop_bytes, &s, why, sizeof why) != 0) {
		report_printf("%s: %s\n", what, why);
		return -1;
	}
	t.sled = (void (*)(uint64_t))(uintptr_t)buf->base;
	if (time_code(buf, &t, what) != 0)
		return -1;
	lap_ns = trials_best(&t.trials);
	row = point_row(buf, IFETCH_VARIANT_FETCH, bytes, &t, lap_ns / lines);
	row.gb_per_s = (struct optional_real){ .given = 1, .value = (double)bytes / lap_ns };
	row.insns_per_cycle = (struct optional_real){ .given = 1, .value = (double)s.insns_per_lap /
							  ns_to_cycles(lap_ns) };
	emit_result_row(&row);
	ifetch_rows_add(&seen, &row);
	report_table_cell("%s", size);
	report_table_cell("%.3f", row.ns);
	report_table_cell("%.2f", row.bytes_per_cycle.value);
	report_table_cell("%.2f", row.insns_per_cycle.value);
	report_table_cell("%.1f", row.gb_per_s.value);
	report_table_cell("%u", row.trials);
	report_table_cell("%s", row.stopped_by);
	report_table_row(0);
	return 0;
}

/* Writes and times one chain of `jumps` slots of slot_bytes, `at` bytes
   into the buffer, on logical CPU cpu (-1: the calling one); its row in
   *row, which names the CPU where one was asked. next: scratch of `jumps`
   entries. */
static int measure_chain(const struct config *c, struct plat_buffer *buf, size_t at,
			 const char *variant, size_t jumps, size_t slot_bytes, enum code_jump form,
			 int cpu, uint32_t *next, const char *what, struct result_row *row)
{
	struct code_trials t = { .c = c, .cpu = cpu };
	char *base = (char *)buf->base + at;
	char why[160];

	if (codegen_chain((enum code_isa)plat_code_isa(), (uint8_t *)base, jumps, slot_bytes, form,
			  CYCLE_SEED, next, why, sizeof why) != 0) {
		report_printf("%s: %s\n", what, why);
		return -1;
	}
	t.chain = (void (*)(void))(uintptr_t)(base + codegen_block_offset(0, slot_bytes));
	if (time_code(buf, &t, what) != 0)
		return -1;
	*row = point_row(buf, variant, (uint64_t)jumps * slot_bytes, &t,
			 trials_best(&t.trials) / (double)jumps);
	row->stride_bytes = slot_bytes;
	if (cpu >= 0)
		row->cpu = (struct optional_count){ .given = 1, .value = (unsigned)cpu };
	emit_result_row(row);
	ifetch_rows_add(&seen, row);
	return 0;
}

/* Where a sweep's controls go, up to `last` jumps: one place for every
   point, as the tests share the buffer's start, at the buffer's end less
   the largest control, on a 4 KiB boundary. A branch predictor keeps
   what ran at an address after the code there changed: on the Zen 5 VM a
   64-byte chain run after a 16-byte one over the same addresses read
   1.6-2.0 ns a jump at 48-64 KiB, against 0.19 and 0.27 without it, and
   controls that each ended at the buffer's end, so that each point's
   blocks stood beside where the last point's had, read 3.8 ns a jump at
   16 KiB falling to 0.8 at 48 KiB. Where the buffer holds no more than
   the largest test (the page chain's top), the two meet at its end: the
   page chain's blocks start lines, as its control's do, and every one
   of them runs. */
static size_t control_at(const struct plat_buffer *buf, const struct chain_shape *shape,
			 uint64_t last)
{
	size_t control = (size_t)last * shape->control_slot_bytes;

	return control < buf->bytes ? (buf->bytes - control) & ~(size_t)4095 : 0;
}

/* One jump count of a chain sweep on logical CPU cpu (-1: the calling
   one): the test, its control, a table line. */
static int measure_jumps(const struct config *c, struct plat_buffer *buf,
			 const struct chain_shape *shape, size_t jumps, size_t control_base,
			 int cpu, uint32_t *next, const char *page_name)
{
	struct result_row test, control;
	char what[112], size[24];

	mp_snprintf(what, sizeof what, "ifetch, %s, %s chain of %zu jumps", page_name,
		    shape->variant, jumps);
	if (measure_chain(c, buf, 0, shape->variant, jumps, shape->slot_bytes, shape->form, cpu,
			  next, what, &test) != 0)
		return -1;
	mp_snprintf(what, sizeof what, "ifetch, %s, %s of %zu jumps", page_name,
		    shape->control_variant, jumps);
	if (measure_chain(c, buf, control_base, shape->control_variant, jumps,
			  shape->control_slot_bytes, shape->form, cpu, next, what, &control) != 0)
		return -1;
	mp_format_bytes(size, sizeof size, test.working_set_bytes);
	report_table_cell("%zu", jumps);
	report_table_cell("%s", size);
	report_table_cell("%.3f", test.ns);
	report_table_cell("%.2f", test.cycles);
	report_table_cell("%.3f", control.ns);
	report_table_cell("%.2f", control.cycles);
	report_table_cell("%.2f", test.cycles - control.cycles);
	report_table_cell("%6u/%-3u", test.trials, control.trials);
	report_table_cell("%s", test.stopped_by);
	report_table_row(0);
	return 0;
}

/* A chain sweep over jump counts first..last (on the grid) in buf, on
   logical CPU cpu (-1: the calling one). */
static int sweep_chain(const struct config *c, struct plat_buffer *buf,
		       const struct chain_shape *shape, uint64_t first, uint64_t last, int cpu,
		       const char *page_name, const char *caption)
{
	uint32_t *next = plat_alloc(last * sizeof *next);
	int status = 0;

	if (!next) {
		report_printf("ifetch, %s: no scratch for %llu jumps\n", page_name,
			      (unsigned long long)last);
		return -1;
	}
	report_table_begin(&chain_table, caption, 0);
	for (uint64_t n = first; n <= last && status == 0 && !plat_fatal(); n = grid_after(n))
		status = measure_jumps(c, buf, shape, (size_t)n, control_at(buf, shape, last), cpu,
				       next, page_name);
	report_table_end();
	plat_free(next, last * sizeof *next);
	return status;
}

/* A buffer of `bytes` with these pages, reported; 0, or -1 reported. */
static int code_buffer(struct plat_buffer *buf, uint64_t bytes, unsigned shift,
		       const char *page_name)
{
	if (page_buffer_get(PROBE_NAME, buf, bytes, shift) != 0)
		return -1;
	page_buffer_report(PROBE_NAME, page_name, buf);
	return 0;
}

/* The line chain's top footprint: LINE_TOP_L2S times the L2 the CPU claims
   (a data or unified cache of level 2), within ifetch.max_footprint; the
   whole of it where no L2 is claimed. The chain is there for the L1i's
   step, and the L2's past it; beyond, each lap of a million jumps from
   memory took a quarter of a second, and the full profile's ifetch spent
   12 of its 16 s on the Zen 5 VM past its 1 MiB L2 (the fetch sleds,
   cheap per byte, still go on to ifetch.max_footprint). */
#define LINE_TOP_L2S 4u
static uint64_t line_top_of(const struct config *c)
{
	static struct cache_claims claims;
	uint64_t top = IFETCH_SETTINGS(c)->max_footprint;

	plat_cache_claims(&claims);
	for (unsigned i = 0; i < claims.ncaches; i++)
		if (claims.cache[i].level == 2 && claims.cache[i].kind != CACHE_INSTRUCTION &&
		    claims.cache[i].size_bytes && LINE_TOP_L2S * claims.cache[i].size_bytes < top)
			top = LINE_TOP_L2S * claims.cache[i].size_bytes;
	return top;
}

/* Fetch bandwidth and the line chain, in one buffer of max_footprint. */
static int measure_lines(const struct config *c, unsigned shift, const char *page_name)
{
	uint64_t top = IFETCH_SETTINGS(c)->max_footprint, line_top = line_top_of(c);
	char top_text[24];
	struct chain_shape shape = { IFETCH_VARIANT_LINE, IFETCH_VARIANT_LINE_CONTROL,
				     IFETCH_LINE_SLOT, IFETCH_LINE_CONTROL_SLOT, CODE_JUMP_NEAR };
	struct plat_buffer buf;
	char caption[80];
	int status = 0;

	if (code_buffer(&buf, top, shift, page_name) != 0)
		return -1;
	mp_snprintf(caption, sizeof caption, "ifetch, %s: fetch from NOP sleds", page_name);
	report_table_begin(&fetch_table, caption, 0);
	for (uint64_t b = FETCH_MIN_BYTES; b <= top && status == 0 && !plat_fatal();
	     b = grid_after(b / FETCH_MIN_BYTES) * FETCH_MIN_BYTES)
		status = measure_sled(c, &buf, b, page_name);
	report_table_end();
	mp_snprintf(caption, sizeof caption, "ifetch, %s: line chain and its control", page_name);
	mp_format_bytes(top_text, sizeof top_text, line_top);
	if (status == 0 && line_top < top)
		report_printf("ifetch, %s: the line chain's top is %s, %u x the L2 the CPU claims "
			      "(the L1i's step and the L2's; the sleds went on to "
			      "ifetch.max_footprint)\n", page_name, top_text, LINE_TOP_L2S);
	if (status == 0)
		status = sweep_chain(c, &buf, &shape, LINE_MIN_JUMPS, line_top / IFETCH_LINE_SLOT,
				     -1, page_name, caption);
	plat_buffer_put(&buf);
	return status;
}

/* The page chain's top: the larger of PAGE_AUTO_JUMPS and four times the
   largest instruction TLB claimed for these pages (*claimed, *source
   where the claim comes from; a hypervisor's claim may be smaller than the
   TLB behind it), within ifetch.max_buffer and what memory gives now
   (*cut: whether those cut it). */
static uint64_t page_top_of(const struct config *c, unsigned shift, unsigned *claimed,
			    const char **source, int *cut)
{
	static struct cache_claims claims;
	uint64_t page = 1ull << shift, cap = IFETCH_SETTINGS(c)->max_buffer / page, top;
	const struct tlb_desc *most;

	plat_cache_claims(&claims);
	most = ifetch_claimed_tlb_largest(&claims, shift);
	*claimed = most ? most->entries : 0;
	*source = most && most->source ? most->source : "no source";
	top = 4ull * *claimed > PAGE_AUTO_JUMPS ? 4ull * *claimed : PAGE_AUTO_JUMPS;
	if (page_buffer_max(PROBE_NAME, shift) / page < cap)
		cap = page_buffer_max(PROBE_NAME, shift) / page;
	*cut = top > cap;
	return top < cap ? top : cap;
}

/* page_top_of, said in the report. */
static uint64_t page_top(const struct config *c, unsigned shift, const char *page_name)
{
	unsigned claimed;
	const char *source;
	int cut;
	uint64_t top = page_top_of(c, shift, &claimed, &source, &cut);

	if (claimed)
		report_printf("ifetch, %s: the claims give %u instruction TLB entries at most for "
			      "these pages (%s)\n", page_name, claimed, source);
	report_printf("ifetch, %s: the page chain's top is %llu pages%s\n", page_name,
		      (unsigned long long)top,
		      cut ? " (cut by memory or ifetch.max_buffer: a TLB with more "
		      "entries shows no edge)" : "");
	return top;
}

/* The logical CPU for the page chain's run again number `again` (0, 1,
   ...) at these pages, or -1 for none: where the first instruction TLB
   step, as the rows so far read (ifetch_find), is at half its claim, CPUs
   1, 2, ... and 0 in turn, round again (0 pinned as a role: the run's own
   chain ran wherever the OS put it); -1 where it is not, or with one CPU.
   The state lasts seconds and moves between CPUs: on the Emerald Rapids
   VM (2 vCPUs) the first ITLB read half its claim in 10 of 25 quick runs
   at one page size or both; a run again on the other vCPU read the claim
   in 4 of 10, and a second, on the first vCPU pinned, in 1 of 6 more. */
static int rerun_cpu(unsigned shift, unsigned again)
{
	static struct cache_claims claims;
	static struct ifetch_findings f;
	unsigned count = plat_cpu_count();

	if (count < 2)
		return -1;
	plat_cache_claims(&claims);
	ifetch_find(&seen, &claims, &f);
	if (!ifetch_first_half(&f, shift))
		return -1;
	return (int)((again + 1) % count);
}

/* The page chain and its packed control; where the first instruction TLB
   step reads half its claim, the two again on other CPUs (rerun_cpu), at
   most IFETCH_RERUNS times. */
static int measure_pages(const struct config *c, unsigned shift, const char *page_name)
{
	uint64_t top = page_top(c, shift, page_name), page = 1ull << shift;
	enum code_isa isa = (enum code_isa)plat_code_isa();
	struct chain_shape shape = { IFETCH_VARIANT_PAGE, IFETCH_VARIANT_PAGE_CONTROL,
				     (size_t)page, IFETCH_LINE_SLOT, CODE_JUMP_NEAR };
	struct plat_buffer buf;
	char caption[80];
	int status;

	/* Said, and no failure: the lines of this page size were measured. */
	if (top < PAGE_MIN_JUMPS) {
		report_printf("ifetch, %s: memory or ifetch.max_buffer for fewer than %u pages: "
			      "no page chain with these pages\n", page_name, PAGE_MIN_JUMPS);
		return 0;
	}
	/* One form for the whole sweep and its control, so a step is never
	   a change of jump. */
	if (top * page > codegen_jump_reach(isa, CODE_JUMP_NEAR))
		shape.form = CODE_JUMP_FAR;
	report_printf("ifetch, %s: page chain jumps are %s\n", page_name,
		      shape.form == CODE_JUMP_NEAR ? "direct, pc-relative"
		      : "indirect through a register (the span passes a direct jump's reach)");
	if (code_buffer(&buf, top * page, shift, page_name) != 0)
		return -1;
	mp_snprintf(caption, sizeof caption, "ifetch, %s: page chain and packed control", page_name);
	status = sweep_chain(c, &buf, &shape, PAGE_MIN_JUMPS, top, -1, page_name, caption);
	for (unsigned again = 0; status == 0 && again < IFETCH_RERUNS && !plat_fatal(); again++) {
		int cpu = rerun_cpu(shift, again);

		if (cpu < 0)
			break;
		if (again == 0)
			report_printf("ifetch, %s: the first instruction TLB step read half its "
				      "claim (%s): the page chain and its control run again on CPU "
				      "%d\n", page_name, IFETCH_HALF_WORDS, cpu);
		else
			report_printf("ifetch, %s: run again, the first instruction TLB step still "
				      "read half its claim: once more, on CPU %d\n", page_name, cpu);
		mp_snprintf(caption, sizeof caption, "ifetch, %s: page chain and packed control, "
			    "CPU %d", page_name, cpu);
		status = sweep_chain(c, &buf, &shape, PAGE_MIN_JUMPS, top, cpu, page_name, caption);
	}
	plat_buffer_put(&buf);
	return status;
}

static int measure_page_size(const struct config *c, unsigned shift)
{
	char page_name[48];
	int lines;

	page_size_name(page_name, sizeof page_name, shift);
	if (page_buffer_max(PROBE_NAME, shift) == 0)
		return 1;
	lines = measure_lines(c, shift, page_name);
	if (measure_pages(c, shift, page_name) != 0 || lines != 0)
		return -1;
	return 0;
}

/* The report's closing lines: what the curves say, each against its claim
   (analysis/ifetch_levels.h; the card says the same). */
static void report_findings(void)
{
	static struct cache_claims claims;
	struct ifetch_findings f;

	plat_cache_claims(&claims);
	ifetch_find(&seen, &claims, &f);
	ifetch_print(&f, report_put, NULL);
}

/* ---- Public Functions ------------------------------------------------- */

int probe_ifetch(const struct config *c)
{
	const struct plat_clock *clk = plat_clock();
	int status;

	if (!codegen_nop_length_ok((enum code_isa)plat_code_isa(), IFETCH_SETTINGS(c)->nop_bytes)) {
		report_printf("ifetch: ifetch.nop_bytes = %u: this instruction set has no NOP of "
			      "that length (x86-64: 1 to 8 bytes, AArch64: 4)\n",
			      IFETCH_SETTINGS(c)->nop_bytes);
		probe_failed_because("no %u-byte NOP here", IFETCH_SETTINGS(c)->nop_bytes);
		return -1;
	}
	report_printf("ifetch: code written at run time and run from a buffer of each page "
		      "size. fetch: NOP sleds of %u-byte instructions ending in a loop-back, %u "
		      "bytes to ifetch.max_footprint; line: one taken jump per %u-byte line "
		      "through a random cycle, control one per %u bytes (same jumps, a quarter of "
		      "the footprint); page: one jump per page through a random cycle of pages, "
		      "control the same jumps one per line; trials of whole laps sized to step_ms, "
		      "figure = best trial; cycles = ns x the core clock (%s)\n",
		      IFETCH_SETTINGS(c)->nop_bytes, FETCH_MIN_BYTES, IFETCH_LINE_SLOT,
		      IFETCH_LINE_CONTROL_SLOT, clk->core_source ? clk->core_source : "unknown");
	ifetch_rows_init(&seen);
	status = page_sizes_each(PROBE_NAME, c, measure_page_size);
	report_findings();
	return status;
}

/* The largest of the two buffers it holds in turn. */
static unsigned ifetch_holds(const struct config *c, unsigned page_shift,
			     struct probe_hold out[PROBE_HOLDS_MAX])
{
	uint64_t lines = IFETCH_SETTINGS(c)->max_footprint, pages = IFETCH_SETTINGS(c)->max_buffer;

	out[0] = (struct probe_hold){ lines > pages ? lines : pages, page_shift, 1 };
	return 1;
}

/* A sled of 4-byte NOPs (both instruction sets have them) up to 2 MiB in
   quick (past most L2s; under QEMU's TCG every block is translated, and
   8 MiB took the quick run past 9 minutes), 64 MiB in full (past the last
   level of most CPUs); page chains in at most 512 MiB quick (256 pages of
   2 MiB), 4 GiB full. */
/* Points on the grid from first to last. */
static unsigned grid_points(uint64_t first, uint64_t last)
{
	unsigned n = 0;

	for (uint64_t k = first; k <= last; k = grid_after(k))
		n++;
	return n;
}

/* Per page size the platform can give: the two code buffers written, and
   each point's trials (chase_point_ms, a point at a time): the sleds,
   the line chain (to line_top_of) and its control, the page chain and its
   control. */
static void ifetch_cost(const struct config *c, struct probe_cost *cost)
{
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	uint64_t top = IFETCH_SETTINGS(c)->max_footprint, line_top = line_top_of(c);

	for (unsigned p = 0; p < nshifts; p++) {
		unsigned claimed, points;
		const char *source;
		int cut;
		uint64_t pages = page_top_of(c, shifts[p], &claimed, &source, &cut);

		points = grid_points(1, top / FETCH_MIN_BYTES) +
			 2 * grid_points(LINE_MIN_JUMPS, line_top / IFETCH_LINE_SLOT);
		if (pages >= PAGE_MIN_JUMPS)
			points += 2 * grid_points(PAGE_MIN_JUMPS, pages);
		cost->bytes += (double)top + (pages >= PAGE_MIN_JUMPS ? (double)(pages << shifts[p]) : 0);
		cost->ms += points * chase_point_ms(c);
	}
}

static const struct config_key ifetch_keys[] = {
	{ "nop_bytes", KIND_UINT, SETTING(struct ifetch_settings, nop_bytes), 1, 15, 0,
	  "4", "4", 0, 0, NULL },
	{ "max_footprint", KIND_SIZE, SETTING(struct ifetch_settings, max_footprint), 4096,
	  (uint64_t)1 << 27, 4096, "2MiB", "64MiB", 0, 0, NULL },
	{ "max_buffer", KIND_SIZE, SETTING(struct ifetch_settings, max_buffer), 4096,
	  PROBE_BUFFER_MAX, 4096, "512MiB", "4GiB", 0, 0, NULL },
};

PROBE_DEFINE(ifetch, 35) = {
	.config = { .name = "ifetch", .profiles = PROBE_IN_FULL,
		    PROBE_KEYS(ifetch_keys, struct ifetch_settings, 0) },
	.run = probe_ifetch,
	.holds = ifetch_holds,
	.cost = ifetch_cost,
	.rows_read = ROWS_UNREAD,
};
