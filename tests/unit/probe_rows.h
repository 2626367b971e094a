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
#include "core/config.h"
#include "results/csvread.h"
#include "core/platform.h"
#include "results/results.h"

#define PROBE_ROWS_MAX 512

/* A row as the project's reader (results/csvread.h) gives it, columns by
   name, with its words copied: the reader's strings live only during its
   call. */
struct csv_row {
	char probe[32], variant[48];
	uint64_t page_size, working_set;
	double ns, cycles;
	unsigned trials;
	double spread;
	char pages_verified[160], sweep_point[16], trial_form[16], stopped_by[16];
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

static inline int probe_rows_remove(const char *path, const struct stat *st, int flag,
				    struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

/* A word of a row into its copy; a NULL word reads as "". */
static inline void probe_rows_copy(char *to, size_t size, const char *word)
{
	snprintf(to, size, "%s", word ? word : "");
}

/* The reader's callback: the next row of the struct probe_rows at ctx. */
static inline void probe_rows_keep(const struct result_row *in, void *ctx)
{
	struct probe_rows *out = ctx;
	struct csv_row *r;

	if (out->count == PROBE_ROWS_MAX)
		return;
	r = &out->row[out->count++];
	probe_rows_copy(r->probe, sizeof r->probe, in->probe);
	probe_rows_copy(r->variant, sizeof r->variant, in->variant);
	r->page_size = in->page_shift ? 1ull << in->page_shift : 0;
	r->working_set = in->working_set_bytes;
	r->ns = in->ns;
	r->cycles = in->cycles;
	r->trials = in->trials;
	r->spread = in->spread;
	probe_rows_copy(r->pages_verified, sizeof r->pages_verified, in->pages_verified);
	probe_rows_copy(r->sweep_point, sizeof r->sweep_point, in->sweep_point);
	probe_rows_copy(r->trial_form, sizeof r->trial_form, in->trial_form);
	probe_rows_copy(r->stopped_by, sizeof r->stopped_by, in->stopped_by);
}

/* A file of the run folder whole into buf (size bytes at most, NUL
   ended): its length, or -1 when absent or larger. */
static inline long probe_rows_slurp(const char *folder, const char *name, char *buf, size_t size)
{
	char path[4096];
	size_t len;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", folder, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	len = fread(buf, 1, size, f);
	fclose(f);
	if (len == size)
		return -1;
	buf[len] = 0;
	return (long)len;
}

/* The run's results.csv through the reader into out->row, from the
   first, the row texts' ids (pages_verified, timer) turned back into
   their texts through the run's system.json: 0 when it read whole, -1
   when a row was skipped (malformed) or the file holds more than the test
   keeps (its text or PROBE_ROWS_MAX rows), so no row goes unseen. */
static inline int probe_rows_load(struct probe_rows *out, const char *folder)
{
	static char text[1 << 18], json[1 << 18];
	struct csv_summary sum;
	long len = probe_rows_slurp(folder, "results.csv", text, sizeof text);
	long json_len = probe_rows_slurp(folder, "system.json", json, sizeof json);

	out->count = 0;
	if (len < 0)
		return -1;
	return results_csv_read_texts(text, (size_t)len, json_len < 0 ? NULL : json,
				      json_len < 0 ? 0 : (size_t)json_len, probe_rows_keep, out,
				      &sum) == 0 &&
	       sum.skipped == 0 && sum.rows <= PROBE_ROWS_MAX ? 0 : -1;
}

/* system.json's fill for a probe run alone: nothing beyond what results.c
   writes itself (the row texts among it). */
static inline void probe_rows_no_fill(struct json *j, void *arg)
{
	(void)j;
	(void)arg;
}

/* Whether the chart the run wrote is well-formed, and how many curves. */
static inline void probe_rows_chart(struct probe_rows *out, const char *folder)
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

/* 0 when the run left a results.csv that read back whole; out->rc is the
   probe's. */
static inline int probe_rows_run(int (*probe)(const struct config *c),
				 const struct config *c, struct probe_rows *out)
{
	char root[] = "/tmp/memprobe-probe-test-XXXXXX";
	int status;

	out->count = 0;   /* also when no run folder could be made */
	if (!mkdtemp(root))
		return -1;
	host_set_results_root(root);
	results_open();
	out->rc = probe(c);
	results_probe_done();
	results_system(probe_rows_no_fill, NULL);
	status = probe_rows_load(out, plat_run_folder());
	out->chart_curves = -1;
	out->chart_well_formed = 0;
	if (out->chart)
		probe_rows_chart(out, plat_run_folder());
	results_close();
	nftw(root, probe_rows_remove, 8, FTW_DEPTH | FTW_PHYS);
	return status;
}

/* The row of this variant, page size and working set; NULL when absent. */
static inline const struct csv_row *probe_rows_find(const struct probe_rows *rows,
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
static inline int probe_row_sane(const struct csv_row *r)
{
	return r && isfinite(r->ns) && r->ns > 0 && isfinite(r->cycles) &&
	       r->cycles > 0 && r->trials >= 1 && isfinite(r->spread) &&
	       r->spread >= 0;
}

#endif
