/* The desk commands (memprobe analyze, memprobe compare) on odd files and
 * run folders: analyze changes no run folder unless --out says where to
 * write, and then writes over nothing; a FIFO is refused before anything
 * opens it (so nothing blocks); a procfs file, whose stated size is 0, is
 * read for what it holds; a system.json cut short is refused by analyze
 * as compare refuses it.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "check.h"
#include "capture.h"
#include "desk/analyze.h"
#include "desk/compare.h"
#include "desk/run_folder.h"
#include "run/card.h"

static char root[] = "/tmp/memprobe-test-desk-XXXXXX";
static char out_text[1 << 20], err_text[1 << 16], file_text[1 << 20];

static int analyze(char **argv)
{
	return capture_main(analyze_main, argv, root, out_text, sizeof out_text, err_text,
			    sizeof err_text);
}

static int compare(char **argv)
{
	return capture_main(compare_main, argv, root, out_text, sizeof out_text, err_text,
			    sizeof err_text);
}

static char *folder(const char *name)
{
	return folder_in(root, name);
}

static char *path_in(const char *dir, const char *name)
{
	static char paths[8][512];
	static int next;
	char *p = paths[next++ % 8];

	snprintf(p, 512, "%s/%s", dir, name);
	return p;
}

/* dir/name: the first len bytes of src (all when len is 0). */
static void copy_bytes(const char *src, const char *dir, const char *name, size_t len)
{
	size_t n = read_file(src, file_text, sizeof file_text);
	FILE *f = fopen(path_in(dir, name), "wb");

	if (f) {
		fwrite(file_text, 1, len && len < n ? len : n, f);
		fclose(f);
	}
}

/* The folder's entries, sorted, as one line "a b c". */
static void listing(const char *dir, char *out, size_t size)
{
	struct dirent **e;
	int n = scandir(dir, &e, NULL, alphasort);
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (e[i]->d_name[0] != '.' && used < size)
			used += (size_t)snprintf(out + used, size - used, "%s%s", used ? " " : "",
						 e[i]->d_name);
		free(e[i]);
	}
	if (n >= 0)
		free(e);
}

/* analyze RUN/results.csv leaves the run folder as it was; --out RUN adds
   what is missing and replaces nothing; --out elsewhere writes it all. */
static void test_run_folder_untouched(void)
{
	char *run = folder("run"), fresh[300], csv[300], before[512], after[512];

	snprintf(fresh, sizeof fresh, "%s/fresh", root);
	snprintf(csv, sizeof csv, "%s/results.csv", run);

	copy_bytes("tests/data/zen3-vm-latency-1.csv", run, "results.csv", 0);
	copy_bytes("tests/data/zen3-vm-cpuid.json", run, "system.json", 0);
	write_text(run, "latency.svg", "the run's own chart\n");
	listing(run, before, sizeof before);

	char *plain[] = { "analyze", csv, 0 };
	int rc = analyze(plain);
	listing(run, after, sizeof after);
	CHECK(rc == 0 && strstr(out_text, "\n  L1 ") && strstr(out_text, "no --out DIR"),
	      "analyze without --out: the levels printed, no files said so (exit %d)", rc);
	CHECK(!strcmp(before, after), "the run folder holds what it held (%s; was %s)", after,
	      before);
	read_file(path_in(run, "latency.svg"), file_text, sizeof file_text);
	CHECK(!strcmp(file_text, "the run's own chart\n"), "its latency.svg is the run's own");

	char *folder_argv[] = { "analyze", run, 0 };
	static char plain_text[sizeof out_text];
	snprintf(plain_text, sizeof plain_text, "%s", out_text);
	rc = analyze(folder_argv);
	CHECK(rc == 0 && !strcmp(out_text, plain_text),
	      "analyze RUN_FOLDER prints what analyze RUN_FOLDER/results.csv does (exit %d)", rc);

	char *into_run[] = { "analyze", csv, "--out", run, 0 };
	rc = analyze(into_run);
	read_file(path_in(run, "latency.svg"), file_text, sizeof file_text);
	CHECK(rc == 0 && !strcmp(file_text, "the run's own chart\n") &&
	      strstr(out_text, "latency.svg: not written") && strstr(out_text, "never overwrites"),
	      "--out the run folder: its latency.svg is kept, said so (exit %d)", rc);
	read_file(path_in(run, "pagewalk.svg"), file_text, sizeof file_text);
	CHECK(strstr(file_text, "</svg>") != NULL, "and the chart it lacked is added");

	char *elsewhere[] = { "analyze", csv, "--out", fresh, 0 };
	rc = analyze(elsewhere);
	read_file(path_in(fresh, "latency.svg"), file_text, sizeof file_text);
	CHECK(rc == 0 && strstr(file_text, "<polyline class=\"curve\""),
	      "--out a new folder: latency.svg written there");
	read_file(path_in(fresh, "report.html"), file_text, sizeof file_text);
	CHECK(strstr(file_text, "</html>") != NULL, "and report.html");
}

/* A system.json that is cut short, or is no JSON, is refused: exit 2,
   named, as compare refuses it. The list of registers is whole in it, so
   a search for the list's name would have taken it. */
static void test_system_json_refused(void)
{
	char *cut = folder("cut"), *fifo = folder("fifo");
	size_t len = read_file("tests/data/zen3-vm-cpuid.json", file_text, sizeof file_text);
	char *list_end = strstr(file_text, "cpuid_cache_leaves");

	list_end = list_end ? strchr(list_end, ']') : NULL;
	CHECK(list_end != NULL, "the recorded system.json holds the list");
	if (!list_end)
		return;
	copy_bytes("tests/data/zen3-vm-latency-1.csv", cut, "results.csv", 0);
	copy_bytes("tests/data/zen3-vm-cpuid.json", cut, "system.json",
		   (size_t)(list_end - file_text) + 1);
	CHECK((size_t)(list_end - file_text) + 1 < len, "cut after the list, before its end");

	char *argv[] = { "analyze", path_in(cut, "results.csv"), 0 };
	int rc = analyze(argv);
	CHECK(rc == 2 && strstr(err_text, "system.json is not well-formed JSON (reading failed at "
				"byte") && !strstr(out_text, "\n  L1 "),
	      "a system.json cut short: refused, exit 2, nothing analysed (exit %d: %s)", rc,
	      err_text);

	copy_bytes("tests/data/zen3-vm-latency-1.csv", fifo, "results.csv", 0);
	CHECK(mkfifo(path_in(fifo, "system.json"), 0644) == 0, "a FIFO named system.json");
	alarm(30);   /* a FIFO opened for reading would block: fail, do not hang */
	char *beside[] = { "analyze", path_in(fifo, "results.csv"), 0 };
	rc = analyze(beside);
	CHECK(rc == 2 && strstr(err_text, "system.json cannot be read: not a regular file: a FIFO"),
	      "analyze: a FIFO system.json refused without opening it (exit %d: %s)", rc, err_text);
	char *cmp[] = { "compare", fifo, fifo, 0 };
	rc = compare(cmp);
	CHECK(rc == 2 && strstr(err_text, "system.json cannot be read: not a regular file: a FIFO"),
	      "compare: the same (exit %d: %s)", rc, err_text);
	alarm(0);
}

/* Odd inputs: a FIFO, a folder, a procfs file. */
static void test_odd_inputs(void)
{
	char *fifo = path_in(root, "pipe.csv");

	CHECK(mkfifo(fifo, 0644) == 0, "a FIFO");
	alarm(30);
	char *pipe_argv[] = { "analyze", fifo, 0 };
	int rc = analyze(pipe_argv);
	alarm(0);
	CHECK(rc == 2 && strstr(err_text, "not a regular file: a FIFO"),
	      "analyze on a FIFO: exit 2 at once, named (%s)", err_text);
	char *empty = folder("empty");
	char *dir_argv[] = { "analyze", empty, 0 };
	rc = analyze(dir_argv);
	CHECK(rc == 2 && strstr(err_text, "a folder, and its results.csv cannot be read"),
	      "analyze on a folder with no results.csv: exit 2, named (%s)", err_text);
	write_text(empty, "results.csv.txt", "not the name\n");
	rc = analyze(dir_argv);
	CHECK(rc == 2 && strstr(err_text, "No such file"),
	      "and the reason it cannot be read (%s)", err_text);
	char *proc_argv[] = { "analyze", "/proc/self/status", 0 };
	rc = analyze(proc_argv);
	CHECK(rc == 2 && !strstr(err_text, "empty") && strstr(err_text, "no 'probe' column"),
	      "analyze on a procfs file: read for what it holds, not called empty (%s)", err_text);
}

/* A run folder's card as compare and fleet rebuild it carries the stars
   the run's own card had from its trials: each row's spread travels with
   it. Run 6 of the quiet Zen 5 runs stars its L1 for the spread of the
   points around its step (tests/unit/test_card.c reads the same). */
static void test_card_keeps_stars(void)
{
	static struct run_folder r;
	static struct card card;
	char *run = folder("starred"), why[256];
	int l1 = -1;

	copy_bytes("tests/data/zen5-vm-quick-6.csv", run, "results.csv", 0);
	copy_bytes("tests/data/zen5-vm-cpuid.json", run, "system.json", 0);
	CHECK(run_folder_read(&r, run, 'A', why, sizeof why) == 0, "the run folder reads (%s)",
	      why);
	run_folder_card(&r, &card);
	for (size_t i = 0; i < card.ncaches; i++)
		if (!strcmp(card.cache[i].name, "L1"))
			l1 = (int)i;
	CHECK(l1 >= 0 && card.cache[l1].noisy,
	      "the rebuilt card stars L1, as the run's own did from its trials' spread");
	run_folder_free(&r);
}

/* A run folder's card as compare and fleet rebuild it has the run's
   geometry figures from its system.json's summary.geometry: the geometry
   line, the ways column and the figures by name. */
static void test_card_reads_geometry(void)
{
	static struct run_folder r;
	static struct card card;
	static char text[CARD_TEXT_MAX];
	struct card_figure fig[CARD_MAX_FIGURES];
	char *run = folder("geometry"), why[256];
	size_t n, ways = 0;

	copy_bytes("tests/data/zen5-vm-quick-6.csv", run, "results.csv", 0);
	write_text(run, "system.json",
		   "{\"summary\": {\"geometry\": {\"line_bytes\": {\"measured\": 64, "
		   "\"claimed\": 64, \"verdict\": \"agrees\", \"how\": \"one step\"}, "
		   "\"caches\": [{\"name\": \"L1d\", \"ways\": {\"measured\": 12, "
		   "\"claimed\": 8, \"verdict\": \"differs\", \"how\": \"a step\"}, "
		   "\"sets\": {\"claimed\": 64, \"verdict\": \"not measurable\", "
		   "\"how\": \"not measurable here: noise\"}}], \"tlbs\": []}}}\n");
	CHECK(run_folder_read(&r, run, 'A', why, sizeof why) == 0, "the run folder reads (%s)",
	      why);
	run_folder_card(&r, &card);
	card_format(&card, text, sizeof text);
	CHECK(card.geometry.ran && card.geometry.nlevels == 1 &&
	      card.geometry.level[0].sets.verdict == GEOMETRY_NOT_MEASURABLE &&
	      strstr(card.geometry.level[0].sets.why, "noise") &&
	      strstr(text, "geometry line 64 B, L1d 12 ways (claim 8) x - sets; 1 differs from "
			   "the claims"),
	      "the rebuilt card has the run's geometry line:\n%s", text);
	n = card_figures(&card, fig, CARD_MAX_FIGURES);
	for (size_t i = 0; i < n; i++)
		ways += !strcmp(fig[i].name, "L1d ways") && fig[i].value == 12;
	CHECK(ways == 1, "and its figure 'L1d ways' for compare and fleet");
	run_folder_free(&r);
}

/* Another program's curve with no system.json beside it is read against
   this machine's CPU, said so; --claims none reads it without claims and
   --claims this-cpu with this CPU's for any file. A results.csv alone
   stays without claims: memprobe's runs record their own. */
static void test_curve_claims(void)
{
	char *dir = folder("curve"), *curve = path_in(dir, "lat_mem_rd.txt");

	copy_bytes("tests/data/other-lmbench-lat_mem_rd-emr-1.txt", dir, "lat_mem_rd.txt", 0);
	char *plain[] = { "analyze", curve, 0 };
	int rc = analyze(plain);
	CHECK(rc == 0 && strstr(out_text, "system.json: No such file or directory; the curve is "
				"read against this machine's CPU, read now, as if recorded here "
				"(--claims none: without claims") &&
	      (strstr(out_text, "this machine's CPU, read now, read from CPUID") ||
	       strstr(out_text, "this machine's CPU claims no caches")),
	      "a curve alone: this machine's claims, said so (exit %d)", rc);
	char *none[] = { "analyze", curve, "--claims", "none", 0 };
	rc = analyze(none);
	CHECK(rc == 0 && strstr(out_text, "claims: none (--claims none); the levels are shown "
				"without them") && !strstr(out_text, "read from CPUID") &&
	      strstr(out_text, "\n  L1               2 MiB"),
	      "--claims none: no claims, and the stride curve's one level under 2x not told "
	      "from a TLB's (exit %d)", rc);
	char *here[] = { "analyze", "tests/data/zen3-vm-latency-1.csv", "--claims", "this-cpu", 0 };
	rc = analyze(here);
	CHECK(rc == 0 && strstr(out_text, "claims: this machine's CPU, read now (--claims this-cpu)"),
	      "--claims this-cpu for a results.csv: this CPU's, said so (exit %d)", rc);
	copy_bytes("tests/data/zen3-vm-latency-1.csv", dir, "results.csv", 0);
	char *csv[] = { "analyze", path_in(dir, "results.csv"), 0 };
	rc = analyze(csv);
	CHECK(rc == 0 && strstr(out_text, "system.json: No such file or directory; the levels are "
				"shown without them") && !strstr(out_text, "this machine's CPU"),
	      "a results.csv alone: no claims, as before (exit %d)", rc);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_run_folder_untouched();
	test_system_json_refused();
	test_odd_inputs();
	test_curve_claims();
	test_card_keeps_stars();
	test_card_reads_geometry();
	scratch_remove(root);
	return check_summary();
}
