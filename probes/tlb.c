/* The tlb probe: a dependent-load chase through one random cycle over N
 * pages, one 64-byte slot per page, for N on a sweep grid and each page
 * size; beside it a control, the same N lines packed densely. The chase
 * outruns the TLBs while its lines still fit the caches; where they do not,
 * the control, which has the chase's cache footprint and almost none of its
 * TLB footprint, measures the caches' share. docs/METHOD.md gives the
 * method, the set-spreading argument and its limits.
 */

#include "probes/chase.h"
#include "probes/chase_run.h"
#include "results/emit.h"
#include "lib/fmt.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"
#include "probes/tlb_settings.h"
#include "results/report_table.h"
#include "results/results.h"
#include "probes/sweep.h"
#include "core/timebase.h"
#include "analysis/tlb_levels.h"
#include "results/trial_row.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_tlb.config.name)

/* ---- Constants -------------------------------------------------------- */

/* The latency probe's seed: the same permutation shapes. */
#define CYCLE_SEED 0x243f6a8885a308d3ull

/* One page size's sweep, a row per page count: the chase, its control,
   and the chase's share over the control. */
static const struct table_column sweep_columns[] = {
	{ "pages", NULL, 8, 0, 0 },
	{ "reach", NULL, 10, 0, 0 },
	{ "chase ns", NULL, 9, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "ctrl ns", NULL, 9, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "+cycles", NULL, 8, 0, 0 },
	{ "trials", NULL, 10, 0, 0 },
	{ "stopped by", NULL, 10, 1, 0 },
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
};

/* ---- Private Functions ------------------------------------------------ */

/* The sweep grid: powers of two with a midpoint between each pair
   (1, 2, 3, 4, 6, 8, 12, ...), as the latency probe's, in pages. */
static uint64_t grid_next(uint64_t n)
{
	if (n < 2)
		return n + 1;
	return (n & (n - 1)) == 0 ? n / 2 * 3 : n / 3 * 4;
}

/* The largest grid point <= n (n >= 1). */
static uint64_t grid_floor(uint64_t n)
{
	uint64_t g = 1;

	while (grid_next(g) <= n)
		g = grid_next(g);
	return g;
}

/* The sweep's top in pages before memory caps it: tlb.max_pages, or the
   larger of TLB_AUTO_PAGES and four times the largest TLB claimed for
   these pages (that claim in *claimed, where it comes from in *source), so
   the last claimed reach has a plateau past it (source may be NULL). */
static uint64_t tlb_sweep_top(const struct config *c, unsigned shift, unsigned *claimed,
			      const char **source)
{
	uint64_t top;

	*claimed = tlb_claimed_entries_max(shift, source);
	if (TLB_SETTINGS(c)->max_pages)
		return TLB_SETTINGS(c)->max_pages;
	top = (uint64_t)*claimed * 4;
	return top > TLB_AUTO_PAGES ? top : TLB_AUTO_PAGES;
}

/* The buffer for the sweep's top, capped by tlb.max_buffer and by what the
   platform can give now; *last becomes the largest grid point that fits.
   The report says plainly where memory ended the sweep. 0 on success, 1
   skipped (page size unavailable), -1 failed. */
static int get_buffer(const struct config *c, struct plat_buffer *buf, unsigned shift,
		      const char *page_name, uint64_t first, uint64_t *last)
{
	uint64_t page = 1ull << shift, top = *last, fits, cap = TLB_SETTINGS(c)->max_buffer;
	char fits_text[24], top_text[24];

	fits = page_buffer_max(PROBE_NAME, shift);
	if (fits == 0)
		return 1;
	if (fits > cap)
		fits = cap;
	if (fits / page < top) {
		mp_format_bytes(fits_text, sizeof fits_text, fits);
		if (fits / page < first) {
			report_printf("tlb, %s: memory for %llu pages only (%s, %s), below "
				      "tlb.min_pages = %llu: not measured\n", page_name,
				      (unsigned long long)(fits / page), fits_text,
				      fits == cap ? "tlb.max_buffer" : "the largest buffer that fits now",
				      (unsigned long long)first);
			return -1;
		}
		*last = grid_floor(fits / page);
		mp_format_bytes(top_text, sizeof top_text, *last * page);
		report_printf("tlb, %s: memory for %llu pages only (%s, %s): the sweep stops at "
			      "%llu pages (%s), short of its top of %llu; reach beyond the buffer: "
			      "a TLB with more entries shows no edge, only \"at least %llu "
			      "entries\"\n", page_name, (unsigned long long)(fits / page),
			      fits_text, fits == cap ? "tlb.max_buffer" : "the largest buffer that "
			      "fits now", (unsigned long long)*last, top_text,
			      (unsigned long long)top, (unsigned long long)*last);
	}
	return page_buffer_get(PROBE_NAME, buf, *last * page, shift) == 0 ? 0 : -1;
}

/* Builds the cycle of `slots` slots with page_bytes at the buffer's start,
   times it and writes its row, which *fig holds after. 0 on success. */
static int measure_point(const struct config *c, const struct plat_buffer *buf,
			 const char *variant, size_t slots, size_t page_bytes,
			 const char *what, const char *point, struct result_row *fig)
{
	struct chase_run run;

	run.start = buf->base;
	run.slots = slots;
	run.c = c;
	/* One line per page: a lap is a few thousand loads, whole laps cost
	   nothing worth saving. */
	run.partial_from_slots = 0;
	run.stretch_long_laps = 0;
	chase_build(run.start, slots, page_bytes, CYCLE_SEED);
	if (chase_run_measure(&run, page_bytes, what) != 0)
		return -1;
	*fig = (struct result_row){ .probe = PROBE_NAME, .variant = variant,
				    .page_shift = buf->page_shift,
				    .working_set_bytes = (uint64_t)slots * page_bytes,
				    .pages_verified = buf->verified, .sweep_point = point };
	trial_row_fill(fig, &run.trials, run.stopped_by, run.form);
	emit_result_row(fig);
	return 0;
}

/* One page count: the chase over n pages, then its control over n packed
   lines, and one line of the table; the chase's ns in *ns (the curve's
   measure: ctx is the struct sweep_state). */
static int measure_pages(void *ctx, uint64_t n, const char *point, double *ns)
{
	const struct sweep_state *s = ctx;
	const struct config *c = s->c;
	const struct plat_buffer *buf = s->buf;
	const char *page_name = s->page_name;
	size_t page = (size_t)1 << buf->page_shift;
	struct result_row chase, control;
	char reach[24], what[96];

	mp_format_bytes(reach, sizeof reach, n * page);
	mp_snprintf(what, sizeof what, "tlb, %s, %llu pages", page_name, (unsigned long long)n);
	if (measure_point(c, buf, "chase", (size_t)n, page, what, point, &chase) != 0)
		return -1;
	mp_snprintf(what, sizeof what, "tlb, %s, control of %llu lines", page_name,
		    (unsigned long long)n);
	if (measure_point(c, buf, "control", (size_t)n, CHASE_SLOT, what, point, &control) != 0)
		return -1;
	*ns = chase.ns;
	report_table_cell("%llu", (unsigned long long)n);
	report_table_cell("%s", reach);
	report_table_cell("%.3f", chase.ns);
	report_table_cell("%.2f", chase.cycles);
	report_table_cell("%.3f", control.ns);
	report_table_cell("%.2f", control.cycles);
	report_table_cell("%.2f", chase.cycles - control.cycles);
	/* Padded around the slash, so the slashes line up in the text. */
	report_table_cell("%6u/%-3u", chase.trials, control.trials);
	report_table_cell("%s", chase.stopped_by);
	report_table_cell("%llu ms", (unsigned long long)plat_elapsed_ms());
	report_table_cell("%s", point);
	report_table_row(0);
	return 0;
}

/* 1 skipped (page size unavailable), 0 measured, -1 failed (reported). */
static int sweep_page_size(const struct config *c, unsigned shift)
{
	static struct sweep_curve curve;
	struct plat_buffer buf;
	struct sweep_state s = { c, &buf, NULL };
	char page_name[48], caption[64];
	uint64_t first = grid_floor(TLB_SETTINGS(c)->min_pages), last, n;
	const char *source;
	unsigned claimed;
	int status;

	if (first < TLB_SETTINGS(c)->min_pages)
		first = grid_next(first);
	page_size_name(page_name, sizeof page_name, shift);
	last = tlb_sweep_top(c, shift, &claimed, &source);
	if (claimed)
		report_printf("tlb, %s: the claims give at most %u entries for these pages (%s); "
			      "the sweep's top is %llu pages\n", page_name, claimed, source,
			      (unsigned long long)last);
	else
		report_printf("tlb, %s: the CPU claims no data TLB for these pages; the sweep's "
			      "top is %llu pages\n", page_name, (unsigned long long)last);
	last = grid_floor(last);
	if (last < first) {
		report_printf("tlb, %s: no point of the sweep grid lies in tlb.min_pages .. "
			      "tlb.max_pages: nothing measured\n", page_name);
		return -1;
	}
	status = get_buffer(c, &buf, shift, page_name, first, &last);
	if (status != 0)
		return status;
	s.page_name = page_name;
	page_buffer_report(PROBE_NAME, page_name, &buf);
	sweep_curve_begin(&curve, &(struct sweep_spec){
		.name = PROBE_NAME, .page_name = page_name, .unit = 1, .pages = 1, .refine = 1,
		.measure = measure_pages, .ctx = &s });
	for (n = first; n <= last; n = grid_next(n))
		sweep_grid_add(&curve, n);
	mp_snprintf(caption, sizeof caption, "tlb, %s", page_name);
	status = sweep_curve_run(&curve, &sweep_table, caption);
	plat_buffer_put(&buf);
	return status;
}

/* ---- Public Functions ------------------------------------------------- */

int probe_tlb(const struct config *c)
{
	report_printf("tlb: dependent-load chase through one random cycle over N pages, one "
		      "%u-byte slot per page at a line offset rotated page by page; control: "
		      "the same N slots packed in N lines; N on the grid of powers of two and "
		      "midpoints, from the first point at or above %u, then page counts refined between the two that bracket each edge (eighths of an octave) until it is pinned or shown smeared; trials as the latency probe's (at least %u of >= %.0f "
		      "ms, best three within %.1f%%, at most %u); figure = best trial; "
		      "+cycles = chase - control\n", CHASE_SLOT, TLB_SETTINGS(c)->min_pages, c->trials,
		      c->step_ms, c->precision * 100, c->max_trials);
	return page_sizes_each(PROBE_NAME, c, sweep_page_size);
}

/* One buffer: the sweep's top in pages, within tlb.max_buffer. */
static unsigned tlb_holds(const struct config *c, unsigned page_shift,
			  struct probe_hold out[PROBE_HOLDS_MAX])
{
	uint64_t page = 1ull << page_shift;
	unsigned claimed;
	uint64_t top = tlb_sweep_top(c, page_shift, &claimed, NULL), cap = TLB_SETTINGS(c)->max_buffer;

	out[0] = (struct probe_hold){ top > cap / page ? cap : top * page, page_shift, 1 };
	return 1;
}

/* Per page size the platform can give: the buffer (as much as fits now)
   faulted in, and at each grid point the
   chase and its packed control, whole laps (the refined points left out). */
static void tlb_cost(const struct config *c, struct probe_cost *cost)
{
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	struct probe_hold hold[PROBE_HOLDS_MAX];

	for (unsigned p = 0; p < nshifts; p++) {
		uint64_t first = grid_floor(TLB_SETTINGS(c)->min_pages), last;

		tlb_holds(c, shifts[p], hold);
		if (hold[0].bytes > plat_buffer_max(shifts[p]))
			hold[0].bytes = plat_buffer_max(shifts[p]);
		cost->bytes += (double)hold[0].bytes;
		last = grid_floor(hold[0].bytes >> shifts[p] ? hold[0].bytes >> shifts[p] : 1);
		for (uint64_t n = first; n <= last; n = grid_next(n))
			for (unsigned pass = 0; pass < 2; pass++)
				chase_run_cost(c, n, CHASE_COST_LAPS, cost);
	}
}

/* From 8 pages up to the larger of 16384 and 4x the largest claimed TLB
   (auto, both profiles: a plateau of several points past the last claimed
   TLB; a CPU that hides its L2 TLB from CPUID still has 16384 pages), in
   buffers of at most 8 GiB (4096 pages of 2 MiB: past a 2048-entry L2 TLB
   by a plateau). quick starts at one page, so two 1 GiB pages, all QEMU's
   -m 4G offers, still make a curve, and its buffers stop at 2 GiB. */
static const struct config_key tlb_keys[] = {
	{ "min_pages", KIND_UINT, SETTING(struct tlb_settings, min_pages), 1, TLB_PAGES_MAX, 0,
	  "1", "8", 0, 0, NULL },
	{ "max_pages", KIND_UINT, SETTING(struct tlb_settings, max_pages), 0, TLB_PAGES_MAX, 0,
	  "0", "0", 0, 0, NULL },
	{ "max_buffer", KIND_SIZE, SETTING(struct tlb_settings, max_buffer), 4096,
	  PROBE_BUFFER_MAX, 4096, "2GiB", "8GiB", 0, 0, NULL },
};

static const char *tlb_check(const void *settings, const char **a, const char **b)
{
	const struct tlb_settings *s = settings;

	*a = "min_pages";
	*b = "max_pages";
	return s->max_pages && s->min_pages > s->max_pages ? "is larger than tlb.max_pages" : 0;
}

PROBE_DEFINE(tlb, 30) = {
	.config = { .name = "tlb", .profiles = PROBE_IN_QUICK | PROBE_IN_FULL,
		    PROBE_KEYS(tlb_keys, struct tlb_settings, tlb_check) },
	.run = probe_tlb,
	.holds = tlb_holds,
	.cost = tlb_cost,
	.rows_read = ROWS_TLB_CURVE,
};
