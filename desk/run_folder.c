/* A run folder read back (see run_folder.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "desk/analyze.h"
#include "host/host.h"
#include "desk/run_folder.h"
#include "lib/json_read.h"
#include "run/card.h"
#include "results/csvread.h"
#include "desk/desk.h"

/* ---- Private Functions ------------------------------------------------ */

/* results_csv_read's callback: a copy of the row, and the row to the
   run's analysis. */
static void keep_row(const struct result_row *row, void *ctx)
{
	struct run_folder *r = ctx;

	if (r->nrows == r->capacity) {
		r->capacity = r->capacity ? r->capacity * 2 : 256;
		r->row = desk_must(realloc(r->row, r->capacity * sizeof *r->row));
	}
	r->row[r->nrows++] = (struct run_row){ desk_must(strdup(row->probe ? row->probe : "")),
		desk_must(strdup(row->variant ? row->variant : "")),
		row->page_shift, row->working_set_bytes, row->ns, row->cycles, row->cpu,
		row->peer_cpu, row->loaders, row->spread, row->gb_per_s, row->bytes_per_cycle,
		row->stride_bytes, row->insns_per_cycle, row->chases, row->load_gb_per_s };
	analysis_add_row(r->analysis, row);
}

/* Every row of the folder's results.csv. 0, or -1 with why[] set. */
static int read_rows(struct run_folder *r, char *why, size_t size)
{
	struct csv_summary sum;

	if (run_folder_each_row(r->path, keep_row, r, &sum, why, size))
		return -1;
	r->skipped_rows = sum.skipped;
	if (!r->nrows) {
		snprintf(why, size, "%s/results.csv: no rows: the run measured nothing (or was cut "
			 "short before its first probe ended)", r->path);
		return -1;
	}
	return 0;
}

/* What a well-formed system.json says of the run: platform, CPU, build,
   and the claims its levels are named by. */
static void read_system(struct run_folder *r, const char *text, size_t len)
{
	static struct cache_claims claims;
	char version[32] = "?", build[32] = "?";

	if (json_get_string(text, len, "platform.name", r->platform, sizeof r->platform))
		snprintf(r->platform, sizeof r->platform, "not recorded");
	if (json_get_string(text, len, "cpu.brand", r->cpu, sizeof r->cpu))
		snprintf(r->cpu, sizeof r->cpu, "not recorded");
	json_get_string(text, len, "app.version", version, sizeof version);
	json_get_string(text, len, "app.build", build, sizeof build);
	snprintf(r->build, sizeof r->build, "%s (build %s)", version, build);
	if (claims_from_system_json(text, len, &claims) == 0)
		analysis_set_claims(r->analysis, &claims, "the registers recorded in system.json");
}

/* The folder's system.json, if any. 0 (also when there is none), or -1
   with why[] set when it cannot be read or is not JSON. */
static int read_system_json(struct run_folder *r, char *why, size_t size)
{
	char path[4200];
	const char *err;
	size_t len, at;
	char *text;

	snprintf(path, sizeof path, "%s/system.json", r->path);
	text = host_slurp(path, &len, &err);
	if (!text && errno == ENOENT) {
		snprintf(r->platform, sizeof r->platform, "no system.json");
		snprintf(r->cpu, sizeof r->cpu, "not recorded (no system.json: a run cut short?)");
		snprintf(r->build, sizeof r->build, "not recorded");
		return 0;
	}
	if (!text) {
		snprintf(why, size, "%s: system.json cannot be read: %s", r->path, err);
		return -1;
	}
	if (json_check(text, len, &at) != 0) {
		snprintf(why, size, "%s: system.json is not well-formed JSON (reading failed at "
			 "byte %zu of %zu), or nests deeper than the %d levels memprobe reads",
			 r->path, at, len, JSON_READ_MAX_DEPTH);
		free(text);
		return -1;
	}
	r->has_system = 1;
	read_system(r, text, len);
	r->system_json = text;
	r->system_len = len;
	return 0;
}

/* One of summary.geometry's figures at `path` (card.c writes them):
   measured and claimed (0 where left out), the verdict by its name, and
   how it was read. */
static void read_geometry_figure(const char *text, size_t len, const char *path,
				 struct geometry_figure *f)
{
	char key[160], value[sizeof f->why];

	memset(f, 0, sizeof *f);
	snprintf(key, sizeof key, "%s.measured", path);
	if (json_get_scalar(text, len, key, value, sizeof value) == 0)
		f->measured = strtoull(value, NULL, 10);
	snprintf(key, sizeof key, "%s.claimed", path);
	if (json_get_scalar(text, len, key, value, sizeof value) == 0)
		f->claimed = strtoull(value, NULL, 10);
	snprintf(key, sizeof key, "%s.verdict", path);
	if (json_get_string(text, len, key, value, sizeof value) == 0)
		for (int v = GEOMETRY_NOT_RUN; v <= GEOMETRY_NOT_MEASURABLE; v++)
			if (!strcmp(value, geometry_verdict_name((enum geometry_verdict)v)))
				f->verdict = (enum geometry_verdict)v;
	snprintf(key, sizeof key, "%s.how", path);
	json_get_string(text, len, key, f->why, sizeof f->why);
}

/* What the run's geometry probe read, from its system.json's
   summary.geometry (g->ran 0 where it has none): the card's geometry line
   and ways column, as the run's card had them. */
static void read_geometry(const char *text, size_t len, struct geometry_results *g)
{
	char key[96], value[64];

	memset(g, 0, sizeof *g);
	if (!text || json_get_string(text, len, "summary.geometry.line_bytes.verdict", value,
				     sizeof value) != 0)
		return;
	g->ran = 1;
	read_geometry_figure(text, len, "summary.geometry.line_bytes", &g->line);
	for (unsigned i = 0; i < GEOMETRY_LEVELS; i++) {
		struct geometry_level *l = &g->level[i];

		snprintf(key, sizeof key, "summary.geometry.caches.%u.name", i);
		if (json_get_string(text, len, key, l->name, sizeof l->name) != 0)
			break;
		snprintf(key, sizeof key, "summary.geometry.caches.%u.ways", i);
		read_geometry_figure(text, len, key, &l->ways);
		snprintf(key, sizeof key, "summary.geometry.caches.%u.sets", i);
		read_geometry_figure(text, len, key, &l->sets);
		g->nlevels = i + 1;
	}
}

/* ---- Public Functions ------------------------------------------------- */

int run_folder_each_row(const char *path, void (*fn)(const struct result_row *row, void *ctx),
			void *ctx, struct csv_summary *sum, char *why, size_t size)
{
	char file[4200];
	const char *err;
	size_t len, system_len;
	char *text, *system;
	int rc = 0;

	snprintf(file, sizeof file, "%s/results.csv", path);
	text = host_slurp(file, &len, &err);
	if (!text) {
		snprintf(why, size, "%s: no results.csv to read (%s): not a run folder, or a run "
			 "that wrote no files", path, err);
		return -1;
	}
	/* The folder's system.json names the rows' long texts by id; without
	   one (a run cut short) the ids are handed on as they are. */
	snprintf(file, sizeof file, "%s/system.json", path);
	system = host_slurp(file, &system_len, &err);
	snprintf(file, sizeof file, "%s/results.csv", path);
	if (results_csv_read_texts(text, len, system, system ? system_len : 0, fn, ctx, sum) != 0) {
		snprintf(why, size, "%s: %s", file, sum->error);
		rc = -1;
	}
	free(system);
	free(text);
	return rc;
}

int run_folder_read(struct run_folder *r, const char *path, char name, char *why, size_t size)
{
	struct stat st;

	memset(r, 0, sizeof *r);
	r->path = path;
	r->name = name;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, size, "%s: %s", path,
			 stat(path, &st) != 0 ? strerror(errno) : "not a folder (give a run folder, "
			 "the one holding results.csv)");
		return -1;
	}
	r->analysis = calloc(1, sizeof *r->analysis);
	if (!r->analysis) {
		snprintf(why, size, "out of memory");
		return -1;
	}
	analysis_init(r->analysis);
	if (read_system_json(r, why, size) || read_rows(r, why, size))
		return -1;
	analysis_compute(r->analysis);
	return 0;
}

void run_folder_card(const struct run_folder *run, struct card *card)
{
	static struct card_rows rows;

	memset(&rows, 0, sizeof rows);
	for (size_t i = 0; i < run->nrows; i++) {
		struct result_row row = { 0 };

		row.probe = run->row[i].probe;
		row.variant = run->row[i].variant;
		row.page_shift = run->row[i].page_shift;
		row.working_set_bytes = run->row[i].working_set_bytes;
		row.ns = run->row[i].ns;
		row.spread = run->row[i].spread;   /* the stars, as the run's card has them */
		/* What the ifetch curves are read from. */
		row.cycles = run->row[i].cycles;
		row.stride_bytes = run->row[i].stride_bytes;
		row.bytes_per_cycle = run->row[i].bytes_per_cycle;
		row.insns_per_cycle = run->row[i].insns_per_cycle;
		row.chases = run->row[i].chases;
		row.load_gb_per_s = run->row[i].load_gb_per_s;
		card_rows_add(&rows, &row);
	}
	card_build(card, run->analysis, &rows, NULL);
	{
		static struct geometry_results g;

		read_geometry(run->system_json, run->system_len, &g);
		card_add_geometry(card, &g);
	}
}

void run_folder_free(struct run_folder *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		free(r->row[i].probe);
		free(r->row[i].variant);
	}
	free(r->row);
	free(r->system_json);
	free(r->analysis);
	memset(r, 0, sizeof *r);
}
