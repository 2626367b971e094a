/* memprobe on Linux: the same probes and output as the UEFI app.
 *
 *   memprobe [--out DIR] [--config FILE] [key=value ...]
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/analyze.h"
#include "host/compare.h"
#include "host/host.h"
#include "probes/config.h"
#include "probes/platform.h"
#include "probes/probe.h"

// ---- Constants --------------------------------------------------------------

/* Like the image built for hardware, the Linux build measures with the full
   profile unless told otherwise; any source may still say profile=quick. */
static const char linux_default[] = "profile = full\n";

// ---- Private Functions ------------------------------------------------------

static void usage(FILE *to)
{
	fprintf(to,
		"usage: memprobe [--out DIR] [--config FILE] [key=value ...]\n"
		"       memprobe analyze path/to/results.csv [--out DIR]\n"
		"       memprobe compare RUN_A RUN_B [RUN_C ...] [--out DIR]\n"
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
		"every probe measured what was asked, 1 when one did not, 2 when the\n"
		"configuration or the command line was wrong.\n");
}

/* The whole file, NUL-terminated; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t size = 0, used = 0, n;

	if (!f)
		return NULL;
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

// ---- Public Functions -------------------------------------------------------

int main(int argc, char **argv)
{
	struct config_source sources[3];
	struct config_error err;
	struct config c;
	char *file_text = NULL, *pairs;
	size_t pairs_len = 0, file_len = 0;
	int nsrc = 0, i, rc;

	if (argc > 1 && !strcmp(argv[1], "analyze"))
		return analyze_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_main(argc - 1, argv + 1);
	sources[nsrc++] = (struct config_source){ "memprobe's Linux default", linux_default,
						  sizeof linux_default - 1, 0 };
	pairs = calloc(1, 1);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(arg, "--out") || !strcmp(arg, "--config")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "memprobe: %s needs a value\n", arg);
				return 2;
			}
			if (!strcmp(arg, "--out")) {
				host_set_results_root(argv[++i]);
				continue;
			}
			if (file_text) {
				fprintf(stderr, "memprobe: --config given twice\n");
				return 2;
			}
			file_text = read_file(argv[++i], &file_len);
			if (!file_text) {
				fprintf(stderr, "memprobe: --config %s: %s\n", argv[i], strerror(errno));
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

	if (config_load(&c, sources, nsrc, &err) != 0) {
		fprintf(stderr, "memprobe: %s\n", err.text);
		return 2;
	}
	/* Linux places pages by its own memory policy and calibrates against
	   CLOCK_MONOTONIC_RAW: a run that asked for a domain or a reference
	   timer must not quietly measure with another. */
	if (c.numa_node != NUMA_NODE_AUTO || c.numa_special) {
		fprintf(stderr, "memprobe: numa.node and numa.special place buffers on bare metal "
			"only; on Linux run under numactl --membind=NODE instead\n");
		return 2;
	}
	if (c.clock_reference != CLOCK_REF_AUTO) {
		fprintf(stderr, "memprobe: clock.reference chooses a bare-metal timer; the Linux "
			"build calibrates against CLOCK_MONOTONIC_RAW\n");
		return 2;
	}
	memprobe_report_version();
	rc = memprobe_run(&c);
	/* As the EFI app's last line: the verdict, after the card. */
	if (rc == 0 && !plat_files_complete())
		rc = -1;
	printf("memprobe: verdict: %s\n", rc == 0 ? "success" : "FAILURE");
	free(file_text);
	free(pairs);
	return rc == 0 ? 0 : 1;
}
