/* mlp.svg (see mlp_chart.h). */

#include "probes/mlp_chart.h"
#include "probes/page_sizes.h"
#include "results/chart_file.h"
#include "lib/fmt.h"
#include "lib/xy_chart.h"

/* ---- Private Functions ------------------------------------------------ */

/* mlp.svg's document (chart_produce_fn): arg is the struct mlp_curves. */
static int produce(svg_write_fn write, void *ctx, const void *arg)
{
	static double x[MLP_CURVES_MAX][MLP_POINTS_MAX], y[MLP_CURVES_MAX][MLP_POINTS_MAX];
	static char label[MLP_CURVES_MAX][64];
	struct svg_xy_series series[MLP_CURVES_MAX];
	const struct mlp_curves *m = arg;
	struct svg_xy_chart chart = {
		.title = "memprobe: loads in flight against chases interleaved, per working set",
		.x_label = "chases interleaved in one loop (k)",
		.y_label = "loads in flight (ns per load at k = 1 over ns at k)",
		.series = series, .nseries = m->n,
	};

	for (size_t s = 0; s < m->n; s++) {
		const struct mlp_curve *c = &m->curve[s];
		char page[32], bytes[24];

		page_size_name(page, sizeof page, c->page_shift);
		mp_format_bytes(bytes, sizeof bytes, c->bytes);
		mp_snprintf(label[s], sizeof label[s], "%s %s, %s", c->level, bytes, page);
		for (size_t i = 0; i < c->n; i++) {
			x[s][i] = c->k[i];
			y[s][i] = mlp_in_flight(c, i);
		}
		series[s] = (struct svg_xy_series){ label[s], c->n, x[s], y[s], NULL };
	}
	return svg_write_xy_chart(&chart, write, ctx);
}

/* ---- Public Functions ------------------------------------------------- */

void mlp_chart_write(const struct mlp_curves *m)
{
	if (m->n)
		chart_file("mlp.svg", produce, m);
}
