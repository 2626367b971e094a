/* A memprobe run on Linux: the same probes and output as the UEFI app,
 * configured from the command line (desk/main.c hands every word that is
 * not a desk command here).
 *
 *   memprobe [--out DIR] [--config FILE] [key=value ...]
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/host.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/probe.h"
#include "run/run.h"
#include "results/results.h"

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

/* The whole file, NUL-terminated; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t size = 0, used = 0, n;
	struct stat st;

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		errno = EISDIR;
		return NULL;
	}
	do {
		if (used + 4096 + 1 > size) {
			char *bigger = realloc(text, size = size ? size * 2 : 8192);
			if (!bigger) {
				free(text);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			text = bigger;
		}
		n = fread(text + used, 1, 4096, f);
		used += n;
	} while (n == 4096);
	if (ferror(f)) {
		free(text);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	text[used] = '\0';
	*len = used;
	return text;
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

/* ---- Public Functions ------------------------------------------------- */

int host_main(int argc, char **argv, const char *more_usage)
{
	static char room_warning[PATH_MAX + 256];   /* a path and its words */
	struct config_source sources[3];
	struct config_error err;
	struct config c;
	char *file_text = NULL, *pairs;
	size_t pairs_len = 0, file_len = 0;
	int nsrc = 0, i, rc;

	sources[nsrc++] = (struct config_source){ "memprobe's Linux default", linux_default,
						  sizeof linux_default - 1, 0 };
	pairs = calloc(1, 1);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			usage(stdout, more_usage);
			return 0;
		}
		if (!strcmp(arg, "--out") || !strcmp(arg, "--config")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "memprobe: %s needs a value\n", arg);
				return 2;
			}
			if (!strcmp(arg, "--out")) {
				char why[256];

				if (host_results_root_refusal(argv[++i], why, sizeof why)) {
					fprintf(stderr, "memprobe: %s\n", why);
					return 2;
				}
				host_set_results_root(argv[i]);
				continue;
			}
			if (file_text) {
				fprintf(stderr, "memprobe: --config given twice\n");
				return 2;
			}
			file_text = read_file(argv[++i], &file_len);
			if (!file_text) {
				fprintf(stderr, "memprobe: --config %s: %s\n", argv[i],
					errno == EISDIR ? "is a folder, not a configuration file"
							: strerror(errno));
				return 2;
			}
			sources[nsrc++] = (struct config_source){ argv[i], file_text, file_len, 0 };
			continue;
		}
		if (arg[0] == '-' || !strchr(arg, '=')) {
			fprintf(stderr, "memprobe: '%s' is neither an option nor a key=value pair "
				"(memprobe --help)\n", arg);
			return 2;
		}
		/* One pair per line, so an error names the pair by its position. */
		pairs = realloc(pairs, pairs_len + strlen(arg) + 2);
		if (!pairs) {
			fprintf(stderr, "memprobe: out of memory\n");
			return 2;
		}
		pairs_len += (size_t)sprintf(pairs + pairs_len, "%s\n", arg);
	}
	sources[nsrc++] = (struct config_source){ "command line", pairs, pairs_len, 0 };

	if (config_load(&c, sources, nsrc, &linux_platform, &err) != 0) {
		fprintf(stderr, "memprobe: %s\n", err.text);
		return 2;
	}
	if (results_root_check(&c, room_warning, sizeof room_warning) < 0)
		return 2;
	memprobe_report_version();
	if (room_warning[0])
		report_printf("memprobe: %s\n", room_warning);
	host_stop_on_signals();
	rc = memprobe_run(&c);
	/* As the EFI app's last line: the verdict, after the card. */
	if (rc == 0 && !plat_files_complete())
		rc = -1;
	if (plat_stop_signal())
		printf("memprobe: verdict: STOPPED by %s\n", plat_stop_signal());
	else
		printf("memprobe: verdict: %s\n", rc == 0 ? "success" : "FAILURE");
	free(file_text);
	free(pairs);
	if (plat_stop_signal()) {
		fprintf(stderr, "memprobe: stopped by %s: the rows measured are kept and every file "
			"is closed (exit status %d)\n", plat_stop_signal(), HOST_EXIT_STOPPED);
		return HOST_EXIT_STOPPED;
	}
	return rc == 0 ? 0 : 1;
}
