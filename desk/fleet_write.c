/* memprobe fleet: fleet.csv and fleet.html (see fleet.h). The page's
 * tables go through desk/fitted_table.c (lib/table.h), as compare.html's
 * do, and the marked-machines table is printed on the terminal from the
 * same content.
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desk/fitted_table.h"
#include "desk/fleet.h"
#include "lib/csv.h"
#include "lib/fmt.h"
#include "lib/html.h"
#include "desk/desk.h"
#include "lib/bar_chart.h"

/* ---- Constants -------------------------------------------------------- */

#define PATH_LEN 4200
/* Figure columns per table of the page, beside the machine's: lib/table.h
   takes TABLE_MAX_COLUMNS in all. */
#define FIGURES_PER_TABLE (TABLE_MAX_COLUMNS - 1)

/* ---- Private Types ---------------------------------------------------- */

/* The figure names of the kept runs, first seen first: fleet.csv's figure
   columns. */
struct names {
	const char **name;
	size_t n;
};

struct writer {
	struct fleet_run *const *run;   /* kept runs in fleet_order */
	size_t n;
	const struct fleet_summary *s;
	struct names names;
	struct html_out html;
};

/* ---- Private Functions ------------------------------------------------ */

/* An html_write_fn into a FILE (ctx). */
static void write_file(void *ctx, const char *data, size_t len)
{
	fwrite(data, 1, len, ctx);
}

/* OUT/name, created; never over a file already there. NULL with the
   reason on stderr. */
static FILE *create(const char *out, const char *name)
{
	char path[PATH_LEN];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", out, name);
	f = fopen(path, "wx");
	if (!f)
		fprintf(stderr, "memprobe fleet: %s: %s%s\n", path, strerror(errno),
			errno == EEXIST ? " (fleet never overwrites: give another --out OUT)" : "");
	return f;
}

/* Closes f; 0, or -1 with the reason on stderr (a full disk shows here). */
static int finish(FILE *f, const char *out, const char *name)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "memprobe fleet: %s/%s: writing failed: %s\n", out, name,
			strerror(errno));
		return -1;
	}
	printf("%s/%s\n", out, name);
	return 0;
}

/* Every figure name of the kept runs, first seen first. */
static void collect_names(struct writer *w)
{
	size_t cap = 0;

	for (size_t i = 0; i < w->n; i++)
		for (size_t k = 0; k < w->run[i]->nfig; k++) {
			const char *name = w->run[i]->fig[k].name;
			size_t j = 0;

			while (j < w->names.n && strcmp(w->names.name[j], name))
				j++;
			if (j < w->names.n)
				continue;
			if (w->names.n == cap) {
				cap = cap ? cap * 2 : 64;
				w->names.name = desk_must(realloc(w->names.name,
								  cap * sizeof *w->names.name));
			}
			w->names.name[w->names.n++] = name;
		}
}

/* The run's figures that `which` flags (its marked or its doubtful ones)
   in words, "; " between them: "L2 ns 4.81 (+25.3% from the median
   3.84)". Cut to size. */
static void figures_text(const struct fleet_run *r, const unsigned char *which, char *buf,
			 size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < r->nfig && n < size; k++)
		if (which[k])
			n += (size_t)snprintf(buf + n, size - n, "%s%s %.4g (%+.1f%% from the "
					      "median %.4g)", n ? "; " : "", r->fig[k].name,
					      r->fig[k].value, r->off[k], r->median[k]);
}

/* One CSV field, a comma before all but the first. */
static void csv_put(FILE *f, const char *text, int first)
{
	char small[1024], *big = NULL;
	size_t n = csv_field(small, sizeof small, text);

	if (n >= sizeof small) {
		big = desk_must(malloc(n + 1));
		csv_field(big, n + 1, text);
	}
	fprintf(f, "%s%s", first ? "" : ",", big ? big : small);
	free(big);
}

/* A number as a CSV field. */
static void csv_number(FILE *f, const char *fmt, double v)
{
	char text[64];

	snprintf(text, sizeof text, fmt, v);
	csv_put(f, text, 0);
}

/* The identity and run columns of fleet.csv, in order. */
static const char *const csv_fixed[] = {
	"machine_id", "id_from", "manufacturer", "product", "serial", "uuid", "cpu",
	"memory_slots", "memory_devices", "memory_bytes", "memory_sizes", "memory_speeds",
	"platform", "memprobe", "run", "run_folder", "date_time", "verdict", "cpuid_verdicts",
	"cpu_model_runs", "marked", "differs", "doubtful",
};

/* One machine's row of fleet.csv. */
static void csv_row(FILE *f, const struct writer *w, const struct fleet_run *r)
{
	static char figures[CARD_MAX_FIGURES * 96];
	const char *text[] = { r->machine_id, r->id_from, r->manufacturer, r->product, r->serial,
			       r->uuid, r->cpu };

	for (size_t i = 0; i < sizeof text / sizeof *text; i++)
		csv_put(f, text[i], i == 0);
	csv_number(f, "%.0f", r->memory.slots);
	csv_number(f, "%.0f", r->memory.installed);
	csv_number(f, "%.0f", (double)r->memory.bytes);
	csv_put(f, r->memory.sizes, 0);
	csv_put(f, r->memory.speeds, 0);
	csv_put(f, r->platform, 0);
	csv_put(f, r->build, 0);
	csv_put(f, r->name, 0);
	csv_put(f, r->path, 0);
	csv_put(f, r->date_time, 0);
	csv_put(f, r->verdict, 0);
	csv_put(f, r->claims, 0);
	csv_number(f, "%.0f", r->peers);
	csv_number(f, "%.0f", r->nmarked);
	figures_text(r, r->marked, figures, sizeof figures);
	csv_put(f, figures, 0);
	figures_text(r, r->doubtful, figures, sizeof figures);
	csv_put(f, figures, 0);
	for (size_t j = 0; j < w->names.n; j++) {
		int k = fleet_figure(r, w->names.name[j]);

		if (k < 0)
			csv_put(f, "", 0);
		else
			csv_number(f, "%.10g", r->fig[k].value);
	}
	fputc('\n', f);
}

/* fleet.csv: the header, then a row per kept run. */
static int write_csv(const char *out, const struct writer *w)
{
	FILE *f = create(out, "fleet.csv");

	if (!f)
		return -1;
	for (size_t i = 0; i < sizeof csv_fixed / sizeof *csv_fixed; i++)
		csv_put(f, csv_fixed[i], i == 0);
	for (size_t j = 0; j < w->names.n; j++)
		csv_put(f, w->names.name[j], 0);
	fputc('\n', f);
	for (size_t i = 0; i < w->n; i++)
		csv_row(f, w, w->run[i]);
	return finish(f, out, "fleet.csv");
}

/* A paragraph on the page (and, with tty, on the terminal). */
static void say(const struct writer *w, int tty, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(const struct writer *w, int tty, const char *fmt, ...)
{
	char text[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	html_element(&w->html, "p", text);
	if (tty)
		printf("%s\n", text);
}

/* "searched: DIR, DIR" on the page: where the rows came from. */
static void searched(const struct writer *w)
{
	char text[2048];
	struct mp_text t = { text, sizeof text, 0 };

	text[0] = '\0';
	for (size_t i = 0; i < w->s->ndirs; i++)
		mp_append(&t, "%s%s", i ? ", " : "searched: ", w->s->dirs[i]);
	html_element(&w->html, "p", text);
}

/* What was read and how the figures are held against each other. */
static void opening(const struct writer *w)
{
	const struct fleet_summary *s = w->s;
	size_t marked = 0;

	for (size_t i = 0; i < w->n; i++)
		marked += w->run[i]->nmarked > 0;
	searched(w);
	say(w, 1, "%zu run folder%s found, %zu read; %zu %s%s in this page and fleet.csv (%s).",
	    s->found, s->found == 1 ? "" : "s", s->read, s->kept,
	    s->all ? "run" : "machine", s->kept == 1 ? "" : "s", s->all ? "--all: every run read"
	    : "each machine's newest run, by system.json's date_time, else by its folder name");
	say(w, 1, "Each figure of a run's card (rebuilt from its results.csv, as memprobe "
	    "compare does), and its memory's count, size and configured speed (SMBIOS), is held against the median of that figure over the %s of the same "
	    "CPU model (cpu.brand); more than %g%% from it is marked. A figure fewer than %u "
	    "of them have is not compared: with two, the median would be their mean and a gap "
	    "would mark both. %zu marked.",
	    s->all ? "runs" : "machines", s->threshold, FLEET_MEDIAN_MIN, marked);
}

/* The marked machines first: one row per figure off its median. */
static void marked_table(const struct writer *w)
{
	static const char *const header[] = { "machine", "run", "product", "serial", "cpu",
					      "figure", "value", "median", "off" };
	struct fitted_table t;
	size_t rows = 0;

	html_element(&w->html, "h2", "marked machines: the figures that differ");
	printf("\n== marked machines: the figures that differ ==\n");
	fitted_table_init(&t, 9, header, 0x3f);
	for (size_t i = 0; i < w->n; i++) {
		const struct fleet_run *r = w->run[i];

		for (size_t k = 0; k < r->nfig; k++) {
			if (!r->marked[k])
				continue;
			fitted_table_row(&t, 1);
			fitted_table_cell(&t, "%s", r->machine_id);
			fitted_table_cell(&t, "%s", r->name);
			fitted_table_cell(&t, "%s", r->product);
			fitted_table_cell(&t, "%s", r->serial);
			fitted_table_cell(&t, "%s", r->cpu);
			fitted_table_cell(&t, "%s", r->fig[k].name);
			fitted_table_figure(&t, r->fig[k].value, "");
			fitted_table_figure(&t, r->median[k], "");
			fitted_table_cell(&t, "%+.1f%%", r->off[k]);
			rows++;
		}
	}
	if (rows) {
		fitted_table_print(&t, stdout);
		fitted_table_html(&t, &w->html, "each figure more than the threshold from the "
				  "median of its CPU model: off = (value - median) / median");
	} else {
		say(w, 1, "none: every compared figure lies within %g%% of its median.",
		    w->s->threshold);
	}
	fitted_table_free(&t);
}

/* Every machine (marked first): identity, CPU, memory, run, verdict. */
static void machines_table(const struct writer *w)
{
	static const char *const header[] = { "machine", "manufacturer", "product", "serial",
					      "uuid", "cpu", "memory", "speeds (MT/s)",
					      "run", "date_time", "verdict", "CPUID says",
					      "marked" };
	struct fitted_table t;

	html_element(&w->html, "h2", w->s->all ? "runs" : "machines");
	fitted_table_init(&t, 13, header, 0xfff);
	for (size_t i = 0; i < w->n; i++) {
		const struct fleet_run *r = w->run[i];
		char bytes[24];

		mp_format_bytes(bytes, sizeof bytes, r->memory.bytes);
		fitted_table_row(&t, r->nmarked > 0);
		fitted_table_cell(&t, "%s", r->machine_id);
		fitted_table_cell(&t, "%s", r->manufacturer);
		fitted_table_cell(&t, "%s", r->product);
		fitted_table_cell(&t, "%s", r->serial);
		fitted_table_cell(&t, "%s", r->uuid);
		fitted_table_cell(&t, "%s", r->cpu);
		if (r->memory.slots)
			fitted_table_cell(&t, "%s in %u of %u slots (%s)", bytes, r->memory.installed,
					  r->memory.slots, r->memory.sizes);
		else
			fitted_table_cell(&t, "not listed (no SMBIOS memory devices)");
		fitted_table_cell(&t, "%s", r->memory.speeds);
		fitted_table_cell(&t, "%s", r->path);
		fitted_table_cell(&t, "%s", r->date_time);
		fitted_table_cell(&t, "%s", r->verdict);
		fitted_table_cell(&t, "%s", r->claims);
		fitted_table_cell(&t, "%u of %zu", r->nmarked, r->nfig);
	}
	fitted_table_html(&t, &w->html, "identity from system.json's machine (SMBIOS), memory "
			  "from its memory devices (rated/configured speed), the run's verdict "
			  "from report.html, each card level against CPUID's claim; marked: "
			  "figures off the median");
	fitted_table_free(&t);
}

/* The CPU model's median of figure name, or NAN when fewer than FLEET_MEDIAN_MIN of its
   runs have it (fleet_mark left it so on every run). */
static double model_median(const struct writer *w, const char *cpu, const char *name)
{
	for (size_t i = 0; i < w->n; i++) {
		int k = fleet_figure(w->run[i], name);

		if (k >= 0 && !strcmp(w->run[i]->cpu, cpu))
			return w->run[i]->median[k];
	}
	return NAN;
}

/* The first row of a model's figures table: the medians the rows below
   are held against. */
static void median_row(struct fitted_table *t, const struct writer *w, const char *cpu,
		       size_t from, size_t to)
{
	fitted_table_row(t, 0);
	fitted_table_cell(t, "median");
	for (size_t j = from; j < to; j++) {
		double m = model_median(w, cpu, w->names.name[j]);

		fitted_table_cell(t, isnan(m) ? "-" : "%.4g", m);
	}
}

/* One table of figure columns [from, to) for the runs of one CPU model:
   a cell "4.81 !+25.3%" where the figure is marked. */
static void figures_chunk(const struct writer *w, const char *cpu, size_t from, size_t to)
{
	const char *header[TABLE_MAX_COLUMNS];
	struct fitted_table t;
	char caption[256];

	header[0] = "machine";
	for (size_t j = from; j < to; j++)
		header[1 + j - from] = w->names.name[j];
	fitted_table_init(&t, (unsigned)(1 + to - from), header, 1u);
	median_row(&t, w, cpu, from, to);
	for (size_t i = 0; i < w->n; i++) {
		const struct fleet_run *r = w->run[i];

		if (strcmp(r->cpu, cpu))
			continue;
		fitted_table_row(&t, r->nmarked > 0);
		fitted_table_cell(&t, "%s", r->machine_id);
		for (size_t j = from; j < to; j++) {
			int k = fleet_figure(r, w->names.name[j]);

			if (k < 0)
				fitted_table_cell(&t, "-");
			else if (r->marked[k])
				fitted_table_cell(&t, "%.4g !%+.1f%%", r->fig[k].value, r->off[k]);
			else if (r->doubtful[k])
				fitted_table_cell(&t, "%.4g *%+.1f%%", r->fig[k].value, r->off[k]);
			else
				fitted_table_cell(&t, "%.4g", r->fig[k].value);
		}
	}
	snprintf(caption, sizeof caption, "%s: figures %zu to %zu of %zu, the model's median "
		 "first ('-': fewer than %u have it); '!': off the median by more than %g%%, "
		 "'*': as far off but starred on its card (it could move between runs: not "
		 "marked), '-': not on this card", cpu, from + 1, to, w->names.n,
		 FLEET_MEDIAN_MIN, w->s->threshold);
	fitted_table_html(&t, &w->html, caption);
	fitted_table_free(&t);
}

/* 1 when run i is the first of its CPU model in w's order: where the
   model's tables and charts are written. */
static int first_of_model(const struct writer *w, size_t i)
{
	for (size_t first = 0; first < i; first++)
		if (!strcmp(w->run[first]->cpu, w->run[i]->cpu))
			return 0;
	return 1;
}

/* Per CPU model, every run's figures, in tables of at most
   FIGURES_PER_TABLE figure columns. */
static void figures_tables(const struct writer *w)
{
	html_element(&w->html, "h2", "figures, by CPU model");
	say(w, 0, "sizes in KiB, latencies in ns, bandwidth in GB/s, TLB miss costs in "
	    "cycles, as memprobe compare's card table names them; then the memory SMBIOS "
	    "lists: devices installed, GiB, the lowest configured MT/s.");
	for (size_t i = 0; i < w->n; i++) {
		if (!first_of_model(w, i))
			continue;   /* its model's tables are written */
		for (size_t j = 0; j < w->names.n; j += FIGURES_PER_TABLE)
			figures_chunk(w, w->run[i]->cpu, j,
				      j + FIGURES_PER_TABLE < w->names.n ? j + FIGURES_PER_TABLE
				      : w->names.n);
	}
}

/* One chart of figure `name` across the runs of CPU model cpu: a bar per
   run, marked ones in their own colour, the model's median as a line
   (none from fewer than FLEET_MEDIAN_MIN). None when no run has it. */
static void figure_chart(const struct writer *w, const char *cpu, const char *name,
			 struct svg_bar *bar)
{
	char title[256];
	size_t n = 0, have = 0;

	for (size_t i = 0; i < w->n; i++) {
		const struct fleet_run *r = w->run[i];
		int k = fleet_figure(r, name);

		if (strcmp(r->cpu, cpu))
			continue;
		bar[n++] = (struct svg_bar){ r->machine_id, k < 0 ? NAN : r->fig[k].value,
					     k >= 0 && r->marked[k] };
		have += k >= 0;
	}
	if (!have)
		return;
	snprintf(title, sizeof title, "%s: %s", cpu, name);
	svg_write_bar_chart(&(struct svg_bar_chart){ title, name, bar, n,
						     model_median(w, cpu, name), "median" },
			    html_svg_write, (void *)&w->html);
}

/* Per CPU model, one chart per figure across its runs. */
static void figure_charts(const struct writer *w)
{
	struct svg_bar *bar = desk_must(calloc(w->n ? w->n : 1, sizeof *bar));

	html_element(&w->html, "h2", "charts, by figure");
	say(w, 0, "each figure across the %s of a CPU model, the model's median dashed; a "
	    "marked figure's bar in orange with '!'; '-' where a card has none.",
	    w->s->all ? "runs" : "machines");
	for (size_t i = 0; i < w->n; i++)
		if (first_of_model(w, i))
			for (size_t j = 0; j < w->names.n; j++)
				figure_chart(w, w->run[i]->cpu, w->names.name[j], bar);
	free(bar);
}

/* The run folders that could not be read, each with why. */
static void skipped_list(const struct writer *w)
{
	if (!w->s->skipped->n)
		return;
	html_element(&w->html, "h2", "folders left out");
	html_raw(&w->html, "<ul>\n");
	for (size_t i = 0; i < w->s->skipped->n; i++)
		html_element(&w->html, "li", w->s->skipped->item[i]);
	html_raw(&w->html, "</ul>\n");
}

/* fleet.html: the opening lines, the marked machines, every machine, the
   figures by CPU model and their charts, what was left out. */
static int write_html(const char *out, struct writer *w)
{
	FILE *f = create(out, "fleet.html");

	if (!f)
		return -1;
	w->html = (struct html_out){ write_file, f };
	html_page_begin(&w->html, "memprobe fleet");
	opening(w);
	marked_table(w);
	machines_table(w);
	figures_tables(w);
	figure_charts(w);
	skipped_list(w);
	html_page_end(&w->html);
	return finish(f, out, "fleet.html");
}

/* ---- Public Functions ------------------------------------------------- */

int fleet_write(const char *out, struct fleet_run *const *sorted, size_t n,
		const struct fleet_summary *s)
{
	struct writer w = { sorted, n, s, { NULL, 0 }, { NULL, NULL } };
	int rc;

	collect_names(&w);
	rc = write_csv(out, &w);
	if (!rc)
		rc = write_html(out, &w);
	free(w.names.name);
	return rc;
}
