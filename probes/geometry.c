/* The geometry probe: line size, the ways and sets of L1d and L2, and the
 * ways of each data TLB, each held against the CPU's claims. Every figure
 * is a dependent-load chase (chase_run.h's trials and stop rule) over slots
 * laid out to share a line, a set or a TLB set; the readings are
 * geometry_read.c's. docs/METHOD.md section 12 gives the method and limits.
 */

#include "probes/chase.h"
#include "probes/chase_run.h"
#include "results/chart_file.h"
#include "results/emit.h"
#include "probes/geometry.h"
#include "lib/base2.h"
#include "lib/fmt.h"
#include "lib/machine.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"
#include "results/report_table.h"
#include "results/results.h"
#include "core/trials.h"
#include "probes/tlb_settings.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_geometry.config.name)

/* ---- Constants -------------------------------------------------------- */

#define LINE_SEED 0x243f6a8885a308d3ull
#define WAYS_SEED 0x13198a2e03707344ull
/* Lines per set swept when nothing claims the ways. */
#define WAYS_UNCLAIMED 16u
/* A fully associative TLB's pages lie this many pages apart: any set
   index taken from the page number would put them in few sets. */
#define FULL_TLB_STRIDE_PAGES 16u
/* Lines swept past a step once it is read (the step must hold). */
#define PAST_STEP 6u
/* More passes over the points around a step read with a point part way up
   (refine_step). */
#define STEP_PASSES 3u
#define KMAX (4u * 32u + 4u)
/* The trials' precision at least: what geometry reads is a step of 1.3x or
   more between lines per set, so points that agree within 5% read it as
   well as points that agree within the profile's 1%, and on a noisy
   machine the 1% rule ran most of geometry's 600-odd points to 10 trials
   or more (12 s of a Zen 4 VM's full profile, against 5 s now). */
#define GEOMETRY_PRECISION_MIN 0.05
/* A trial's time at most: every chase here is a few lines in L1 or L2, so
   half a millisecond is 100 000 loads or more. */
#define GEOMETRY_STEP_MS_MAX 0.5

static const struct table_column line_columns[] = {
	{ "spacing", NULL, 8, 0, 0 },
	{ "straddling", "ns/load", 10, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "aligned", "ns/load", 9, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "trials", NULL, 7, 0, 0 },
};
static const struct table line_table = TABLE_OF(line_columns, "  ");

static const struct table_column ways_columns[] = {
	{ "lines", NULL, 6, 0, 0 },
	{ "span A", "ns/load", 9, 0, 0 },
	{ "span B", "ns/load", 9, 0, 0 },
	{ "span C", "ns/load", 9, 0, 0 },
	{ "span D", "ns/load", 9, 0, 0 },
};
static const struct table ways_table = TABLE_OF(ways_columns, "  ");

static const struct table_column tlb_columns[] = {
	{ "pages", NULL, 6, 0, 0 },
	{ "ns/load", NULL, 9, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "trials", NULL, 7, 0, 0 },
};
static const struct table tlb_table = TABLE_OF(tlb_columns, "  ");

static const struct table_column summary_columns[] = {
	{ "what", NULL, 22, 1, 0 },   /* "L2 unified 4 KiB ways" */
	{ "measured", NULL, 9, 0, 0 },
	{ "claimed", NULL, 8, 0, 0 },
	{ "verdict", NULL, 14, 1, 0 },
	{ "how it was read", NULL, 40, 1, 0 },
};
static const struct table summary_table = TABLE_OF(summary_columns, "  ");

/* ---- Private Data ----------------------------------------------------- */

static struct geometry_results results;
static uint64_t offsets[GEOMETRY_SLOTS_MAX];
/* The claims are an emulated CPU's (claims_emulated): the table says
   emulated where a figure would agree with or differ from its claim. */
static int emulated;

/* The chart: one curve per level, at its way span. */
static double chart_k[GEOMETRY_LEVELS][KMAX], chart_ns[GEOMETRY_LEVELS][KMAX];
static size_t chart_n[GEOMETRY_LEVELS];

/* ---- Private Functions ------------------------------------------------ */

/* Times the cycle through base + offsets[0..n) (linked here). 0, or -1
   when it faulted or the cycle broke (reported). */
static int measure(const struct config *c, const struct plat_buffer *buf, size_t n,
		   const char *what, struct chase_run *run)
{
	struct plat_fault fault;

	geometry_link(buf->base, offsets, n);
	run->start = (char *)buf->base + offsets[0];
	run->slots = n;
	run->c = c;
	run->partial_from_slots = 0;   /* whole laps: a set's few lines */
	run->stretch_long_laps = 0;
	run->cycle_broken = 0;
	if (plat_timed(chase_run_trials, run, &fault) != 0) {
		report_printf("%s: FAULT: %s\n", what, fault.text);
		return -1;
	}
	if (run->cycle_broken) {
		report_printf("%s: the chase did not return to its start after whole laps: not "
			      "measured\n", what);
		return -1;
	}
	return 0;
}

static double emit(const struct plat_buffer *buf, const char *variant, uint64_t stride,
		   uint64_t ws, const struct chase_run *run, double *ns)
{
	struct result_row fig = { 0 };

	fig.probe = PROBE_NAME;
	fig.variant = variant;
	fig.page_shift = buf->page_shift;
	fig.working_set_bytes = ws;
	fig.stride_bytes = stride;
	fig.ns = trials_best(&run->trials);
	fig.trials = run->trials.count;
	fig.spread = trials_spread(&run->trials);
	fig.pages_verified = buf->verified;
	*ns = fig.ns;
	return emit_result_row(&fig);
}

static const struct cache_desc *claimed_cache(const struct cache_claims *cl, unsigned level)
{
	for (unsigned i = 0; i < cl->ncaches; i++)
		if (cl->cache[i].level == level && cl->cache[i].kind != CACHE_INSTRUCTION)
			return &cl->cache[i];
	return 0;
}

static void figure_set(struct geometry_figure *f, uint64_t measured, uint64_t claimed,
		       int at_least, const char *why)
{
	f->measured = measured;
	f->claimed = claimed;
	f->verdict = geometry_hold(measured, claimed);
	if (at_least && measured && claimed && measured >= claimed)
		f->verdict = GEOMETRY_AGREES;
	mp_strlcpy(f->why, why, sizeof f->why);
}

static void not_measurable(struct geometry_figure *f, uint64_t claimed, const char *why)
{
	f->measured = 0;
	f->claimed = claimed;
	f->verdict = GEOMETRY_NOT_MEASURABLE;
	mp_strlcpy(f->why, why, sizeof f->why);
}

/* One spacing's chase through the line-size slots, straddling or aligned;
   *best keeps the pass with the least figure. 0, or -1 when it failed
   (reported). */
static int measure_spacing(const struct config *c, const struct plat_buffer *buf,
			   unsigned spacing, int straddle, unsigned pass, struct chase_run *best)
{
	struct chase_run run;
	char what[80];
	size_t n = geometry_line_offsets(offsets, spacing, straddle, LINE_SEED + spacing);

	mp_snprintf(what, sizeof what, "geometry, line, %s %u bytes apart",
		    straddle ? "straddling" : "aligned", spacing);
	if (measure(c, buf, n, what, &run) != 0)
		return -1;
	if (pass == 0 || trials_best(&run.trials) < trials_best(&best->trials))
		*best = run;
	return 0;
}

/* 1: line size. */
static int measure_line(const struct config *c, const struct cache_claims *cl)
{
	const struct cache_desc *l1 = claimed_cache(cl, 1);
	unsigned spacing[GEOMETRY_LINE_POINTS];
	double ns[GEOMETRY_LINE_POINTS], aligned_ns[GEOMETRY_LINE_POINTS];
	struct geometry_line_reading r;
	static struct chase_run straddling[GEOMETRY_LINE_POINTS], aligned[GEOMETRY_LINE_POINTS];
	struct plat_buffer buf;
	int status = 0;

	if (page_buffer_get(PROBE_NAME, &buf, GEOMETRY_LINE_BUFFER, PAGE_SHIFT_4K) != 0) {
		not_measurable(&results.line, l1 ? l1->line_bytes : 0,
			       "not measured: no 4 KiB buffer");
		return -1;
	}
	report_printf("geometry, line: %u slots at odd multiples of S, (2i + 1) x S, each "
		      "8-byte pointer straddling that boundary (starting %u bytes before it) or, "
		      "as the control, aligned on it; one random cycle, all in L1d; 4 KiB pages; "
		      "%u passes, each figure the least\n", GEOMETRY_LINE_SLOTS,
		      GEOMETRY_LINE_STRADDLE, GEOMETRY_LINE_PASSES);
	/* Passes over every spacing, each figure the least of them: a slow
	   drift on a busy machine moves every point alike. */
	for (unsigned pass = 0; pass < GEOMETRY_LINE_PASSES && status == 0; pass++)
		for (unsigned i = 0; i < GEOMETRY_LINE_POINTS && status == 0; i++) {
			spacing[i] = GEOMETRY_LINE_MIN << i;
			if (measure_spacing(c, &buf, spacing[i], 1, pass, &straddling[i]) != 0 ||
			    measure_spacing(c, &buf, spacing[i], 0, pass, &aligned[i]) != 0)
				status = -1;
		}
	report_table_begin(&line_table, "geometry, line size", NULL);
	for (unsigned i = 0; i < GEOMETRY_LINE_POINTS && status == 0; i++) {
		uint64_t span = 2ull * GEOMETRY_LINE_SLOTS * spacing[i];
		double cycles = emit(&buf, "line", spacing[i], span, &straddling[i], &ns[i]);
		double aligned_cycles = emit(&buf, "line_aligned", spacing[i], span, &aligned[i],
					     &aligned_ns[i]);

		report_table_cell("%u B", spacing[i]);
		report_table_cell("%.3f", ns[i]);
		report_table_cell("%.2f", cycles);
		report_table_cell("%.3f", aligned_ns[i]);
		report_table_cell("%.2f", aligned_cycles);
		report_table_cell("%u+%u", straddling[i].trials.count, aligned[i].trials.count);
		report_table_row(0);
	}
	report_table_end();
	plat_buffer_put(&buf);
	if (status != 0) {
		not_measurable(&results.line, l1 ? l1->line_bytes : 0, "not measured: the chase failed");
		return -1;
	}
	geometry_read_line(spacing, ns, aligned_ns, GEOMETRY_LINE_POINTS, &r);
	if (r.line_bytes)
		figure_set(&results.line, r.line_bytes, l1 ? l1->line_bytes : 0, 0, r.why);
	else
		not_measurable(&results.line, l1 ? l1->line_bytes : 0, r.why);
	return 0;
}

/* What a ways curve's points chase: k lines `apart` bytes apart, in one
   cache set (page 0), or one line in each of k pages `apart` bytes apart,
   in one TLB set (page: the page size), in a random order. */
struct ways_sweep {
	const struct config *c;
	const struct plat_buffer *buf;
	const char *name;         /* the level's, for a fault's report */
	uint64_t apart, page;
	unsigned shift;           /* every slot this many lines (pages) on: the
				     same layout in another set */
};

/* One point of a ways curve: 0, or -1 when the chase failed (reported). */
static int measure_point(const struct ways_sweep *w, unsigned k, struct chase_run *run)
{
	uint64_t unit = w->page ? w->page : CHASE_SLOT;
	/* Under the slots' spacing, so each slot stays in its own stretch of
	   the buffer (a TLB of fewer sets, or 2 MiB pages side by side, less). */
	uint64_t moved = w->shift % (w->apart / unit) * unit;
	char what[96];

	for (unsigned j = 0; j < k; j++)
		offsets[j] = (w->page ? geometry_tlb_offset(j, w->apart, w->page)
				      : geometry_set_offset(j, w->apart)) + moved;
	geometry_shuffle(offsets, k, w->page ? WAYS_SEED ^ k : WAYS_SEED + k);
	if (w->page)
		mp_snprintf(what, sizeof what, "geometry, %s, %u pages", w->name, k);
	else
		mp_snprintf(what, sizeof what, "geometry, %s, %u lines %llu bytes apart", w->name,
			    k, (unsigned long long)w->apart);
	return measure(w->c, w->buf, k, what, run);
}

/* A step read with a point part way up: the points from `step` before the
   ways to two steps past them measured again STEP_PASSES times, each time
   with the layout moved to another set (shift 1, 2, ...: every slot one
   line or page on), each figure the least, and the curve read again into
   r. A replacement's share of the first line past the ways is the same in
   every set. A stray entry is not: a line or page the harness touches
   between trials that shares the chase's set takes a way, and under a
   pseudo-LRU replacement it can stay there through a trial, so the set
   reads one way short (an Emerald Rapids VM's 4 KiB DTLB once read 5.3
   ways: its sixth page at 35 % of the step, its seventh at 80 %, in one
   run of ten). The slots stay inside the sweep's buffer: a shift under
   the sets is below the span (stride) between slots. 0, or -1 when a
   chase failed. */
static int refine_step(const struct ways_sweep *w, const unsigned *ks, double *ns,
		       struct chase_run *best, unsigned n, unsigned after, unsigned step,
		       struct geometry_step_reading *r)
{
	unsigned from, to;

	if (!r->ways || r->sharp)
		return 0;
	from = r->ways > step ? r->ways - step : 0;
	to = r->ways + 2 * step;
	for (unsigned pass = 0; pass < STEP_PASSES; pass++)
		for (unsigned i = 0; i < n; i++) {
			struct ways_sweep moved = *w;
			struct chase_run run;

			if (ks[i] < from || ks[i] > to)
				continue;
			moved.shift = pass + 1;
			if (measure_point(&moved, ks[i], &run) != 0)
				return -1;
			if (trials_best(&run.trials) < ns[i]) {
				best[i] = run;
				ns[i] = trials_best(&run.trials);
			}
		}
	geometry_read_step(ks, ns, n, after, r);
	return 0;
}

/* Points from .. to-1 measured GEOMETRY_WAYS_PASSES - 1 more times, each
   figure the least (a spike on a busy machine seldom strikes one point
   twice). 0, or -1 when a chase failed. */
static int measure_again(const struct ways_sweep *w, const unsigned *ks, double *ns,
			 struct chase_run *best, unsigned from, unsigned to)
{
	for (unsigned pass = 1; pass < GEOMETRY_WAYS_PASSES; pass++)
		for (unsigned i = from; i < to; i++) {
			struct chase_run run;

			if (measure_point(w, ks[i], &run) != 0)
				return -1;
			if (trials_best(&run.trials) < ns[i]) {
				best[i] = run;
				ns[i] = trials_best(&run.trials);
			}
		}
	return 0;
}

/* One span's ways curve: k = 1 .. kmax lines `span` apart, stopping
   PAST_STEP lines after a step once the curve has levelled off there
   (geometry_levelled: a replacement that keeps a share of the lines past
   the ways climbs on for half as many again); then GEOMETRY_WAYS_PASSES - 1
   more passes over the same points (measure_again), more points while no
   step reads and the curve has not levelled, and refine_step's. ns[k - 1];
   returns the points measured, 0 on failure. */
static unsigned sweep_span(const struct config *c, const struct plat_buffer *buf,
			   const char *level, uint64_t span, unsigned kmax, unsigned after,
			   unsigned *ks, double *ns, struct geometry_step_reading *r)
{
	static struct chase_run best[KMAX];
	const struct ways_sweep w = { c, buf, level, span, 0, 0 };
	unsigned n = 0;

	r->ways = 0;
	for (unsigned k = 1; k <= kmax; k++) {
		if (measure_point(&w, k, &best[n]) != 0)
			return 0;
		ns[n] = trials_best(&best[n].trials);
		ks[n++] = k;
		if (k >= after + 4) {
			geometry_read_step(ks, ns, n, after, r);
			if (r->ways && k >= r->ways + PAST_STEP && geometry_levelled(ns, n))
				break;
		}
	}
	if (measure_again(&w, ks, ns, best, 0, n) != 0)
		return 0;
	geometry_read_step(ks, ns, n, after, r);
	/* The first pass stopped where its own points had levelled; the
	   least of two passes can still be climbing there. Then on, a point
	   at a time, each measured as often, until the curve levels or ends. */
	while (!r->ways && n < kmax && n < KMAX && !geometry_levelled(ns, n)) {
		ks[n] = n + 1;
		if (measure_point(&w, ks[n], &best[n]) != 0)
			return 0;
		ns[n] = trials_best(&best[n].trials);
		if (measure_again(&w, ks, ns, best, n, n + 1) != 0)
			return 0;
		n++;
		geometry_read_step(ks, ns, n, after, r);
	}
	if (refine_step(&w, ks, ns, best, n, after, 1, r) != 0)
		return 0;
	for (unsigned i = 0; i < n; i++)
		emit(buf, "ways", span, (uint64_t)ks[i] * span, &best[i], &ns[i]);
	return n;
}

/* 2: the ways and sets of one cache level, on buf. */
static int measure_level(const struct config *c, const struct plat_buffer *buf,
			 struct geometry_level *lv, const struct cache_desc *claim,
			 uint64_t span, unsigned kmax, unsigned after, unsigned line,
			 size_t chart_slot, const char *note)
{
	static unsigned ks[GEOMETRY_SPANS][KMAX];
	static double ns[GEOMETRY_SPANS][KMAX];
	unsigned npts[GEOMETRY_SPANS], ways[GEOMETRY_SPANS], rows = 0;
	uint64_t spans[GEOMETRY_SPANS];
	struct geometry_step_reading r[GEOMETRY_SPANS];
	struct geometry_sets_reading sr;
	char caption[96], why[320];
	uint64_t claimed_sets = 0;

	for (unsigned s = 0; s < GEOMETRY_SPANS; s++) {
		spans[s] = span / 4 << s;
		npts[s] = sweep_span(c, buf, lv->name, spans[s], kmax, after, ks[s], ns[s], &r[s]);
		if (!npts[s])
			return -1;
		ways[s] = r[s].ways;
		if (npts[s] > rows)
			rows = npts[s];
	}
	mp_snprintf(caption, sizeof caption, "geometry, %s: ns per load, lines per set A=%llu "
		    "B=%llu C=%llu D=%llu bytes apart", lv->name, (unsigned long long)spans[0],
		    (unsigned long long)spans[1], (unsigned long long)spans[2],
		    (unsigned long long)spans[3]);
	report_printf("%s\n", caption);
	report_table_begin(&ways_table, caption, NULL);
	for (unsigned i = 0; i < rows; i++) {
		report_table_cell("%u", i + 1);
		for (unsigned s = 0; s < GEOMETRY_SPANS; s++)
			if (i < npts[s])
				report_table_cell("%.3f", ns[s][i]);
			else
				report_table_cell("-");
		report_table_row(0);
	}
	report_table_end();
	for (unsigned s = 0; s < GEOMETRY_SPANS; s++)
		report_printf("  %s, %llu bytes apart: %s\n", lv->name,
			      (unsigned long long)spans[s], r[s].why);
	/* The chart's curve: the claimed way span's. */
	chart_n[chart_slot] = npts[2];
	for (unsigned i = 0; i < npts[2]; i++) {
		chart_k[chart_slot][i] = ks[2][i];
		chart_ns[chart_slot][i] = ns[2][i];
	}
	if (claim && claim->sets)
		claimed_sets = claim->sets;
	else if (claim && claim->ways && claim->line_bytes)
		claimed_sets = claim->size_bytes / claim->ways / claim->line_bytes;
	geometry_read_sets(spans, ways, GEOMETRY_SPANS, &sr);
	if (!sr.ways) {
		/* The claimed span's own reading says more than "read 0 ways". */
		mp_snprintf(why, sizeof why, "%s%s", r[2].ways ? sr.why : r[2].why, note);
		not_measurable(&lv->ways, claim ? claim->ways : 0, why);
		not_measurable(&lv->sets, claimed_sets, why);
		return 0;
	}
	mp_snprintf(why, sizeof why, "%s%s", sr.why, note);
	figure_set(&lv->ways, sr.ways, claim ? claim->ways : 0, claim && claim->ways_at_least, why);
	if (sr.at_most) {
		mp_snprintf(why, sizeof why, "not measurable here: %s", sr.why);
		not_measurable(&lv->sets, claimed_sets, why);
	} else {
		mp_snprintf(why, sizeof why, "way span %llu bytes / %u-byte lines%s",
			    (unsigned long long)sr.way_span, line, note);
		figure_set(&lv->sets, sr.way_span / line, claimed_sets, 0, why);
	}
	return 0;
}

static unsigned kmax_for(const struct config *c, const struct cache_desc *claim, unsigned after)
{
	unsigned w = claim && claim->ways ? claim->ways : WAYS_UNCLAIMED, k;

	/* A quarter of the way span puts the lines in four sets: 4 x ways. */
	k = 4 * w + 4 + after;
	if (GEOMETRY_SETTINGS(c)->max_lines && k > GEOMETRY_SETTINGS(c)->max_lines)
		k = GEOMETRY_SETTINGS(c)->max_lines;
	return k > KMAX ? KMAX : k;
}

static uint64_t claimed_span(const struct cache_desc *claim, uint64_t fallback)
{
	uint64_t span;

	if (!claim || !claim->ways)
		return fallback;
	span = claim->size_bytes / claim->ways;
	return base2_is_power(span) ? span : fallback;
}

static int measure_caches(const struct config *c, const struct cache_claims *cl)
{
	const struct cache_desc *l1 = claimed_cache(cl, 1), *l2 = claimed_cache(cl, 2);
	unsigned line = results.line.measured ? (unsigned)results.line.measured
		      : l1 && l1->line_bytes ? l1->line_bytes : 64;
	struct plat_buffer buf;
	uint64_t span;
	unsigned kmax, after;
	char note[96];
	int status = 0;

	/* L1d: virtually indexed within the page on current x86 parts, so 4 KiB
	   pages put lines a way span apart in one set wherever they land. */
	results.nlevels = 1;
	mp_strlcpy(results.level[0].name, "L1d", sizeof results.level[0].name);
	span = claimed_span(l1, 4096);
	kmax = kmax_for(c, l1, 0);
	if (page_buffer_get(PROBE_NAME, &buf, kmax * span * 2 + 4096, PAGE_SHIFT_4K) != 0) {
		not_measurable(&results.level[0].ways, l1 ? l1->ways : 0, "not measured: no buffer");
		return -1;
	}
	report_printf("geometry, L1d: k = 1 .. %u lines, one set's worth a way span apart "
		      "(claimed span %llu bytes: spans / 4 .. x 2), random order, 4 KiB pages\n",
		      kmax, (unsigned long long)span);
	status = measure_level(c, &buf, &results.level[0], l1, span, kmax, 0, line, 0, "");
	plat_buffer_put(&buf);
	if (status != 0)
		return -1;

	/* L2: physically indexed: lines a way span apart share a set only
	   where memory is physically contiguous over the span. */
	results.nlevels = 2;
	mp_strlcpy(results.level[1].name, "L2", sizeof results.level[1].name);
	if (!l2 || !l2->ways || !base2_is_power(claimed_span(l2, 0))) {
		not_measurable(&results.level[1].ways, l2 ? l2->ways : 0,
			       "not measured: nothing claims an L2 with a power-of-two way span to "
			       "sweep around");
		not_measurable(&results.level[1].sets, l2 ? l2->sets : 0, results.level[1].ways.why);
		return 0;
	}
	span = claimed_span(l2, 0);
	after = results.level[0].ways.measured ? (unsigned)results.level[0].ways.measured
	      : l1 && l1->ways ? l1->ways : 0;
	kmax = kmax_for(c, l2, after);
	{
		unsigned shift = (c->pages & PAGES_2M) && plat_buffer_max(PAGE_SHIFT_2M)
			       ? PAGE_SHIFT_2M : PAGE_SHIFT_4K;
		char page_name[48];

		page_size_name(page_name, sizeof page_name, shift);
		if (page_buffer_get(PROBE_NAME, &buf, (uint64_t)kmax * span * 2, shift) != 0) {
			not_measurable(&results.level[1].ways, l2->ways, "not measured: no buffer");
			not_measurable(&results.level[1].sets, l2->sets, "not measured: no buffer");
			return -1;
		}
		page_buffer_report(PROBE_NAME, page_name, &buf);
		if (buf.contiguous_bytes < span * 2) {
			char why[192], cont[24], sp[24];

			mp_format_bytes(cont, sizeof cont, buf.contiguous_bytes ? buf.contiguous_bytes
				       : 4096);
			mp_format_bytes(sp, sizeof sp, span * 2);
			mp_snprintf(why, sizeof why, "not measurable here: the buffer is physically "
				    "contiguous over %s only, less than the %s the sweep spans "
				    "(ask pages=2m with huge pages, or run on bare metal)", cont, sp);
			report_printf("geometry, L2: %s\n", why);
			not_measurable(&results.level[1].ways, l2->ways, why);
			not_measurable(&results.level[1].sets, l2->sets, why);
			plat_buffer_put(&buf);
			return 0;
		}
		mp_snprintf(note, sizeof note, "%s", cl->hypervisor ? "; under a hypervisor the "
			    "pages are contiguous in guest-physical memory only" : "");
		report_printf("geometry, L2: k = 1 .. %u lines (claimed way span %llu bytes), %s; "
			      "the step looked for is the first past L1d's %u ways\n", kmax,
			      (unsigned long long)span, page_name, after);
		status = measure_level(c, &buf, &results.level[1], l2, span, kmax, after, line, 1,
				       note);
		plat_buffer_put(&buf);
	}
	return status;
}

/* The data TLBs that hold loads of this page size, lowest level first. */
static int tlb_for_loads(const struct tlb_desc *t, unsigned tlb_page)
{
	return (t->kind == TLB_DATA || t->kind == TLB_LOAD || t->kind == TLB_UNIFIED) &&
	       (t->pages & tlb_page) && t->entries;
}

/* 3: one TLB's ways. */
static void measure_tlb(const struct config *c, const struct cache_claims *cl,
			const struct tlb_desc *t, unsigned shift, unsigned tlb_page)
{
	struct geometry_tlb *g = &results.tlb[results.ntlbs++];
	uint64_t page = 1ull << shift, stride;
	unsigned kmax, step = 1, after = 0, ks[GEOMETRY_SLOTS_MAX / 16];
	static double ns[GEOMETRY_SLOTS_MAX / 16];
	static struct chase_run runs[GEOMETRY_SLOTS_MAX / 16];
	struct geometry_step_reading r;
	struct plat_buffer buf;
	struct ways_sweep w = { c, NULL, g->name, 0, 0, 0 };
	char page_text[24], why[320];
	unsigned n = 0;
	int full = t->ways == 0;

	mp_format_bytes(page_text, sizeof page_text, page);
	mp_snprintf(g->name, sizeof g->name, "L%u %s %s", t->level, tlb_kind_name(t->kind),
		    page_text);
	g->page_shift = shift;
	if (t->ways == WAYS_UNSTATED) {
		not_measurable(&g->ways, 0, "not measured: CPUID gives no associativity to sweep");
		return;
	}
	/* A lower set-associative TLB whose sets nest in this one's sees the
	   same pages in one set: its step comes first. A lower fully
	   associative one with at least the pages swept hides this one. */
	for (unsigned i = 0; i < cl->ntlbs; i++) {
		const struct tlb_desc *o = &cl->tlb[i];

		if (o == t || !tlb_for_loads(o, tlb_page) || o->level >= t->level)
			continue;
		if (!full && o->ways == 0 && o->entries >= 2 * t->ways + 4) {
			mp_snprintf(why, sizeof why, "not measurable here: the L%u %s (%u entries, "
				    "fully associative) holds every page of one of this TLB's sets "
				    "(%u ways), so a conflict here never shows", o->level,
				    tlb_kind_name(o->kind), o->entries, t->ways);
			not_measurable(&g->ways, t->ways, why);
			report_printf("geometry, %s: %s\n", g->name, why);
			return;
		}
		/* Its step comes first: after its ways (set-associative, sets
		   nesting) or its entries (fully associative, fewer than swept). */
		if (!full && o->ways == 0 && o->entries > after)
			after = o->entries;
		if (o->ways && o->ways != WAYS_UNSTATED && o->ways > after)
			after = o->ways;
	}
	if (full) {
		stride = FULL_TLB_STRIDE_PAGES * page;
		kmax = t->entries + t->entries / 2;
		if (kmax > GEOMETRY_SLOTS_MAX / 16 * 4)
			kmax = GEOMETRY_SLOTS_MAX / 16 * 4;
		step = kmax / 48 ? kmax / 48 : 1;
		if (shift > PAGE_SHIFT_4K)
			stride = page;
	} else {
		stride = (uint64_t)t->entries / t->ways * page;
		kmax = 2 * t->ways + 4 + after;
	}
	if ((uint64_t)kmax * stride > TLB_SETTINGS(c)->max_buffer) {
		char need[24];

		mp_format_bytes(need, sizeof need, (uint64_t)kmax * stride);
		mp_snprintf(why, sizeof why, "not measured: the sweep needs %s, over "
			    "tlb.max_buffer", need);
		not_measurable(&g->ways, t->ways, why);
		report_printf("geometry, %s: %s\n", g->name, why);
		return;
	}
	if (!plat_buffer_max(shift) ||
	    page_buffer_get(PROBE_NAME, &buf, (uint64_t)kmax * stride, shift) != 0) {
		not_measurable(&g->ways, t->ways, "not measured: no buffer of these pages");
		return;
	}
	report_printf("geometry, %s: %s, one line in each of k pages %llu bytes apart\n",
		      g->name, full ? "fully associative (claimed)" : "set-associative (claimed)",
		      (unsigned long long)stride);
	w.buf = &buf;
	w.apart = stride;
	w.page = page;
	for (unsigned k = step; k <= kmax && n < sizeof ks / sizeof *ks; k += step) {
		if (measure_point(&w, k, &runs[n]) != 0)
			break;
		ns[n] = trials_best(&runs[n].trials);
		ks[n++] = k;
	}
	geometry_read_step(ks, ns, n, after, &r);
	if (refine_step(&w, ks, ns, runs, n, after, step, &r) != 0)
		n = 0;
	report_table_begin(&tlb_table, g->name, NULL);
	for (unsigned i = 0; i < n; i++) {
		double cycles = emit(&buf, "tlb_ways", stride, (uint64_t)ks[i] * stride, &runs[i],
				     &ns[i]);

		report_table_cell("%u", ks[i]);
		report_table_cell("%.3f", ns[i]);
		report_table_cell("%.2f", cycles);
		report_table_cell("%u", runs[i].trials.count);
		report_table_row(0);
	}
	report_table_end();
	plat_buffer_put(&buf);
	if (full) {
		/* No step before the capacity is what full associativity means. */
		if (n && ((!r.ways && r.no_step) || r.ways >= t->entries * 3 / 4)) {
			if (r.ways)
				mp_snprintf(why, sizeof why, "no step before %u pages: %s", r.ways,
					    r.why);
			else
				mp_snprintf(why, sizeof why, "no step up to %u pages", ks[n - 1]);
			figure_set(&g->ways, 0, 0, 0, why);
			g->ways.full = 1;
			g->ways.verdict = GEOMETRY_AGREES;
		} else if (!n) {
			not_measurable(&g->ways, 0, "not measured: the chase failed");
		} else if (!r.ways) {
			not_measurable(&g->ways, 0, r.why);
		} else {
			mp_snprintf(why, sizeof why, "a step after %u pages, under the %u claimed "
				    "entries: %s", r.ways, t->entries, r.why);
			figure_set(&g->ways, r.ways, 0, 0, why);
			g->ways.verdict = GEOMETRY_DIFFERS;
		}
	} else if (r.ways) {
		figure_set(&g->ways, r.ways, t->ways, t->ways_at_least, r.why);
	} else {
		not_measurable(&g->ways, t->ways, r.why);
	}
	g->ways.claimed_full = full;
	report_printf("  %s: %s\n", g->name, g->ways.why);
}

static void measure_tlbs(const struct config *c, const struct cache_claims *cl)
{
	static const struct { unsigned pages_bit, shift, tlb_page; } sizes[] = {
		{ PAGES_4K, PAGE_SHIFT_4K, TLB_PAGE_4K },
		{ PAGES_2M, PAGE_SHIFT_2M, TLB_PAGE_2M },
	};

	if (!cl->ntlbs)
		report_printf("geometry, TLBs: the CPU claims none (no register describes them "
			      "on this architecture, or a hypervisor hides them): not measured\n");
	for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		if (!(c->pages & sizes[s].pages_bit))
			continue;
		for (unsigned level = 1; level <= 3; level++)
			for (unsigned i = 0; i < cl->ntlbs && results.ntlbs < GEOMETRY_TLBS; i++)
				if (cl->tlb[i].level == level &&
				    tlb_for_loads(&cl->tlb[i], sizes[s].tlb_page))
					measure_tlb(c, cl, &cl->tlb[i], sizes[s].shift,
						    sizes[s].tlb_page);
	}
}

static void summary_row(const char *what, const struct geometry_figure *f, const char *unit)
{
	report_table_cell("%s", what);
	if (f->full)
		report_table_cell("full");
	else if (f->measured)
		report_table_cell("%llu%s", (unsigned long long)f->measured, unit);
	else
		report_table_cell("-");
	if (f->claimed_full)
		report_table_cell("full");
	else if (f->claimed)
		report_table_cell("%llu%s", (unsigned long long)f->claimed, unit);
	else
		report_table_cell("-");
	int held = f->verdict == GEOMETRY_AGREES || f->verdict == GEOMETRY_DIFFERS;

	report_table_cell("%s", emulated && held ? "emulated" : geometry_verdict_name(f->verdict));
	report_table_cell("%s", f->why);
	report_table_row(f->verdict == GEOMETRY_DIFFERS && !emulated);
}

static void report_summary(void)
{
	char what[48];

	report_table_begin(&summary_table, PROBE_NAME, NULL);
	summary_row("line size", &results.line, " B");
	for (unsigned i = 0; i < results.nlevels; i++) {
		mp_snprintf(what, sizeof what, "%s ways", results.level[i].name);
		summary_row(what, &results.level[i].ways, "");
		mp_snprintf(what, sizeof what, "%s sets", results.level[i].name);
		summary_row(what, &results.level[i].sets, "");
	}
	for (unsigned i = 0; i < results.ntlbs; i++) {
		mp_snprintf(what, sizeof what, "%s ways", results.tlb[i].name);
		summary_row(what, &results.tlb[i].ways, "");
	}
	report_table_end();
	report_printf("  L3 and beyond: not measured: a last-level cache's slices hash the "
		      "physical address, so lines a way span apart do not share a set\n");
}

static void write_chart(void)
{
	static struct svg_series series[GEOMETRY_LEVELS];
	static struct svg_chart chart;
	size_t n = 0;

	for (unsigned i = 0; i < results.nlevels && i < GEOMETRY_LEVELS; i++)
		if (chart_n[i])
			series[n++] = (struct svg_series){ results.level[i].name, chart_n[i],
							   chart_k[i], chart_ns[i] };
	chart = (struct svg_chart){
		.title = "memprobe: latency against lines per set, at each level's way span",
		.x_label = "lines in one set (log2 scale)",
		.y_label = "ns per load (log scale)",
		.series = series, .nseries = n,
	};
	chart_file("geometry.svg", chart_produce_plain, &chart);
}

/* ---- Public Functions ------------------------------------------------- */

const struct geometry_results *geometry_results(void)
{
	return &results;
}

/* The profile's trials as geometry runs them: its precision at least
   GEOMETRY_PRECISION_MIN, its step at most GEOMETRY_STEP_MS_MAX. The
   probe's and its cost's. */
static void geometry_config_of(const struct config *profile, struct config *out)
{
	*out = *profile;
	if (out->precision < GEOMETRY_PRECISION_MIN)
		out->precision = GEOMETRY_PRECISION_MIN;
	if (out->step_ms > GEOMETRY_STEP_MS_MAX)
		out->step_ms = GEOMETRY_STEP_MS_MAX;
}

int probe_geometry(const struct config *profile)
{
	static struct config geometry_config;
	const struct config *c = &geometry_config;
	struct cache_claims cl;
	int status = 0;

	geometry_config_of(profile, &geometry_config);

	results = (struct geometry_results){ 0 };
	for (unsigned i = 0; i < GEOMETRY_LEVELS; i++)
		chart_n[i] = 0;
	results.ran = 1;
	plat_cache_claims(&cl);
	emulated = claims_emulated(&cl);
	report_printf("geometry: dependent-load chases over slots laid out to share a line, a "
		      "set or a TLB set; trials as the latency probe's (at least %u of >= %.1f "
		      "ms, best three within %.1f%% (the profile's %.1f%%, or %.0f%% at least: "
		      "the steps read are 1.3x or more), at most %u); figure = best trial, ns "
		      "per load\n", c->trials, c->step_ms, c->precision * 100,
		      profile->precision * 100, GEOMETRY_PRECISION_MIN * 100, c->max_trials);
	if (measure_line(c, &cl) != 0)
		status = -1;
	if (measure_caches(c, &cl) != 0)
		status = -1;
	measure_tlbs(c, &cl);
	report_summary();
	write_chart();
	return status;
}

/* One buffer at a time, the largest of: a TLB's sweep (never over
   tlb.max_buffer), L1d's and L2's k lines two way spans apart (at most
   KMAX, each span at most the largest claimed cache's size), the line
   probe's 16 KiB of slots. */
static unsigned geometry_holds(const struct config *c, unsigned page_shift,
			       struct probe_hold out[PROBE_HOLDS_MAX])
{
	static struct cache_claims cl;
	uint64_t span = 4096, bytes = GEOMETRY_LINE_BUFFER;

	plat_cache_claims(&cl);
	for (unsigned level = 1; level <= 2; level++)
		span = claimed_span(claimed_cache(&cl, level), 0) > span
		     ? claimed_span(claimed_cache(&cl, level), 0) : span;
	if ((uint64_t)KMAX * span * 2 + 4096 > bytes)
		bytes = (uint64_t)KMAX * span * 2 + 4096;
	if (TLB_SETTINGS(c)->max_buffer > bytes)
		bytes = TLB_SETTINGS(c)->max_buffer;
	out[0] = (struct probe_hold){ bytes, page_shift, 1 };
	return 1;
}

/* The sweep's own bound (4 x the claimed ways + 4 lines per set) in both
   profiles; quick runs the probe only when asked. */
static const struct config_key geometry_keys[] = {
	{ "max_lines", KIND_UINT, SETTING(struct geometry_settings, max_lines), 0, KMAX, 0, "0",
	  "0", 0, 0, NULL },
};

/* Chases of a few slots each, trials as chase_run_cost's at the step
   and precision geometry runs with (geometry_config_of): the line
   probe's points twice (plain and aligned); per cache level and span, the
   ways sweep's GEOMETRY_K_TYPICAL points (or geometry.max_lines), each
   measured GEOMETRY_WAYS_PASSES times; a TLB's sweep as long as one
   span's, for two page sizes. Counted from the rows of recorded runs,
   not from the claims: a sweep stops past the step it finds. */
#define GEOMETRY_K_TYPICAL 40u
static void geometry_cost(const struct config *profile, struct probe_cost *cost)
{
	static struct config c;
	unsigned k, chases;

	geometry_config_of(profile, &c);
	k = GEOMETRY_SETTINGS(&c)->max_lines && GEOMETRY_SETTINGS(&c)->max_lines < GEOMETRY_K_TYPICAL
	    ? GEOMETRY_SETTINGS(&c)->max_lines : GEOMETRY_K_TYPICAL;
	chases = 2 * GEOMETRY_LINE_POINTS +
		 GEOMETRY_WAYS_PASSES * GEOMETRY_LEVELS * GEOMETRY_SPANS * k + 2 * k;
	for (unsigned i = 0; i < chases; i++)
		chase_run_cost(&c, GEOMETRY_LINE_SLOTS, CHASE_COST_LAPS, cost);
}

PROBE_DEFINE(geometry, 100) = {
	.config = { .name = "geometry", .profiles = PROBE_IN_FULL,
		    PROBE_KEYS(geometry_keys, struct geometry_settings, 0) },
	.run = probe_geometry,
	.holds = geometry_holds,
	.cost = geometry_cost,
	.rows_read = ROWS_UNREAD,
};
