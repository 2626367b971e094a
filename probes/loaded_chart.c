/* loaded.svg (see loaded_chart.h). */

#include "probes/loaded_chart.h"
#include "results/chart_file.h"
#include "probes/page_sizes.h"
#include "lib/fmt.h"
#include "lib/xy_chart.h"

/* ---- Private Data ----------------------------------------------------- */

/* One curve per page size; a loader count per point. */
static struct {
	unsigned shift;
	char name[48];
	unsigned n;
	double gb_per_s[PLAT_CPUS_MAX], ns[PLAT_CPUS_MAX];
	unsigned loaders[PLAT_CPUS_MAX];
} curve[PAGE_SIZES_MAX];
static unsigned curves;

/* ---- Private Functions ------------------------------------------------ */

/* loaded.svg's document (chart_produce_fn): every curve gathered so far. */
static int produce(svg_write_fn write, void *ctx, const void *arg)
{
	struct svg_xy_series series[PAGE_SIZES_MAX];
	struct svg_xy_chart chart = {
		.title = "memprobe: loaded latency, the chase on CPU 0 against the bandwidth "
			 "other CPUs draw",
		.x_label = "bandwidth the loaders achieved together, GB/s",
		.y_label = "chase latency, ns per load", .tag_label = "loaders",
		.series = series, .nseries = curves,
	};

	(void)arg;
	for (unsigned s = 0; s < curves; s++)
		series[s] = (struct svg_xy_series){ curve[s].name, curve[s].n, curve[s].gb_per_s,
						    curve[s].ns, curve[s].loaders };
	return svg_write_xy_chart(&chart, write, ctx);
}

/* ---- Public Functions ------------------------------------------------- */

void loaded_chart_begin(void)
{
	curves = 0;
}

void loaded_chart_add(unsigned page_shift, const char *page_name, unsigned loaders,
		      double gb_per_s, double ns)
{
	unsigned s;

	for (s = 0; s < curves && curve[s].shift != page_shift; s++)
		;
	if (s == curves) {
		if (curves == PAGE_SIZES_MAX)
			return;
		curves++;
		curve[s].shift = page_shift;
		curve[s].n = 0;
		mp_snprintf(curve[s].name, sizeof curve[s].name, "%s", page_name);
	}
	if (curve[s].n == PLAT_CPUS_MAX)
		return;
	curve[s].gb_per_s[curve[s].n] = gb_per_s;
	curve[s].ns[curve[s].n] = ns;
	curve[s].loaders[curve[s].n] = loaders;
	curve[s].n++;
}

void loaded_chart_finish(void)
{
	chart_file("loaded.svg", produce, 0);
}
