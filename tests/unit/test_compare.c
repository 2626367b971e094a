/* memprobe compare over recorded runs (tests/data): rows matched by what
 * was measured, ratios to the first run, sizes only one run has marked,
 * the levels of each run, compare.html and compare.svg written and never
 * over an earlier one, and a plain error for every bad folder.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "check.h"
#include "capture.h"
#include "read_back.h"
#include "desk/compare.h"
#include "desk/fitted_table.h"

static char root[] = "/tmp/memprobe-test-compare-XXXXXX";
static char out_text[1 << 20], err_text[1 << 16];

/* dir/name from the first `lines` lines of src (all when 0). */
static void copy_lines(const char *src, const char *dir, const char *name, int lines)
{
	char path[512], line[4096];
	FILE *in = fopen(src, "r"), *out;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	out = fopen(path, "w");
	for (int n = 0; in && out && fgets(line, sizeof line, in) && (!lines || n < lines); n++)
		fputs(line, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

static char *folder(const char *name)
{
	return folder_in(root, name);
}

/* compare_main with stdout and stderr caught in out_text and err_text. */
static int compare(char **argv)
{
	return capture_main(compare_main, argv, root, out_text, sizeof out_text, err_text,
			    sizeof err_text);
}

static void test_two_runs(void)
{
	char *a = folder("a"), *b = folder("b"), *out = folder("out"), path[512], star = 0;
	static char page[1 << 20], svg[1 << 18];

	copy_lines("tests/data/zen3-vm-latency-1.csv", a, "results.csv", 0);
	copy_lines("tests/data/zen3-vm-cpuid.json", a, "system.json", 0);
	/* B's sweep stops earlier: the sizes past it are A's only. */
	copy_lines("tests/data/zen3-vm-latency-2.csv", b, "results.csv", 40);
	write_text(b, "system.json", "{\"platform\":{\"name\":\"uefi\"},"
		   "\"cpu\":{\"brand\":\"Brand <B> & co\"},\"app\":{\"version\":\"0.1.0\","
		   "\"build\":\"abc\"}}\n");

	char *argv[] = { "compare", a, b, "--out", out, 0 };
	int rc = compare(argv);
	CHECK(rc == 0, "two recorded runs compare (exit %d; stderr: %s)", rc, err_text);
	CHECK(strstr(out_text, "== latency ==") && strstr(out_text, "B/A"),
	      "a latency table with the ratio to run A is printed");
	CHECK(strstr(out_text, "uefi") && strstr(out_text, "Brand <B> & co") &&
	      strstr(out_text, "0.1.0 (build abc)"), "each run's platform, CPU and build, from "
	      "its system.json");
	CHECK(strstr(out_text, "not recorded") != NULL,
	      "what a system.json does not hold is said, not invented");
	CHECK(strstr(out_text, "  * chase") && strstr(out_text, " A\n"),
	      "a size only run A has is marked '*', and named");
	CHECK(strstr(out_text, "1.00x") != NULL, "matching rows give a ratio");
	const char *first = strstr(out_text, "\n== ");
	CHECK(first && !strncmp(first, "\n== summary: the runs' cards side by side ==", 44),
	      "the first table is the runs' cards side by side");
	const char *l1 = first ? strstr(first, "\n    L1 KiB ") : NULL;
	CHECK(l1 && l1 < strstr(out_text, "== runs ==") && strstr(first, "B/A") &&
	      sscanf(l1, " L1 KiB %*f %*f %*fx") == 0 && strstr(l1, "32"),
	      "with a row for L1's size, a column per run and B's ratio to A");
	const char *l3 = first ? strstr(first, "\n    L3 ns ") : NULL;
	CHECK(l3 && sscanf(l3, " L3 ns %*f%c", &star) == 1 && star == '*' &&
	      strstr(out_text, "'*' after a figure: starred on its run's card"),
	      "a figure its card starred (the VM's L3, a guest's share) carries the star: %.40s",
	      l3 ? l3 + 1 : "no L3 row");
	CHECK(l1 && sscanf(l1, " L1 KiB %*f%c", &star) == 1 && star == ' ',
	      "an unstarred figure has none");
	CHECK(strstr(out_text, "== levels") && strstr(out_text, "L1") && strstr(out_text, "cache"),
	      "each run's levels, from its own rows");

	snprintf(path, sizeof path, "%s/compare.html", out);
	read_file(path, page, sizeof page);
	CHECK(!strncmp(page, "<!DOCTYPE html>", 15) && strstr(page, "</html>"),
	      "compare.html is a whole page");
	CHECK(strstr(page, "Brand &lt;B&gt; &amp; co") != NULL, "its text is escaped");
	CHECK(strstr(page, "<h2>") && !strncmp(strstr(page, "<h2>"), "<h2>summary: the runs",
					     21), "the page's first table is the cards too");
	CHECK(strstr(page, "<tr class=\"only\">") != NULL, "the rows one run lacks are marked");
	CHECK(strstr(page, "<svg") && !strstr(page, "<?xml") && !strstr(page, "<script"),
	      "the chart inline, no script");
	snprintf(path, sizeof path, "%s/compare.svg", out);
	read_file(path, svg, sizeof svg);
	CHECK(!strncmp(svg, "<?xml", 5) && strstr(svg, "</svg>") &&
	      strstr(svg, "A 4 KiB pages") && strstr(svg, "B 2 MiB pages"),
	      "compare.svg: one curve per run and page size");

	rc = compare(argv);
	CHECK(rc == 2 && strstr(err_text, "compare.html: File exists") &&
	      strstr(err_text, "never overwrites"), "an earlier comparison is never overwritten");
}

static void test_errors(void)
{
	char *a = folder("a"), *empty = folder("empty"), *badjson = folder("badjson");
	char *tlb = folder("tlb"), *norows = folder("norows"), *mixed = folder("mixed");
	char missing[300], path[300];
	FILE *f;

	snprintf(missing, sizeof missing, "%s/nonexistent", root);
	copy_lines("tests/data/zen3-vm-latency-1.csv", badjson, "results.csv", 0);
	write_text(badjson, "system.json", "{\"cpu\":{\"brand\":\"x\",}}");
	copy_lines("tests/data/emr-vm-tlb.csv", tlb, "results.csv", 0);
	copy_lines("tests/data/zen3-vm-latency-1.csv", norows, "results.csv", 1);
	/* A run of latency and tlb: the tlb rows appended under the one header. */
	copy_lines("tests/data/zen3-vm-latency-1.csv", mixed, "results.csv", 0);
	copy_lines("tests/data/emr-vm-tlb.csv", mixed, "tlb.csv", 0);
	snprintf(path, sizeof path, "%s/results.csv", mixed);
	f = fopen(path, "a");
	snprintf(path, sizeof path, "%s/tlb.csv", mixed);
	read_file(path, out_text, sizeof out_text);
	fputs(strchr(out_text, '\n') + 1, f);
	fclose(f);

	char *one[] = { "compare", a, 0 };
	CHECK(compare(one) == 2 && strstr(err_text, "give two run folders or more (1 given)"),
	      "one run is refused");
	char *gone[] = { "compare", a, missing, 0 };
	CHECK(compare(gone) == 2 && strstr(err_text, missing) &&
	      strstr(err_text, "No such file or directory"), "a missing folder is named");
	char *bare[] = { "compare", a, empty, 0 };
	CHECK(compare(bare) == 2 && strstr(err_text, empty) &&
	      strstr(err_text, "no results.csv to read"), "a folder without results.csv is named");
	char *bad[] = { "compare", a, badjson, 0 };
	CHECK(compare(bad) == 2 && strstr(err_text, badjson) &&
	      strstr(err_text, "system.json is not well-formed JSON (reading failed at byte 20 of 22)"),
	      "a malformed system.json is named, with where it breaks");
	char *none[] = { "compare", a, norows, 0 };
	CHECK(compare(none) == 2 && strstr(err_text, "results.csv: no rows"),
	      "a results.csv without rows is named");
	char *apart[] = { "compare", a, tlb, 0 };
	CHECK(compare(apart) == 2 && strstr(err_text, "no probe ran in every run") &&
	      strstr(err_text, " latency\n") && strstr(err_text, " tlb\n"),
	      "runs with no probe in common are refused, each run's probes listed");
	char *option[] = { "compare", a, a, "--bogus", 0 };
	CHECK(compare(option) == 2 && strstr(err_text, "unknown option --bogus"),
	      "an unknown option is named");
	char *print_only[] = { "compare", a, mixed, 0 };
	CHECK(compare(print_only) == 0 && strstr(out_text, "no --out DIR") &&
	      strstr(out_text, "== tlb ==") && strstr(out_text, "  * control"),
	      "without --out the tables are printed and the missing files said; a probe one "
	      "run lacks still gets its table, every row marked");
}

static void test_table(void)
{
	static const char *const header[] = { "name", "ns" };
	struct fitted_table t;
	char path[300];
	FILE *f;

	snprintf(path, sizeof path, "%s/table.txt", root);
	fitted_table_init(&t, 2, header, 1);
	fitted_table_row(&t, 0);
	fitted_table_cell(&t, "L1");
	fitted_table_cell(&t, "%.2f", 1.5);
	fitted_table_row(&t, 1);
	fitted_table_cell(&t, "memory");
	fitted_table_cell(&t, "%.2f", 100.25);
	f = fopen(path, "w");
	fitted_table_print(&t, f);
	fclose(f);
	fitted_table_free(&t);
	read_file(path, out_text, sizeof out_text);
	CHECK(!strcmp(out_text, "    name       ns\n    L1       1.50\n  * memory 100.25\n"),
	      "a table prints aligned, words left, numbers right, marked rows starred");
}

/* Runs of loaded, c2c and bandwidth rows: each loader count and CPU pair a
   row of its own (matched on every identity column), bandwidth in GB/s,
   and each probe's geometric mean ratio. */
static void test_identity_and_rate(void)
{
	static const char header[] = "probe,variant,page_size,working_set_bytes,ns,cycles,cpu,"
				     "peer_cpu,loaders,load_gb_per_s,gb_per_s,bytes_per_cycle\n";
	char *a = folder("ida"), *b = folder("idb"), *out = folder("idout"), text[2048], path[512];
	static char page[1 << 20];
	size_t len = 0;

	for (int r = 0; r < 2; r++) {
		len = (size_t)snprintf(text, sizeof text, "%s", header);
		for (unsigned l = 0; l < 4; l++)
			len += (size_t)snprintf(text + len, sizeof text - len,
						"loaded,read,4096,268435456,%u.000,%u.00,0,,%u,%u.0,,\n",
						(r ? 110 : 100) + 10 * l, 400 + 40 * l, l, 12 * l);
		len += (size_t)snprintf(text + len, sizeof text - len,
					"c2c,pingpong,4096,64,%s,160.00,0,1,,,,\n"
					"c2c,pingpong,4096,64,%s,240.00,1,0,,,,\n"
					"bandwidth,read_avx2,4096,16384,1.000,4.00,,,,,%s,16.000\n",
					r ? "40.000" : "50.000", r ? "75.000" : "60.000",
					r ? "128.000" : "32.000");
		write_text(r ? b : a, "results.csv", text);
	}
	char *argv[] = { "compare", a, b, "--out", out, 0 };
	int rc = compare(argv);
	const char *loaded = strstr(out_text, "== loaded =="), *c2c = strstr(out_text, "== c2c ==");
	const char *bw = strstr(out_text, "== bandwidth ==");
	int rows = 0;

	CHECK(rc == 0 && loaded && c2c && bw, "loaded, c2c and bandwidth compare (exit %d: %s)",
	      rc, err_text);
	if (!loaded || !c2c || !bw)
		return;
	for (const char *p = loaded; p && p < c2c; p = strstr(p + 1, "\n    read "))
		rows += p != loaded;
	CHECK(rows == 4, "loaded: all four loader counts kept (%d rows)", rows);
	CHECK(strstr(loaded, " loaders ") && strstr(loaded, "1.10x") && strstr(loaded, "1.09x") &&
	      strstr(loaded, "geometric mean") && strstr(loaded, "x (4)"),
	      "loaded: a loaders column, each count's own ratio, a geometric mean over four");
	CHECK(strstr(c2c, " peer cpu ") && strstr(c2c, "0.80x") && strstr(c2c, "1.25x") &&
	      strstr(c2c, "1.00x (2)"), "c2c: each pair its own ratio (0.80, 1.25), mean 1.00");
	CHECK(strstr(bw, "A GB/s") && strstr(bw, "B B/cycle") && strstr(bw, "4.00x") &&
	      strstr(bw, "4.00x (1)") &&
	      strstr(bw, "run X's GB/s over run A's"),
	      "bandwidth: GB/s and bytes per cycle, the ratio of GB/s (4x), said so");
	snprintf(path, sizeof path, "%s/compare.html", out);
	read_file(path, page, sizeof page);
	CHECK(strstr(page, "<td class=\"text\">geometric mean</td>") &&
	      strstr(page, "<th>B GB/s</th>") && strstr(page, "bandwidth: each run&#39;s figures, ratio of GB/s"),
	      "the page has the same tables, the ratio named in the caption");
	snprintf(path, sizeof path, "%s/compare-c2c.svg", out);
	CHECK(access(path, F_OK) != 0 && strstr(out_text, "so compare-c2c.svg is not written") &&
	      strstr(page, "so compare-c2c.svg is not written"),
	      "c2c's pairs lie on no working-set curve: no empty compare-c2c.svg, the terminal "
	      "and the page say so");
	snprintf(path, sizeof path, "%s/compare-bandwidth.svg", out);
	CHECK(access(path, F_OK) == 0, "bandwidth's curve is drawn: compare-bandwidth.svg");
}

/* A quick run whose bandwidth stops at 8 MiB, inside the 32 MiB L3 its
   CPU claims, against a full run that reads memory from 128 MiB (4 x the
   claim) on: the card table's memory row holds the full run's figure only,
   never the quick run's cached one, and gives no ratio. */
static void test_memory_rows(void)
{
	static const char header[] = "probe,variant,page_size,working_set_bytes,ns,cycles,"
				     "gb_per_s,bytes_per_cycle\n";
	char *q = folder("mq"), *f = folder("mf"), text[4096];
	const char *row;
	size_t len;

	for (int r = 0; r < 2; r++) {
		len = (size_t)snprintf(text, sizeof text, "%s", header);
		for (unsigned long long kib = 4; kib <= (r ? 512ull << 10 : 8ull << 10); kib *= 2) {
			double gb = kib <= 32 ? 200 : kib <= 512 ? 100 : kib <= 8192 ? 64.6 :
				    kib < 131072 ? 40 : 18.8;
			len += (size_t)snprintf(text + len, sizeof text - len,
						"bandwidth,read_avx2,4096,%llu,%.4f,%.3f,%.3f,%.3f\n",
						kib << 10, 64 / gb, 256 / gb, gb, gb / 4);
		}
		write_text(r ? f : q, "results.csv", text);
		copy_lines("tests/data/zen3-vm-cpuid.json", r ? f : q, "system.json", 0);
	}
	char *argv[] = { "compare", q, f, 0 };
	int rc = compare(argv);

	const char *runs = strstr(out_text, "== runs ==");

	row = strstr(out_text, "memory read GB/s, one core");
	if (runs)
		*(char *)runs = 0;   /* the card table alone: the bandwidth table has 64.60 */
	CHECK(rc == 0 && runs && row && row < runs && !strncmp(strchr(row, '-'), "- 18.80", 7) &&
	      !strstr(out_text, "64.60"),
	      "the quick run's cached 64.6 GB/s is in no memory row; the full run's 18.8 is "
	      "(%.60s)", row ? row : "no row");
}

/* Two quick runs of the Emerald Rapids VM an hour apart: the second's
   chases ran at a median clock of 2.47 GHz against the first's 2.84, so
   its ns stand about 1.15x at the same cycles, and compare says so under
   the cards; two runs at 2.47 and 2.50 GHz draw no such note. */
static void test_clock_note(void)
{
	char *a = folder("clock-a"), *b = folder("clock-b"), *c = folder("clock-c");

	copy_lines("tests/data/emr-vm-quick-tlb-1.csv", a, "results.csv", 0);
	copy_lines("tests/data/emr-vm-quick-tlb-3.csv", b, "results.csv", 0);
	copy_lines("tests/data/emr-vm-quick-tlb-4.csv", c, "results.csv", 0);
	copy_lines("tests/data/emr-vm-cpuid.json", a, "system.json", 0);
	copy_lines("tests/data/emr-vm-cpuid.json", b, "system.json", 0);
	copy_lines("tests/data/emr-vm-cpuid.json", c, "system.json", 0);
	char *apart[] = { "compare", a, b, 0 };
	int rc = compare(apart);
	CHECK(rc == 0 && strstr(out_text, "run B's core clock (its chases' median) ran 2.47 GHz "
				"against run A's 2.84 (0.87x): its ns read about 1.15x A's at the "
				"same cycles") &&
	      strstr(out_text, "\n    core clock GHz, the chases' median "),
	      "clocks 13%% apart: the row and the note (exit %d)", rc);
	char *close[] = { "compare", b, c, 0 };
	rc = compare(close);
	CHECK(rc == 0 && !strstr(out_text, "core clock (its chases' median) ran"),
	      "clocks 1%% apart: no note (exit %d)", rc);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_two_runs();
	test_errors();
	test_table();
	test_identity_and_rate();
	test_memory_rows();
	test_clock_note();
	scratch_remove(root);
	return check_summary();
}
