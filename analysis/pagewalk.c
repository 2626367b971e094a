/* Page-walk cost from the paired latency sweeps (see pagewalk.h; the method
 * and its caveats are in docs/METHOD.md, "Page-walk cost").
 */
#include <stdarg.h>
#include "analysis/pagewalk.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "core/platform.h"
#include "results/report_table.h"

/* ---- Constants -------------------------------------------------------- */

/* The page sizes paired, ascending. */
static const unsigned pair_shifts[3] = { PAGE_SHIFT_4K, PAGE_SHIFT_2M, PAGE_SHIFT_1G };

/* ---- Private Functions ------------------------------------------------ */

static const struct curve *find_curve(const struct curve *curves, size_t ncurves,
				      unsigned page_shift)
{
	for (size_t i = 0; i < ncurves; i++)
		if (curves[i].page_shift == page_shift && curves[i].n)
			return &curves[i];
	return 0;
}

static int over(double fraction)
{
	return fraction > PAGEWALK_THRESHOLD;
}

/* Both curves are ascending with one point per size: a merge walk. */
static void pair_compute(struct pagewalk_pair *p, const struct curve *small,
			 const struct curve *large)
{
	size_t i = 0, k = 0;
	uint64_t min_bytes = (uint64_t)EDGES_MIN_TLB_ENTRIES << small->page_shift;

	mp_memset(p, 0, sizeof *p);
	p->small_shift = small->page_shift;
	p->large_shift = large->page_shift;
	p->small_end = small->pt[small->n - 1].bytes;
	p->large_end = large->pt[large->n - 1].bytes;
	while (i < small->n && k < large->n && p->n < EDGES_MAX_POINTS) {
		const struct curve_point *s = &small->pt[i], *l = &large->pt[k];
		struct pagewalk_point *pt;

		if (s->bytes < l->bytes) {
			i++;
			continue;
		}
		if (l->bytes < s->bytes) {
			k++;
			continue;
		}
		pt = &p->pt[p->n++];
		pt->bytes = s->bytes;
		pt->small_ns = s->ns;
		pt->large_ns = l->ns;
		pt->small_cycles = s->cycles;
		pt->large_cycles = l->cycles;
		pt->extra_ns = s->ns - l->ns;
		pt->have_cycles = s->cycles > 0.0 && l->cycles > 0.0;
		pt->extra_cycles = pt->have_cycles ? s->cycles - l->cycles : 0.0;
		pt->fraction = pt->extra_ns / l->ns;   /* curve_add keeps ns > 0 */
		pt->eligible = s->bytes > min_bytes;
		pt->over = over(pt->fraction);
		if (pt->extra_ns < 0.0)
			p->negative++;
		i++;
		k++;
	}
	for (size_t n = 0; n < p->n; n++) {
		const struct pagewalk_point *pt = &p->pt[n];
		if (!pt->eligible || !pt->over)
			continue;
		if (n + 1 == p->n || p->pt[n + 1].over) {
			p->crossed = 1;
			p->first_over = n;
			break;
		}
		p->lone_over++;
	}
}

/* "+1.23" / "-0.26": mp_snprintf has no '+' flag. */
static void signed_text(char *buf, size_t size, double v, int decimals)
{
	mp_snprintf(buf, size, "%s%.*f", v < 0 ? "" : "+", decimals, v);
}

static void pair_name(char *buf, size_t size, const struct pagewalk_pair *p)
{
	char small[16], large[16];

	mp_format_bytes(small, sizeof small, 1ull << p->small_shift);
	mp_format_bytes(large, sizeof large, 1ull << p->large_shift);
	mp_snprintf(buf, size, "%s over %s", small, large);
}

/* A row per working set measured with both pages of a pair; the last
   column marks the first size over the threshold. */
static const struct table_column pair_columns[] = {
	{ "pages", NULL, 17, 1, 0 },
	{ "working set", NULL, 11, 0, 0 },
	{ "ns large", NULL, 10, 0, 0 },
	{ "ns small", NULL, 10, 0, 0 },
	{ "extra ns", NULL, 10, 0, 0 },
	{ "extra cycles", NULL, 13, 0, 0 },
	{ "extra %", NULL, 8, 0, 0 },
	{ "", NULL, 0, 1, 2 },
};
static const struct table pair_table = TABLE_OF(pair_columns, "  ");

static void print_table(const struct pagewalk *pw, const struct mp_printer *p)
{
	report_table_begin(&pair_table, "page-walk cost", p);
	for (size_t k = 0; k < pw->npairs; k++) {
		const struct pagewalk_pair *pr = &pw->pair[k];
		char name[40], size[24], ns[24], cy[24], pct[24];

		pair_name(name, sizeof name, pr);
		for (size_t i = 0; i < pr->n; i++) {
			const struct pagewalk_point *pt = &pr->pt[i];
			mp_format_bytes(size, sizeof size, pt->bytes);
			signed_text(ns, sizeof ns, pt->extra_ns, 2);
			if (pt->have_cycles)
				signed_text(cy, sizeof cy, pt->extra_cycles, 2);
			else
				mp_strlcpy(cy, "-", sizeof cy);
			signed_text(pct, sizeof pct, pt->fraction * 100.0, 1);
			report_table_cell("%s", name);
			report_table_cell("%s", size);
			report_table_cell("%.3f", pt->large_ns);
			report_table_cell("%.3f", pt->small_ns);
			report_table_cell("%s", ns);
			report_table_cell("%s", cy);
			report_table_cell("%s%%", pct);
			report_table_cell("%s", pr->crossed && pr->first_over == i
						  ? "<- first over 10%" : "");
			report_table_row(0);
		}
	}
	report_table_end();
}

static void print_summary(const struct pagewalk_pair *pr, const struct mp_printer *p)
{
	char small[16], large[16], size[24], ns[24], first[160], end[96], lone[64];
	const struct pagewalk_point *e;

	mp_format_bytes(small, sizeof small, 1ull << pr->small_shift);
	mp_format_bytes(large, sizeof large, 1ull << pr->large_shift);
	if (!pr->n) {
		mp_print(p, "  %s over %s pages: no working set was measured with both page sizes\n",
		    small, large);
		return;
	}
	e = &pr->pt[pr->n - 1];
	lone[0] = 0;
	if (pr->lone_over)
		mp_snprintf(lone, sizeof lone, "%s%u single size%s over it%s, taken as noise",
			    pr->crossed ? "; " : " (", pr->lone_over, pr->lone_over == 1 ? "" : "s",
			    pr->crossed ? " before" : "");
	if (pr->crossed) {
		const struct pagewalk_point *f = &pr->pt[pr->first_over];
		mp_format_bytes(size, sizeof size, f->bytes);
		signed_text(ns, sizeof ns, f->extra_ns, 2);
		mp_snprintf(first, sizeof first, "extra first exceeds %.0f%% at %s (%s ns, %.1f%%%s)",
			    PAGEWALK_THRESHOLD * 100, size, ns, f->fraction * 100.0, lone);
	} else {
		mp_format_bytes(size, sizeof size, e->bytes);
		mp_snprintf(first, sizeof first, "extra never exceeds %.0f%% up to %s%s%s",
			    PAGEWALK_THRESHOLD * 100, size, lone, pr->lone_over ? ")" : "");
	}
	mp_format_bytes(size, sizeof size, e->bytes);
	signed_text(ns, sizeof ns, e->extra_ns, 2);
	mp_snprintf(end, sizeof end, "at the sweep's end, %s: %s ns (%.1f%%)%s", size, ns,
		    e->fraction * 100.0,
		    e->bytes < pr->small_end || e->bytes < pr->large_end
			    ? " (the largest size both measured)" : "");
	mp_print(p, "  %s over %s pages: %s; %s\n", small, large, first, end);
	if (pr->negative)
		mp_print(p, "    %u of %zu sizes read faster with %s pages: noise, shown as measured\n",
		    pr->negative, pr->n, small);
}

static int nothing_to_draw(const struct pagewalk *pw)
{
	for (size_t k = 0; k < pw->npairs; k++)
		if (pw->pair[k].n)
			return 0;
	return 1;
}

/* ---- Public Functions ------------------------------------------------- */

void pagewalk_compute(const struct curve *curves, size_t ncurves, struct pagewalk *out)
{
	const struct curve *have[3];

	out->npairs = 0;
	out->nshifts = 0;
	for (size_t s = 0; s < 3; s++) {
		const struct curve *c = find_curve(curves, ncurves, pair_shifts[s]);
		if (!c)
			continue;
		have[out->nshifts] = c;
		out->shift[out->nshifts++] = pair_shifts[s];
	}
	/* Neighbours among the measured sizes: 4K/2M and 2M/1G, or 4K/1G
	   when 2 MiB is missing. */
	for (size_t s = 0; s + 1 < out->nshifts && out->npairs < PAGEWALK_MAX_PAIRS; s++)
		pair_compute(&out->pair[out->npairs++], have[s], have[s + 1]);
}

void pagewalk_print(const struct pagewalk *pw, pagewalk_print_fn print, void *ctx)
{
	struct mp_printer p = { print, ctx };
	char page[16];

	mp_print(&p, "  page-walk cost: the extra time per load of smaller pages over larger ones "
	    "at the same working set (TLB misses and page walks), and as %% of the larger "
	    "pages' time (docs/METHOD.md)\n");
	if (pw->nshifts < 2) {
		if (pw->nshifts)
			mp_format_bytes(page, sizeof page, 1ull << pw->shift[0]);
		mp_print(&p, "  %s%s: nothing to pair (run with pages=4k,2m)\n",
		    pw->nshifts ? "one page size measured, " : "no 4 KiB, 2 MiB or 1 GiB curve",
		    pw->nshifts ? page : "");
		return;
	}
	mp_print(&p, "  first exceeds %.0f%%: the first working set of more than %d smaller pages "
	    "(fewer cannot miss in any TLB) with the extra over %.0f%% there and at the next "
	    "size both measured, or at the last size: one noisy point never decides; negative "
	    "extras are noise, shown as measured\n",
	    PAGEWALK_THRESHOLD * 100, EDGES_MIN_TLB_ENTRIES, PAGEWALK_THRESHOLD * 100);
	print_table(pw, &p);
	for (size_t k = 0; k < pw->npairs; k++)
		print_summary(&pw->pair[k], &p);
}

void pagewalk_json(struct json *j, const struct pagewalk *pw)
{
	const double null = __builtin_nan("");

	json_array_begin(j, "page_walk");
	for (size_t k = 0; k < pw->npairs; k++) {
		const struct pagewalk_pair *pr = &pw->pair[k];
		const struct pagewalk_point *f = pr->crossed ? &pr->pt[pr->first_over] : 0;
		const struct pagewalk_point *e = pr->n ? &pr->pt[pr->n - 1] : 0;

		json_object_begin(j, 0);
		json_u64(j, "small_page_size", 1ull << pr->small_shift);
		json_u64(j, "large_page_size", 1ull << pr->large_shift);
		json_double(j, "threshold_fraction", PAGEWALK_THRESHOLD);
		json_u64(j, "min_small_pages", EDGES_MIN_TLB_ENTRIES);
		json_u64(j, "common_sizes", pr->n);
		if (f) {
			json_u64(j, "first_over_10pct_bytes", f->bytes);
			json_double(j, "first_over_10pct_extra_ns", f->extra_ns);
			json_double(j, "first_over_10pct_fraction", f->fraction);
		} else {
			json_double(j, "first_over_10pct_bytes", null);
		}
		json_u64(j, "lone_over_10pct", pr->lone_over);
		json_u64(j, "negative_points", pr->negative);
		if (e) {
			json_u64(j, "end_bytes", e->bytes);
			json_double(j, "end_extra_ns", e->extra_ns);
			json_double(j, "end_extra_cycles", e->have_cycles ? e->extra_cycles : null);
			json_double(j, "end_extra_fraction", e->fraction);
		}
		json_array_begin(j, "points");
		for (size_t i = 0; i < pr->n; i++) {
			const struct pagewalk_point *pt = &pr->pt[i];
			json_object_begin(j, 0);
			json_u64(j, "bytes", pt->bytes);
			json_double(j, "small_ns", pt->small_ns);
			json_double(j, "large_ns", pt->large_ns);
			json_double(j, "extra_ns", pt->extra_ns);
			json_double(j, "extra_cycles", pt->have_cycles ? pt->extra_cycles : null);
			json_double(j, "extra_fraction", pt->fraction);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

int pagewalk_write_svg(const struct pagewalk *pw, svg_write_fn write, void *ctx)
{
	static double xs[PAGEWALK_MAX_PAIRS][EDGES_MAX_POINTS], ys[PAGEWALK_MAX_PAIRS][EDGES_MAX_POINTS];
	static char labels[PAGEWALK_MAX_PAIRS][48], mark_text[PAGEWALK_MAX_PAIRS][80];
	struct svg_series series[PAGEWALK_MAX_PAIRS];
	struct svg_marker marks[PAGEWALK_MAX_PAIRS];
	size_t nmarks = 0;
	/* The ratio, not the difference: a log axis keeps the small extras
	   inside the caches and the large ones in memory both readable, and a
	   negative extra (noise) stays on the chart as a ratio below 1. */
	struct svg_chart chart = {
		"memprobe: page-walk cost, ns per load with smaller pages / with larger pages",
		"working set (log2 scale)",
		"ns smaller / ns larger pages (log scale; 1 = no extra, 1.1 = 10%)", 1,
		series, pw->npairs, marks, 0, 0,
	};

	if (nothing_to_draw(pw))
		chart.nseries = 0;     /* the document says there is nothing to draw */
	for (size_t k = 0; k < chart.nseries; k++) {
		const struct pagewalk_pair *pr = &pw->pair[k];
		char name[40], size[24];

		pair_name(name, sizeof name, pr);
		mp_snprintf(labels[k], sizeof labels[k], "%s pages", name);
		for (size_t i = 0; i < pr->n; i++) {
			xs[k][i] = (double)pr->pt[i].bytes;
			ys[k][i] = pr->pt[i].small_ns / pr->pt[i].large_ns;
		}
		series[k].label = labels[k];
		series[k].n = pr->n;
		series[k].x = xs[k];
		series[k].y = ys[k];
		if (!pr->crossed)
			continue;
		mp_format_bytes(size, sizeof size, pr->pt[pr->first_over].bytes);
		mp_snprintf(mark_text[nmarks], sizeof mark_text[nmarks], "%s: over %.0f%% from %s",
			    name, PAGEWALK_THRESHOLD * 100, size);
		marks[nmarks].x = (double)pr->pt[pr->first_over].bytes;
		marks[nmarks].label = mark_text[nmarks];
		marks[nmarks].series = (int)k;
		marks[nmarks].dashed = 1;
		nmarks++;
	}
	chart.nmarkers = nmarks;
	return svg_write_chart(&chart, write, ctx);
}
