/* tails.svg (see tails_chart.h). */

#include "probes/tails_chart.h"
#include "results/chart_file.h"
#include "lib/base2.h"
#include "lib/fmt.h"
#include "lib/xy_chart.h"

/* ---- Constants -------------------------------------------------------- */

/* Levels a run charts: four levels at three page sizes, and room over. */
#define CURVES_MAX 16u

/* ---- Private Data ----------------------------------------------------- */

static struct {
	char name[48];
	double x[TAILS_BINS], y[TAILS_BINS];
} curve[CURVES_MAX];
static unsigned curves;

/* ---- Private Functions ------------------------------------------------ */

/* log10 by base-2 logarithms: no libm on bare metal. */
static double log10_of(double v)
{
	return base2_log(v) / base2_log(10.0);
}

/* tails.svg's document (chart_produce_fn). */
static int produce(svg_write_fn write, void *ctx, const void *arg)
{
	static struct svg_xy_series series[CURVES_MAX];
	struct svg_xy_chart chart = {
		.title = "memprobe: latency tails, batches of a few dependent loads at each "
			 "level's working set",
		.x_label = "per-load latency over the level's p50 (the last bin: 8x and more)",
		.y_label = "log10 of the batches in the bin (1: 10, 3: 1000)",
		.series = series, .nseries = curves,
	};

	(void)arg;
	for (unsigned s = 0; s < curves; s++)
		series[s] = (struct svg_xy_series){ curve[s].name, TAILS_BINS, curve[s].x,
						    curve[s].y, 0 };
	return svg_write_xy_chart(&chart, write, ctx);
}

/* ---- Public Functions ------------------------------------------------- */

void tails_histogram(const uint32_t *sorted, uint64_t n, double counter_ticks,
		     double p50_ticks, uint64_t bins[TAILS_BINS])
{
	double p50 = p50_ticks > counter_ticks ? p50_ticks - counter_ticks : 1;

	for (unsigned b = 0; b < TAILS_BINS; b++)
		bins[b] = 0;
	for (uint64_t i = 0; i < n; i++) {
		double net = sorted[i] > counter_ticks ? sorted[i] - counter_ticks : 0;
		double bin = net / p50 * TAILS_BINS_PER_P50;

		bins[bin < TAILS_BINS - 1 ? (unsigned)bin : TAILS_BINS - 1]++;
	}
}

void tails_chart_begin(void)
{
	curves = 0;
}

void tails_chart_add(const char *name, const uint32_t *sorted, uint64_t n,
		     double counter_ticks, double p50_ticks)
{
	uint64_t bins[TAILS_BINS];

	if (curves == CURVES_MAX)
		return;
	tails_histogram(sorted, n, counter_ticks, p50_ticks, bins);
	mp_snprintf(curve[curves].name, sizeof curve[curves].name, "%s", name);
	for (unsigned b = 0; b < TAILS_BINS; b++) {
		curve[curves].x[b] = (b + 0.5) / TAILS_BINS_PER_P50;
		/* An empty bin is no point (the chart leaves y <= 0 out). */
		curve[curves].y[b] = bins[b] ? log10_of((double)bins[b] + 1) : 0;
	}
	curves++;
}

void tails_chart_finish(void)
{
	chart_file("tails.svg", produce, 0);
}
