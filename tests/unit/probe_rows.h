/* Runs one probe through the real host platform (buffers, clock, timed
 * sections, files) and reads back the rows it wrote to results.csv, so the
 * probe tests assert on what a user's results.csv would hold.
 */
#ifndef MEMPROBE_PROBE_ROWS_H
#define MEMPROBE_PROBE_ROWS_H

#include <ftw.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"
#include "probes/config.h"
#include "probes/platform.h"
#include "probes/results.h"

#define PROBE_ROWS_MAX 128

struct csv_row {
	char probe[32], variant[48];
	uint64_t page_size, working_set;
	double ns, cycles;
	unsigned trials;
	double spread;
	/* The last two columns, trial_form and stopped_by: plain words, so
	   read from the line's end. */
	char trial_form[16], stopped_by[16];
};

struct probe_rows {
	int rc;                   /* what the probe returned */
	int count;
	struct csv_row row[PROBE_ROWS_MAX];
	const char *chart;        /* set before the run: a chart file to inspect
				     (callers keep the struct static, so it
				     starts NULL where they set nothing) */
	int chart_well_formed;    /* xmllint --noout accepted it */
	int chart_curves;         /* its <polyline class="curve"> count, -1: no file */
};

static int probe_rows_remove(const char *path, const struct stat *st, int flag,
			     struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

/* The first eight CSV fields; the last two (pages_verified, timer) may be
   quoted and are not needed here. */
static int probe_rows_parse(const char *line, struct csv_row *r)
{
	char copy[1024], *field[8], *p = copy;
	int n = 0;

	snprintf(copy, sizeof copy, "%s", line);
	{
		char *last = strrchr(copy, ','), *before;

		r->trial_form[0] = r->stopped_by[0] = '\0';
		if (last) {
			snprintf(r->stopped_by, sizeof r->stopped_by, "%s", last + 1);
			r->stopped_by[strcspn(r->stopped_by, "\r\n")] = '\0';
			*last = '\0';
			before = strrchr(copy, ',');
			if (before)
				snprintf(r->trial_form, sizeof r->trial_form, "%s", before + 1);
			*last = ',';
		}
	}
	while (n < 8 && p) {
		field[n++] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
	}
	if (n < 8)
		return -1;
	snprintf(r->probe, sizeof r->probe, "%s", field[0]);
	snprintf(r->variant, sizeof r->variant, "%s", field[1]);
	r->page_size = strtoull(field[2], NULL, 10);
	r->working_set = strtoull(field[3], NULL, 10);
	r->ns = strtod(field[4], NULL);
	r->cycles = strtod(field[5], NULL);
	r->trials = (unsigned)strtoul(field[6], NULL, 10);
	r->spread = strtod(field[7], NULL);
	return 0;
}

/* Whether the chart the run wrote is well-formed, and how many curves. */
static void probe_rows_chart(struct probe_rows *out, const char *folder)
{
	char path[4096], cmd[4200], text[65536];
	size_t len;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", folder, out->chart);
	f = fopen(path, "r");
	if (!f)
		return;
	len = fread(text, 1, sizeof text - 1, f);
	text[len] = 0;
	fclose(f);
	out->chart_curves = 0;
	for (const char *p = text; (p = strstr(p, "<polyline class=\"curve\"")); p++)
		out->chart_curves++;
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>/dev/null", path);
	out->chart_well_formed = system(cmd) == 0;
}

/* 0 when the run left a results.csv that parsed; out->rc is the probe's. */
static int probe_rows_run(int (*probe)(const struct config *c),
			  const struct config *c, struct probe_rows *out)
{
	char root[] = "/tmp/memprobe-probe-test-XXXXXX", path[4096], line[1024];
	FILE *csv;
	int status = 0;

	out->count = 0;
	if (!mkdtemp(root))
		return -1;
	host_set_results_root(root);
	results_open();
	out->rc = probe(c);
	results_probe_done();
	snprintf(path, sizeof path, "%s/results.csv", plat_run_folder());
	csv = fopen(path, "r");
	if (!csv) {
		status = -1;
	} else {
		if (!fgets(line, sizeof line, csv))   /* the header */
			status = -1;
		while (status == 0 && out->count < PROBE_ROWS_MAX &&
		       fgets(line, sizeof line, csv))
			status = probe_rows_parse(line, &out->row[out->count++]);
		fclose(csv);
	}
	out->chart_curves = -1;
	out->chart_well_formed = 0;
	if (out->chart)
		probe_rows_chart(out, plat_run_folder());
	results_close();
	nftw(root, probe_rows_remove, 8, FTW_DEPTH | FTW_PHYS);
	return status;
}

/* The row of this variant, page size and working set; NULL when absent. */
static const struct csv_row *probe_rows_find(const struct probe_rows *rows,
					     const char *variant, uint64_t page_size,
					     uint64_t working_set)
{
	for (int i = 0; i < rows->count; i++) {
		const struct csv_row *r = &rows->row[i];
		if (strcmp(r->variant, variant) == 0 && r->page_size == page_size &&
		    r->working_set == working_set)
			return r;
	}
	return NULL;
}

/* A measured figure: positive and finite in both units, from real trials. */
static int probe_row_sane(const struct csv_row *r)
{
	return r && isfinite(r->ns) && r->ns > 0 && isfinite(r->cycles) &&
	       r->cycles > 0 && r->trials >= 1 && isfinite(r->spread) &&
	       r->spread >= 0;
}

#endif
