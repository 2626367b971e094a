/* loaded.svg (see loaded_chart.h). */

#include "probes/loaded_chart.h"
#include "results/chart_file.h"
#include "core/platform.h"
#include "probes/loaded_settings.h"
#include "probes/page_sizes.h"
#include "lib/fmt.h"
#include "lib/xy_chart.h"

/* ---- Constants -------------------------------------------------------- */

#define CURVES_MAX (LOAD_MIXES * PAGE_SIZES_MAX)
/* The idle point, twelve delays, no delay, then up to every other CPU. */
#define POINTS_MAX (PLAT_CPUS_MAX + 14u)

/* ---- Private Data ----------------------------------------------------- */

static struct {
	char name[64];            /* "read, 4 KiB pages" */
	char page[48];            /* "4 KiB pages" */
	unsigned n;
	double gb_per_s[POINTS_MAX], ns[POINTS_MAX];
	unsigned loaders[POINTS_MAX];
} curve[CURVES_MAX];
static unsigned curves;

/* ---- Private Functions ------------------------------------------------ */

/* loaded.svg's document (chart_produce_fn): every curve gathered so far. */
static int produce(svg_write_fn write, void *ctx, const void *arg)
{
	static struct svg_xy_series series[CURVES_MAX];
	struct svg_xy_chart chart = {
		.title = "memprobe: loaded latency, the chase on CPU 0 against the bandwidth "
			 "other CPUs draw, per mix (loaders' buffers: 4 KiB pages)",
		.x_label = "bandwidth the loaders drew together, GB/s (written lines: "
			   "write-allocate reads not counted)",
		.y_label = "chase latency, ns per load", .tag_label = "loaders",
		.series = series, .nseries = curves,
	};

	(void)arg;
	for (unsigned s = 0; s < curves; s++)
		series[s] = (struct svg_xy_series){ curve[s].name, curve[s].n, curve[s].gb_per_s,
						    curve[s].ns, curve[s].loaders };
	return svg_write_xy_chart(&chart, write, ctx);
}

/* Adds a point to curve s, if it has room. */
static void point_add(unsigned s, double gb_per_s, double ns, unsigned loaders)
{
	if (curve[s].n == POINTS_MAX)
		return;
	curve[s].gb_per_s[curve[s].n] = gb_per_s;
	curve[s].ns[curve[s].n] = ns;
	curve[s].loaders[curve[s].n++] = loaders;
}

/* Puts the idle point (no loader, no bandwidth) first in curve s, if it
   has room. */
static void idle_first(unsigned s, double ns)
{
	if (curve[s].n == POINTS_MAX)
		return;
	for (unsigned k = curve[s].n; k > 0; k--) {
		curve[s].gb_per_s[k] = curve[s].gb_per_s[k - 1];
		curve[s].ns[k] = curve[s].ns[k - 1];
		curve[s].loaders[k] = curve[s].loaders[k - 1];
	}
	curve[s].gb_per_s[0] = 0;
	curve[s].ns[0] = ns;
	curve[s].loaders[0] = 0;
	curve[s].n++;
}

/* ---- Public Functions ------------------------------------------------- */

void loaded_chart_begin(void)
{
	curves = 0;
}

void loaded_chart_add(const char *page_name, const char *variant, double gb_per_s, double ns,
		      unsigned loaders)
{
	char name[64];
	unsigned s;

	if (!mp_strcmp(variant, "idle")) {
		for (s = 0; s < curves; s++)
			if (!mp_strcmp(curve[s].page, page_name))
				idle_first(s, ns);
		return;
	}
	mp_snprintf(name, sizeof name, "%s, %s", variant, page_name);
	for (s = 0; s < curves && mp_strcmp(curve[s].name, name); s++)
		;
	if (s == curves) {
		if (curves == CURVES_MAX)
			return;
		curves++;
		mp_strlcpy(curve[s].name, name, sizeof curve[s].name);
		mp_strlcpy(curve[s].page, page_name, sizeof curve[s].page);
		curve[s].n = 0;
	}
	point_add(s, gb_per_s, ns, loaders);
}

void loaded_chart_finish(void)
{
	chart_file("loaded.svg", produce, 0);
}
