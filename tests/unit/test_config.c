/* config_load and config_describe: every key, every error message, the
 * order in which sources and the profile apply, and the round trip from
 * config_describe back into config_load.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/probe.h"
#include "probes/fault_settings.h"
#include "probes/c2c_settings.h"
#include "probes/bandwidth_settings.h"
#include "probes/cost_settings.h"
#include "probes/locality.h"
#include "probes/tlb_settings.h"
#include "probes/later.h"
#include "probes/loaded_settings.h"
#include "probes/latency_settings.h"
#include "probes/sweep.h"
#include "lib/suggest.h"

#define FILE_NAME "memprobe.cfg"
#define OPTIONS_NAME "load options"

/* Read as the EFI app reads it, which runs every key; and as the Linux
   build reads it, which refuses the bare-metal keys' values. */
static const struct config_platform metal = { 1, plat_page_size_architected };
static const struct config_platform linux_box = { 0, plat_page_size_architected };

static int load2(struct config *c, struct config_error *err,
		 const char *file_text, const char *options)
{
	struct config_source src[2];
	int n = 0;

	if (file_text)
		src[n++] = (struct config_source){ FILE_NAME, file_text, strlen(file_text), 0 };
	if (options)
		src[n++] = (struct config_source){ OPTIONS_NAME, options, strlen(options), 1 };
	return config_load(c, src, n, &metal, err);
}

/* Loads text as a file and expects exactly the error message want. */
static void expect_error(const char *file_text, const char *options, const char *want)
{
	struct config c;
	struct config_error err;
	int rc = load2(&c, &err, file_text, options);

	CHECK(rc == -1 && strcmp(err.text, want) == 0, "error \"%s\" (got %d: \"%s\")",
	      want, rc, err.text);
}

static void test_defaults(void)
{
	for (int p = PROFILE_QUICK; p <= PROFILE_FULL; p++) {
		const char *name = p == PROFILE_FULL ? "full" : "quick";
		struct config want, got;
		struct config_error err;
		char text[64];

		memset(&want, 0, sizeof want);
		config_defaults(&want, (enum profile)p);
		CHECK(want.profile == (enum profile)p, "config_defaults(%s) names its profile", name);
		CHECK(!(want.probes & PROBE_FAULT), "the %s defaults never run the fault probe", name);
		CHECK(!want.end_set, "the %s defaults leave the end action to the platform", name);

		snprintf(text, sizeof text, "profile = %s\n", name);
		int rc = load2(&got, &err, text, NULL);
		CHECK(rc == 0, "the %s defaults pass every check (%s)", name, err.text);
		CHECK(config_equal(&got, &want), "profile = %s gives exactly config_defaults(%s)",
		      name, name);
	}
	struct config none, quick;
	struct config_error err;
	memset(&quick, 0, sizeof quick);
	config_defaults(&quick, PROFILE_QUICK);
	CHECK(config_load(&none, NULL, 0, &metal, &err) == 0 && config_equal(&none, &quick),
	      "no source at all means the quick defaults");
}

static void test_every_key(void)
{
	const char *file =
		"# a comment line\n"
		"\n"
		"   probes = latency, cost ,later  # trailing comment\n"
		"pages=4k,1G\r\n"
		"\tmin_size = 8K\n"
		"max_size = 3 MiB\n"
		"latency.max_buffer = 2G\n"
		"trials = 4\n"
		"max_trials = 40\n"
		"precision = 2.5%\n"
		"step_ms = 0.25\n"
		"tlb.min_pages = 3\n"
		"tlb.max_pages = 0\n"
		"tlb.max_buffer = 3G\n"
		"locality.rows = 1000\n"
		"locality.cols = 1001\n"
		"locality.reps = 3\n"
		"later.table = 16M\n"
		"later.block = 64KiB\n"
		"later.stride = 128\n"
		"later.steps = 123456789012\n"
		"later.precision = 0.005\n"
		"later.min_repeat = 4\n"
		"later.max_repeat = 40\n"
		"cost.reps = 999\n"
		"cost.trials = 9\n"
		"fault.vector = gp\n"
		"end = Reboot\n"
		"numa.node = 3\n"
		"numa.special = Yes\n"
		"clock.reference = HPET";
	struct config c;
	struct config_error err;
	int rc = load2(&c, &err, file, NULL);

	CHECK(rc == 0, "a file setting every key loads (%s)", err.text);
	CHECK(c.probes == (PROBE_LATENCY | PROBE_COST | PROBE_LATER), "probes list, blanks around items");
	CHECK(c.pages == (PAGES_4K | PAGES_1G), "pages list, case-insensitive, CRLF line");
	CHECK(c.min_size == 8192 && c.max_size == 3u << 20, "sizes with K and 'MiB' after a blank");
	CHECK(LATENCY_SETTINGS(&c)->max_buffer == 2ull << 30, "latency.max_buffer");
	CHECK(c.trials == 4 && c.max_trials == 40, "trials, max_trials");
	CHECK(c.precision == 0.025, "precision as a percentage: %.17g", c.precision);
	CHECK(c.step_ms == 0.25, "step_ms as a decimal");
	CHECK(TLB_SETTINGS(&c)->min_pages == 3 && TLB_SETTINGS(&c)->max_pages == 0 && TLB_SETTINGS(&c)->max_buffer == 3ull << 30,
	      "tlb keys, max_pages 0 meaning the automatic top");
	CHECK(LOCALITY_SETTINGS(&c)->rows == 1000 && LOCALITY_SETTINGS(&c)->cols == 1001 && LOCALITY_SETTINGS(&c)->reps == 3,
	      "locality keys");
	CHECK(LATER_SETTINGS(&c)->table == 16u << 20 && LATER_SETTINGS(&c)->block == 65536 && LATER_SETTINGS(&c)->stride == 128,
	      "later sizes");
	CHECK(LATER_SETTINGS(&c)->steps == 123456789012ull && LATER_SETTINGS(&c)->precision == 0.005 &&
	      LATER_SETTINGS(&c)->min_repeat == 4 && LATER_SETTINGS(&c)->max_repeat == 40, "later counts and precision");
	CHECK(COST_SETTINGS(&c)->reps == 999 && COST_SETTINGS(&c)->trials == 9, "cost keys");
	CHECK(FAULT_SETTINGS(&c)->vector == 13, "fault.vector gp is vector 13");
	CHECK(c.end == END_REBOOT && c.end_set, "end = Reboot sets the end action and end_set");
	CHECK(c.numa_node == 3 && c.numa_special == 1, "numa.node 3, numa.special yes");
	CHECK(c.clock_reference == CLOCK_REF_HPET, "clock.reference hpet");
	CHECK(c.profile == PROFILE_QUICK, "no profile key means quick");
}

static void test_values(void)
{
	static const struct { const char *text; uint64_t bytes; } sizes[] = {
		{ "4096", 4096 }, { "4k", 4096 }, { "4K", 4096 }, { "4KiB", 4096 }, { "4 kib", 4096 },
		{ "2m", 2u << 20 }, { "2MIB", 2u << 20 }, { "1g", 1u << 30 }, { "1 GiB", 1u << 30 },
		{ "8G", 8ull << 30 },
	};
	struct config c;
	struct config_error err;
	char text[128], described[4096];

	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		snprintf(text, sizeof text, "later.table = %s\nlater.block = 4K\nlater.stride = 64\n",
			 sizes[i].text);
		int rc = load2(&c, &err, text, NULL);
		CHECK(rc == 0 && LATER_SETTINGS(&c)->table == sizes[i].bytes, "size '%s' is %llu bytes (%s)",
		      sizes[i].text, (unsigned long long)sizes[i].bytes, err.text);
	}

	static const struct { const char *text; double value; } fractions[] = {
		{ "0.01", 0.01 }, { "1%", 0.01 }, { ".5", 0.5 }, { "50%", 0.5 }, { "0.0001", 0.0001 },
		{ "0.1%", 0.001 },
	};
	for (size_t i = 0; i < sizeof fractions / sizeof *fractions; i++) {
		snprintf(text, sizeof text, "precision = %s", fractions[i].text);
		int rc = load2(&c, &err, text, NULL);
		CHECK(rc == 0 && c.precision == fractions[i].value, "precision '%s' is %g (%s)",
		      fractions[i].text, fractions[i].value, err.text);
	}
	CHECK(load2(&c, &err, "step_ms = 3.", NULL) == 0 && c.step_ms == 3.0, "step_ms '3.' is 3");

	static const struct { const char *text; unsigned vector; } vectors[] = {
		{ "de", 0 }, { "UD", 6 }, { "gp", 13 }, { "pf", 14 }, { "mc", 18 }, { "DF", 8 },
		{ "undef", FAULT_VECTOR_AARCH64 }, { "dabort", FAULT_VECTOR_AARCH64 | 37 },
		{ "brk", FAULT_VECTOR_AARCH64 | 60 },
	};
	for (size_t i = 0; i < sizeof vectors / sizeof *vectors; i++) {
		snprintf(text, sizeof text, "fault.vector = %s", vectors[i].text);
		int rc = load2(&c, &err, text, NULL);
		config_describe(&c, described, sizeof described);
		snprintf(text, sizeof text, "\nfault.vector = %s\n", vectors[i].text);
		for (char *p = text; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		CHECK(rc == 0 && FAULT_SETTINGS(&c)->vector == vectors[i].vector &&
		      strstr(described, text), "fault.vector '%s' is %#x and describes back as itself",
		      vectors[i].text, vectors[i].vector);
	}

	static const char *const ends[] = { "off", "reboot", "return", "wait" };
	for (int i = 0; i < 4; i++) {
		snprintf(text, sizeof text, "end=%s", ends[i]);
		int rc = load2(&c, &err, NULL, text);
		CHECK(rc == 0 && c.end == (enum end_action)i && c.end_set, "end=%s", ends[i]);
	}
	CHECK(load2(&c, &err, "probes = fault", NULL) == 0 && c.probes == PROBE_FAULT,
	      "the fault probe can be asked for explicitly");
}

/* max_size = auto (the default of both profiles): stored as 0, described
   as auto, never compared with min_size. */
static void test_max_size_auto(void)
{
	struct config c, quick;
	struct config_error err;
	char text[4096];

	memset(&quick, 0, sizeof quick);
	config_defaults(&quick, PROFILE_QUICK);
	CHECK(quick.max_size == 0 && LATENCY_SETTINGS(&quick)->max_buffer == 8ull << 30,
	      "quick: max_size auto, latency.max_buffer 8 GiB");
	/* A Zen 5 VM's hypervisor claims a 508 MiB L3: memory's floor, 2 GiB,
	   must lie within quick's cap, or quick stops inside the claimed
	   caches and reads memory "not measured". */
	CHECK(sweep_auto_top(LATENCY_TOP_QUICK, 508ull << 20) == 2ull << 30 &&
	      LATENCY_SETTINGS(&quick)->max_buffer >= 2ull << 30,
	      "quick: memory's floor on a 508 MiB claim (2 GiB) lies within latency.max_buffer");
	config_defaults(&quick, PROFILE_FULL);
	CHECK(quick.max_size == 0 && LATENCY_SETTINGS(&quick)->max_buffer == 8ull << 30 &&
	      TLB_SETTINGS(&quick)->max_pages == 0, "full: max_size auto, latency.max_buffer 8 GiB, tlb auto");
	config_defaults(&quick, PROFILE_QUICK);
	CHECK(TLB_SETTINGS(&quick)->max_pages == 0, "quick: tlb.max_pages auto too");

	CHECK(load2(&c, &err, "max_size = 64M\n", "max_size=AUTO") == 0 && c.max_size == 0,
	      "max_size = auto, in any case, overrides a size (%s)", err.text);
	CHECK(load2(&c, &err, "min_size = 1G\n", NULL) == 0 && c.max_size == 0,
	      "a large min_size is no conflict with max_size = auto (%s)", err.text);
	config_describe(&c, text, sizeof text);
	CHECK(strstr(text, "\nmax_size = auto\n") != NULL, "described as 'max_size = auto'");
	CHECK(load2(&c, &err, text, NULL) == 0 && c.max_size == 0 && c.min_size == 1ull << 30,
	      "and read back as auto (%s)", err.text);
	expect_error("max_size = automatic\n", NULL,
		     "memprobe.cfg:1: key 'max_size': bad number 'automatic' (bytes, or a number with "
		     "K, KiB, M, MiB, G or GiB, like 64M or 1.5MiB)");
	expect_error("latency.max_buffer = 6000\n", NULL,
		     "memprobe.cfg:1: key 'latency.max_buffer': 6000 B is not a multiple of 4096 bytes");
}

static void test_sources(void)
{
	struct config c, full;
	struct config_error err;

	memset(&full, 0, sizeof full);
	config_defaults(&full, PROFILE_FULL);

	int rc = load2(&c, &err, "trials = 7\nmax_trials = 90\n", "profile=full");
	CHECK(rc == 0 && c.profile == PROFILE_FULL, "a profile in the load options applies (%s)", err.text);
	CHECK(c.trials == 7 && c.max_trials == 90,
	      "the profile's defaults never override an explicit key, even one from an earlier source");
	CHECK(c.max_size == full.max_size && c.step_ms == full.step_ms,
	      "keys not given take the full profile's defaults");

	rc = load2(&c, &err, "profile = full\ntrials = 7\n", "profile=quick trials=3");
	CHECK(rc == 0 && c.profile == PROFILE_QUICK && c.trials == 3,
	      "load options override the file, the profile included");

	/* The unit tests run on the Linux platform, x86-64's: AArch64's
	   granules and blocks are words of the key, refused by name here
	   when the configuration is read, not skipped by every probe. */
	rc = load2(&c, &err, "pages = 4k,16k\n", "");
	CHECK(rc != 0 && !strcmp(err.text, "memprobe.cfg:1: key 'pages': 16 KiB is not an x86-64 "
				  "page size (4 KiB, 2 MiB and 1 GiB are)"),
	      "pages: 16k is refused by name on x86-64 (%s)", err.text);
	rc = load2(&c, &err, "", "pages=512m");
	CHECK(rc != 0 && strstr(err.text, "key 'pages': 512 MiB is not an x86-64 page size"),
	      "pages: so is 512m, from the load options (%s)", err.text);
	rc = load2(&c, &err, "pages = 1g,2m,4k\n", "");
	CHECK(rc == 0 && c.pages == (PAGES_4K | PAGES_2M | PAGES_1G),
	      "pages: x86-64's three sizes are taken (%s)", err.text);

	rc = load2(&c, &err, "min_size = 8K\n", "min_size = 16K   max_size=1M\n  pages=2m");
	CHECK(rc == 0 && c.min_size == 16384 && c.max_size == 1u << 20 && c.pages == PAGES_2M,
	      "one-line sources: blanks separate pairs, 'key = value' with '=' alone works (%s)",
	      err.text);

	rc = load2(&c, &err, "", "");
	CHECK(rc == 0, "empty sources mean defaults");
}

static void test_errors(void)
{
	char line[300];

	expect_error("trials = 5\nbogus = 1\n", NULL,
		     "memprobe.cfg:2: key 'bogus': unknown key (docs/CONFIG.md and memprobe keys list "
		     "every key)");
	expect_error(NULL, "trials=5 Trials=6",
		     "load options: key 'Trials': unknown key; did you mean 'trials'?");
	expect_error("trials = five\n", NULL,
		     "memprobe.cfg:1: key 'trials': bad number 'five' (a whole number in decimal)");
	expect_error("trials = -1\n", NULL,
		     "memprobe.cfg:1: key 'trials': bad number '-1' (a whole number in decimal)");
	expect_error("later.steps = 0x10\n", NULL,
		     "memprobe.cfg:1: key 'later.steps': bad number '0x10' (a whole number in decimal)");
	expect_error("trials = 0\n", NULL,
		     "memprobe.cfg:1: key 'trials': out of range: '0' (from 1 to 1000)");
	expect_error("cost.reps = 99999999999999999999999\n", NULL,
		     "memprobe.cfg:1: key 'cost.reps': out of range: '99999999999999999999999' "
		     "(from 1 to 1000000000000)");
	expect_error("min_size = 4KB\n", NULL,
		     "memprobe.cfg:1: key 'min_size': bad unit 'KB' (none or B for bytes, or K, KiB, M, "
		     "MiB, G, GiB)");
	expect_error("max_size = 2 T\n", NULL,
		     "memprobe.cfg:1: key 'max_size': bad unit 'T' (none or B for bytes, or K, KiB, M, "
		     "MiB, G, GiB)");
	expect_error("max_size = M\n", NULL,
		     "memprobe.cfg:1: key 'max_size': bad number 'M' (bytes, or a number with K, KiB, "
		     "M, MiB, G or GiB, like 64M or 1.5MiB)");
	expect_error("max_size = 2048G\n", NULL,
		     "memprobe.cfg:1: key 'max_size': out of range: '2048G' (from 64 B to 1 TiB)");
	expect_error("max_size = 17179869184G\n", NULL,
		     "memprobe.cfg:1: key 'max_size': out of range: '17179869184G' (from 64 B to 1 TiB)");
	expect_error("later.table = 9G\n", NULL,
		     "memprobe.cfg:1: key 'later.table': out of range: '9G' (from 64 B to 8 GiB)");
	expect_error("later.stride = 6\n", NULL,
		     "memprobe.cfg:1: key 'later.stride': 6 B is not a multiple of 4 bytes");
	expect_error("min_size = 1000\n", NULL,
		     "memprobe.cfg:1: key 'min_size': 1000 B is not a multiple of 64 bytes");
	expect_error("precision = 0\n", NULL,
		     "memprobe.cfg:1: key 'precision': out of range: '0' (above 0, at most 0.5)");
	expect_error("precision = 60%\n", NULL,
		     "memprobe.cfg:1: key 'precision': out of range: '60%' (above 0, at most 0.5)");
	expect_error("precision = 1%%\n", NULL,
		     "memprobe.cfg:1: key 'precision': bad number '1%%' (a fraction like 0.01 or a "
		     "percentage like 1%)");
	expect_error("step_ms = 1e3\n", NULL,
		     "memprobe.cfg:1: key 'step_ms': bad number '1e3' (milliseconds, like 10 or 0.5)");
	expect_error("precision = 0.1234567890123456\n", NULL,
		     "memprobe.cfg:1: key 'precision': bad number '0.1234567890123456' (a fraction "
		     "like 0.01 or a percentage like 1%)");
	expect_error("probes = latency,,cost\n", NULL,
		     "memprobe.cfg:1: key 'probes': an empty item in the probe list 'latency,,cost'");
	expect_error("probes = latency,speed\n", NULL,
		     "memprobe.cfg:1: key 'probes': unknown probe 'speed' (one of: latency, fault, tails, "
		     "tlb, ifetch, locality, later, bandwidth, mlp, cost, c2c, loaded, geometry)");
	expect_error("pages = 4k,8k\n", NULL,
		     "memprobe.cfg:1: key 'pages': unknown page size '8k' (this machine's: 4k, 2m, 1g; "
		     "did you mean '4k'?)");
	expect_error("profile = slow\n", NULL,
		     "memprobe.cfg:1: key 'profile': unknown profile 'slow' (one of: quick, full)");
	expect_error("end = halt\n", NULL,
		     "memprobe.cfg:1: key 'end': unknown end action 'halt' (one of: off, reboot, return, wait)");
	/* Words only: a number (0 is x86's #DE and AArch64's undef class) would
	   name two exceptions. */
	expect_error("fault.vector = 14\n", NULL,
		     "memprobe.cfg:1: key 'fault.vector': unknown vector '14' (one of: de, ud, gp, "
		     "pf, mc, df, undef, dabort, brk)");
	expect_error("fault.vector = nmi\n", NULL,
		     "memprobe.cfg:1: key 'fault.vector': unknown vector 'nmi' (one of: de, ud, gp, "
		     "pf, mc, df, undef, dabort, brk)");

	expect_error("\n\ntrials =   \n", NULL, "memprobe.cfg:3: key 'trials': empty value");
	expect_error(NULL, "trials= 5", "load options: key 'trials': empty value");
	expect_error(NULL, "max_size =", "load options: key 'max_size': empty value");
	expect_error("trials\n", NULL, "memprobe.cfg:1: expected key = value, found 'trials'");
	expect_error(NULL, "trials 5", "load options: expected key = value, found 'trials'");
	expect_error("= 5\n", NULL, "memprobe.cfg:1: a value without a key: '= 5'");

	expect_error("trials = 5\n# note\ntrials = 6\n", NULL,
		     "memprobe.cfg:3: key 'trials': duplicate key (first given on line 1)");
	expect_error(NULL, "trials=5 trials=6",
		     "load options: key 'trials': duplicate key (given twice in load options)");
	expect_error("profile = quick\nprofile = quick\n", NULL,
		     "memprobe.cfg:2: key 'profile': duplicate key (first given on line 1)");

	memset(line, 'x', sizeof line);
	memcpy(line, "# ", 2);
	line[201] = '\n';
	line[202] = '\0';
	expect_error(line, NULL, "memprobe.cfg:1: overlong line: 201 characters, at most 200");
	line[200] = '\n';
	line[201] = '\0';
	struct config c;
	struct config_error err;
	CHECK(load2(&c, &err, line, NULL) == 0, "a line of exactly 200 characters is fine (%s)", err.text);

	char option[260] = "later.steps=";
	memset(option + 12, '1', 201 - 12);
	option[201] = '\0';
	expect_error(NULL, option, "load options: overlong option: 201 characters, at most 200");

	struct config_source garbage[] = {
		{ FILE_NAME, "trials = 5\ntri\0als = 6\n", 23, 0 },
		{ FILE_NAME, "\xff\xfet\0r\0", 6, 0 },
		{ FILE_NAME, "trials = 5\x1b[0m\n", 15, 0 },
		{ OPTIONS_NAME, "trials=5 \x80", 10, 1 },
	};
	static const char *const garbage_want[] = {
		"memprobe.cfg:2: binary garbage: byte 0x00 at column 4; the configuration must be plain ASCII text",
		"memprobe.cfg:1: binary garbage: byte 0xff at column 1; the configuration must be plain ASCII text",
		"memprobe.cfg:1: binary garbage: byte 0x1b at column 11; the configuration must be plain ASCII text",
		"load options: binary garbage: byte 0x80 at column 10; the configuration must be plain ASCII text",
	};
	for (int i = 0; i < 4; i++) {
		int rc = config_load(&c, &garbage[i], 1, &metal, &err);
		CHECK(rc == -1 && strcmp(err.text, garbage_want[i]) == 0, "garbage %d: \"%s\"", i, err.text);
	}
}

static void test_combinations(void)
{
	expect_error("min_size = 8M\nmax_size = 4M\n", NULL,
		     "memprobe.cfg:1: key 'min_size': is larger than max_size (max_size from memprobe.cfg:2)");
	expect_error("max_trials = 3\n", "trials=4",
		     "load options: key 'trials': is larger than max_trials (max_trials from memprobe.cfg:1)");
	expect_error("later.table = 4K\nlater.block = 8K\n", NULL,
		     "memprobe.cfg:2: key 'later.block': is larger than later.table (later.table from "
		     "memprobe.cfg:1)");
	expect_error("later.table = 12K\nlater.block = 8K\nlater.stride = 64\n", NULL,
		     "memprobe.cfg:1: key 'later.table': is not a multiple of later.block (later.block "
		     "from memprobe.cfg:2)");
	expect_error("later.table = 12K\nlater.block = 192\nlater.stride = 128\n", NULL,
		     "memprobe.cfg:2: key 'later.block': is not a multiple of later.stride (later.stride "
		     "from memprobe.cfg:3)");
	expect_error("tlb.min_pages = 64\ntlb.max_pages = 32\n", NULL,
		     "memprobe.cfg:1: key 'tlb.min_pages': is larger than tlb.max_pages "
		     "(tlb.max_pages from memprobe.cfg:2)");
	expect_error("tlb.min_pages = 0\n", NULL,
		     "memprobe.cfg:1: key 'tlb.min_pages': out of range: '0' (from 1 to 16777216)");
	expect_error("tlb.max_pages = 16777217\n", NULL,
		     "memprobe.cfg:1: key 'tlb.max_pages': out of range: '16777217' (from 0 to 16777216)");
	expect_error("tlb.max_buffer = 6000\n", NULL,
		     "memprobe.cfg:1: key 'tlb.max_buffer': 6000 B is not a multiple of 4096 bytes");
	expect_error("later.min_repeat = 30\nlater.max_repeat = 10\n", NULL,
		     "memprobe.cfg:1: key 'later.min_repeat': is larger than later.max_repeat "
		     "(later.max_repeat from memprobe.cfg:2)");
	expect_error("bandwidth.min_size = 1MiB\nbandwidth.max_size = 64KiB\n", NULL,
		     "memprobe.cfg:1: key 'bandwidth.min_size': is larger than bandwidth.max_size "
		     "(bandwidth.max_size from memprobe.cfg:2)");
	expect_error("bandwidth.max_size = 6000\n", NULL,
		     "memprobe.cfg:1: key 'bandwidth.max_size': 6000 B is not a multiple of 4096 bytes");
	expect_error("bandwidth.sets = fastest\n", NULL,
		     "memprobe.cfg:1: key 'bandwidth.sets': unknown kernel set choice 'fastest' "
		     "(one of: widest, all)");
	expect_error("locality.rows = 1000000\nlocality.cols = 1000000\n", NULL,
		     "memprobe.cfg:1: key 'locality.rows': times locality.cols is a matrix over 1 TiB "
		     "(locality.cols from memprobe.cfg:2)");

	/* A combination with a default names the profile as its origin. */
	struct config quick;
	memset(&quick, 0, sizeof quick);
	config_defaults(&quick, PROFILE_QUICK);
	char text[64];
	snprintf(text, sizeof text, "later.block=%llu",
		 (unsigned long long)LATER_SETTINGS(&quick)->table * 2);
	expect_error(NULL, text, "load options: key 'later.block': is larger than "
		     "later.table (later.table from the quick profile's default)");
	/* bandwidth.max_size = auto has no size to be below. */
	struct config_error err;
	CHECK(load2(&quick, &err, "bandwidth.min_size = 64MiB\n", NULL) == 0 &&
	      BANDWIDTH_SETTINGS(&quick)->max_size == 0,
	      "bandwidth.min_size = 64MiB with max_size = auto loads");
}

/* describe -> load -> the same config, and describe again gives the same text. */
static int round_trip(const struct config *c, char *why, size_t why_len)
{
	char text[4096], again[4096];
	struct config back;
	struct config_error err;

	if (why_len)
		why[0] = '\0';   /* a round trip that holds says nothing */
	int n = config_describe(c, text, sizeof text);
	if (n <= 0 || (size_t)n >= sizeof text || (size_t)n != strlen(text)) {
		snprintf(why, why_len, "describe returned %d", n);
		return 0;
	}
	struct config_source src = { "described", text, (size_t)n, 0 };
	if (config_load(&back, &src, 1, &metal, &err)) {
		snprintf(why, why_len, "reload failed: %s", err.text);
		return 0;
	}
	if (!config_equal(c, &back)) {
		snprintf(why, why_len, "reloaded config differs; text was:\n%s", text);
		return 0;
	}
	config_describe(&back, again, sizeof again);
	if (strcmp(text, again)) {
		snprintf(why, why_len, "second description differs");
		return 0;
	}
	return 1;
}

static void test_describe(void)
{
	struct config c;
	struct config_error err;
	char why[4500] = "", text[4096];

	for (int p = PROFILE_QUICK; p <= PROFILE_FULL; p++) {
		memset(&c, 0, sizeof c);
		config_defaults(&c, (enum profile)p);
		CHECK(round_trip(&c, why, sizeof why), "profile %d defaults round-trip (%s)", p, why);
	}

	load2(&c, &err, "probes = cost,latency\npages = 1g\nmin_size = 1536K\nmax_size = 1G\n"
	      "precision = 1%\nstep_ms = 12.125\nfault.vector = ud\nend = wait\n", NULL);
	int n = config_describe(&c, text, sizeof text);
	CHECK(strstr(text, "probes = latency,cost\n") && strstr(text, "pages = 1g\n") &&
	      strstr(text, "min_size = 1536KiB\n") && strstr(text, "max_size = 1GiB\n") &&
	      strstr(text, "precision = 0.01\n") && strstr(text, "step_ms = 12.125\n") &&
	      strstr(text, "fault.vector = ud\n") && strstr(text, "end = wait\n") &&
	      strncmp(text, "profile = quick\n", 16) == 0,
	      "describe prints canonical key = value lines, profile first");
	if (!strstr(text, "probes = latency,cost\n"))
		printf("# described:\n%s", text);
	CHECK(round_trip(&c, why, sizeof why), "an edited config round-trips (%s)", why);

	/* Found by the fuzzer: more decimals than significant digits. */
	CHECK(load2(&c, &err, "precision = 0.0000000370564041\n", NULL) == 0 &&
	      round_trip(&c, why, sizeof why), "a 16-decimal precision round-trips (%s)", why);
	load2(&c, &err, "probes = cost,latency\npages = 1g\nmin_size = 1536K\nmax_size = 1G\n"
	      "precision = 1%\nstep_ms = 12.125\nfault.vector = ud\nend = wait\n", NULL);

	int lines = 0;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';

	CHECK(lines == 57, "one line per key, 57 keys (%d lines)", lines);

	char small[16];
	memset(small, 'x', sizeof small);
	int m = config_describe(&c, small, sizeof small);
	CHECK(m == n && small[15] == '\0' && strncmp(small, "profile = quick", 15) == 0,
	      "a short buffer is cut, terminated, and the full length returned (%d of %d)", m, n);

	/* Random valid edits: whatever loads must describe and load back the same. */
	static const char *const values[][6] = {
		{ "probes", "latency", "locality,later", "cost,fault", "latency,locality,later,cost", "later" },
		{ "pages", "4k", "2m", "1g", "4k,2m,1g", "2m,1g" },
		{ "min_size", "64", "4K", "1536K", "3M", "192" },
		{ "max_size", "1G", "6M", "512M", "1048576", "8K" },
		{ "precision", "0.01", "2%", "0.333", "0.0001", "12.5%" },
		{ "step_ms", "0.5", "20", "1234.5678", "0.01", "60000" },
		{ "later.stride", "8", "64", "256", "4K", "24" },
		{ "later.block", "4K", "64K", "256", "1536", "1M" },
		{ "later.precision", "0.5", "0.05", "1%", "0.1", "0.123" },
		{ "fault.vector", "de", "pf", "0", "31", "17" },
		{ "end", "off", "reboot", "return", "wait", "off" },
		{ "profile", "quick", "full", "quick", "full", "full" },
	};
	unsigned seed = 12345, loaded = 0, bad = 0;
	for (int round = 0; round < 3000; round++) {
		char cfg[1024] = "";
		size_t len = 0;
		for (size_t k = 0; k < sizeof values / sizeof *values; k++) {
			seed = seed * 1103515245u + 12345u;
			unsigned pick = (seed >> 16) % 7;
			if (pick >= 5)
				continue;
			len += (size_t)snprintf(cfg + len, sizeof cfg - len, "%s = %s\n",
						values[k][0], values[k][1 + pick]);
		}
		if (load2(&c, &err, cfg, NULL))
			continue;
		loaded++;
		if (!round_trip(&c, why, sizeof why) && !bad++)
			printf("# round trip failed for:\n%s# %s\n", cfg, why);
	}
	CHECK(loaded > 500 && bad == 0, "%u random valid configs round-trip (%u failed)", loaded, bad);
}

/* The registry is the one list of probes: each row's name is the word its
   PROBE_DEFINE names, loads to its bit and prints back; the list is in run
   order, which starts with latency and then the test-only fault probe,
   which no profile runs by default; the profiles run the rows that say so. */
static void test_probe_list(void)
{
#define PROBE_ROW_(id, name, order) { #name, PROBE_##id, order },
	static const struct { const char *name; unsigned bit; unsigned order; }
		rows[] = { PROBE_REGISTRY(PROBE_ROW_) };
#undef PROBE_ROW_
	const size_t n = sizeof rows / sizeof *rows;
	struct config c, q, f;
	struct config_error err;
	char text[256], described[4096], all[160] = "", ordered[160] = "";
	unsigned every = 0, quick = 0, full = 0;

	CHECK(n == PROBE_COUNT, "PROBE_COUNT counts the registry's rows (%d)", PROBE_COUNT);
	for (size_t i = 0; i < n; i++) {
		const struct probe_def *p = probe_registry[i];

		CHECK(!strcmp(p->config.name, rows[i].name) && probe_by_name(rows[i].name) == p &&
		      (i == 0 || rows[i].order > rows[i - 1].order) && p->run,
		      "row %zu: PROBE_DEFINE(%s, %u) names itself '%s', in run order", i,
		      rows[i].name, rows[i].order, p->config.name);
		snprintf(text, sizeof text, "probes = %s\n", p->config.name);
		int rc = load2(&c, &err, text, NULL);
		config_describe(&c, described, sizeof described);
		snprintf(text, sizeof text, "\nprobes = %s\n", p->config.name);
		CHECK(rc == 0 && c.probes == rows[i].bit && rows[i].bit == 1u << i &&
		      strstr(described, text), "probes = %s: its bit alone, and printed back (%s)",
		      p->config.name, err.text);
		every |= rows[i].bit;
		quick |= p->config.profiles & PROBE_IN_QUICK ? rows[i].bit : 0;
		full |= p->config.profiles & PROBE_IN_FULL ? rows[i].bit : 0;
		snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? "," : "",
			 rows[n - 1 - i].name);
		snprintf(ordered + strlen(ordered), sizeof ordered - strlen(ordered), "%s%s",
			 i ? "," : "", rows[i].name);
	}
	CHECK(probe_by_name("nonesuch") == NULL && probe_by_name(NULL) == NULL,
	      "an unknown name finds no row");
	snprintf(text, sizeof text, "probes = %s", all);
	CHECK(load2(&c, &err, text, NULL) == 0 && c.probes == every,
	      "every probe at once (%s): every bit", all);
	config_describe(&c, described, sizeof described);
	snprintf(text, sizeof text, "\nprobes = %s\n", ordered);
	CHECK(strstr(described, text) != NULL, "described in run order, whatever the order given");
	CHECK(!strcmp(rows[0].name, "latency") && !strcmp(rows[1].name, "fault") &&
	      !probe_registry[1]->config.profiles,
	      "the test-only fault probe runs second, after latency, and is never a default");
	memset(&q, 0, sizeof q);
	memset(&f, 0, sizeof f);
	config_defaults(&q, PROFILE_QUICK);
	config_defaults(&f, PROFILE_FULL);
	CHECK(q.probes == quick && f.probes == full && quick && (quick & ~full) == 0,
	      "the profiles' probes are the rows that name them; full runs all of quick's");
}

/* config_equal goes key by key through config.c's table: a change to any
   byte of any field of struct config must show, or a field has no key (or
   a key the wrong kind for its field). Padding is left out. */
/* The multi-CPU keys: c2c.cpus as "all" or numbers and ranges, written
   back in its shortest form; every way to get it wrong refused by name. */
static void test_cpu_keys(void)
{
	struct config c, back;
	struct config_error err;
	char text[4096], why[160];

	CHECK(load2(&c, &err, "c2c.cpus = 0-7, 16,9\nloaded.mix = read1_write1\n"
		    "cpus.deadline = 250\nloaded.loaders = 3\nloaded.size = 64M\n"
		    "loaded.load_size = 128K\nc2c.test_late = 2\n", NULL) == 0,
	      "the multi-CPU keys load (%s)", err.text);
	CHECK(C2C_SETTINGS(&c)->cpus[0] == 0x102ffull && !C2C_SETTINGS(&c)->cpus[1] && !C2C_SETTINGS(&c)->cpus[2] && !C2C_SETTINGS(&c)->cpus[3],
	      "c2c.cpus 0-7,16,9 is those ten CPUs (0x%llx)", (unsigned long long)C2C_SETTINGS(&c)->cpus[0]);
	CHECK(LOADED_SETTINGS(&c)->mix == LOAD_READ1_WRITE1 && c.cpus_deadline_ms == 250 &&
	      LOADED_SETTINGS(&c)->loaders == 3 && LOADED_SETTINGS(&c)->size == 64u << 20 &&
	      LOADED_SETTINGS(&c)->load_size == 128u << 10 && C2C_SETTINGS(&c)->test_late == 2,
	      "loaded.mix, cpus.deadline, loaded.loaders, sizes, c2c.test_late");
	config_describe(&c, text, sizeof text);
	CHECK(strstr(text, "\nc2c.cpus = 0-7,9,16\n") && strstr(text, "\nloaded.mix = read1_write1\n"),
	      "described as 0-7,9,16 and read1_write1");
	CHECK(round_trip(&c, why, sizeof why), "and read back the same (%s)", why);
	CHECK(load2(&back, &err, "c2c.cpus = ALL\n", NULL) == 0 && C2C_SETTINGS(&back)->cpus[3] == ~0ull,
	      "c2c.cpus = all is every CPU");
	config_describe(&back, text, sizeof text);
	CHECK(strstr(text, "\nc2c.cpus = all\n") != NULL, "and is described as all");
	CHECK(load2(&back, &err, "c2c.cpus = 255\n", NULL) == 0 && C2C_SETTINGS(&back)->cpus[3] == 1ull << 63,
	      "CPU 255, the last one a set holds");

	expect_error("c2c.cpus = 256\n", NULL,
		     "memprobe.cfg:1: key 'c2c.cpus': CPU '256' out of range (0 to 255)");
	expect_error("c2c.cpus = 7-3\n", NULL,
		     "memprobe.cfg:1: key 'c2c.cpus': CPU range '7-3' runs backwards");
	expect_error("c2c.cpus = 1,,2\n", NULL,
		     "memprobe.cfg:1: key 'c2c.cpus': bad CPU list '1,,2' (all, or numbers and "
		     "ranges like 0-7,16)");
	expect_error("c2c.cpus = 3-x\n", NULL,
		     "memprobe.cfg:1: key 'c2c.cpus': bad CPU range '3-x' (like 0-7)");
	expect_error("c2c.cpus = 3x\n", NULL, "memprobe.cfg:1: key 'c2c.cpus': bad CPU number '3x'");
	expect_error("loaded.mix = read_write\n", NULL,
		     "memprobe.cfg:1: key 'loaded.mix': unknown load mix 'read_write' (one of: all, "
		     "read, read3_write1, read2_write1, read1_write1, write, write_nt; did you mean 'read3_write1'?)");
	expect_error("loaded.load_size = 4K\n", NULL,
		     "memprobe.cfg:1: key 'loaded.load_size': out of range: '4K' (from 64 KiB to 1 TiB)");

	struct config full;
	config_defaults(&full, PROFILE_FULL);
	CHECK((full.probes & (PROBE_C2C | PROBE_LOADED)) == (PROBE_C2C | PROBE_LOADED) &&
	      C2C_SETTINGS(&full)->cpus[0] == ~0ull, "the full profile runs c2c and loaded over every CPU");
}

/* numa.node: "auto" (the boot CPU's domain) or a domain number; which
   domains exist is the platform's check, a word or a sign is refused here. */
static void test_numa_keys(void)
{
	struct config c;
	struct config_error err;
	char text[2048];

	CHECK(load2(&c, &err, NULL, NULL) == 0 && c.numa_node == NUMA_NODE_AUTO &&
	      c.numa_special == 0, "numa.node defaults to auto, numa.special to no");
	CHECK(load2(&c, &err, "numa.node = 1", "numa.node=AUTO") == 0 &&
	      c.numa_node == NUMA_NODE_AUTO, "numa.node auto, case-insensitive");
	CHECK(load2(&c, &err, "numa.node = 0", "numa.node=4294967294") == 0 &&
	      c.numa_node == 4294967294u, "the largest domain number a 32-bit SRAT field holds");
	expect_error("numa.node = near\n", NULL,
		     "memprobe.cfg:1: key 'numa.node': unknown value 'near' (auto, or a domain number "
		     "from 0 to 4294967294)");
	expect_error("numa.node = 4294967295\n", NULL,
		     "memprobe.cfg:1: key 'numa.node': out of range: '4294967295' (from 0 to "
		     "4294967294)");
	expect_error("numa.special = maybe\n", NULL,
		     "memprobe.cfg:1: key 'numa.special': unknown answer 'maybe' (one of: no, yes)");
	CHECK(load2(&c, &err, "numa.node = 2\nnuma.special = yes", NULL) == 0 &&
	      config_describe(&c, text, sizeof text) > 0 && strstr(text, "numa.node = 2\n") &&
	      strstr(text, "numa.special = yes\n"), "numa keys described as given");
	config_defaults(&c, PROFILE_QUICK);
	CHECK(config_describe(&c, text, sizeof text) > 0 && strstr(text, "numa.node = auto\n") &&
	      strstr(text, "clock.reference = auto\n"), "numa.node and clock.reference = auto "
	      "described");
	expect_error("clock.reference = tsc\n", NULL, "memprobe.cfg:1: key 'clock.reference': "
		     "unknown reference 'tsc' (one of: auto, pm, hpet, stall)");
}

/* bandwidth.cores: 1 in the quick profile, all in the full one (beside one
   core: bandwidth.one_core, yes in both), "all" or a count; whether that
   many CPUs exist is the probe's check (test_bandwidth), a word or zero is
   refused here. */
static void test_bandwidth_cores_key(void)
{
	struct config c, full;
	struct config_error err;
	char text[2048];

	config_defaults(&full, PROFILE_FULL);
	CHECK(load2(&c, &err, NULL, NULL) == 0 && BANDWIDTH_SETTINGS(&c)->cores == 1 &&
	      BANDWIDTH_SETTINGS(&full)->cores == BANDWIDTH_CORES_ALL,
	      "bandwidth.cores defaults to 1 in the quick profile, all in the full one");
	CHECK(BANDWIDTH_SETTINGS(&c)->one_core == 1 && BANDWIDTH_SETTINGS(&full)->one_core == 1 &&
	      load2(&c, &err, "bandwidth.one_core = no", NULL) == 0 &&
	      BANDWIDTH_SETTINGS(&c)->one_core == 0,
	      "bandwidth.one_core: yes in both profiles, no taken");
	CHECK(load2(&c, &err, "quiet = yes", NULL) == 0 && c.quiet == 1 &&
	      load2(&c, &err, NULL, NULL) == 0 && c.quiet == 0, "quiet: no by default, yes taken");
	CHECK(load2(&c, &err, "bandwidth.cores = 3", "bandwidth.cores=ALL") == 0 &&
	      BANDWIDTH_SETTINGS(&c)->cores == BANDWIDTH_CORES_ALL, "bandwidth.cores all, case-insensitive");
	CHECK(load2(&c, &err, "bandwidth.cores = 256", NULL) == 0 && BANDWIDTH_SETTINGS(&c)->cores == 256,
	      "bandwidth.cores up to 256, the most CPUs a run can give roles");
	CHECK(config_describe(&c, text, sizeof text) > 0 && strstr(text, "bandwidth.cores = 256\n"),
	      "a count described as its number");
	CHECK(load2(&c, &err, "bandwidth.cores = all", NULL) == 0 &&
	      config_describe(&c, text, sizeof text) > 0 && strstr(text, "bandwidth.cores = all\n"),
	      "all described as the word");
	expect_error("bandwidth.cores = 0\n", NULL,
		     "memprobe.cfg:1: key 'bandwidth.cores': out of range: '0' (from 1 to 256)");
	expect_error("bandwidth.cores = 257\n", NULL,
		     "memprobe.cfg:1: key 'bandwidth.cores': out of range: '257' (from 1 to 256)");
	expect_error("bandwidth.cores = every\n", NULL,
		     "memprobe.cfg:1: key 'bandwidth.cores': unknown value 'every' (all, or a "
		     "count of CPUs from 1 to 256)");
	expect_error("bandwidth.cores = -2\n", NULL,
		     "memprobe.cfg:1: key 'bandwidth.cores': unknown value '-2' (all, or a "
		     "count of CPUs from 1 to 256)");
	expect_error("bandwidth.cores = 4x\n", NULL,
		     "memprobe.cfg:1: key 'bandwidth.cores': bad number '4x' (a whole number in "
		     "decimal)");
}

/* One "key = value" line of a description into key and value; 0 for a
   comment ("# end: not set ..."), whose key is the word after '#'. */
static int described_pair(const char *line, char *key, size_t ksize, char *value, size_t vsize)
{
	const char *eq = strstr(line, " = ");

	if (line[0] == '#') {
		snprintf(key, ksize, "%.*s", (int)strcspn(line + 2, ":"), line + 2);
		snprintf(value, vsize, "not set");
		return 0;
	}
	if (!eq)
		return -1;
	snprintf(key, ksize, "%.*s", (int)(eq - line), line);
	snprintf(value, vsize, "%.*s", (int)strcspn(eq + 3, "\n"), eq + 3);
	return 0;
}

/* docs/CONFIG.md's key table against the keys themselves: one row per key,
   in the order config_describe prints them (the general keys, then each
   probe's in run order), each with the quick and full profiles' defaults
   exactly as described, and no row for a key that does not exist. */
static void test_docs_keys(void)
{
	static char quick_text[8192], full_text[8192], line[4096];
	struct config q, f;
	FILE *doc = fopen("docs/CONFIG.md", "r");
	const char *qp, *fp;
	int in_table = 0, rows = 0, bad = 0;

	CHECK(doc != NULL, "docs/CONFIG.md opens (run from the repository root)");
	if (!doc)
		return;
	config_defaults(&q, PROFILE_QUICK);
	config_defaults(&f, PROFILE_FULL);
	config_describe(&q, quick_text, sizeof quick_text);
	config_describe(&f, full_text, sizeof full_text);
	qp = quick_text;
	fp = full_text;
	while (fgets(line, sizeof line, doc)) {
		char key[64], want_q[200], want_f[200], cells[5][1024];
		int n = 0;

		if (!strncmp(line, "## Keys", 7))
			in_table = 1;
		else if (in_table && rows && line[0] != '|')
			break;        /* the table ends at its first other line */
		if (!in_table || strncmp(line, "| `", 3))
			continue;
		/* | `key` | meaning | range | quick | full | */
		for (char *p = line + 1, *bar; n < 5 && (bar = strstr(p, " |")); p = bar + 2)
			snprintf(cells[n++], sizeof cells[0], "%.*s", (int)(bar - p - 1), p + 1);
		if (n < 5 || !*qp || !*fp ||
		    described_pair(qp, key, sizeof key, want_q, sizeof want_q) ||
		    described_pair(fp, key, sizeof key, want_f, sizeof want_f)) {
			CHECK(0, "docs/CONFIG.md: a row past the keys, or not 5 cells: %s", line);
			bad++;
			break;
		}
		snprintf(line, sizeof line, "`%s`", key);
		if (strcmp(cells[0], line) || strcmp(cells[3], want_q) || strcmp(cells[4], want_f)) {
			CHECK(0, "docs/CONFIG.md row %d: %s, quick %s, full %s; the key there is %s, "
			      "quick %s, full %s", rows + 1, cells[0], cells[3], cells[4], key, want_q,
			      want_f);
			bad++;
		}
		rows++;
		qp = strchr(qp, '\n') + 1;
		fp = strchr(fp, '\n') + 1;
	}
	fclose(doc);
	CHECK(!bad && !*qp && rows > 0, "docs/CONFIG.md documents every key (%d), in order, with "
	      "both profiles' defaults%s%s", rows, *qp ? "; undocumented from: " : "", qp);
}

/* Every registry row's keys take a default in both profiles that parses:
   described back as the row writes it. */
static void test_row_defaults(void)
{
	static char text[8192], want[256];
	struct config c;

	for (int profile = PROFILE_QUICK; profile <= PROFILE_FULL; profile++) {
		config_defaults(&c, (enum profile)profile);
		config_describe(&c, text, sizeof text);
		for (unsigned p = 0; p < PROBE_COUNT; p++) {
			const struct probe_config *pc = probe_configs[p];

			for (unsigned k = 0; k < pc->nkeys; k++) {
				const char *d = profile == PROFILE_FULL ? pc->keys[k].full
									 : pc->keys[k].quick;
				snprintf(want, sizeof want, "\n%s.%s = %s\n", pc->name,
					 pc->keys[k].name, d ? d : "(none)");
				CHECK(d && strstr(text, want), "%s.%s: the %s default %s parses and "
				      "reads back", pc->name, pc->keys[k].name,
				      profile == PROFILE_FULL ? "full" : "quick", d ? d : "(none)");
			}
		}
	}
}

/* Every row's keys are keys of the file: the full profile's value given
   under the quick profile loads and prints back; a word after a probe's
   name that no row has is refused as unknown. */
static void test_row_keys_load(void)
{
	static char text[8192], line[256];
	struct config c;
	struct config_error err;

	for (unsigned p = 0; p < PROBE_COUNT; p++) {
		const struct probe_config *pc = probe_configs[p];

		for (unsigned k = 0; k < pc->nkeys; k++) {
			snprintf(line, sizeof line, "%s.%s = %s\n", pc->name, pc->keys[k].name,
				 pc->keys[k].full);
			int rc = load2(&c, &err, line, NULL);
			config_describe(&c, text, sizeof text);
			CHECK(rc == 0 && strstr(text, line), "%.*s loads and prints back (%s)",
			      (int)strlen(line) - 1, line, err.text);
		}
		snprintf(line, sizeof line, "%s.nonesuch = 1\n", pc->name);
		CHECK(load2(&c, &err, line, NULL) == -1 && strstr(err.text, "unknown key"),
		      "%s.nonesuch is an unknown key (%s)", pc->name, err.text);
	}
}

static void test_equal_covers_every_field(void)
{
	struct config base, mask, other;
	size_t unseen = 0, first = 0;

	memset(&base, 0, sizeof base);
	config_defaults(&base, PROFILE_FULL);
	base.end = END_REBOOT;
	base.end_set = 1;
	memset(&mask, 0xff, sizeof mask);
	__builtin_clear_padding(&mask);       /* padding bytes become 0 */
	/* The probes' blocks hold structs config.c does not know: each key's
	   first byte is flipped below instead. */
	memset(mask.probe_settings, 0, sizeof mask.probe_settings);
	for (size_t i = 0; i < sizeof base; i++) {
		if (!((const unsigned char *)&mask)[i])
			continue;
		memcpy(&other, &base, sizeof other);
		((unsigned char *)&other)[i] ^= 0xff;
		if (config_equal(&base, &other) && !unseen++)
			first = i;
	}
	CHECK(unseen == 0, "config_equal sees a change to every byte of every general field "
	      "(%zu bytes unseen, the first at offset %zu)", unseen, first);
	for (unsigned p = 0; p < PROBE_COUNT; p++) {
		const struct probe_config *pc = probe_configs[p];

		CHECK(pc->settings_bytes <= PROBE_SETTINGS_MAX, "%s: its settings fit its block",
		      pc->name);
		for (unsigned k = 0; k < pc->nkeys; k++) {
			memcpy(&other, &base, sizeof other);
			other.probe_settings[p][pc->keys[k].offset] ^= 0xff;
			CHECK(pc->keys[k].offset < pc->settings_bytes && !config_equal(&base, &other),
			      "config_equal sees a change to %s.%s", pc->name, pc->keys[k].name);
		}
	}

	memcpy(&other, &base, sizeof other);
	base.end_set = other.end_set = 0;
	other.end = END_WAIT;
	CHECK(config_equal(&base, &other), "the end action counts only where it was given");
	other.end_set = 1;
	CHECK(!config_equal(&base, &other), "given and not given differ");
}

static void test_upload_url_key(void)
{
	struct config c;
	struct config_error err;
	char text[4096];

	CHECK(load2(&c, &err, NULL, "profile=quick") == 0 && c.upload_url[0] == 0,
	      "upload.url is off by default");
	CHECK(load2(&c, &err, "upload.url = http://10.0.2.2:8080/fleet\n", NULL) == 0 &&
	      strcmp(c.upload_url, "http://10.0.2.2:8080/fleet") == 0, "an http URL is kept (%s)",
	      c.upload_url);
	config_describe(&c, text, sizeof text);
	CHECK(strstr(text, "upload.url = http://10.0.2.2:8080/fleet\n") != NULL,
	      "the URL is described as given");
	CHECK(load2(&c, &err, NULL, "upload.url=tftp://10.0.2.2/results") == 0 &&
	      strcmp(c.upload_url, "tftp://10.0.2.2/results") == 0, "a tftp URL is kept");
	CHECK(load2(&c, &err, NULL, "upload.url=off") == 0 && c.upload_url[0] == 0,
	      "off turns it off");
	config_describe(&c, text, sizeof text);
	CHECK(strstr(text, "upload.url = off\n") != NULL, "off is described as off");
	expect_error("upload.url = https://example.org/x\n", NULL,
		     "memprobe.cfg:1: key 'upload.url': 'https://example.org/x' is not an "
		     "http://HOST/PATH or tftp://HOST/PATH URL, nor off");
	expect_error("upload.url = http:///x\n", NULL,
		     "memprobe.cfg:1: key 'upload.url': 'http:///x' is not an "
		     "http://HOST/PATH or tftp://HOST/PATH URL, nor off");
}

/* A platform that is not bare metal refuses a bare-metal key's value
   other than its default, with the key's own reason and nothing else, and
   takes the default written out; bare metal takes both. */
static void test_bare_metal_keys(void)
{
	static const struct { const char *text, *reason; } cases[] = {
		{ "numa.node = 1", "numa.node and numa.special place buffers on bare metal only; "
		  "on Linux run under numactl --membind=NODE instead" },
		{ "numa.special = yes", "numa.node and numa.special place buffers on bare metal "
		  "only; on Linux run under numactl --membind=NODE instead" },
		{ "fault.cpu = 1", "fault.cpu raises a fault in another CPU's role on bare metal "
		  "only; on Linux a role's fault is the kernel's signal to the whole process" },
		{ "paging.test_pool = 8", "paging.test_pool sizes the bare-metal app's page-table "
		  "pool; the kernel maps a Linux run's pages" },
		{ "clock.reference = pm", "clock.reference chooses a bare-metal timer; the Linux "
		  "build calibrates against CLOCK_MONOTONIC_RAW" },
	};
	struct config_error err;
	struct config c;

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct config_source src = { FILE_NAME, cases[i].text, strlen(cases[i].text), 0 };

		CHECK(config_load(&c, &src, 1, &linux_box, &err) == -1 &&
		      !strcmp(err.text, cases[i].reason), "Linux refuses '%s': %s", cases[i].text,
		      err.text);
		CHECK(config_load(&c, &src, 1, &metal, &err) == 0, "bare metal takes '%s'",
		      cases[i].text);
	}
	const char *defaults = "numa.node = auto\nnuma.special = no\nfault.cpu = 0\n"
			       "paging.test_pool = 0\nclock.reference = auto\n";
	struct config_source src = { FILE_NAME, defaults, strlen(defaults), 0 };

	CHECK(config_load(&c, &src, 1, &linux_box, &err) == 0,
	      "Linux takes every bare-metal key at its default (%s)", err.text);
}

/* Did-you-mean: the distance itself, an unknown key, an unknown word. */
static void test_suggestions(void)
{
	int exact;
	const char *near;

	CHECK(suggest_distance("kitten", 6, "sitting") == 3, "kitten to sitting is 3 edits");
	CHECK(suggest_distance("porfile", 7, "profile") == 1, "a swapped pair is one edit");
	CHECK(suggest_distance("abc", 3, "") == 3 && suggest_distance("", 0, "abc") == 3,
	      "to and from nothing: the length");
	CHECK(suggest_distance("PROFILE", 7, "profile") == 0, "letters compare in any case");
	expect_error("profle = quick\n", NULL,
		     "memprobe.cfg:1: key 'profle': unknown key; did you mean 'profile'?");
	expect_error(NULL, "latency.max_bufer=1G",
		     "load options: key 'latency.max_bufer': unknown key; did you mean "
		     "'latency.max_buffer'?");
	expect_error("probes = latncy\n", NULL,
		     "memprobe.cfg:1: key 'probes': unknown probe 'latncy' (one of: latency, fault, tails, "
		     "tlb, ifetch, locality, later, bandwidth, mlp, cost, c2c, loaded, geometry; did you mean 'latency'?)");
	expect_error("profile = quik\n", NULL,
		     "memprobe.cfg:1: key 'profile': unknown profile 'quik' (one of: quick, full; did "
		     "you mean 'quick'?)");
	near = config_key_nearest("trials", 6, &exact);
	CHECK(near && !strcmp(near, "trials") && exact, "a key's own name is exact");
	near = config_key_nearest("max_sise", 8, &exact);
	CHECK(near && !strcmp(near, "max_size") && !exact, "max_sise is near max_size");
	near = config_key_nearest("wibble", 6, &exact);
	CHECK(!near && !exact, "nothing is near wibble");
}

/* A file saved by a Windows editor: a UTF-8 byte-order mark and CRLF. */
static void test_bom_crlf(void)
{
	static const char notepad[] = "\xef\xbb\xbfprofile = quick\r\ntrials = 4\r\n\r\nmax_trials = 9\r\n";
	struct config_source file = { FILE_NAME, notepad, sizeof notepad - 1, 0 };
	struct config_source options = { OPTIONS_NAME, notepad, sizeof notepad - 1, 1 };
	struct config_source late = { FILE_NAME, "trials = 4\n\xef\xbb\xbfmax_trials = 9\n", 26, 0 };
	struct config c;
	struct config_error err;

	CHECK(config_text_bom(notepad, sizeof notepad - 1) == 3 && config_text_bom("trials", 6) == 0 &&
	      config_text_bom("\xef\xbb", 2) == 0, "config_text_bom finds the mark, whole, at the start");
	CHECK(config_load(&c, &file, 1, &metal, &err) == 0 && c.profile == PROFILE_QUICK &&
	      c.trials == 4 && c.max_trials == 9,
	      "a BOM-headed CRLF file reads as its ASCII (%s)", err.text);
	CHECK(config_load(&c, &options, 1, &metal, &err) == -1 &&
	      !strcmp(err.text, "load options: binary garbage: byte 0xef at column 1; the "
		      "configuration must be plain ASCII text"),
	      "load options are no file: a mark there is refused (%s)", err.text);
	CHECK(config_load(&c, &late, 1, &metal, &err) == -1 &&
	      !strcmp(err.text, "memprobe.cfg:2: binary garbage: byte 0xef at column 1; the "
		      "configuration must be plain ASCII text"),
	      "a mark past the start is garbage (%s)", err.text);
}

/* One size grammar: the size keys and the pages key. */
static void test_size_grammar(void)
{
	static const struct { const char *text; uint64_t bytes; } sizes[] = {
		{ "2M", 2u << 20 }, { "2m", 2u << 20 }, { "2MiB", 2u << 20 }, { "2 MiB", 2u << 20 },
		{ "2097152", 2u << 20 }, { "2097152B", 2u << 20 }, { "1.5M", 1572864 },
		{ "64.5K", 66048 }, { "1.25 GiB", 5ull << 28 }, { "2.0m", 2u << 20 },
	};
	static const struct { const char *text; unsigned pages; } pages[] = {
		{ "pages = 2MiB", PAGES_2M }, { "pages = 2 M", PAGES_2M },
		{ "pages = 4096, 1GiB", PAGES_4K | PAGES_1G }, { "pages = 4K,2m", PAGES_4K | PAGES_2M },
	};
	struct config c;
	struct config_error err;
	char text[64];

	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		snprintf(text, sizeof text, "max_size = %s\n", sizes[i].text);
		CHECK(load2(&c, &err, text, NULL) == 0 && c.max_size == sizes[i].bytes,
		      "max_size = %s is %llu bytes (got %llu; %s)", sizes[i].text,
		      (unsigned long long)sizes[i].bytes, (unsigned long long)c.max_size, err.text);
	}
	for (size_t i = 0; i < sizeof pages / sizeof *pages; i++)
		CHECK(load2(&c, &err, pages[i].text, NULL) == 0 && c.pages == pages[i].pages,
		      "%s (%s)", pages[i].text, err.text);
	expect_error("max_size = 1.3K\n", NULL,
		     "memprobe.cfg:1: key 'max_size': '1.3K' is not a whole number of bytes");
	expect_error("max_size = 1.5\n", NULL,
		     "memprobe.cfg:1: key 'max_size': '1.5' is not a whole number of bytes");
	expect_error("max_size = 1.M\n", NULL,
		     "memprobe.cfg:1: key 'max_size': bad number '1.M' (bytes, or a number with K, KiB, "
		     "M, MiB, G or GiB, like 64M or 1.5MiB)");
	expect_error("max_size = 1.0000000001G\n", NULL,
		     "memprobe.cfg:1: key 'max_size': bad number '1.0000000001G' (bytes, or a number "
		     "with K, KiB, M, MiB, G or GiB, like 64M or 1.5MiB)");
	expect_error("pages = 3M\n", NULL,
		     "memprobe.cfg:1: key 'pages': unknown page size '3M' (this machine's: 4k, 2m, 1g; "
		     "did you mean '2m'?)");
	expect_error("pages = 16KiB\n", NULL,
		     "memprobe.cfg:1: key 'pages': 16 KiB is not an x86-64 page size (4 KiB, 2 MiB and "
		     "1 GiB are)");
}

/* memprobe keys: every key of the flat list, both profiles' defaults. */
static void test_keys_describe(void)
{
	static char text[32768];
	char line[128];
	int need = config_keys_describe(NULL, 0);
	struct config c;
	char described[16384], *p, *quick_at, *full_at;
	unsigned keys = 0;

	CHECK(need > 0 && need < (int)sizeof text && config_keys_describe(text, sizeof text) == need &&
	      (int)strlen(text) == need, "config_keys_describe says its length as snprintf does");
	CHECK(!strncmp(text, "KEY ", 4) && strstr(text, " QUICK ") && strstr(text, " FULL\n"),
	      "a header line names the columns");
	config_defaults(&c, PROFILE_FULL);
	config_describe(&c, described, sizeof described);
	for (p = described; *p; p = strchr(p, '\n') + 1) {
		size_t n = strcspn(p, " ");

		if (*p == '#')
			n = strlen("end");
		snprintf(line, sizeof line, "\n%.*s ", (int)n, *p == '#' ? "end" : p);
		CHECK(strstr(text, line) != NULL, "memprobe keys lists %.*s", (int)n,
		      *p == '#' ? "end" : p);
		keys++;
	}
	CHECK(keys > 40, "every key, %u of them, was looked for", keys);
	quick_at = strstr(text, "\nlatency.max_buffer ");
	full_at = quick_at ? strchr(quick_at + 1, '\n') : NULL;
	if (full_at) {
		full_at -= 4;
		for (quick_at = full_at - 1; *quick_at == ' '; quick_at--)
			;
		quick_at -= 3;
	}
	CHECK(full_at && !strncmp(full_at, "8GiB", 4) && !strncmp(quick_at, "8GiB", 4),
	      "latency.max_buffer's defaults: 8GiB quick, 8GiB full");
	CHECK(strstr(text, "\nprofile                     quick|full  ") != NULL,
	      "the profile key's words, joined by '|'");
	CHECK(strstr(text, "numa.node ") && strstr(text, "(bare metal only)"),
	      "a key only bare metal runs says so");
}

int main(void)
{
	test_max_size_auto();
	test_defaults();
	test_every_key();
	test_values();
	test_sources();
	test_errors();
	test_combinations();
	test_describe();
	test_probe_list();
	test_docs_keys();
	test_row_defaults();
	test_row_keys_load();
	test_cpu_keys();
	test_equal_covers_every_field();
	test_numa_keys();
	test_bandwidth_cores_key();
	test_upload_url_key();
	test_bare_metal_keys();
	test_suggestions();
	test_bom_crlf();
	test_size_grammar();
	test_keys_describe();
	return check_summary();
}
