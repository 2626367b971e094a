/* The c2c matrix, its report table and c2c.svg (see c2c_chart.h). */

#include "probes/c2c_chart.h"
#include "results/chart_file.h"
#include "results/report_table.h"
#include "results/results.h"
#include "lib/heatmap.h"
#include "probes/c2c_settings.h"

/* ---- Constants -------------------------------------------------------- */

/* Wider than this, the text table would wrap: c2c.svg and results.csv
   still hold every pair. */
#define TABLE_CPUS_MAX 16u

/* ---- Private Functions ------------------------------------------------ */

/* Where logical CPU `cpu` stands in the matrix; -1 when not taking part. */
static int position(const struct c2c_matrix *m, unsigned cpu)
{
	for (unsigned i = 0; i < m->n; i++)
		if (m->cpu[i] == cpu)
			return (int)i;
	return -1;
}

/* The matrix as a table, a row and a column per CPU, or a line pointing
   at the files when it is too wide. */
static void print_matrix(const struct c2c_matrix *m)
{
	static struct table_column column[TABLE_CPUS_MAX + 1];
	static char name[TABLE_CPUS_MAX][12];
	static struct table matrix_table = { column, 0, "  ", NULL };

	if (m->n > TABLE_CPUS_MAX) {
		report_printf("c2c: %u CPUs: the matrix is in c2c.svg and results.csv\n", m->n);
		return;
	}
	report_printf("c2c: one-way ns, CPU by CPU (-- : not measured)\n");
	column[0] = (struct table_column){ "cpu", NULL, 3, 0, 0 };
	for (unsigned j = 0; j < m->n; j++) {
		mp_snprintf(name[j], sizeof name[j], "%u", m->cpu[j]);
		column[j + 1] = (struct table_column){ name[j], NULL, 7, 0, 0 };
	}
	matrix_table.ncols = m->n + 1;
	report_table_begin(&matrix_table, "c2c: one-way ns, CPU by CPU (-- : not measured)", NULL);
	for (unsigned i = 0; i < m->n; i++) {
		report_table_cell("%u", m->cpu[i]);
		for (unsigned j = 0; j < m->n; j++) {
			double v = m->ns[i * m->n + j];

			if (v == v)
				report_table_cell("%.1f", v);
			else
				report_table_cell("%s", i == j ? "." : "--");
		}
		report_table_row(0);
	}
	report_table_end();
}

/* c2c.svg's document (chart_produce_fn; arg: the matrix). */
static int produce_heatmap(svg_write_fn write, void *ctx, const void *arg)
{
	const struct c2c_matrix *m = arg;
	struct svg_heatmap h = {
		.title = "memprobe: core-to-core latency, one way (half the round trip)",
		.axis_label = "logical CPU", .unit = "ns", .n = m->n, .label = m->cpu,
		.value = m->ns,
	};

	return svg_write_heatmap(&h, write, ctx);
}

/* Whether c2c.cpus names this logical CPU. */
static int c2c_cpu_named(const struct config *c, unsigned cpu)
{
	return (C2C_SETTINGS(c)->cpus[cpu / 64] >> (cpu % 64)) & 1u;
}

/* ---- Public Functions ------------------------------------------------- */

unsigned c2c_cpus_missing(const struct config *c, unsigned cpu_count)
{
	unsigned beyond = 0, all = 1;

	for (unsigned cpu = 0; cpu < CONFIG_CPUS_MAX; cpu++) {
		if (!c2c_cpu_named(c, cpu))
			all = 0;
		else if (cpu >= cpu_count)
			beyond++;
	}
	return all ? 0 : beyond;
}

unsigned c2c_matrix_init(struct c2c_matrix *m, const struct config *c, unsigned cpu_count)
{
	unsigned missing = c2c_cpus_missing(c, cpu_count);

	m->n = 0;
	for (unsigned cpu = 0; cpu < cpu_count && cpu < CONFIG_CPUS_MAX; cpu++)
		if (c2c_cpu_named(c, cpu))
			m->cpu[m->n++] = cpu;
	if (missing)
		report_printf("c2c: %u CPUs of c2c.cpus do not exist here (CPUs 0-%u): nothing "
			      "measured\n", missing, cpu_count - 1);
	m->ns = m->n > 1 && !missing ? plat_alloc(sizeof(double) * m->n * m->n) : 0;
	for (unsigned i = 0; m->ns && i < m->n * m->n; i++)
		m->ns[i] = 0.0 / 0.0;
	return missing;
}

void c2c_matrix_set(struct c2c_matrix *m, unsigned a, unsigned b, double ns)
{
	int i = position(m, a), j = position(m, b);

	if (!m->ns || i < 0 || j < 0)
		return;
	m->ns[(unsigned)i * m->n + (unsigned)j] = ns;
	m->ns[(unsigned)j * m->n + (unsigned)i] = ns;
}

void c2c_matrix_finish(struct c2c_matrix *m)
{
	if (!m->ns) {
		if (m->n > 1)
			report_printf("c2c: no memory for the matrix: no table, no c2c.svg\n");
		return;
	}
	print_matrix(m);
	chart_file("c2c.svg", produce_heatmap, m);
	plat_free(m->ns, sizeof(double) * m->n * m->n);
	m->ns = 0;
}
