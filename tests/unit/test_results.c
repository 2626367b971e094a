/* results.c through the real Linux platform: a run folder is made under a
 * temporary root, the files are read back and checked line by line, while
 * the run is still going (a run cut short keeps finished probes) and after.
 * The console is captured by pointing stdout at a file for the duration.
 */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "read_back.h"
#include "host/host.h"
#include "results/emit.h"
#include "core/platform.h"
#include "results/results.h"

static char root[] = "/tmp/memprobe-test-results-XXXXXX";

/* The console goes to a file between capture_begin and capture_end. */
static int saved_stdout = -1;
static char capture_path[128];

static void capture_begin(void)
{
	fflush(stdout);
	snprintf(capture_path, sizeof capture_path, "%s/console.txt", root);
	int fd = open(capture_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	saved_stdout = dup(1);
	dup2(fd, 1);
	close(fd);
}

static void capture_end(char *buf, size_t size)
{
	fflush(stdout);
	dup2(saved_stdout, 1);
	close(saved_stdout);
	read_file(capture_path, buf, size);
}

static void file_in_run(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", plat_run_folder(), name);
}

static void fill_system(struct json *j, void *arg)
{
	json_string(j, "app", (const char *)arg);
	json_double(j, "tsc_ghz", 2.95);
	json_object_begin(j, "config");
	json_u64(j, "trials", 5);
	json_object_end(j);
}

static void fill_too_much(struct json *j, void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++)
		json_string(j, "padding", "0123456789012345678901234567890123456789");
}

static const struct result_row chase_4k = {
	.probe = "latency", .variant = "chase", .page_shift = 12, .working_set_bytes = 4096,
	.ns = 1.3333333, .cycles = 4.0049, .trials = 5, .spread = 0.012345,
	.pages_verified = "pages verified: 1 x 4 KiB, WB", .timer = "tsc cpuid-15h",
};

static void test_run(void)
{
	char path[4096], text[65536], console[65536];

	host_set_results_root(root);
	capture_begin();
	report_printf("memprobe %s\n", "0.1.0");     /* before the files exist */
	results_open();
	report_printf("latency: %d sizes\n", 2);
	results_row(&chase_4k);
	struct result_row quoted = chase_4k;
	quoted.variant = "with, \"comma\"";
	quoted.pages_verified = "kernel said \"no\"";
	quoted.page_shift = 21;
	quoted.working_set_bytes = 3u << 20;
	results_row(&quoted);

	/* No CHECK while the console is captured: its lines would land in the
	   capture and not in report.txt. Each observation is kept for later. */
	file_in_run(path, sizeof path, "results.csv");
	read_file(path, text, sizeof text);
	int written_at_once = strcmp(text, "probe,variant,page_size,working_set_bytes,ns,cycles,"
				     "trials,spread_pct,pages_verified,timer,cpu,peer_cpu,loaders,"
				     "load_gb_per_s,chases,in_flight,gb_per_s,bytes_per_cycle,sweep_point,stride_bytes,trial_form,stopped_by,insns_per_cycle\n"
				     "latency,chase,4096,4096,1.333,4.00,5,1.23,p1,t1,,,,,,,,,,,,,\n"
				     "latency,\"with, \"\"comma\"\"\",2097152,3145728,1.333,4.00,5,1.23,"
				     "p2,t1,,,,,,,,,,,,,\n") == 0;

	results_probe_done();
	read_file(path, text, sizeof text);
	int first_row = strstr(text, "\nlatency,chase,4096,4096,1.333,4.00,5,1.23,p1,t1,,,,,,,,,,,,,\n")
			!= NULL;
	int quoted_row = strstr(text, "\nlatency,\"with, \"\"comma\"\"\",2097152,3145728,1.333,4.00,"
				"5,1.23,p2,t1,,,,,,,,,,,,,\n") != NULL;

	struct result_row cost = {
		.probe = "cost", .variant = "by_value_sysv", .page_shift = 0, .working_set_bytes = 0,
		.ns = 0.25, .cycles = NAN, .trials = 7, .spread = 0, .pages_verified = "",
		.timer = "tsc",
	};
	results_row(&cost);

	/* A long field is written whole, quotes balanced; a row too long for
	   any reader's good is left out, whole, and the report says so. */
	char long_timer[301], huge_timer[3000];
	memset(long_timer, 't', 300);
	long_timer[150] = ',';
	long_timer[300] = '\0';
	memset(huge_timer, 'h', sizeof huge_timer - 1);
	huge_timer[sizeof huge_timer - 1] = '\0';
	struct result_row long_row = cost, huge_row = cost;
	long_row.timer = long_timer;
	huge_row.timer = huge_timer;
	results_row(&long_row);
	results_row(&huge_row);
	results_probe_done();
	read_file(path, text, sizeof text);
	int cost_row = strstr(text, "\ncost,by_value_sysv,,,0.250,nan,7,0.00,,t2,,,,,,,,,,,,,\n") != NULL;
	int long_as_id = strstr(text, "\ncost,by_value_sysv,,,0.250,nan,7,0.00,,t3,,,,,,,,,,,,,\n") != NULL;
	int huge_absent = strstr(text, "hhhh") == NULL;

	results_system(fill_system, "memprobe 0.1.0");
	file_in_run(path, sizeof path, "system.json");
	char system_text[4096], system_want[4096];
	read_file(path, system_text, sizeof system_text);
	snprintf(system_want, sizeof system_want,
		 "{\n  \"schema_version\": %d,\n  \"app\": \"memprobe 0.1.0\",\n"
		 "  \"tsc_ghz\": 2.9500000000000002,\n  \"config\": {\n    \"trials\": 5\n  },\n"
		 "  \"row_texts\": {\n    \"pages_verified\": {\n"
		 "      \"p1\": \"pages verified: 1 x 4 KiB, WB\",\n"
		 "      \"p2\": \"kernel said \\\"no\\\"\"\n    },\n"
		 "    \"timer\": {\n      \"t1\": \"tsc cpuid-15h\",\n      \"t2\": \"tsc\",\n"
		 "      \"t3\": \"%s\"\n    }\n  }\n}\n", SYSTEM_JSON_SCHEMA_VERSION, long_timer);

	results_system(fill_too_much, NULL);
	report_printf("done\n");
	results_close();
	capture_end(console, sizeof console);

	CHECK(written_at_once, "each row is in results.csv as soon as it is made, before its probe "
	      "is done: a process killed outright loses at most the row being written");
	CHECK(first_row, "a finished probe's row is in results.csv at once, fixed precision, "
	      "spread in percent, the long texts as ids");
	CHECK(quoted_row, "RFC 4180: commas quoted, quotes doubled, page_size in bytes; a "
	      "second pages_verified text gets the next id");
	CHECK(cost_row, "no page size and no working set give empty fields; a NaN says nan");
	CHECK(long_as_id, "a 300-character timer with a comma is an id in its row");
	CHECK(huge_absent && strstr(console, "results.csv: a cost row is longer than 2048 bytes and "
				    "was left out\n"), "an overlong row is left out whole, and said so");
	if (strcmp(system_text, system_want) != 0)
		printf("# system.json:\n%s\n", system_text);
	CHECK(strcmp(system_text, system_want) == 0, "system.json is the filled object, indented, "
	      "its schema_version first and the rows' texts by id last");
	CHECK(strstr(console, "no results file written: system.json: the description needs more "
		     "than 256 KiB; the run goes on, on the console\n") != NULL,
	      "a system.json too big for its buffer is not written, and the console says so");
	file_in_run(path, sizeof path, "system.json");
	read_file(path, text, sizeof text);
	CHECK(strcmp(text, system_want) == 0, "the earlier system.json is left as it was");

	file_in_run(path, sizeof path, "report.txt");
	read_file(path, text, sizeof text);
	CHECK(strcmp(text, console) == 0, "report.txt is exactly what the console showed");
	CHECK(strncmp(text, "memprobe 0.1.0\nlatency: 2 sizes\n", 32) == 0 &&
	      strstr(text, "done\n"), "text from before results_open is in report.txt too");
}

static void test_unwritable(void)
{
	char console[8192], blocker[256];

	/* A plain file where the root folder should be: nothing can be made. */
	snprintf(blocker, sizeof blocker, "%s/not-a-folder", root);
	close(open(blocker, O_WRONLY | O_CREAT, 0644));
	char unwritable_root[300];
	snprintf(unwritable_root, sizeof unwritable_root, "%s/sub", blocker);
	host_set_results_root(unwritable_root);

	capture_begin();
	results_open();
	results_row(&chase_4k);
	results_probe_done();
	report_printf("still running\n");
	results_close();
	capture_end(console, sizeof console);

	CHECK(strstr(console, "no results file written: report.txt: it could not be created; "
		     "the run goes on, on the console\n") != NULL, "report.txt: said plainly");
	CHECK(strstr(console, "no results file written: results.csv: it could not be created; "
		     "the run goes on, on the console\n") != NULL, "results.csv: said plainly");
	CHECK(strstr(console, "still running\n") != NULL, "the run goes on, on the console");
	CHECK(!plat_files_complete(), "the platform says the run's files are missing, for the "
	      "verdict");
	const char *first = strstr(console, "no results file written: results.csv");
	CHECK(first && !strstr(first + 1, "no results file written: results.csv"),
	      "each file's failure is said once");
}

static void test_volume_full(void)
{
	char console[16384], path[4096], text[65536];
	struct rlimit old, small = { 4096, 4096 };

	/* A file size limit is a full volume as write() sees it. */
	host_set_results_root(root);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	small.rlim_max = old.rlim_max;
	setrlimit(RLIMIT_FSIZE, &small);

	capture_begin();
	results_open();
	for (int i = 0; i < 200; i++)
		results_row(&chase_4k);
	results_probe_done();
	results_row(&chase_4k);
	results_probe_done();
	report_printf("after the volume filled\n");
	results_close();
	capture_end(console, sizeof console);
	setrlimit(RLIMIT_FSIZE, &old);

	CHECK(strstr(console, "results file cut: results.csv: writing failed (volume full or "
		     "read-only?); it keeps what was written before, and the run goes on, on the "
		     "console\n") != NULL,
	      "a full volume is said plainly, and that the file keeps what came before");
	const char *first = strstr(console, "results file cut: results.csv");
	CHECK(first && !strstr(first + 1, "results file cut: results.csv") &&
	      !strstr(console, "no results file written: results.csv"),
	      "and only once, though later probes also had rows");
	CHECK(strstr(console, "after the volume filled\n") != NULL, "the run goes on");
	CHECK(!plat_files_complete(), "the platform says a file is incomplete, for the verdict");
	file_in_run(path, sizeof path, "results.csv");
	size_t n = read_file(path, text, sizeof text);
	CHECK(n <= 4096, "nothing was written past the limit (%zu bytes)", n);
}

/* emit: the one way a probe writes a row. cycles and timer are filled in
   (whatever they held), the row goes to results.csv and to the row sink
   while one is set. */
static struct result_row sunk;
static int sunk_count;

static void sink(const struct result_row *row)
{
	sunk = *row;
	sunk_count++;
}

static void test_emit(void)
{
	char path[4096], text[65536], console[16384];
	struct result_row row = chase_4k;
	double cycles;

	row.cycles = -1;
	row.timer = "stale";
	host_set_results_root(root);
	capture_begin();
	results_open();
	emit_set_row_sink(sink);
	cycles = emit_result_row(&row);
	emit_set_row_sink(0);
	struct result_row fig = {
		.probe = "cost", .variant = "bare_call_sysv", .ns = 2.0, .trials = 3,
		.spread = 0.5, .pages_verified = "",
	};
	emit_result_row(&fig);
	results_probe_done();
	file_in_run(path, sizeof path, "results.csv");
	read_file(path, text, sizeof text);
	results_close();
	capture_end(console, sizeof console);

	const char *timer = plat_clock()->source;
	CHECK(row.cycles == cycles && cycles != -1 && row.timer == timer,
	      "emit fills in cycles and the platform's timer");
	CHECK(sunk_count == 1 && sunk.cycles == cycles && sunk.timer == timer &&
	      !strcmp(sunk.variant, "chase"), "the sink got the row, once, as written");
	CHECK(strstr(text, "\nlatency,chase,4096,4096,1.333,") &&
	      strstr(text, "\ncost,bare_call_sysv,,,2.000,"), "both rows are in results.csv");
	CHECK(sunk_count == 1, "with the sink cleared, a row goes to results.csv only");
}

/* More different row texts than a run keeps: the rows past them hold the
   text itself (a reader takes a field that is no id as the text), and the
   report says so once. */
static void test_row_texts_full(void)
{
	char console[16384], path[4096], text[65536], timer[80][32];
	struct result_row row = chase_4k;

	host_set_results_root(root);
	capture_begin();
	results_open();
	for (int i = 0; i < 80; i++) {
		snprintf(timer[i], sizeof timer[i], "timer number %d", i);
		row.timer = timer[i];
		results_row(&row);
	}
	results_probe_done();
	results_system(fill_system, "memprobe 0.1.0");
	file_in_run(path, sizeof path, "results.csv");
	read_file(path, text, sizeof text);
	results_close();
	capture_end(console, sizeof console);

	CHECK(strstr(text, ",p1,t63,") && strstr(text, ",p1,timer number 62,") == NULL &&
	      strstr(text, ",p1,timer number 63,") && strstr(text, ",p1,timer number 79,"),
	      "the pages_verified text and 63 timers fill the 64 ids; later texts stay in "
	      "their rows");
	const char *said = strstr(console, "results.csv: more than 64 different texts");
	CHECK(said && !strstr(said + 1, "results.csv: more than 64 different texts"),
	      "the report says so once");
	file_in_run(path, sizeof path, "system.json");
	read_file(path, text, sizeof text);
	CHECK(strstr(text, "\"t63\": \"timer number 62\"") && !strstr(text, "timer number 63"),
	      "system.json holds the texts that have ids, and no other");
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_run();
	test_unwritable();
	test_volume_full();
	test_row_texts_full();
	test_emit();

	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	return check_summary();
}
