/* libFuzzer target: config_load over arbitrary bytes.
 *
 * fuzz-sources: -D_GNU_SOURCE core/ results/ analysis/ probes/ run/ lib/ arch/generic/ arch/x86_64/ host/ -host/main.c -arch/x86_64/string.c -lm -lpthread
 *
 * config.c reads every probe's keys from its registry row, in the probe's
 * own file, so the target links the Linux platform whole but for its run's
 * entry (host/main.c), never the desk commands (no SQLite), and the EFI
 * app's own string functions (arch/x86_64/string.c, libc has them); the
 * platform then answers which page sizes exist. Only
 * config_load and config_describe run.
 *
 * The input is read three ways: whole as a file, whole as load options, and
 * split at its first byte's position into a file followed by load options.
 * Beyond "no crash", each accepted configuration must survive the round trip
 * through config_describe, and each rejection must leave a message: a parser
 * that fails without saying why, or accepts what it cannot print back, is a
 * bug the sanitizers alone would not see.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "core/platform.h"

/* The build's identity, which the Makefile writes into buildinfo.c for the
   apps; run.c, linked here but never run, names it. */
const char memprobe_version[] = "fuzz", memprobe_build_id[] = "fuzz",
	memprobe_compiler[] = "clang", memprobe_probe_flags[] = "";

/* Read as the EFI app reads it, which runs every key. */
static const struct config_platform metal = { 1, plat_page_size_architected };

static void load_and_check(const struct config_source *src, int n)
{
	struct config c, back;
	struct config_error err;
	char text[4096];

	memset(&err, 0x55, sizeof err);
	if (config_load(&c, src, n, &metal, &err) != 0) {
		if (err.text[0] == '\0' || memchr(err.text, '\0', sizeof err.text) == NULL)
			__builtin_trap();     /* a rejection without a message */
		return;
	}
	int len = config_describe(&c, text, sizeof text);
	if (len <= 0 || (size_t)len >= sizeof text)
		__builtin_trap();
	struct config_source again = { "described", text, (size_t)len, 0 };
	if (config_load(&back, &again, 1, &metal, &err) != 0 || !config_equal(&c, &back))
		__builtin_trap();             /* describe printed what load cannot read back */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct config_source src[2];

	src[0] = (struct config_source){ "memprobe.cfg", text, size, 0 };
	load_and_check(src, 1);
	src[0] = (struct config_source){ "load options", text, size, 1 };
	load_and_check(src, 1);
	if (size > 1) {
		size_t split = 1 + data[0] % (size - 1);
		src[0] = (struct config_source){ "memprobe.cfg", text + 1, split - 1, 0 };
		src[1] = (struct config_source){ "load options", text + split, size - split, 1 };
		load_and_check(src, 2);
	}
	return 0;
}
