/* A memprobe run on Linux: the same probes and output as the UEFI app,
 * configured from the command line (desk/main.c hands every word that is
 * not a desk command here).
 *
 *   memprobe [--out DIR] [--config FILE] [key=value ...]
 */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/probe.h"
#include "run/run.h"
#include "results/results.h"
#include "probes/c2c_chart.h"

/* ---- Constants -------------------------------------------------------- */

/* Like the image built for hardware, the Linux build measures with the full
   profile unless told otherwise; any source may still say profile=quick. */
static const char linux_default[] = "profile = full\n";

/* The Linux build to the configuration: not bare metal (its keys' own
   reasons refuse numa.*, fault.cpu, paging.test_pool and clock.reference:
   Linux places pages by its own policy and calibrates against
   CLOCK_MONOTONIC_RAW, and a run must not quietly measure with another),
   and the architecture's page sizes. */
static const struct config_platform linux_platform = { 0, plat_page_size_architected };

/* ---- Private Functions ------------------------------------------------ */

static void usage(FILE *to, const char *more_usage)
{
	fprintf(to,
		"usage: memprobe [--out DIR] [--config FILE] [key=value ...]\n"
		"%s"
		"\n"
		"Runs memprobe's probes on Linux and writes report.txt, report.html,\n"
		"results.csv, system.json and the charts into a new DIR/run-NNNN folder\n"
		"(DIR defaults to ./memprobe-results; earlier runs are never overwritten).\n"
		"\n"
		"  --out DIR      where run folders go\n"
		"  --config FILE  key = value lines, read before the command line's pairs\n"
		"  key=value      the configuration keys of docs/CONFIG.md, e.g.\n"
		"                 profile=quick probes=latency pages=4k,2m max_size=64M\n"
		"\n"
		"The profile is full unless a source says otherwise. Exit status: 0 when\n"
		"every probe measured what was asked, 1 when one did not or a file was\n"
		"cut, 2 when the configuration, the command line or the --out folder was\n"
		"wrong (before any probe ran), 3 when SIGINT, SIGTERM or SIGHUP stopped\n"
		"the run (every file closed; a second signal ends it at once).\n",
		more_usage);
}

/* Before the first probe: a results folder that cannot take the files
   fails now (-1, said on stderr), not after minutes of measuring; one
   short of room for this run's files is a warning[] for the report (each
   file that does not fit is named when it is cut), else warning[] is "". */
static int results_root_check(const struct config *c, char *warning, size_t size)
{
	uint64_t run_bytes = c->profile == PROFILE_QUICK ? RUN_FILES_QUICK_BYTES
							 : RUN_FILES_FULL_BYTES;
	int room = host_check_results_root(run_bytes, warning, size);

	if (room < 0) {
		fprintf(stderr, "memprobe: %s\n", warning);
		return -1;
	}
	if (room == 0)
		warning[0] = '\0';
	return 0;
}

/* The command line's --config file, --out folder and key=value pairs,
   over memprobe's Linux default, into *c: 0; 1 after --help was printed;
   -1 after saying on stderr what was wrong. Every buffer is freed before
   it returns, whichever way (LeakSanitizer checks each exit). */
static int load_command_line(int argc, char **argv, const char *more_usage, struct config *c)
{
	struct config_source sources[3];
	struct config_error err;
	char *file_text = NULL, *pairs = calloc(1, 1);
	size_t pairs_len = 0, file_len = 0;
	int nsrc = 0, i, rc = -1;
	const char *why;

	sources[nsrc++] = (struct config_source){ "memprobe's Linux default", linux_default,
						  sizeof linux_default - 1, 0 };
	for (i = 1; i < argc && pairs; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			usage(stdout, more_usage);
			rc = 1;
			goto done;
		}
		if (!strcmp(arg, "--out") || !strcmp(arg, "--config")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "memprobe: %s needs a value\n", arg);
				goto done;
			}
			if (!strcmp(arg, "--out")) {
				char refusal[256];

				if (host_results_root_refusal(argv[++i], refusal, sizeof refusal)) {
					fprintf(stderr, "memprobe: %s\n", refusal);
					goto done;
				}
				host_set_results_root(argv[i]);
				continue;
			}
			if (file_text) {
				fprintf(stderr, "memprobe: --config given twice\n");
				goto done;
			}
			/* A FIFO or a device is refused before it is opened:
			   it could block for good, or never end. */
			file_text = host_slurp(argv[++i], &file_len, &why);
			if (!file_text) {
				fprintf(stderr, "memprobe: --config %s: %s\n", argv[i], why);
				goto done;
			}
			sources[nsrc++] = (struct config_source){ argv[i], file_text, file_len, 0 };
			continue;
		}
		if (arg[0] == '-' || !strchr(arg, '=')) {
			fprintf(stderr, "memprobe: '%s' is neither an option nor a key=value pair "
				"(memprobe --help)\n", arg);
			goto done;
		}
		/* One pair per line, so an error names the pair by its position. */
		char *longer = realloc(pairs, pairs_len + strlen(arg) + 2);
		if (!longer)
			break;
		pairs = longer;
		pairs_len += (size_t)sprintf(pairs + pairs_len, "%s\n", arg);
	}
	if (i < argc || !pairs) {
		fprintf(stderr, "memprobe: out of memory\n");
		goto done;
	}
	sources[nsrc++] = (struct config_source){ "command line", pairs, pairs_len, 0 };
	if (config_load(c, sources, nsrc, &linux_platform, &err) != 0)
		fprintf(stderr, "memprobe: %s\n", err.text);
	else
		rc = 0;
done:
	free(file_text);
	free(pairs);
	return rc;
}

/* c2c.cpus naming CPUs this process cannot run on (when c2c runs): a list
   meant for another machine, refused now rather than after the probes
   before it. 0, or -1 after saying so on stderr. */
static int c2c_cpus_check(const struct config *c)
{
	unsigned count = plat_cpu_count(), missing;

	for (unsigned i = 0; i < PROBE_COUNT; i++)
		if ((c->probes & (1u << i)) && probe_registry[i] == probe_by_name("c2c")) {
			missing = c2c_cpus_missing(c, count);
			if (!missing)
				return 0;
			fprintf(stderr, "memprobe: c2c.cpus names %u CPU%s that do%s not exist here: "
				"this process may run on %u (logical CPUs 0-%u)\n", missing,
				missing == 1 ? "" : "s", missing == 1 ? "es" : "", count, count - 1);
			return -1;
		}
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int host_main(int argc, char **argv, const char *more_usage)
{
	static char room_warning[PATH_MAX + 256];   /* a path and its words */
	struct config c;
	const char *stopped_by;
	char verdict[96];
	int rc;

	rc = load_command_line(argc, argv, more_usage, &c);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	if (c2c_cpus_check(&c) != 0)
		return 2;
	if (results_root_check(&c, room_warning, sizeof room_warning) < 0)
		return 2;
	memprobe_report_version();
	if (room_warning[0])
		report_printf("memprobe: %s\n", room_warning);
	host_stop_on_signals();
	rc = memprobe_run(&c);
	stopped_by = memprobe_stopped_by();
	/* As the EFI app's last line: the verdict, after the card. rc counts
	   the files as results_close found them (a card-first copy that did
	   not fit is no lost file). */
	if (stopped_by)
		snprintf(verdict, sizeof verdict, "memprobe: verdict: STOPPED by %s\n", stopped_by);
	else
		snprintf(verdict, sizeof verdict, "memprobe: verdict: %s\n",
			 rc == 0 ? "success" : "FAILURE");
	plat_console(verdict);
	if (stopped_by) {
		fprintf(stderr, "memprobe: stopped by %s: the rows measured are kept and every file "
			"is closed (exit status %d)\n", stopped_by, HOST_EXIT_STOPPED);
		return HOST_EXIT_STOPPED;
	}
	/* A signal after the last probe stopped nothing: every file says the
	   run as it was, and so does the exit status. */
	if (plat_stop_signal())
		fprintf(stderr, "memprobe: %s came after the last probe had run: nothing was left "
			"to stop, and the files say the run as it was\n", plat_stop_signal());
	return rc == 0 ? 0 : 1;
}
