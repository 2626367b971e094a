/* Locality: the sum of one int matrix walked row by row, then column by
 * column (seeds/locality-benchmark.c, docs/METHOD.md).
 *
 * The row walk reads consecutive addresses, so every byte of every line it
 * fetches is used and the prefetchers stream ahead of it. The column walk
 * jumps a whole row per element, so each element costs a line of its own and,
 * with 4 KiB pages and rows longer than a page, a page of its own: a TLB miss
 * per element once the column is taller than the TLB's reach. Run per page size, the pair shows how much
 * of the column walk's cost is the TLB and how much is the cache.
 */

#include "probes/locality.h"
#include "results/chart_file.h"
#include "core/config.h"
#include "results/emit.h"
#include "lib/base2.h"
#include "lib/fmt.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "results/progress.h"
#include "core/probe.h"
#include "results/report_table.h"
#include "results/results.h"
#include "core/timebase.h"
#include "core/trials.h"

/* The probe's name, from its registry row (the end of this file). */
#define PROBE_NAME (probe_def_locality.config.name)

/* ---- Constants -------------------------------------------------------- */

/* A smaller matrix has no column walk worth the name. */
#define MIN_SIDE 3u


/* One page size's two walks. */
static const struct table_column walk_columns[] = {
	{ "walk", NULL, 13, 1, 0 },
	{ "ns/element", NULL, 10, 0, 0 },
	{ "cycles", NULL, 8, 0, 0 },
	{ "spread", NULL, 7, 0, 2 },
};
static const struct table walk_table = TABLE_OF(walk_columns, "    ");

/* ---- Private Types ---------------------------------------------------- */

struct locality_pass {
	const uint32_t *matrix;
	struct matrix_shape shape;
	int by_columns;
	uint32_t first_col, end_col;   /* the column walk's band */
	uint32_t expected;             /* the walk's sum when memory reads back right */
	uint64_t ticks;
	uint32_t sum;
};

/* The figures of locality.svg, one point per measured page size. */
static double chart_page[PAGE_SIZES_MAX], chart_row[PAGE_SIZES_MAX], chart_col[PAGE_SIZES_MAX];
static size_t chart_points;

/* ---- Private Functions ------------------------------------------------ */

/* Columns that keep the configured aspect ratio for `rows` rows. Products of
   two 32-bit numbers fit in 64 bits, so nothing here overflows. */
static uint64_t cols_for_rows(uint64_t rows, uint32_t cfg_rows, uint32_t cfg_cols)
{
	return rows * cfg_cols / cfg_rows;
}

/* Unsigned sums wrap by definition, so a matrix of any size sums without
   undefined behaviour and the result stays checkable. noinline keeps each
   walk one plain loop nest, compiled as any program would compile it. */
static __attribute__((noinline)) uint32_t
sum_by_rows(const uint32_t *m, uint32_t rows, uint32_t cols)
{
	uint32_t sum = 0;

	for (uint32_t i = 0; i < rows; i++) {
		const uint32_t *row = m + (size_t)i * cols;
		for (uint32_t j = 0; j < cols; j++)
			sum += row[j];
	}
	return sum;
}

/* The columns first .. end - 1 of the matrix, each walked down all rows. */
static __attribute__((noinline)) uint32_t
sum_by_columns(const uint32_t *m, uint32_t rows, uint32_t cols, uint32_t first, uint32_t end)
{
	uint32_t sum = 0;

	for (uint32_t j = first; j < end; j++)
		for (uint32_t i = 0; i < rows; i++)
			sum += m[(size_t)i * cols + j];
	return sum;
}

static void time_pass(void *arg)
{
	struct locality_pass *p = arg;
	uint64_t start = plat_ticks();

	if (p->by_columns)
		p->sum = sum_by_columns(p->matrix, p->shape.rows, p->shape.cols, p->first_col,
					p->end_col);
	else
		p->sum = sum_by_rows(p->matrix, p->shape.rows, p->shape.cols);
	p->ticks = plat_ticks() - start;
}

/* Every element is written before any is timed: an untouched anonymous page
   reads as the kernel's one shared zero page, which would stay in cache and
   make both walks equally fast. It also gives both walks a known sum to be
   checked against. Odd elements hold 1, even ones 0. */
static uint32_t fill_matrix(uint32_t *m, uint64_t elems)
{
	for (uint64_t k = 0; k < elems; k++)
		m[k] = (uint32_t)(k & 1);
	return (uint32_t)(elems / 2);
}

/* Returns the ns per element it reported. */
static double emit_walk(const char *variant, unsigned shift, uint64_t bytes,
			const struct trials *t, uint64_t elems, const char *verified)
{
	struct result_row f = {
		.probe = PROBE_NAME, .variant = variant, .page_shift = shift,
		.working_set_bytes = bytes,
		.ns = ticks_to_ns((uint64_t)trials_best(t)) / (double)elems,
		.trials = t->count, .spread = trials_spread(t),
		.pages_verified = verified,
	};
	double cycles = emit_result_row(&f);

	report_table_cell("%s", variant);
	report_table_cell("%.3f", f.ns);
	report_table_cell("%.2f", cycles);
	report_table_cell("%.1f%%", 100.0 * f.spread);
	report_table_row(0);
	return f.ns;
}

/* Times one walk (the column walk over pass's band), again while a
   disturbance spoils it (trials.h's bound ends that): 0, or -1 reported. */
static int time_walk(struct locality_pass *pass, int by_columns, struct trials *t)
{
	uint32_t expected = pass->expected;

	struct plat_disturbances before, after;
	struct plat_fault fault;

	pass->by_columns = by_columns;
	do {
		plat_disturbances(&before);
		if (plat_timed(time_pass, pass, &fault) != 0) {
			report_printf("%s: the timed walk faulted: %s\n", PROBE_NAME, fault.text);
			return -1;
		}
		plat_disturbances(&after);
		if (pass->sum != expected) {
			report_printf("%s: the %s walk summed %u where what it walked holds %u: "
				      "memory does not read back what was written\n", PROBE_NAME,
				      by_columns ? "column" : "row", (unsigned)pass->sum,
				      (unsigned)expected);
			return -1;
		}
	} while (!trials_add_checked(t, (double)pass->ticks, &before, &after));
	return 0;
}

/* Times alternating row and column passes until the stop rule every probe
   shares (trials_stop, trials.h) ends both walks: at least c->trials each,
   then each stops when its best three agree within c->precision or, as the
   latency probe's largest sizes do, once it has had c->max_trials x
   c->step_ms of trial time; at most locality.reps repetitions. Repetition
   r's column walk sums band r of locality.bands (locality_band). 0, or -1
   reported. */
static int time_walks(struct locality_pass *pass, const struct config *c, uint32_t expected,
		      struct trials *by_row, struct trials *by_col)
{
	const struct locality_settings *s = LOCALITY_SETTINGS(c);
	struct config rule = *c;
	struct progress progress;
	uint64_t spent[2] = { 0, 0 }, budget = ms_to_ticks(c->step_ms) * c->max_trials;
	const char *row_stop = 0, *col_stop = 0;
	unsigned r;

	rule.max_trials = s->reps;
	trials_init(by_row);
	trials_init(by_col);
	progress_start(&progress);
	for (r = 0; !(row_stop && col_stop); r++) {
		progress_tick(&progress, "repetitions", r, s->reps);
		for (int by_columns = 0; by_columns <= 1; by_columns++) {
			pass->expected = expected;
			if (by_columns) {
				locality_band(&pass->shape, s->bands, r, &pass->first_col,
					      &pass->end_col);
				pass->expected = locality_band_sum(&pass->shape, pass->first_col,
								   pass->end_col);
			}
			if (time_walk(pass, by_columns, by_columns ? by_col : by_row))
				return -1;
			spent[by_columns] += pass->ticks;
		}
		row_stop = trials_stop(by_row, &rule, spent[0], budget);
		col_stop = trials_stop(by_col, &rule, spent[1], budget);
	}
	report_printf("    %u repetitions; stopped by: row walk %s, column walk %s\n", r,
		      row_stop, col_stop);
	return 0;
}

static void report_shape(const struct config *c, const struct matrix_shape *s,
			 int shrunk, uint64_t max, const char *page_name)
{
	char have[32], bytes[32];

	mp_format_bytes(bytes, sizeof bytes, (uint64_t)s->rows * s->cols * 4);
	if (shrunk) {
		mp_format_bytes(have, sizeof have, max);
		report_printf("  %s: %u x %u ints do not fit in the %s available; "
			      "measuring %u x %u (%s) instead, the largest shape of "
			      "about the same aspect whose row length is not a power "
			      "of two\n", page_name, LOCALITY_SETTINGS(c)->rows,
			      LOCALITY_SETTINGS(c)->cols, have, s->rows, s->cols, bytes);
	} else {
		report_printf("  %s: %u x %u ints (%s)\n", page_name, s->rows,
			      s->cols, bytes);
	}
	if (base2_is_power(s->cols))
		report_printf("  warning: a row of %u ints is a power of two: the "
			      "column walk's elements share a few cache sets, so it "
			      "times set conflicts as well as locality\n", s->cols);
}

/* 1 skipped (page size unavailable), 0 measured, -1 failed (reported). */
static int measure_page_size(const struct config *c, unsigned shift)
{
	struct matrix_shape shape;
	struct plat_buffer buf;
	struct trials by_row, by_col;
	struct locality_pass pass;
	char page_name[48], caption[64];
	uint64_t max, elems, bytes, band_elems;
	uint32_t expected, band_first, band_end;
	int fit, rc;

	max = page_buffer_max(PROBE_NAME, shift);
	if (max == 0)
		return 1;
	page_size_name(page_name, sizeof page_name, shift);
	fit = locality_fit_shape(LOCALITY_SETTINGS(c)->rows, LOCALITY_SETTINGS(c)->cols, max, &shape);
	if (fit < 0) {
		report_printf("%s: %s: too little memory for even a %u x %u matrix\n",
			      PROBE_NAME, page_name, MIN_SIDE, MIN_SIDE);
		return -1;
	}
	report_shape(c, &shape, fit, max, page_name);
	elems = (uint64_t)shape.rows * shape.cols;
	bytes = elems * sizeof(uint32_t);
	locality_band(&shape, LOCALITY_SETTINGS(c)->bands, 0, &band_first, &band_end);
	band_elems = (uint64_t)shape.rows * (band_end - band_first);
	if (band_end - band_first < shape.cols)
		report_printf("    column walk: each repetition walks a band of %u of the %u "
			      "columns down all %u rows, the bands in turn (locality.bands = "
			      "%u): each column touches the lines and pages it would in a "
			      "whole walk\n", band_end - band_first, shape.cols, shape.rows,
			      LOCALITY_SETTINGS(c)->bands);
	if (page_buffer_get(PROBE_NAME, &buf, bytes, shift) != 0)
		return -1;
	report_printf("    (%s)\n", buf.verified);

	expected = fill_matrix(buf.base, elems);
	pass.matrix = buf.base;
	pass.shape = shape;
	rc = time_walks(&pass, c, expected, &by_row, &by_col);
	if (rc == 0) {
		mp_snprintf(caption, sizeof caption, "locality, %s", page_name);
		report_table_begin(&walk_table, caption, NULL);
		chart_page[chart_points] = (double)((uint64_t)1 << shift);
		chart_row[chart_points] = emit_walk("row", shift, bytes, &by_row, elems,
						    buf.verified);
		chart_col[chart_points] = emit_walk("column", shift, bytes, &by_col, band_elems,
						    buf.verified);
		chart_points++;
		report_table_end();
		report_printf("    column/row    %8.2fx slower\n",
			      chart_col[chart_points - 1] / chart_row[chart_points - 1]);
	}
	plat_buffer_put(&buf);
	return rc;
}

/* locality.svg: ns per element against the page size, row and column. */
static void write_chart(void)
{
	struct svg_series series[2] = {
		{ "row-major", chart_points, chart_page, chart_row },
		{ "column-major", chart_points, chart_page, chart_col },
	};
	struct svg_chart chart = {
		.title = "memprobe: row-major vs column-major sum, by page size",
		.x_label = "page size (log2 scale)", .y_label = "ns per element (log scale)",
		.x_is_bytes = 1, .series = series, .nseries = 2,
	};

	chart_file("locality.svg", chart_produce_plain, &chart);
}

/* ---- Public Functions ------------------------------------------------- */

int locality_fit_shape(uint32_t rows, uint32_t cols, uint64_t max_bytes,
		       struct matrix_shape *out)
{
	uint64_t max_elems = max_bytes / sizeof(uint32_t);
	uint64_t lo = 1, hi = rows, fit_cols;

	if ((uint64_t)rows * cols <= max_elems) {
		out->rows = rows;
		out->cols = cols;
		return 0;
	}
	/* The largest row count whose aspect-kept shape fits: rows times its
	   columns only grows with the row count, so bisect. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;
		if (mid * cols_for_rows(mid, rows, cols) <= max_elems)
			lo = mid;
		else
			hi = mid - 1;
	}
	fit_cols = cols_for_rows(lo, rows, cols);
	/* One column fewer keeps the shape inside the limit. */
	if (base2_is_power(fit_cols))
		fit_cols--;
	if (lo < MIN_SIDE || fit_cols < MIN_SIDE)
		return -1;
	out->rows = (uint32_t)lo;
	out->cols = (uint32_t)fit_cols;
	return 1;
}

void locality_band(const struct matrix_shape *s, unsigned bands, unsigned rep,
		   uint32_t *first, uint32_t *end)
{
	uint32_t n = bands == 0 ? 1 : bands > s->cols ? s->cols : bands;
	uint32_t width = s->cols / n;

	*first = (rep % n) * width;
	*end = *first + width;
}

uint32_t locality_band_sum(const struct matrix_shape *s, uint32_t first, uint32_t end)
{
	uint64_t sum = 0;

	/* Element k holds k & 1, and n / 2 odd numbers lie below n. */
	for (uint64_t i = 0; i < s->rows; i++) {
		uint64_t row = i * s->cols;
		sum += (row + end) / 2 - (row + first) / 2;
	}
	return (uint32_t)sum;
}

int probe_locality(const struct config *c)
{
	const struct locality_settings *s = LOCALITY_SETTINGS(c);
	int rc;

	if (s->rows == 0 || s->cols == 0 || s->reps == 0) {
		report_printf("%s: rows, columns and repetitions must all be at least 1 "
			      "(got %u x %u, %u repetitions)\n", PROBE_NAME, s->rows, s->cols,
			      s->reps);
		return -1;
	}
	report_printf("%s: row-major vs column-major sum of an int matrix; at least %u "
		      "repetitions, each walk stops when its best three agree within %.1f%% "
		      "or, past %u, after %.0f ms of walks; at most %u; figure = best\n",
		      PROBE_NAME, c->trials, c->precision * 100, c->trials,
		      c->max_trials * c->step_ms, LOCALITY_SETTINGS(c)->reps);
	chart_points = 0;
	rc = page_sizes_each(PROBE_NAME, c, measure_page_size);
	if (chart_points)
		write_chart();
	return rc;
}

/* One buffer: the matrix of 32-bit ints. */
static unsigned locality_holds(const struct config *c, unsigned page_shift,
			       struct probe_hold out[PROBE_HOLDS_MAX])
{
	out[0] = (struct probe_hold){ (uint64_t)LOCALITY_SETTINGS(c)->rows * LOCALITY_SETTINGS(c)->cols *
				      sizeof(uint32_t), page_shift, 1 };
	return 1;
}

/* The seed's 13000 x 13000 ints (645 MiB), best of 24; quick keeps a row
   length that is not a power of two. The column walk in 4 bands: the full
   profile's whole column walk took 1.7-2 s a repetition on the Zen 5 VM,
   10 of its 12.5 s. */
static const struct config_key locality_keys[] = {
	{ "rows", KIND_UINT, SETTING(struct locality_settings, rows), 2, 1000000, 0, "2000",
	  "13000", 0, 0, NULL },
	{ "cols", KIND_UINT, SETTING(struct locality_settings, cols), 2, 1000000, 0, "2001",
	  "13000", 0, 0, NULL },
	{ "reps", KIND_UINT, SETTING(struct locality_settings, reps), 1, 1000, 0, "3", "24", 0, 0, NULL },
	{ "bands", KIND_UINT, SETTING(struct locality_settings, bands), 1, 64, 0, "4", "4", 0, 0,
	  NULL },
};

static const char *locality_check(const void *settings, const char **a, const char **b)
{
	const struct locality_settings *s = settings;

	*a = "rows";
	*b = "cols";
	return (uint64_t)s->rows * s->cols * sizeof(uint32_t) > PROBE_BUFFER_MAX
	       ? "times locality.cols is a matrix over 1 TiB" : 0;
}

/* Per page size the platform can give: the matrix written, then repetitions of both walks
   (at least c->trials, at most locality.reps; a walk of the full profile's
   645 MiB outlasts the trial budget, so the fewest are the count): the row
   walk streams it, the column walk, a line and often a page touched per
   element, counted as four streams of the band it walks. */
static void locality_cost(const struct config *c, struct probe_cost *cost)
{
	unsigned shifts[PAGE_SIZES_MAX], nshifts = page_shifts_granted(c->pages, shifts);
	double matrix = (double)LOCALITY_SETTINGS(c)->rows * LOCALITY_SETTINGS(c)->cols *
			sizeof(uint32_t);
	unsigned reps = c->trials < LOCALITY_SETTINGS(c)->reps ? c->trials
							      : LOCALITY_SETTINGS(c)->reps;

	cost->bytes += nshifts * matrix * (1 + reps * (1 + 4.0 / LOCALITY_SETTINGS(c)->bands));
	cost->ms += nshifts * 2.0 * reps * c->step_ms;
}

PROBE_DEFINE(locality, 40) = {
	.config = { .name = "locality", .profiles = PROBE_IN_QUICK | PROBE_IN_FULL,
		    PROBE_KEYS(locality_keys, struct locality_settings, locality_check) },
	.run = probe_locality,
	.holds = locality_holds,
	.rows_read = ROWS_UNREAD,
	.cost = locality_cost,
};
