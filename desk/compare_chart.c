/* memprobe compare's overlay chart (see compare_chart.h). */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desk/compare_chart.h"
#include "desk/run_match.h"
#include "lib/fmt.h"
#include "core/probe.h"
#include "desk/desk.h"

/* ---- Private Types ---------------------------------------------------- */

/* The chart's curves, each owning its points and its label. */
struct curves {
	struct svg_series *series;
	char (*label)[64];
	size_t n;
};

/* ---- Private Functions ------------------------------------------------ */

/* Run r's points on the curve that starts at key first: every key of the
   same variant and page size that the run measured, with a working set,
   in ns or (rate) GB/s. Adds nothing when there is no such point. */
static void add_curve(struct curves *c, const struct run_folder *runs, unsigned r,
		      const struct run_match *m, size_t first, int name_variant, int rate)
{
	const struct run_key *keys = m->key;
	double *x = desk_must(calloc(m->nkeys, sizeof *x)), *y = desk_must(calloc(m->nkeys, sizeof *y));
	char page[24] = "";
	size_t n = 0;

	for (size_t k = first; k < m->nkeys && run_match_same_curve(&keys[k], &keys[first]); k++) {
		const struct run_row *row = run_match_row(m, k, r);

		if (row && keys[k].working_set_bytes && !isnan(run_match_figure(row, rate))) {
			x[n] = (double)keys[k].working_set_bytes;
			y[n++] = run_match_figure(row, rate);
		}
	}
	if (!n) {
		free(x);
		free(y);
		return;
	}
	c->series = desk_must(realloc(c->series, (c->n + 1) * sizeof *c->series));
	c->label = desk_must(realloc(c->label, (c->n + 1) * sizeof *c->label));
	if (keys[first].page_shift)
		mp_format_bytes(page, sizeof page, 1ull << keys[first].page_shift);
	snprintf(c->label[c->n], sizeof c->label[c->n], "%c%s%s%s%s", runs[r].name,
		 name_variant ? " " : "", name_variant ? keys[first].variant : "",
		 *page ? " " : "", *page ? strcat(page, " pages") : "");
	c->series[c->n] = (struct svg_series){ NULL, n, x, y };
	c->n++;
}

/* Whether the key lies on a working-set curve: one told apart by its CPU,
   its loaders or its chases (c2c, loaded, mlp) is a point of another axis. */
static int on_working_set_curve(const struct run_key *k)
{
	return !k->cpu.given && !k->peer_cpu.given && !k->loaders.given && !k->chases.given;
}

/* Frees every curve's points and the arrays. */
static void free_curves(struct curves *c)
{
	for (size_t s = 0; s < c->n; s++) {
		free((void *)c->series[s].x);
		free((void *)c->series[s].y);
	}
	free(c->series);
	free(c->label);
}

/* ---- Public Functions ------------------------------------------------- */

int compare_chart(const struct run_folder *runs, unsigned nruns, const char *probe,
		  svg_write_fn write, void *ctx)
{
	struct curves curves = { 0 };
	struct run_match m;
	char title[128];
	int several_variants, rate, rc;

	run_match_build(&m, runs, nruns, probe);
	several_variants = m.nkeys && m.key[m.nkeys - 1].variant_order > 0;
	rate = run_match_rate(&m);
	for (unsigned r = 0; r < nruns; r++)
		for (size_t k = 0; k < m.nkeys; k++)
			if ((!k || !run_match_same_curve(&m.key[k], &m.key[k - 1])) &&
			    on_working_set_curve(&m.key[k]))
				add_curve(&curves, runs, r, &m, k, several_variants, rate);
	/* Labels only now: the label array may have moved while it grew. */
	for (size_t s = 0; s < curves.n; s++)
		curves.series[s].label = curves.label[s];
	snprintf(title, sizeof title, "memprobe compare: %s, %s by working set, runs A-%c", probe,
		 rate ? "GB/s" : "ns", 'A' + nruns - 1);
	struct svg_chart chart = { title, "working set", rate ? "GB/s" : "ns", 1, curves.series,
				   curves.n, NULL, 0, 0 };
	/* With no curve the document says "no measurement to draw". */
	rc = svg_write_chart(&chart, write, ctx);
	free_curves(&curves);
	run_match_free(&m);
	return rc;
}

void compare_chart_name(char *buf, size_t size, const char *probe)
{
	/* The latency curve, the one compare draws first, keeps the plain name. */
	if (probe_rows_read(probe) == ROWS_LATENCY_CURVE)
		snprintf(buf, size, "compare.svg");
	else
		snprintf(buf, size, "compare-%s.svg", probe);
}
