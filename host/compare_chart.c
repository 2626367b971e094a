/* memprobe compare's overlay chart (see compare_chart.h). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare_chart.h"
#include "host/host.h"
#include "host/run_match.h"
#include "lib/fmt.h"

// ---- Private Types ----------------------------------------------------------

/* The chart's curves, each owning its points and its label. */
struct curves {
	struct svg_series *series;
	char (*label)[64];
	size_t n;
};

// ---- Private Functions ------------------------------------------------------

/* The run's points on the curve that starts at keys[first]: every key of
   the same variant and page size that the run measured, with a working
   set. Adds nothing when there is no such point. */
static void add_curve(struct curves *c, const struct run_folder *run, const char *probe,
		      const struct run_key *keys, size_t nkeys, size_t first, int name_variant)
{
	double *x = host_must(calloc(nkeys, sizeof *x)), *y = host_must(calloc(nkeys, sizeof *y));
	char page[24] = "";
	size_t n = 0;

	for (size_t k = first; k < nkeys && run_match_same_curve(&keys[k], &keys[first]); k++) {
		const struct run_row *row = run_match_row(run, probe, &keys[k]);

		if (row && keys[k].working_set_bytes) {
			x[n] = (double)keys[k].working_set_bytes;
			y[n++] = row->ns;
		}
	}
	if (!n) {
		free(x);
		free(y);
		return;
	}
	c->series = host_must(realloc(c->series, (c->n + 1) * sizeof *c->series));
	c->label = host_must(realloc(c->label, (c->n + 1) * sizeof *c->label));
	if (keys[first].page_shift)
		mp_format_bytes(page, sizeof page, 1ull << keys[first].page_shift);
	snprintf(c->label[c->n], sizeof c->label[c->n], "%c%s%s%s%s", run->name,
		 name_variant ? " " : "", name_variant ? keys[first].variant : "",
		 *page ? " " : "", *page ? strcat(page, " pages") : "");
	c->series[c->n] = (struct svg_series){ NULL, n, x, y };
	c->n++;
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

// ---- Public Functions -------------------------------------------------------

int compare_chart(const struct run_folder *runs, unsigned nruns, const char *probe,
		  svg_write_fn write, void *ctx)
{
	struct curves curves = { 0 };
	size_t nkeys;
	struct run_key *keys = run_match_keys(runs, nruns, probe, &nkeys);
	int several_variants = nkeys && keys[nkeys - 1].variant_order > 0;
	char title[128];
	int rc;

	for (unsigned r = 0; r < nruns; r++)
		for (size_t k = 0; k < nkeys; k++)
			if (!k || !run_match_same_curve(&keys[k], &keys[k - 1]))
				add_curve(&curves, &runs[r], probe, keys, nkeys, k, several_variants);
	/* Labels only now: the label array may have moved while it grew. */
	for (size_t s = 0; s < curves.n; s++)
		curves.series[s].label = curves.label[s];
	snprintf(title, sizeof title, "memprobe compare: %s, ns by working set, runs A-%c", probe,
		 'A' + nruns - 1);
	struct svg_chart chart = { title, "working set", "ns", 1, curves.series, curves.n,
				   NULL, 0, 0 };
	/* With no curve the document says "no measurement to draw". */
	rc = svg_write_chart(&chart, write, ctx);
	free_curves(&curves);
	free(keys);
	return rc;
}

void compare_chart_name(char *buf, size_t size, const char *probe)
{
	if (!strcmp(probe, "latency"))
		snprintf(buf, size, "compare.svg");
	else
		snprintf(buf, size, "compare-%s.svg", probe);
}
