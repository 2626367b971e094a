/* Progress lines appear when due and not before. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "results/progress.h"

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
	return check_summary();
}
