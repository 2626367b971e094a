/* `memprobe fleet DIR... [--out OUT] [--db FILE] [--all] [--threshold PCT]`:
 * every run folder under the DIRs (uploaded trees URL/<machine-id>/run-*,
 * sticks' memprobe/run-NNNN), the newest run of each machine (or every run
 * with --all) as one row of OUT/fleet.csv and OUT/fleet.html, each card
 * figure held against the median of the machines of the same CPU model,
 * and with --db every run, its levels, figures and rows in an SQLite
 * database. docs/OUTPUT.md, "fleet.csv and fleet.html".
 *
 * The parts: fleet_read.c (finding and reading run folders), fleet_mark.c
 * (newest per machine, medians, marks: pure), fleet_write.c (fleet.csv,
 * fleet.html), fleet_db.c (the database), fleet.c (the command).
 */
#ifndef MEMPROBE_FLEET_H
#define MEMPROBE_FLEET_H

#include <stddef.h>
#include <stdint.h>
#include "run/card.h"

#define FLEET_DEFAULT_THRESHOLD 5.0   /* percent */
/* The fewest machines (or runs, with --all) of a CPU model, each with the
   figure, that make a median to hold one of them against: with two the
   median is their mean, and any gap over the threshold would mark both. */
#define FLEET_MEDIAN_MIN 3u

/* The machine's memory devices (system.json machine.memory_devices[]). */
struct fleet_memory {
	unsigned slots;               /* every device listed, empty slots included */
	unsigned installed;
	uint64_t bytes;               /* the installed devices' known sizes */
	uint64_t slowest_mts;         /* the lowest configured speed given; 0: none */
	char sizes[160];              /* "2 x 16 GiB, 1 x 8 GiB"; "" with none */
	char speeds[160];             /* "3 x 4800/4400 MT/s" (rated/configured) */
};

/* One run folder read back, with its machine's identity and its card. */
struct fleet_run {
	char *path;                   /* the run folder, as found (allocated) */
	char name[64];                /* its last component: run-<stamp>, run-NNNN */
	char machine_id[64];          /* system.json machine.id */
	char id_from[48];
	char manufacturer[64], product[64], serial[64], uuid[40];   /* SMBIOS type 1 */
	char cpu[160];                /* cpu.brand: the CPU model runs are grouped by */
	char platform[32];
	char build[96];
	char date_time[32];           /* system.json date_time: the end of the run */
	char verdict[160];            /* report.html's verdict, or why none */
	char claims[256];             /* each card level's verdict against CPUID */
	struct fleet_memory memory;
	unsigned nrows;
	struct card_figure fig[CARD_MAX_FIGURES];   /* the card's, then the memory's */
	size_t nfig;
	/* Set by fleet_keep and fleet_mark. */
	int kept;                     /* in fleet.csv: its machine's newest, or --all */
	unsigned peers;               /* kept runs of its CPU model, itself included */
	double median[CARD_MAX_FIGURES];   /* of the figure over its CPU model; NAN:
					      fewer than two runs have it */
	double off[CARD_MAX_FIGURES];      /* percent from the median */
	unsigned char marked[CARD_MAX_FIGURES];
	/* Off the median by more than the threshold, but starred on the
	   run's card (it could move between runs): shown, never marked. */
	unsigned char doubtful[CARD_MAX_FIGURES];
	unsigned nmarked;
};

/* argv[0] is "fleet". Exit status: 0 every run folder found was read and
   the files written; 1 written, but some run folders could not be read (each
   named on stderr and on the page); 2 a usage error, no run folder found,
   none readable, or an output that cannot be written. */
int fleet_main(int argc, char **argv);

/* ---- fleet_read.c ----------------------------------------------------- */

/* A growing list of allocated strings. */
struct fleet_list {
	char **item;
	size_t n, cap;
};
void fleet_list_add(struct fleet_list *l, const char *text);
void fleet_list_free(struct fleet_list *l);

/* Every run folder (a folder holding results.csv) under dir, at any depth,
   appended to runs; each folder below dir that cannot be opened appended
   to unsearched as "FOLDER: cannot be searched for run folders: why".
   Symbolic links to folders are not followed, so a link loop cannot hang
   the search. 0, or -1 with why[] naming dir when it is not a folder. */
int fleet_find_runs(const char *dir, struct fleet_list *runs, struct fleet_list *unsearched,
		    char *why, size_t size);

/* The run folders in the order of their real paths, each folder once
   (DIRs that overlap, or a folder given twice, would otherwise count a run
   twice). */
void fleet_unique_folders(struct fleet_list *runs);

struct run_folder;
/* The run's identity, memory, verdict and card from a run folder read by
   run_folder_read. 0, or -1 with why[] saying why it cannot stand for a
   machine (no system.json, no machine member). */
int fleet_run_from_folder(struct fleet_run *run, const struct run_folder *folder,
			  char *why, size_t size);

/* ---- fleet_mark.c (pure) ---------------------------------------------- */

/* The place of the run's figure of that name in fig[], or -1. */
int fleet_figure(const struct fleet_run *r, const char *name);

/* 1 when a is a later run than b: the later system.json date_time when
   both have one, else the greater folder name (run-0012 after run-0009,
   run-20261203T... after run-20261202T...). */
int fleet_run_newer(const struct fleet_run *a, const struct fleet_run *b);

/* Sets kept on each machine's newest run (every run with all); returns how
   many are kept. */
size_t fleet_keep(struct fleet_run *runs, size_t n, int all);

/* Holds each kept run's figures against the median of the kept runs of the
   same CPU model (cpu) with the same figure: median[], off[], marked[] (more
   than threshold percent off), nmarked, peers. A figure fewer than
   FLEET_MEDIAN_MIN runs have stays unmarked, its median NAN. */
void fleet_mark(struct fleet_run *runs, size_t n, double threshold);

/* The order of fleet.csv and fleet.html: kept runs with marked figures
   first, then by CPU model, machine id and newest first. A qsort comparator
   over struct fleet_run *. */
int fleet_order(const void *a, const void *b);

/* ---- fleet_write.c ---------------------------------------------------- */

/* What the command found, for the page's opening lines. */
struct fleet_summary {
	size_t found, read, kept;
	double threshold;
	int all;
	const char *const *dirs;
	size_t ndirs;
	const struct fleet_list *skipped;   /* "FOLDER: why", each folder left out */
};

/* OUT/fleet.csv and OUT/fleet.html from the kept runs of sorted (in
   fleet_order), created, never over a file already there. 0, or -1 with
   the reason on stderr. */
int fleet_write(const char *out, struct fleet_run *const *sorted, size_t n,
		const struct fleet_summary *s);

/* ---- fleet_db.c ------------------------------------------------------- */

struct fleet_db;
/* Opens (creating when absent) the database and its tables. NULL with
   why[] set when the file is not an SQLite database or cannot be written. */
struct fleet_db *fleet_db_open(const char *path, char *why, size_t size);
/* The run, its levels, figures and every row of its results.csv, in one
   transaction. 1 added, 0 already there (the same machine id and run
   name), -1 with why[] set. */
int fleet_db_add(struct fleet_db *db, const struct fleet_run *run,
		 const struct run_folder *folder, char *why, size_t size);
/* Closes it; 0, or -1 with why[] set. */
int fleet_db_close(struct fleet_db *db, char *why, size_t size);

#endif
