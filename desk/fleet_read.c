/* memprobe fleet: finding run folders and reading what a fleet row needs
 * (see fleet.h). Every file goes through the readers compare uses:
 * run_folder.c (results.csv by results/csvread.c, system.json by
 * lib/json_read.c); report.html only for its verdict paragraph.
 */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "desk/fleet.h"
#include "host/host.h"
#include "desk/run_folder.h"
#include "lib/fmt.h"
#include "lib/json_read.h"
#include "desk/desk.h"

/* ---- Constants -------------------------------------------------------- */

#define PATH_LEN 4200
/* system.json lists at most 64 memory devices (lib/smbios.h). */
#define MAX_DEVICES 64
/* A size or a speed as tallied: "16 GiB", "4800/4400 MT/s" (two 20-digit
   numbers at most). */
#define TALLY_ITEM 64
/* Deeper than any uploaded tree or stick (URL/<id>/run-*, memprobe/run-*):
   a deeper tree is a wrong DIR, not a fleet, and would only slow the search. */
#define MAX_DEPTH 16

/* ---- Private Functions ------------------------------------------------ */

/* A machine with no identity of its own (machine.id "unknown": no SMBIOS
   UUID, no MAC; `make run` under QEMU) filed under the folder its run
   folder sits in, its real path hashed (FNV-1a), so the runs of one
   results folder are one machine's and those of two folders two. Said in
   id_from, which fleet.csv and the page show. */
static void stand_in_id(struct fleet_run *run, const char *path)
{
	char *real = realpath(path, NULL), *slash;
	const char *at = real ? real : path;
	uint64_t hash = 0xcbf29ce484222325ull;

	slash = strrchr(at, '/');
	for (const char *p = at; *p && p != slash; p++)
		hash = (hash ^ (unsigned char)*p) * 0x100000001b3ull;
	snprintf(run->machine_id, sizeof run->machine_id, "folder-%016llx",
		 (unsigned long long)hash);
	snprintf(run->id_from, sizeof run->id_from, "stand-in: the folder its runs are in");
	free(real);
}

/* 1 when dir/name is a regular file, 0 when there is none, -1 when the
   name is something else (a FIFO, a device, a folder). */
static int has_file(const char *dir, const char *name)
{
	char path[PATH_LEN];
	struct stat st;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (stat(path, &st) != 0)
		return 0;
	return S_ISREG(st.st_mode) ? 1 : -1;
}

/* The run folders under dir, depth levels down at most; a run folder is
   not searched further (runs do not nest). */
static void search(const char *dir, unsigned depth, struct fleet_list *runs,
		   struct fleet_list *unsearched)
{
	char why[PATH_LEN + 128];
	struct dirent *e;
	DIR *d;

	switch (has_file(dir, "results.csv")) {
	case 1:
		fleet_list_add(runs, dir);
		return;
	case -1:
		/* Never opened: a FIFO would block the whole search. */
		snprintf(why, sizeof why, "%s: its results.csv is not a regular file (a FIFO, a "
			 "device or a folder): not read as a run folder", dir);
		fleet_list_add(unsearched, why);
		return;
	}
	if (depth == MAX_DEPTH)
		return;
	if (!(d = opendir(dir))) {
		snprintf(why, sizeof why, "%s: cannot be searched for run folders: %s", dir,
			 strerror(errno));
		fleet_list_add(unsearched, why);
		return;
	}
	while ((e = readdir(d))) {
		char path[PATH_LEN];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
			 e->d_name);
		/* lstat: a link to a folder is not followed (a loop would never end). */
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			search(path, depth + 1, runs, unsearched);
	}
	closedir(d);
}

/* A folder by its real path, for sorting and telling copies apart. */
struct folder {
	char *path, *real;
};

/* qsort's order of struct folder: by real path. */
static int by_real_path(const void *a, const void *b)
{
	return strcmp(((const struct folder *)a)->real, ((const struct folder *)b)->real);
}

/* A member of system.json as text, or "" when it is absent. */
static void member(const struct run_folder *f, const char *path, char *out, size_t size)
{
	if (json_get_scalar(f->system_json, f->system_len, path, out, size) != 0)
		out[0] = '\0';
}

/* A numeric member, 0 when absent or not a number. */
static uint64_t member_u64(const struct run_folder *f, const char *path)
{
	char text[32];

	member(f, path, text, sizeof text);
	return strtoull(text, NULL, 10);
}

/* Adds one to the count of `what` in a "2 x A, 1 x B" list kept as parallel
   arrays. */
static void tally(char (*what)[TALLY_ITEM], unsigned *count, unsigned *n, const char *item)
{
	unsigned i = 0;

	while (i < *n && strcmp(what[i], item))
		i++;
	if (i == *n) {
		snprintf(what[i], sizeof what[i], "%s", item);
		count[(*n)++] = 0;
	}
	count[i]++;
}

/* The tally as "2 x A, 1 x B" into out. */
static void tally_text(char (*what)[TALLY_ITEM], const unsigned *count, unsigned n, char *out,
		       size_t size)
{
	struct mp_text t = { out, size, 0 };

	out[0] = '\0';
	for (unsigned i = 0; i < n; i++)
		mp_append(&t, "%s%u x %s", i ? ", " : "", count[i], what[i]);
}

/* Device i's speeds as text, rated/configured: "4800/4400 MT/s", "?" for
   one the table does not give (0), "speed unknown" for neither; returns
   the configured speed (0: not given). */
static uint64_t speed_text(const struct run_folder *f, unsigned i, char *out, size_t size)
{
	char key[64], rated_text[24] = "?", configured_text[24] = "?";
	uint64_t rated, configured;

	snprintf(key, sizeof key, "machine.memory_devices.%u.speed_mts", i);
	if ((rated = member_u64(f, key)))
		snprintf(rated_text, sizeof rated_text, "%llu", (unsigned long long)rated);
	snprintf(key, sizeof key, "machine.memory_devices.%u.configured_speed_mts", i);
	if ((configured = member_u64(f, key)))
		snprintf(configured_text, sizeof configured_text, "%llu",
			 (unsigned long long)configured);
	if (!rated && !configured)
		snprintf(out, size, "speed unknown");
	else
		snprintf(out, size, "%s/%s MT/s", rated_text, configured_text);
	return configured;
}

/* machine.memory_devices[]: slots, installed devices, their sizes and
   speeds tallied. */
static void read_memory(struct fleet_memory *m, const struct run_folder *f)
{
	static char size_name[MAX_DEVICES][TALLY_ITEM], speed_name[MAX_DEVICES][TALLY_ITEM];
	unsigned size_count[MAX_DEVICES], speed_count[MAX_DEVICES], nsizes = 0, nspeeds = 0;

	memset(m, 0, sizeof *m);
	for (unsigned i = 0; i < MAX_DEVICES; i++) {
		char key[64], installed[8], size[24], speed[TALLY_ITEM];
		uint64_t bytes, configured;

		snprintf(key, sizeof key, "machine.memory_devices.%u.installed", i);
		if (json_get_scalar(f->system_json, f->system_len, key, installed, sizeof installed))
			break;
		m->slots++;
		if (strcmp(installed, "true"))
			continue;
		m->installed++;
		snprintf(key, sizeof key, "machine.memory_devices.%u.size_bytes", i);
		bytes = member_u64(f, key);
		m->bytes += bytes;
		if (bytes)
			mp_format_bytes(size, sizeof size, bytes);
		else
			snprintf(size, sizeof size, "size unknown");
		tally(size_name, size_count, &nsizes, size);
		configured = speed_text(f, i, speed, sizeof speed);
		if (configured && (!m->slowest_mts || configured < m->slowest_mts))
			m->slowest_mts = configured;
		tally(speed_name, speed_count, &nspeeds, speed);
	}
	tally_text(size_name, size_count, nsizes, m->sizes, sizeof m->sizes);
	tally_text(speed_name, speed_count, nspeeds, m->speeds, sizeof m->speeds);
}

/* The run's own verdict: report.html's verdict paragraph (the one file
   that keeps it; report.txt closes before the run's end), or why none. */
static void read_verdict(struct fleet_run *run)
{
	static const char mark[] = "<p class=\"verdict\">verdict: ";
	char path[PATH_LEN];
	const char *err, *at, *found = NULL;
	size_t len;
	char *text;

	snprintf(path, sizeof path, "%s/report.html", run->path);
	text = host_slurp(path, &len, &err);
	if (!text) {
		snprintf(run->verdict, sizeof run->verdict, "not recorded (report.html: %s)", err);
		return;
	}
	for (at = strstr(text, mark); at; at = strstr(at + 1, mark))
		found = at + strlen(mark);
	if (found)
		snprintf(run->verdict, sizeof run->verdict, "%.*s", (int)strcspn(found, "<\n"),
			 found);
	else
		snprintf(run->verdict, sizeof run->verdict, "not recorded (report.html has no "
			 "verdict: a run cut short)");
	free(text);
}

/* Each card level's verdict against CPUID's claim, where there is a claim:
   "L1 agrees, L3 differs, TLB 4 KiB differs". */
static void claims_text(const struct card *c, char *out, size_t size)
{
	struct mp_text t = { out, size, 0 };
	char page[16];

	out[0] = '\0';
	for (size_t i = 0; i < c->ncaches; i++)
		if (c->cache[i].verdict != VERDICT_NO_CLAIM)
			mp_append(&t, "%s%s %s", t.len ? ", " : "", c->cache[i].name,
				  verdict_name(c->cache[i].verdict));
	for (size_t i = 0; i < c->ntlbs; i++) {
		if (c->tlb[i].verdict == VERDICT_NO_CLAIM)
			continue;
		mp_format_bytes(page, sizeof page, 1ull << c->tlb[i].page_shift);
		mp_append(&t, "%s%s %s %s", t.len ? ", " : "", c->tlb[i].name, page,
			  verdict_name(c->tlb[i].verdict));
	}
}

/* Appends a figure when there is room and a value. */
static void add_figure(struct fleet_run *run, const char *name, double value)
{
	if (run->nfig == CARD_MAX_FIGURES || value <= 0)
		return;
	snprintf(run->fig[run->nfig].name, sizeof run->fig[run->nfig].name, "%s", name);
	run->fig[run->nfig++].value = value;
}

/* After the card's figures, what SMBIOS says of the memory, held against
   the model's median like them: a DIMM missing from a channel or memory
   configured slower shows here before it shows in the bandwidth. */
static void memory_figures(struct fleet_run *run)
{
	if (!run->memory.slots)
		return;   /* no SMBIOS memory devices: nothing said, nothing compared */
	add_figure(run, "memory devices", run->memory.installed);
	add_figure(run, "memory GiB", (double)run->memory.bytes / (1u << 30));
	add_figure(run, "memory configured MT/s", (double)run->memory.slowest_mts);
}

/* A card figure's name made unique within the run: the card names two
   TLB levels of one page size alike when CPUID names neither ("TLB 4 KiB
   entries"), so the second becomes "TLB 4 KiB entries #2" rather than
   being matched against the first's median. */
static void unique_names(struct card_figure *fig, size_t n)
{
	static char name[CARD_MAX_FIGURES][sizeof fig->name];

	for (size_t i = 0; i < n && i < CARD_MAX_FIGURES; i++)
		memcpy(name[i], fig[i].name, sizeof name[i]);
	for (size_t i = 1; i < n && i < CARD_MAX_FIGURES; i++) {
		unsigned same = 1;

		for (size_t k = 0; k < i; k++)
			same += !strcmp(name[k], name[i]);
		if (same > 1) {
			size_t at = strlen(fig[i].name);

			snprintf(fig[i].name + at, sizeof fig[i].name - at, " #%u", same);
		}
	}
}

/* ---- Public Functions ------------------------------------------------- */

void fleet_list_add(struct fleet_list *l, const char *text)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->item = desk_must(realloc(l->item, l->cap * sizeof *l->item));
	}
	l->item[l->n++] = desk_must(strdup(text));
}

void fleet_list_free(struct fleet_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->item[i]);
	free(l->item);
	memset(l, 0, sizeof *l);
}

int fleet_find_runs(const char *dir, struct fleet_list *runs, struct fleet_list *unsearched,
		    char *why, size_t size)
{
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, size, "%s: %s", dir, stat(dir, &st) != 0 ? strerror(errno)
			 : "not a folder (give folders that hold run folders)");
		return -1;
	}
	search(dir, 0, runs, unsearched);
	return 0;
}

void fleet_unique_folders(struct fleet_list *runs)
{
	struct folder *f = desk_must(calloc(runs->n ? runs->n : 1, sizeof *f));
	size_t kept = 0;

	for (size_t i = 0; i < runs->n; i++) {
		f[i].path = runs->item[i];
		/* A folder that vanished since the search keeps its own name and
		   is named when it cannot be read. */
		f[i].real = realpath(f[i].path, NULL);
		if (!f[i].real)
			f[i].real = desk_must(strdup(f[i].path));
	}
	qsort(f, runs->n, sizeof *f, by_real_path);
	for (size_t i = 0; i < runs->n; i++) {
		if (i && !strcmp(f[i].real, f[i - 1].real))
			free(f[i].path);
		else
			runs->item[kept++] = f[i].path;
	}
	for (size_t i = 0; i < runs->n; i++)
		free(f[i].real);
	runs->n = kept;
	free(f);
}

int fleet_run_from_folder(struct fleet_run *run, const struct run_folder *f, char *why,
			  size_t size)
{
	static struct card card;
	const char *slash = strrchr(f->path, '/');

	memset(run, 0, sizeof *run);
	run->path = desk_must(strdup(f->path));
	snprintf(run->name, sizeof run->name, "%s", slash ? slash + 1 : f->path);
	if (!f->system_json) {
		snprintf(why, size, "%s: no system.json (a run cut short?): no machine identity "
			 "to file it under", f->path);
		return -1;
	}
	member(f, "machine.id", run->machine_id, sizeof run->machine_id);
	if (!run->machine_id[0]) {
		snprintf(why, size, "%s: system.json has no machine.id (written by a memprobe "
			 "from before machine identity): no machine to file it under", f->path);
		return -1;
	}
	member(f, "machine.id_from", run->id_from, sizeof run->id_from);
	/* Every machine without an SMBIOS UUID and a MAC is "unknown": filed
	   under it, unrelated machines would pass for one machine's runs. */
	if (!strcmp(run->machine_id, "unknown"))
		stand_in_id(run, f->path);
	member(f, "machine.system.manufacturer", run->manufacturer, sizeof run->manufacturer);
	member(f, "machine.system.product", run->product, sizeof run->product);
	member(f, "machine.system.serial", run->serial, sizeof run->serial);
	member(f, "machine.system.uuid", run->uuid, sizeof run->uuid);
	member(f, "date_time", run->date_time, sizeof run->date_time);
	snprintf(run->cpu, sizeof run->cpu, "%s", f->cpu);
	snprintf(run->platform, sizeof run->platform, "%s", f->platform);
	snprintf(run->build, sizeof run->build, "%s", f->build);
	read_memory(&run->memory, f);
	read_verdict(run);
	run->nrows = (unsigned)f->nrows;
	run_folder_card(f, &card);
	run->nfig = card_figures(&card, run->fig, CARD_MAX_FIGURES);
	claims_text(&card, run->claims, sizeof run->claims);
	memory_figures(run);
	unique_names(run->fig, run->nfig);
	return 0;
}
