/* The fleet subcommand (see fleet.h): the command line, the run folders
 * found and read one by one (each into the database as it is read, so a
 * long import that stops keeps what it did), then the newest runs marked
 * and written.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "host/host.h"
#include "desk/fleet.h"
#include "desk/run_folder.h"
#include "desk/desk.h"

/* ---- Constants -------------------------------------------------------- */

#define WHY_LEN 4400
/* A progress line at most this often while folders are read. */
#define PROGRESS_EVERY_S 2
/* Larger thresholds mark nothing a fleet could show: a typo, said as one. */
#define THRESHOLD_MAX 1000.0

/* ---- Private Types ---------------------------------------------------- */

struct options {
	const char **dir;
	size_t ndirs;
	const char *out;
	const char *db;
	int all;
	double threshold;
};

struct fleet {
	struct options o;
	struct fleet_list found;     /* run folders */
	struct fleet_run *run;       /* those read */
	size_t nruns;
	struct fleet_list skipped;   /* "FOLDER: why" */
	struct fleet_db *db;
	unsigned db_added, db_there;
};

/* ---- Private Functions ------------------------------------------------ */

/* The command's help, to stdout (--help) or stderr (a usage error). */
static void usage(FILE *to)
{
	fprintf(to,
		"usage: memprobe fleet DIR... [--out OUT] [--db FILE] [--all] [--threshold PCT]\n"
		"\n"
		"Reads every run folder (a folder holding results.csv) under each DIR, at any\n"
		"depth: uploaded trees (URL/<machine-id>/run-<stamp>/) and folders copied off\n"
		"sticks (memprobe/run-NNNN/) alike. Keeps the newest run of each machine\n"
		"(system.json's machine.id), or every run with --all, and writes\n"
		"OUT/fleet.csv and OUT/fleet.html (OUT made if needed, default '.'; files\n"
		"already there are never overwritten): one row per machine with its\n"
		"identity, CPU, memory devices and card figures, each figure held against\n"
		"the median of the machines of the same CPU model; a figure more than PCT\n"
		"percent off (default 5) is marked, and marked machines come first.\n"
		"\n"
		"  --out OUT        where fleet.csv and fleet.html go (default '.')\n"
		"  --all            every run a row, not only each machine's newest\n"
		"  --threshold PCT  how far from the median marks a figure (default 5)\n"
		"  --db FILE        also every run read, its card figures, levels and\n"
		"                   results rows into an SQLite database (made if absent;\n"
		"                   a run already in it is not added again)\n"
		"\n"
		"Exit status: 0 every run folder read and the files written; 1 written,\n"
		"but some run folders could not be read (each named); 2 a usage error, no\n"
		"run folder found or none readable, or an output that cannot be written.\n");
}

/* --threshold's value: a percentage from 0 to THRESHOLD_MAX, "5" or "5%".
   0, or -1 with the reason on stderr. */
static int parse_threshold(const char *text, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end != text && *end == '%')
		end++;
	if (end == text || *end || errno || !isfinite(v) || v < 0 || v > THRESHOLD_MAX) {
		fprintf(stderr, "memprobe fleet: --threshold %s: give a percentage from 0 to %g "
			"(e.g. --threshold 5)\n", text, THRESHOLD_MAX);
		return -1;
	}
	*out = v;
	return 0;
}

/* The value after option argv[*i]; NULL with the reason on stderr. */
static const char *value_of(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc || !argv[*i + 1][0]) {
		fprintf(stderr, "memprobe fleet: %s needs a value (memprobe fleet --help)\n",
			argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

/* The command line into o; 0, 1 for --help (shown), or 2 with the reason
   on stderr. */
static int parse_args(struct options *o, int argc, char **argv)
{
	*o = (struct options){ desk_must(calloc((size_t)argc, sizeof *o->dir)), 0, ".", NULL, 0,
			       FLEET_DEFAULT_THRESHOLD };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 1;
		} else if (!strcmp(a, "--all")) {
			o->all = 1;
		} else if (!strcmp(a, "--out") || !strcmp(a, "--db")) {
			const char *v = value_of(argc, argv, &i);
			if (!v)
				return 2;
			*(!strcmp(a, "--out") ? &o->out : &o->db) = v;
		} else if (!strcmp(a, "--threshold")) {
			const char *v = value_of(argc, argv, &i);
			if (!v || parse_threshold(v, &o->threshold))
				return 2;
		} else if (a[0] == '-') {
			fprintf(stderr, "memprobe fleet: unknown option %s (memprobe fleet --help)\n", a);
			return 2;
		} else {
			o->dir[o->ndirs++] = a;
		}
	}
	if (!o->ndirs) {
		fprintf(stderr, "memprobe fleet: give one folder or more to search for run folders\n");
		usage(stderr);
		return 2;
	}
	return 0;
}

/* OUT made if needed, and neither output file there yet: refused now, not
   after reading a thousand folders. 0, or 2 with the reason on stderr. */
static int check_out(const char *out)
{
	static const char *const name[] = { "fleet.csv", "fleet.html" };
	struct stat st;

	if (host_make_path(out) != 0) {
		fprintf(stderr, "memprobe fleet: --out %s: %s\n", out, strerror(errno));
		return 2;
	}
	if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "memprobe fleet: --out %s: not a folder\n", out);
		return 2;
	}
	for (int i = 0; i < 2; i++) {
		char path[WHY_LEN];

		snprintf(path, sizeof path, "%s/%s", out, name[i]);
		if (lstat(path, &st) == 0) {
			fprintf(stderr, "memprobe fleet: %s: File exists (fleet never overwrites: "
				"give another --out OUT)\n", path);
			return 2;
		}
	}
	return 0;
}

/* A folder left out, said now and kept for the page. */
static void skip(struct fleet *f, const char *why)
{
	fprintf(stderr, "memprobe fleet: left out: %s\n", why);
	fleet_list_add(&f->skipped, why);
}

/* Every DIR searched, each run folder once; 0, or 2 when a DIR is not a
   folder or none holds a run folder. */
static int find_all(struct fleet *f)
{
	struct fleet_list unsearched = { 0 };
	char why[WHY_LEN];

	for (size_t i = 0; i < f->o.ndirs; i++) {
		size_t before = f->found.n;

		if (fleet_find_runs(f->o.dir[i], &f->found, &unsearched, why, sizeof why)) {
			fprintf(stderr, "memprobe fleet: %s\n", why);
			fleet_list_free(&unsearched);
			return 2;
		}
		if (f->found.n == before) {
			snprintf(why, sizeof why, "%s: no run folder in it (no folder below it "
				 "holds a results.csv)", f->o.dir[i]);
			skip(f, why);
		}
	}
	for (size_t i = 0; i < unsearched.n; i++)
		skip(f, unsearched.item[i]);
	fleet_list_free(&unsearched);
	fleet_unique_folders(&f->found);
	if (!f->found.n) {
		fprintf(stderr, "memprobe fleet: no run folders found: nothing to compare\n");
		return 2;
	}
	return 0;
}

/* The run into the database; a failure stops the import (2), with why. */
static int into_db(struct fleet *f, const struct fleet_run *r, const struct run_folder *rf)
{
	char why[WHY_LEN];
	int added;

	if (!f->db)
		return 0;
	added = fleet_db_add(f->db, r, rf, why, sizeof why);
	if (added < 0) {
		fprintf(stderr, "memprobe fleet: --db %s\n", why);
		return 2;
	}
	f->db_added += added == 1;
	f->db_there += added == 0;
	return 0;
}

/* One run folder read, kept for the rows and added to the database.
   0, or 2 when the database failed. */
static int read_one(struct fleet *f, const char *path)
{
	static struct run_folder rf;
	char why[WHY_LEN];
	struct fleet_run *r = &f->run[f->nruns];
	int rc = 0;

	if (run_folder_read(&rf, path, 'A', why, sizeof why) != 0) {
		skip(f, why);
	} else if (fleet_run_from_folder(r, &rf, why, sizeof why) != 0) {
		free(r->path);
		skip(f, why);
	} else {
		rc = into_db(f, r, &rf);
		f->nruns++;
	}
	run_folder_free(&rf);
	return rc;
}

/* Every run folder found, with a progress line on long work. */
static int read_all(struct fleet *f)
{
	time_t last = time(NULL);
	int rc = 0;

	f->run = desk_must(calloc(f->found.n, sizeof *f->run));
	for (size_t i = 0; i < f->found.n && !rc; i++) {
		if (time(NULL) - last >= PROGRESS_EVERY_S) {
			fprintf(stderr, "memprobe fleet: read %zu of %zu run folders\n", i,
				f->found.n);
			last = time(NULL);
		}
		rc = read_one(f, f->found.item[i]);
	}
	if (!rc && !f->nruns) {
		fprintf(stderr, "memprobe fleet: none of the %zu run folders found could be read\n",
			f->found.n);
		rc = 2;
	}
	return rc;
}

/* The kept runs marked, sorted and written. 0, or 2. */
static int mark_and_write(struct fleet *f)
{
	struct fleet_run **sorted = desk_must(calloc(f->nruns, sizeof *sorted));
	struct fleet_summary s;
	size_t kept = fleet_keep(f->run, f->nruns, f->o.all), n = 0;
	int rc;

	fleet_mark(f->run, f->nruns, f->o.threshold);
	for (size_t i = 0; i < f->nruns; i++)
		if (f->run[i].kept)
			sorted[n++] = &f->run[i];
	qsort(sorted, n, sizeof *sorted, fleet_order);
	s = (struct fleet_summary){ f->found.n, f->nruns, kept, f->o.threshold, f->o.all,
				    f->o.dir, f->o.ndirs, &f->skipped };
	rc = fleet_write(f->o.out, sorted, n, &s) ? 2 : 0;
	free(sorted);
	return rc;
}

/* Everything the command allocated. */
static void release(struct fleet *f)
{
	for (size_t i = 0; i < f->nruns; i++)
		free(f->run[i].path);
	fleet_list_free(&f->found);
	fleet_list_free(&f->skipped);
	free(f->run);
	free(f->o.dir);
}

/* Opens --db's file; 0, or 2 with the reason on stderr. */
static int open_db(struct fleet *f)
{
	char why[WHY_LEN];

	if (!f->o.db)
		return 0;
	f->db = fleet_db_open(f->o.db, why, sizeof why);
	if (!f->db) {
		fprintf(stderr, "memprobe fleet: --db %s\n", why);
		return 2;
	}
	return 0;
}

/* Closes the database and says what went in; 0, or 2. */
static int close_db(struct fleet *f)
{
	char why[WHY_LEN];

	if (!f->db)
		return 0;
	if (fleet_db_close(f->db, why, sizeof why)) {
		fprintf(stderr, "memprobe fleet: --db %s\n", why);
		return 2;
	}
	printf("%s: %u run%s added, %u already there\n", f->o.db, f->db_added,
	       f->db_added == 1 ? "" : "s", f->db_there);
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int fleet_main(int argc, char **argv)
{
	struct fleet f;
	int rc;

	memset(&f, 0, sizeof f);
	rc = parse_args(&f.o, argc, argv);
	if (rc == 1) {
		free(f.o.dir);
		return 0;
	}
	if (!rc)
		rc = find_all(&f);
	if (!rc)
		rc = check_out(f.o.out);
	if (!rc)
		rc = open_db(&f);
	if (!rc)
		rc = read_all(&f);
	if (f.db && close_db(&f))
		rc = 2;
	if (!rc)
		rc = mark_and_write(&f);
	if (!rc && f.skipped.n) {
		fprintf(stderr, "memprobe fleet: %zu folder%s left out (named above)\n",
			f.skipped.n, f.skipped.n == 1 ? "" : "s");
		rc = 1;
	}
	release(&f);
	return rc;
}
