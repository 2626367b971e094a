/* A memprobe run on Linux: the same probes and output as the UEFI app,
 * configured from the command line (desk/main.c hands every word that is
 * not a desk command here).
 *
 *   memprobe [--out DIR] [--config FILE] [--check] [--quiet] [key=value ...]
 *   memprobe --version | --help | keys
 *
 * The words are taken as a performance engineer types them: --out=DIR,
 * --key=value and the file's spaced "key = value" mean what the plain
 * forms do, and a word that is none of them is refused with the nearest
 * one it may have meant.
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
#include "lib/suggest.h"

/* ---- Constants -------------------------------------------------------- */

/* The build's identity (buildinfo.c, which the Makefile writes). */
extern const char memprobe_version[], memprobe_build_id[], memprobe_commit[];

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

/* How long each profile's run takes on Linux, as measured (docs/BUILD.md,
   "The command line"): quick 416 s on a 2-vCPU Zen 5 VM at load average
   10 (others' builds), full 131 s as issue 34 timed it on a busy machine.
   A guide, not a promise: the sizes swept follow the caches the CPU
   claims, and a loaded machine stretches every trial. */
static const struct { const char *name, *duration, *what; } profiles[] = {
	{ "quick", "up to 7 min", "the probes marked quick, small buffers, few trials" },
	{ "full", "2 min and up", "every probe the profiles run, finer (the default)" },
};

/* The keys --help names; `memprobe keys` lists them all. */
static const char *const common_keys[] = {
	"profile", "probes", "pages", "min_size", "max_size", "trials", "precision",
	"bandwidth.cores", "upload.url", "quiet",
};

/* The words a run's command line takes besides key=value pairs, for the
   did-you-mean of a word that is none of them (desk/main.c's commands
   included: a misspelt one arrives here). */
static const char *const command_words[] = {
	"--version", "-V", "version", "--help", "-h", "help", "keys", "--list-keys",
	"--check", "--quiet", "-q", "--out", "--config", "analyze", "compare", "fleet",
};

#define COUNT_OF(a) (sizeof (a) / sizeof *(a))

static void help_usage(FILE *to, const char *more_usage)
{
	fprintf(to,
		"usage: memprobe [--out DIR] [--config FILE] [--check] [--quiet] [key=value ...]\n"
		"       memprobe --version | --help | keys\n"
		"%s", more_usage);
}

static void help_description(FILE *to)
{
	fprintf(to,
		"Runs memprobe's probes on Linux and writes report.txt, report.html,\n"
		"results.csv, system.json and the charts into a new DIR/run-NNNN folder\n"
		"(DIR defaults to ./memprobe-results; earlier runs are never overwritten).\n");
}

static void help_options(FILE *to)
{
	fprintf(to,
		"  --out DIR, --out=DIR        where run folders go\n"
		"  --config FILE, --config=FILE\n"
		"                              key = value lines, read before the command line\n"
		"  --check                     check the configuration, print it and exit\n"
		"  -q, --quiet                 quiet=yes: the console shows the opening line,\n"
		"                              progress, failures and the card (report.txt\n"
		"                              keeps everything)\n"
		"  key=value, --key=value, key = value\n"
		"                              a configuration key, as in a configuration file\n"
		"  -V, --version, version      the version, build and commit\n"
		"  -h, --help, help            this text\n"
		"  keys, --list-keys           every key: what it takes, both profiles' defaults\n");
}

/* Every probe in run order, from the registry rows, with the profiles that
   run it. */
static void help_probes(FILE *to)
{
	for (unsigned p = 0; p < PROBE_COUNT; p++) {
		unsigned in = probe_registry[p]->config.profiles;

		fprintf(to, "  %-10s  %s\n", probe_registry[p]->config.name,
			in == (PROBE_IN_QUICK | PROBE_IN_FULL) ? "quick and full profiles"
			: in == PROBE_IN_FULL ? "full profile"
			: in == PROBE_IN_QUICK ? "quick profile"
			: "only when named: probes=...");
	}
}

static void help_profiles(FILE *to)
{
	for (size_t i = 0; i < COUNT_OF(profiles); i++)
		fprintf(to, "  profile=%-6s  %-12s  %s\n", profiles[i].name, profiles[i].duration,
			profiles[i].what);
	fprintf(to, "  (measured: quick 416 s on 2 busy vCPUs, full 131 s on a busy machine\n"
		"  before it ran bandwidth on all cores too; larger caches and a loaded\n"
		"  machine take longer; a run's first line estimates its own length)\n");
}

static void help_common_keys(FILE *to)
{
	fprintf(to, "  ");
	for (size_t i = 0; i < COUNT_OF(common_keys); i++)
		fprintf(to, "%s%s", i ? ", " : "", common_keys[i]);
	fprintf(to, "\n  (memprobe keys lists every key with its values and defaults), e.g.\n"
		"  memprobe profile=quick probes=latency,tlb pages=4k,2MiB max_size=64M\n");
}

static void help_exit_codes(FILE *to)
{
	fprintf(to,
		"  0  every probe measured what was asked (--check: the configuration is good)\n"
		"  1  a probe did not, or a file was cut\n"
		"  2  the configuration, the command line or the --out folder was wrong\n"
		"     (before any probe ran)\n"
		"  %d  SIGINT, SIGTERM or SIGHUP stopped the run (every file closed;\n"
		"     a second signal ends it at once)\n", HOST_EXIT_STOPPED);
}

/* --help's sections, in order, with their man page titles: the man page
   (--man) is made of the same. */
static const struct {
	const char *title, *man_title;
	void (*write)(FILE *to);
} help_sections[] = {
	{ "Options", "OPTIONS", help_options },
	{ "Probes", "PROBES", help_probes },
	{ "Profiles (typical run length on Linux)", "PROFILES", help_profiles },
	{ "Common keys", "COMMON KEYS", help_common_keys },
	{ "Exit status", "EXIT STATUS", help_exit_codes },
};

static void usage(FILE *to, const char *more_usage)
{
	help_usage(to, more_usage);
	fprintf(to, "\n");
	help_description(to);
	for (size_t i = 0; i < COUNT_OF(help_sections); i++) {
		fprintf(to, "\n%s:\n", help_sections[i].title);
		help_sections[i].write(to);
	}
}

/* The key table (core/config.c's config_keys_describe) to `to`; nothing
   when out of memory. */
static void write_keys(FILE *to)
{
	int need = config_keys_describe(NULL, 0);
	char *text = malloc((size_t)need + 1);

	if (!text)
		return;
	config_keys_describe(text, (size_t)need + 1);
	fputs(text, to);
	free(text);
}

/* `memprobe keys`. */
static int print_keys(void)
{
	write_keys(stdout);
	return ferror(stdout) ? 1 : 0;
}

static int print_version(void)
{
	printf("memprobe %s\nbuild %s\ncommit %s\n", memprobe_version, memprobe_build_id,
	       memprobe_commit);
	return 0;
}

/* A section's text from write(), as roff: preformatted, every backslash
   doubled and a line that starts with '.' or '\'' kept from being read as a
   request. */
static void man_section(FILE *to, const char *title, void (*write)(FILE *to))
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int line_start = 1;

	if (!mem)
		return;
	write(mem);
	fclose(mem);
	fprintf(to, ".SH %s\n.nf\n", title);
	for (size_t i = 0; i < len; i++) {
		if (line_start && (text[i] == '.' || text[i] == '\''))
			fputs("\\&", to);
		if (text[i] == '\\')
			fputs("\\e", to);
		else if (text[i] == '-')
			fputs("\\-", to);
		else
			fputc(text[i], to);
		line_start = text[i] == '\n';
	}
	fprintf(to, ".fi\n");
	free(text);
}

static const char *man_more_usage;

static void man_synopsis(FILE *to)
{
	help_usage(to, man_more_usage);
}

/* memprobe.1, written by the build (make install) from the same sections
   as --help and the same key table as `memprobe keys`. */
static int print_man(const char *more_usage)
{
	man_more_usage = more_usage;
	printf(".TH MEMPROBE 1 \"\" \"memprobe %s\" \"User Commands\"\n"
	       ".SH NAME\nmemprobe \\- measure a machine's memory hierarchy\n", memprobe_version);
	man_section(stdout, "SYNOPSIS", man_synopsis);
	man_section(stdout, "DESCRIPTION", help_description);
	for (size_t i = 0; i < COUNT_OF(help_sections); i++)
		man_section(stdout, help_sections[i].man_title, help_sections[i].write);
	man_section(stdout, "KEYS", write_keys);
	printf(".SH SEE ALSO\nThe project's docs/CONFIG.md, docs/METHOD.md and docs/OUTPUT.md.\n");
	return 0;
}

/* A word the command line takes alone (--version, --help, keys, --man),
   done: its exit status; -1 when arg is none of them. */
static int word_command(const char *arg, const char *more_usage)
{
	if (!strcmp(arg, "--help") || !strcmp(arg, "-h") || !strcmp(arg, "help")) {
		usage(stdout, more_usage);
		return 0;
	}
	if (!strcmp(arg, "--version") || !strcmp(arg, "-V") || !strcmp(arg, "version"))
		return print_version();
	if (!strcmp(arg, "keys") || !strcmp(arg, "--list-keys"))
		return print_keys();
	if (!strcmp(arg, "--man"))
		return print_man(more_usage);
	return -1;
}

/* Whether argv[i] is the value of the option before it (--out, --config). */
static int is_option_value(char **argv, int i)
{
	return i > 1 && (!strcmp(argv[i - 1], "--out") || !strcmp(argv[i - 1], "--config"));
}

/* The first word of argv[1..argc) that --version, --help, keys or --man
   is (the values of --out and --config aside), done: its exit status; -1
   when none is. Before anything else is read, so `memprobe bogus=1
   --help` helps rather than refuses. */
static int any_word_command(int argc, char **argv, const char *more_usage)
{
	for (int i = 1; i < argc; i++) {
		int rc = is_option_value(argv, i) ? -1 : word_command(argv[i], more_usage);

		if (rc >= 0)
			return rc;
	}
	return -1;
}

/* Whether word is one of argv[1..argc) (the values of --out and --config
   aside). */
static int any_word(int argc, char **argv, const char *word)
{
	for (int i = 1; i < argc; i++)
		if (!is_option_value(argv, i) && !strcmp(argv[i], word))
			return 1;
	return 0;
}

/* A word that is neither an option nor a pair: refused (2), with the
   command word or key it is nearest to. */
static int refuse_word(const char *arg)
{
	const char *bare = arg + strspn(arg, "-");
	struct suggest near;

	suggest_begin(&near, arg, strlen(arg));
	for (size_t i = 0; i < COUNT_OF(command_words); i++)
		suggest_offer(&near, command_words[i]);
	if (near.best) {
		fprintf(stderr, "memprobe: '%s' is neither an option nor a key=value pair; "
			"did you mean '%s'?\n", arg, near.best);
		return 2;
	}
	if (*bare && !strchr(bare, '=')) {
		int exact;
		const char *key = config_key_nearest(bare, strlen(bare), &exact);

		if (key && exact) {
			fprintf(stderr, "memprobe: '%s' needs a value: %s=VALUE (memprobe keys)\n",
				arg, key);
			return 2;
		}
		if (key) {
			fprintf(stderr, "memprobe: '%s' is neither an option nor a key=value pair; "
				"did you mean '%s=...'?\n", arg, key);
			return 2;
		}
	}
	fprintf(stderr, "memprobe: '%s' is neither an option nor a key=value pair "
		"(memprobe --help)\n", arg);
	return 2;
}

/* argv as the plain forms: "--quiet" and "-q" as "quiet=yes",
   "--out=DIR" and "--config=FILE" as two words,
   "--key=value" as "key=value", and the file's spaced "key = value" (or
   "key =value") as one "key=value" word. Returns a new argument vector
   (it and its strings live until exit), *out_argc its length; NULL when
   out of memory. */
static char **plain_args(int argc, char **argv, int *out_argc)
{
	static char **out;   /* kept: its words are the run's argv */
	int n = 0;

	out = calloc((size_t)argc * 2 + 1, sizeof *out);
	if (!out)
		return NULL;
	for (int i = 0; i < argc; i++) {
		char *arg = argv[i], *eq = strchr(arg, '=');

		if (i && (!strcmp(arg, "--quiet") || !strcmp(arg, "-q"))) {
			out[n++] = "quiet=yes";
		} else if (i && (!strncmp(arg, "--out=", 6) || !strncmp(arg, "--config=", 9))) {
			out[n++] = strndup(arg, (size_t)(eq - arg));
			out[n++] = eq + 1;
		} else if (i && !strncmp(arg, "--", 2) && eq && eq > arg + 2) {
			out[n++] = arg + 2;
		} else if (i && arg[0] != '-' && !eq && i + 1 < argc && argv[i + 1][0] == '=') {
			const char *value = argv[i + 1][1] ? argv[i + 1] + 1
					  : i + 2 < argc ? argv[i + 2] : "";
			char *pair = malloc(strlen(arg) + strlen(value) + 2);

			if (!pair)
				return NULL;
			sprintf(pair, "%s=%s", arg, value);
			out[n++] = pair;
			i += argv[i + 1][1] || i + 2 >= argc ? 1 : 2;
		} else {
			out[n++] = arg;
		}
		if (n > 0 && !out[n - 1])
			return NULL;
	}
	*out_argc = n;
	return out;
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

/* The command line's --config file, --out folder and key=value pairs
   (plain_args' forms; --check and the word commands are the caller's),
   over memprobe's Linux default, into *c: 0, or -1 after saying on stderr
   what was wrong. Every buffer is freed before
   it returns, whichever way (LeakSanitizer checks each exit). */
static int load_command_line(int argc, char **argv, struct config *c)
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

		if (!strcmp(arg, "--check"))
			continue;
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
			if (config_text_bom(file_text, file_len))
				fprintf(stderr, "memprobe: note: --config %s starts with a UTF-8 "
					"byte-order mark (a Windows editor's), which is skipped\n",
					argv[i]);
			sources[nsrc++] = (struct config_source){ argv[i], file_text, file_len, 0 };
			continue;
		}
		if (arg[0] == '-' || !strchr(arg, '=')) {
			refuse_word(arg);
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

/* --check on a configuration that loaded: says so, with the effective
   configuration as the report would give it, and exits 0. */
static int report_check(const struct config *c)
{
	int need = config_describe(c, NULL, 0);
	char *text = malloc((size_t)need + 1);

	printf("memprobe: the configuration is good; no probe was run\n");
	if (text) {
		config_describe(c, text, (size_t)need + 1);
		fputs(text, stdout);
		free(text);
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

	argv = plain_args(argc, argv, &argc);
	if (!argv) {
		fprintf(stderr, "memprobe: out of memory\n");
		return 2;
	}
	rc = any_word_command(argc, argv, more_usage);
	if (rc >= 0)
		return rc;
	if (load_command_line(argc, argv, &c) != 0)
		return 2;
	if (c2c_cpus_check(&c) != 0)
		return 2;
	if (any_word(argc, argv, "--check"))
		return report_check(&c);
	if (results_root_check(&c, room_warning, sizeof room_warning) < 0)
		return 2;
	results_console(c.quiet, plat_console_redraws());
	memprobe_report_version();
	if (room_warning[0])
		report_printf("memprobe: %s\n", room_warning);
	host_stop_on_signals();
	rc = memprobe_run(&c);
	stopped_by = memprobe_stopped_by();
	/* As the EFI app's last line: the verdict, after the card. rc counts
	   the files as results_close found them (a card-first copy that did
	   not fit is no lost file). A quiet console ends with the card: the
	   verdict only when it is no success (the exit status says it too). */
	if (stopped_by)
		snprintf(verdict, sizeof verdict, "memprobe: verdict: STOPPED by %s\n", stopped_by);
	else
		snprintf(verdict, sizeof verdict, "memprobe: verdict: %s\n",
			 rc == 0 ? "success" : "FAILURE");
	if (!c.quiet || stopped_by || rc != 0)
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
