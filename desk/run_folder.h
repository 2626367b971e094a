/* A run folder read back for memprobe compare and memprobe fleet: its results.csv rows (kept,
 * with their strings), what its system.json says about where it ran, and
 * the levels the analysis finds in its latency and tlb rows.
 */
#ifndef MEMPROBE_RUN_FOLDER_H
#define MEMPROBE_RUN_FOLDER_H

#include <stddef.h>
#include <stdint.h>
#include "analysis/analysis.h"
#include "results/columns.h"

struct run_row {
	char *probe, *variant;
	unsigned page_shift;
	uint64_t working_set_bytes;
	double ns, cycles;
	struct optional_count cpu, peer_cpu, loaders;   /* identity too (c2c, loaded) */
	double spread;                                  /* the trials' spread: the card's
							   stars, as the run's */
	struct optional_real gb_per_s, bytes_per_cycle; /* bandwidth */
	uint64_t stride_bytes;                          /* identity too (geometry) */
	struct optional_real insns_per_cycle;           /* ifetch's fetch rows */
	struct optional_count chases;                   /* identity too (mlp) */
	struct optional_real load_gb_per_s;             /* loaded: the card's busiest point */
};

struct run_folder {
	const char *path;            /* as given on the command line */
	char name;                   /* 'A', 'B', ...: the runs' order */
	char platform[32];           /* system.json platform.name, or why none */
	char cpu[160];               /* cpu.brand */
	char build[96];              /* app.version and app.build */
	int has_system;              /* 0: no system.json (a run cut short) */
	char *system_json;           /* its text, NUL-terminated (NULL: none), for
					readers of other members (memprobe fleet) */
	size_t system_len;
	struct run_row *row;
	size_t nrows, capacity;
	unsigned skipped_rows;       /* malformed rows of its results.csv */
	struct analysis *analysis;   /* its levels */
};

/* Reads path/results.csv and path/system.json. 0, or -1 with why[] naming
   the folder and what is wrong with it (no results.csv, no rows, an
   unreadable or malformed system.json). A missing system.json is no
   error: a run cut short has none, and its rows still compare. */
int run_folder_read(struct run_folder *r, const char *path, char name, char *why, size_t size);
void run_folder_free(struct run_folder *r);

/* Each row of path/results.csv to fn (results/csvread.c; strings live
   until fn returns), sum filled. 0, or -1 with why[] naming the file and
   what is wrong (none to read, no usable header). */
struct csv_summary;
int run_folder_each_row(const char *path, void (*fn)(const struct result_row *row, void *ctx),
			void *ctx, struct csv_summary *sum, char *why, size_t size);

/* The run's card rebuilt from its rows as the run built it (its analysis,
   and the c2c pairs among its rows), with what its geometry probe read
   from its system.json's summary.geometry, into *card (card.h;
   card_figures gives its figures by name). */
struct card;
void run_folder_card(const struct run_folder *r, struct card *card);

#endif
