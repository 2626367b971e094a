/* Progress lines appear when due and not before; the run's lines are one
 * per probe on a console that does not redraw, a status line updated in
 * place on one that does; a quiet console shows notices alone. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "results/progress.h"
#include "results/results.h"

/* The host console is stdout: capture it in a file while the ticks run. */
static void capture(const char *path, int on)
{
	static int saved = -1;

	fflush(stdout);
	if (on) {
		saved = dup(1);
		freopen(path, "w", stdout);
	} else {
		dup2(saved, 1);
		close(saved);
		stdout = fdopen(1, "w");
	}
}

/* The file's text into text[size]. */
static void read_back(const char *path, char *text, size_t size)
{
	FILE *f = fopen(path, "r");

	text[fread(text, 1, size - 1, f)] = 0;
	fclose(f);
}

/* Two probes of 3 s and 1 s: their lines, a step of the first, the end. */
static void two_probes(const char *path, char *text, size_t size)
{
	static const char *const names[] = { "first", "second" };
	static const double estimate_ms[] = { 3000, 1000 };
	struct progress p;

	capture(path, 1);
	progress_run_begin(2, names, estimate_ms, "a test's");
	progress_probe_begin(0);
	progress_start(&p);
	usleep((PROGRESS_REDRAW_MS + 50) * 1000);
	progress_tick(&p, "steps", 1, 4);
	report_printf("a probe's own line\n");
	progress_probe_end(0);
	progress_probe_begin(1);
	progress_probe_end(1);
	progress_run_end();
	capture(path, 0);
	read_back(path, text, size);
}

static void run_lines(const char *path)
{
	static char text[4096];

	results_console(0, 0);
	two_probes(path, text, sizeof text);
	CHECK(strstr(text, "memprobe: 2 probes to run: first, second; estimated 4 s (a test's)\n")
	      != NULL, "the opening line names the probes and the estimate: %s", text);
	CHECK(strstr(text, "memprobe: [1/2] first: 75% of the run; about 4 s left\n") != NULL,
	      "a log: the first probe's line, its share and the time left: %s", text);
	CHECK(strstr(text, "memprobe: [2/2] second: 25% of the run; about 0 s left\n") != NULL,
	      "a log: the second's line, its time scaled by the first's pace (a tenth of its "
	      "estimate): %s", text);
	CHECK(!strchr(text, '\r') && !strstr(text, "step 1 of 4"),
	      "a log: whole lines, no status line drawn over");
	CHECK(strstr(text, "memprobe: the probes took 0 s (estimated at the start: 4 s)\n") != NULL,
	      "the last line: the time taken against the estimate: %s", text);

	results_console(0, 1);
	two_probes(path, text, sizeof text);
	CHECK(strstr(text, "memprobe: [1/2] first: 75% of the run, step 1 of 4; about 4 s left") &&
	      !strstr(text, "step 1 of 4; about 4 s left\n"),
	      "a terminal: the step in the status line, no line end after it");
	CHECK(strstr(text, "\ra probe's own line\nmemprobe: [1/2]") != NULL,
	      "a terminal: the status line taken off for the text and put back under it: %s",
	      text);
	CHECK(strstr(text, "\rmemprobe: [2/2] second") != NULL,
	      "a terminal: the next probe's line drawn over the last");

	results_console(1, 0);
	two_probes(path, text, sizeof text);
	CHECK(!strstr(text, "a probe's own line") && strstr(text, "[2/2] second") &&
	      !strstr(text, "the probes took"),
	      "quiet: the probe's text and the closing line left out, the progress kept");
	results_console(0, 0);
}

int main(void)
{
	char path[] = "/tmp/memprobe-progress-XXXXXX", text[512] = "";
	struct progress p;
	FILE *f;
	int fd = mkstemp(path);

	close(fd);
	capture(path, 1);
	progress_start(&p);
	for (unsigned i = 0; i < 1000; i++)
		progress_tick(&p, "quick steps", i, 1000);
	usleep((PROGRESS_EVERY_MS + 200) * 1000);
	progress_tick(&p, "slow step", 7, 9);
	progress_tick(&p, "right after", 8, 9);
	capture(path, 0);

	f = fopen(path, "r");
	text[fread(text, 1, sizeof text - 1, f)] = 0;
	fclose(f);
	unlink(path);
	CHECK(!strstr(text, "quick steps"), "no line while the steps are quicker than the interval");
	CHECK(strstr(text, "      ... slow step: 7 of 9 done, 3.") != NULL,
	      "a line once the interval has passed, with step, total and seconds: %s", text);
	CHECK(!strstr(text, "right after"), "and none again straight after it");
	run_lines(path);
	unlink(path);
	return check_summary();
}
