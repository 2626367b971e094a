/* The compare subcommand (see compare.h).
 *
 * Rows match across runs by what was measured (every identity column:
 * probe, variant, page size, working set, cpu, peer_cpu, loaders, chases; see
 * run_match.h), never by position, so runs of different sweeps still line
 * up: a size that only some runs have gets its own row, marked, with "-"
 * where a run has none.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/host.h"
#include "desk/compare.h"
#include "desk/compare_chart.h"
#include "desk/run_folder.h"
#include "desk/run_match.h"
#include "desk/fitted_table.h"
#include "lib/fmt.h"
#include "lib/html.h"
#include "run/card.h"

/* ---- Constants -------------------------------------------------------- */

#define MAX_RUNS 26          /* named A to Z */
#define MAX_PROBES 32
#define PATH_MAX_LEN 4200

/* ---- Private Types ---------------------------------------------------- */

struct comparison {
	struct run_folder run[MAX_RUNS];
	unsigned nruns;
	const char *probe[MAX_PROBES];   /* every probe of any run, first seen first */
	unsigned nprobes;
	const char *out_dir;             /* NULL: print only */
	FILE *page;
	struct html_out html;
};

/* ---- Private Functions ------------------------------------------------ */

static void usage(FILE *to)
{
	fprintf(to,
		"usage: memprobe compare RUN_A RUN_B [RUN_C ...] [--out DIR]\n"
		"\n"
		"Lays run folders (each holding a run's results.csv and system.json, from\n"
		"any machine, bare metal or Linux) side by side: per probe, each run's ns\n"
		"and cycles (bandwidth: GB/s and bytes per cycle) with the ratio to the\n"
		"first run's and its geometric mean; each run's cache and TLB levels.\n"
		"Rows match by probe, variant, page size, working set, cpu, peer_cpu,\n"
		"loaders and chases; a row that not every run has is marked '*'. With --out DIR (made if\n"
		"needed), writes DIR/compare.html, DIR/compare.svg (latency: one curve per\n"
		"run and page size) and DIR/compare-PROBE.svg for each other probe with\n"
		"working-set sizes; files already there are never overwritten.\n");
}

/* An svg_write_fn and html_write_fn into a FILE (ctx). */
static void write_file(void *ctx, const char *data, size_t len)
{
	fwrite(data, 1, len, ctx);
}

/* "4 KiB", or "-" for 0 (no page size, no working set). */
static void bytes_text(char *buf, size_t size, uint64_t bytes)
{
	if (bytes)
		mp_format_bytes(buf, size, bytes);
	else
		snprintf(buf, size, "-");
}

/* The probe's place in c->probe[], or -1 when not there yet. */
static int probe_index(const struct comparison *c, const char *probe)
{
	for (unsigned p = 0; p < c->nprobes; p++)
		if (!strcmp(c->probe[p], probe))
			return (int)p;
	return -1;
}

/* Whether any of the run's rows is the probe's. */
static int run_has_probe(const struct run_folder *r, const char *probe)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->row[i].probe, probe))
			return 1;
	return 0;
}

/* 0, or -1 with the message printed when no probe is in every run. */
static int find_probes(struct comparison *c)
{
	unsigned common = 0;

	for (unsigned r = 0; r < c->nruns; r++)
		for (size_t i = 0; i < c->run[r].nrows; i++)
			if (probe_index(c, c->run[r].row[i].probe) < 0 && c->nprobes < MAX_PROBES)
				c->probe[c->nprobes++] = c->run[r].row[i].probe;
	for (unsigned p = 0; p < c->nprobes; p++) {
		unsigned in = 0;

		for (unsigned r = 0; r < c->nruns; r++)
			in += run_has_probe(&c->run[r], c->probe[p]);
		common += in == c->nruns;
	}
	if (common)
		return 0;
	fprintf(stderr, "memprobe compare: no probe ran in every run, so nothing compares:\n");
	for (unsigned r = 0; r < c->nruns; r++) {
		fprintf(stderr, "  %c %s:", c->run[r].name, c->run[r].path);
		for (unsigned p = 0; p < c->nprobes; p++)
			if (run_has_probe(&c->run[r], c->probe[p]))
				fprintf(stderr, " %s", c->probe[p]);
		fprintf(stderr, "\n");
	}
	return -1;
}

/* A section heading, on the terminal and on the page. */
static void section(struct comparison *c, const char *title)
{
	printf("\n== %s ==\n", title);
	if (c->page)
		html_element(&c->html, "h2", title);
}

/* A line of explanation, on the terminal and on the page. */
static void note(struct comparison *c, const char *text)
{
	printf("  %s\n", text);
	if (c->page)
		html_element(&c->html, "p", text);
}

/* The table on the terminal and on the page, then freed. */
static void show_table(struct comparison *c, struct fitted_table *t, const char *caption)
{
	fitted_table_print(t, stdout);
	if (c->page)
		fitted_table_html(t, &c->html, caption);
	fitted_table_free(t);
}

/* A note for each run whose chases' median clock stands over
   CARD_CLOCK_MOVE from run A's: its ns figures stand apart from A's by as
   much at the same cycles, which a ratio of ns alone hides. */
static void clocks_note(struct comparison *c, const double *clock)
{
	char text[256];

	for (unsigned r = 1; r < c->nruns; r++) {
		double ratio = clock[0] > 0 && clock[r] > 0 ? clock[r] / clock[0] : 1.0;

		if (ratio <= 1.0 + CARD_CLOCK_MOVE && ratio >= 1.0 / (1.0 + CARD_CLOCK_MOVE))
			continue;
		snprintf(text, sizeof text, "run %c's core clock (its chases' median) ran %.2f GHz "
			 "against run A's %.2f (%.2fx): its ns read about %.2fx A's at the same "
			 "cycles; its cycles rows compare the caches.", c->run[r].name, clock[r],
			 clock[0], ratio, 1.0 / ratio);
		note(c, text);
	}
}

/* The runs' cards side by side: a row per figure of any card (matched by
   its name: "L2 KiB", "L1 DTLB 4 KiB entries"), a column per run, and each
   later run's figure over the first's. */
static void cards_table(struct comparison *c)
{
	static struct card_figure fig[MAX_RUNS][CARD_MAX_FIGURES];
	static const char *names[MAX_RUNS * CARD_MAX_FIGURES];
	static struct card card;
	static double clock[MAX_RUNS];
	const char *header[TABLE_MAX_COLUMNS];
	char head[MAX_RUNS][2][8];
	size_t nfig[MAX_RUNS], nnames = 0;
	unsigned ncols = 0;
	struct fitted_table t;

	section(c, "summary: the runs' cards side by side");
	header[ncols++] = "figure";
	for (unsigned r = 0; r < c->nruns; r++) {
		run_folder_card(&c->run[r], &card);
		clock[r] = card.clock_p50_ghz;
		nfig[r] = card_figures(&card, fig[r], CARD_MAX_FIGURES);
		for (size_t i = 0; i < nfig[r]; i++) {
			size_t k = 0;
			while (k < nnames && strcmp(names[k], fig[r][i].name))
				k++;
			if (k == nnames)
				names[nnames++] = fig[r][i].name;
		}
		if (ncols + 2 > TABLE_MAX_COLUMNS)
			continue;
		snprintf(head[r][0], sizeof head[r][0], "%c", c->run[r].name);
		snprintf(head[r][1], sizeof head[r][1], "%c/A", c->run[r].name);
		header[ncols++] = head[r][0];
		if (r)
			header[ncols++] = head[r][1];
	}
	fitted_table_init(&t, ncols, header, 1u);
	for (size_t k = 0; k < nnames; k++) {
		const struct card_figure *first = 0;
		unsigned have = 0;

		for (unsigned r = 0; r < c->nruns; r++)
			for (size_t i = 0; i < nfig[r]; i++)
				have += !strcmp(fig[r][i].name, names[k]);
		fitted_table_row(&t, have != c->nruns);
		fitted_table_cell(&t, "%s", names[k]);
		for (unsigned r = 0; r < c->nruns && t.filled < ncols; r++) {
			const struct card_figure *f = 0;

			for (size_t i = 0; i < nfig[r] && !f; i++)
				if (!strcmp(fig[r][i].name, names[k]))
					f = &fig[r][i];
			if (!r)
				first = f;
			if (f)
				fitted_table_figure(&t, f->value, f->starred ? "*" : "");
			else
				fitted_table_cell(&t, "-");
			if (!r)
				continue;
			if (f && first && first->value > 0)
				fitted_table_cell(&t, "%.2fx", f->value / first->value);
			else
				fitted_table_cell(&t, "-");
		}
	}
	show_table(c, &t, "the runs' cards (each run's summary.txt, rebuilt from its rows): a "
		   "figure per row, its ratio to run A");
	note(c, "sizes in KiB, latencies in ns, bandwidth in GB/s, TLB miss costs in cycles, the clock in GHz; "
		"'*' before a row: a figure not every run's card has; '*' after a figure: "
		"starred on its run's card (another run may read it over 10% otherwise).");
	clocks_note(c, clock);
}

/* Which run is which: letter, folder, platform, CPU, build, rows. */
static void runs_table(struct comparison *c)
{
	static const char *const header[] = { "run", "folder", "platform", "cpu", "memprobe",
					      "rows" };
	struct fitted_table t;

	section(c, "runs");
	fitted_table_init(&t, 6, header, 0x1f);
	for (unsigned r = 0; r < c->nruns; r++) {
		const struct run_folder *run = &c->run[r];

		fitted_table_row(&t, !run->has_system);
		fitted_table_cell(&t, "%c", run->name);
		fitted_table_cell(&t, "%s", run->path);
		fitted_table_cell(&t, "%s", run->platform);
		fitted_table_cell(&t, "%s", run->cpu);
		fitted_table_cell(&t, "%s", run->build);
		if (run->skipped_rows)
			fitted_table_cell(&t, "%zu (%u malformed skipped)", run->nrows, run->skipped_rows);
		else
			fitted_table_cell(&t, "%zu", run->nrows);
	}
	show_table(c, &t, "the runs, in the order given: ratios are to run A");
	if (c->run[0].nrows && c->nruns)
		note(c, "ns: the run's own figure (best trial); cycles: at that run's measured "
			"core clock; X/A: run X's ns over run A's (bandwidth: GB/s and bytes per "
			"cycle, X/A of GB/s). Rows match on probe, variant, page size, working "
			"set, cpu, peer cpu, loaders and chases. '*': a row not every run has (a size or "
			"page size outside the other sweeps), '-' where a run has none.");
}

/* Which identity columns past working set the probe's keys give: bit 0
   cpu, bit 1 peer_cpu, bit 2 loaders, bit 3 chases. */
static unsigned identity_columns(const struct run_match *m)
{
	unsigned have = 0;

	for (size_t k = 0; k < m->nkeys; k++)
		have |= (unsigned)m->key[k].cpu.given | (unsigned)m->key[k].peer_cpu.given << 1 |
			(unsigned)m->key[k].loaders.given << 2 |
			(unsigned)m->key[k].chases.given << 3;
	return have;
}

/* An optional count's cell: its value, or "-". */
static void count_cell(struct fitted_table *t, struct optional_count v)
{
	fitted_table_cell(t, v.given ? "%u" : "-", v.value);
}

/* The table's last row: each later run's geometric mean ratio to run A. */
static void geomean_row(struct comparison *c, struct fitted_table *t, const struct run_match *m,
			unsigned nid, int rate)
{
	fitted_table_row(t, 0);
	fitted_table_cell(t, "geometric mean");
	for (unsigned i = 1; i < 3 + nid; i++)
		fitted_table_cell(t, "%s", "");
	for (unsigned r = 0; r < c->nruns && t->filled + 3 < t->ncols; r++) {
		size_t n;
		double g = run_match_geomean(m, r, rate, &n);

		fitted_table_cell(t, "%s", "");
		fitted_table_cell(t, "%s", "");
		if (r)
			fitted_table_cell(t, n ? "%.2fx (%zu)" : "-", g, n);
	}
	fitted_table_cell(t, "%s", "");
}

/* Per probe: one row per thing measured, each run's figure (ns and cycles;
   GB/s and bytes per cycle for bandwidth) and each later run's over the
   first's; last, each later run's geometric mean ratio. */
static void probe_table(struct comparison *c, const char *probe)
{
	static const char *const id_name[] = { "cpu", "peer cpu", "loaders", "chases" };
	const char *header[TABLE_MAX_COLUMNS];
	char names[MAX_RUNS][3][16], caption[160];
	unsigned ncols = 0, nid = 0, ids;
	struct fitted_table t;
	struct run_match m;
	int rate;

	run_match_build(&m, c->run, c->nruns, probe);
	ids = identity_columns(&m);
	rate = run_match_rate(&m);
	header[ncols++] = "variant";
	header[ncols++] = "pages";
	header[ncols++] = "working set";
	for (unsigned i = 0; i < 4; i++)
		if (ids >> i & 1) {
			header[ncols++] = id_name[i];
			nid++;
		}
	for (unsigned r = 0; r < c->nruns && ncols + 3 <= TABLE_MAX_COLUMNS - 1; r++) {
		snprintf(names[r][0], sizeof names[r][0], "%c %s", c->run[r].name,
			 rate ? "GB/s" : "ns");
		snprintf(names[r][1], sizeof names[r][1], "%c %s", c->run[r].name,
			 rate ? "B/cycle" : "cycles");
		snprintf(names[r][2], sizeof names[r][2], "%c/A", c->run[r].name);
		header[ncols++] = names[r][0];
		header[ncols++] = names[r][1];
		if (r)
			header[ncols++] = names[r][2];
	}
	header[ncols++] = "only in";
	fitted_table_init(&t, ncols, header, 1u | 1u << (ncols - 1));
	for (size_t k = 0; k < m.nkeys; k++) {
		const struct run_key *key = &m.key[k];
		const struct run_row *first = run_match_row(&m, k, 0);
		char page[24], ws[24], only[MAX_RUNS + 1];
		unsigned have = 0;

		for (unsigned r = 0; r < c->nruns; r++)
			if (run_match_row(&m, k, r))
				only[have++] = c->run[r].name;
		only[have] = '\0';
		fitted_table_row(&t, have != c->nruns);
		bytes_text(page, sizeof page, key->page_shift ? 1ull << key->page_shift : 0);
		bytes_text(ws, sizeof ws, key->working_set_bytes);
		fitted_table_cell(&t, "%s", key->variant);
		fitted_table_cell(&t, "%s", page);
		fitted_table_cell(&t, "%s", ws);
		if (ids & 1)
			count_cell(&t, key->cpu);
		if (ids & 2)
			count_cell(&t, key->peer_cpu);
		if (ids & 4)
			count_cell(&t, key->loaders);
		if (ids & 8)
			count_cell(&t, key->chases);
		for (unsigned r = 0; r < c->nruns && t.filled + 3 < ncols; r++) {
			const struct run_row *row = run_match_row(&m, k, r);
			double fig = row ? run_match_figure(row, rate) : NAN;
			double base = first ? run_match_figure(first, rate) : NAN;

			if (rate) {
				fitted_table_cell(&t, isnan(fig) ? "-" : "%.3f", fig);
				fitted_table_cell(&t, row && row->bytes_per_cycle.given ? "%.3f" : "-",
						  row ? row->bytes_per_cycle.value : 0.0);
			} else {
				fitted_table_cell(&t, row ? "%.3f" : "-", row ? row->ns : 0.0);
				fitted_table_cell(&t, row ? "%.2f" : "-", row ? row->cycles : 0.0);
			}
			if (!r)
				continue;
			if (fig > 0 && base > 0)
				fitted_table_cell(&t, "%.2fx", fig / base);
			else
				fitted_table_cell(&t, "-");
		}
		fitted_table_cell(&t, "%s", have == c->nruns ? "" : only);
	}
	if (c->nruns > 1)
		geomean_row(c, &t, &m, nid, rate);
	run_match_free(&m);
	snprintf(caption, sizeof caption, "%s: each run's figures, ratio of %s to run A", probe,
		 rate ? "GB/s" : "ns");
	show_table(c, &t, caption);
	note(c, rate ? "X/A: run X's GB/s over run A's (above 1: X moved more); geometric "
		"mean: of X/A over the rows both runs have (their count in brackets)."
		: "X/A: run X's ns over run A's (above 1: X took longer); geometric mean: of "
		"X/A over the rows both runs have (their count in brackets).");
}

/* DIR/name, created: never over a file already there. */
static FILE *create(const struct comparison *c, const char *name)
{
	char path[PATH_MAX_LEN];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", c->out_dir, name);
	f = fopen(path, "wx");
	if (!f)
		fprintf(stderr, "memprobe compare: %s: %s%s\n", path, strerror(errno),
			errno == EEXIST ? " (compare never overwrites: give another --out DIR)" : "");
	return f;
}

/* The chart into its file and inline into the page, or, when it would
   have nothing to draw, no file and a note; 0, or 2 when the file cannot
   be written. */
static int chart(struct comparison *c, const char *probe)
{
	char name[96], text[384];
	FILE *f;

	if (!c->out_dir)
		return 0;
	compare_chart_name(name, sizeof name, probe);
	f = create(c, name);
	if (!f)
		return 2;
	if (compare_chart(c->run, c->nruns, probe, write_file, f) != 0) {
		/* A chart with nothing on it is no chart: the file goes. */
		fclose(f);
		snprintf(text, sizeof text, "%s/%s", c->out_dir, name);
		remove(text);
		snprintf(text, sizeof text, "%s: no chart: no row lies on a working-set curve "
			 "(none has a working-set size, or each is told apart by its CPU, "
			 "loaders or chases: the table holds them), so %s is not written", probe, name);
		note(c, text);
		return 0;
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "memprobe compare: %s/%s: %s\n", c->out_dir, name, strerror(errno));
		return 2;
	}
	printf("  chart: %s/%s\n", c->out_dir, name);
	html_raw(&c->html, "<figure>\n");
	compare_chart(c->run, c->nruns, probe, html_svg_write, &c->html);
	html_element(&c->html, "figcaption", name);
	html_raw(&c->html, "</figure>\n");
	return 0;
}

/* The levels table's word for a level's kind. */
static const char *level_kind_text(enum level_kind k)
{
	switch (k) {
	case LEVEL_CACHE: return "cache";
	case LEVEL_TLB: return "TLB";
	case LEVEL_EDGE: return "edge";
	case LEVEL_TOP: return "beyond";
	}
	return "?";
}

/* Each run's levels as its analysis finds them in its own rows. */
static void levels_table(struct comparison *c)
{
	static const char *const header[] = { "run", "level", "kind", "pages", "size",
					      "entries", "ns", "cycles", "+ns", "+cycles" };
	struct fitted_table t;

	section(c, "levels: each run's caches and TLBs, read from its latency and tlb rows");
	fitted_table_init(&t, 10, header, 0x7);
	for (unsigned r = 0; r < c->nruns; r++) {
		const struct hierarchy *h = &c->run[r].analysis->h;

		if (!h->nlevels) {
			fitted_table_row(&t, 1);
			fitted_table_cell(&t, "%c", c->run[r].name);
			fitted_table_cell(&t, "none found");
			continue;
		}
		for (size_t i = 0; i < h->nlevels; i++) {
			const struct level *l = &h->level[i];
			char page[24], size[24];

			bytes_text(page, sizeof page, 1ull << l->page_shift);
			bytes_text(size, sizeof size, l->size_bytes);
			fitted_table_row(&t, 0);
			fitted_table_cell(&t, "%c", c->run[r].name);
			fitted_table_cell(&t, "%s", l->name);
			fitted_table_cell(&t, "%s", level_kind_text(l->kind));
			fitted_table_cell(&t, "%s", page);
			fitted_table_cell(&t, "%s%s", l->kind == LEVEL_TOP ? "from " : "", size);
			fitted_table_cell(&t, l->entries ? "%llu" : "-", (unsigned long long)l->entries);
			fitted_table_cell(&t, "%.2f", l->ns);
			fitted_table_cell(&t, l->cycles > 0 ? "%.2f" : "-", l->cycles);
			/* The first level has nothing below it to rise over. */
			fitted_table_cell(&t, i ? "%+.2f" : "-", l->increase_ns);
			fitted_table_cell(&t, i && l->cycles > 0 ? "%+.2f" : "-", l->increase_cycles);
		}
	}
	show_table(c, &t, "levels: size = capacity or TLB reach; ns and cycles: the level's "
		   "own plateau; +: over the level below");
	note(c, "docs/METHOD.md says how a level is read from a curve; '*': a run whose rows "
		"show no level (no latency or tlb rows, or no edge in them).");
}

/* Reads the command line and every run folder it names, in order.
   0, or 2 with the reason on stderr (the first bad folder stops it). */
static int parse_args(struct comparison *c, int argc, char **argv)
{
	char why[PATH_MAX_LEN + 256];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			exit(0);
		}
		if (!strcmp(argv[i], "--out")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "memprobe compare: --out needs a folder\n");
				return 2;
			}
			c->out_dir = argv[++i];
			continue;
		}
		if (argv[i][0] == '-') {
			fprintf(stderr, "memprobe compare: unknown option %s (memprobe compare --help)\n",
				argv[i]);
			return 2;
		}
		if (c->nruns == MAX_RUNS) {
			fprintf(stderr, "memprobe compare: at most %d run folders\n", MAX_RUNS);
			return 2;
		}
		if (run_folder_read(&c->run[c->nruns], argv[i], (char)('A' + c->nruns), why,
				    sizeof why)) {
			fprintf(stderr, "memprobe compare: %s\n", why);
			run_folder_free(&c->run[c->nruns]);
			return 2;
		}
		c->nruns++;
	}
	if (c->nruns < 2) {
		fprintf(stderr, "memprobe compare: give two run folders or more (%u given)\n",
			c->nruns);
		usage(stderr);
		return 2;
	}
	return 0;
}

/* With --out: makes DIR if needed and starts DIR/compare.html, never
   over an existing one. 0, or 2 with the reason on stderr. */
static int open_page(struct comparison *c)
{
	if (!c->out_dir) {
		printf("(no --out DIR: compare.html and the charts are not written)\n");
		return 0;
	}
	if (host_make_path(c->out_dir) != 0) {
		fprintf(stderr, "memprobe compare: %s: %s\n", c->out_dir, strerror(errno));
		return 2;
	}
	c->page = create(c, "compare.html");
	if (!c->page)
		return 2;
	c->html = (struct html_out){ write_file, c->page };
	html_page_begin(&c->html, "memprobe compare");
	return 0;
}

/* Ends and closes the page; 0, or 2 when writing it failed. */
static int close_page(struct comparison *c)
{
	if (!c->page)
		return 0;
	html_page_end(&c->html);
	if (fclose(c->page) != 0) {
		fprintf(stderr, "memprobe compare: %s/compare.html: %s\n", c->out_dir, strerror(errno));
		return 2;
	}
	printf("\npage: %s/compare.html\n", c->out_dir);
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int compare_main(int argc, char **argv)
{
	static struct comparison c;
	int rc;

	memset(&c, 0, sizeof c);  /* a second call (the unit tests) starts afresh */
	rc = parse_args(&c, argc, argv);

	if (!rc && find_probes(&c))
		rc = 2;
	if (!rc)
		rc = open_page(&c);
	if (!rc) {
		cards_table(&c);
		runs_table(&c);
		for (unsigned p = 0; p < c.nprobes && !rc; p++) {
			section(&c, c.probe[p]);
			probe_table(&c, c.probe[p]);
			rc = chart(&c, c.probe[p]);
		}
		levels_table(&c);
		if (close_page(&c))
			rc = 2;
	}
	for (unsigned r = 0; r < c.nruns; r++)
		run_folder_free(&c.run[r]);
	return rc;
}
