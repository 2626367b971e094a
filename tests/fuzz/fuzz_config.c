/* libFuzzer target: config_load over arbitrary bytes.
 *
 * fuzz-sources: probes/config.c probes/config_defaults.c lib/fmt.c
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

#include "probes/config.h"
#include "probes/platform.h"

/* config.c asks the platform which page sizes exist: x86-64's, as the
   Linux build's own answer (arch/x86_64/paging.c) would be. */
int plat_page_size_architected(unsigned page_shift, char *why, size_t why_len)
{
	if (page_shift == 12 || page_shift == 21 || page_shift == 30)
		return 1;
	if (why)
		snprintf(why, why_len, "not an x86-64 page size");
	return 0;
}

/* config.c reads each probe's name and profiles from the registry's rows
   (probes/registry.c), which would pull in every probe: the same names,
   from the same generated list, without them. */
#define FUZZ_ROW_(id, name, order) static const struct probe_config fuzz_##name = { #name, 1 };
PROBE_REGISTRY(FUZZ_ROW_)
#undef FUZZ_ROW_
#define FUZZ_PTR_(id, name, order) &fuzz_##name,
const struct probe_config *const probe_configs[PROBE_COUNT] = { PROBE_REGISTRY(FUZZ_PTR_) };
#undef FUZZ_PTR_

static void load_and_check(const struct config_source *src, int n)
{
	struct config c, back;
	struct config_error err;
	char text[4096];

	memset(&err, 0x55, sizeof err);
	if (config_load(&c, src, n, &err) != 0) {
		if (err.text[0] == '\0' || memchr(err.text, '\0', sizeof err.text) == NULL)
			__builtin_trap();     /* a rejection without a message */
		return;
	}
	int len = config_describe(&c, text, sizeof text);
	if (len <= 0 || (size_t)len >= sizeof text)
		__builtin_trap();
	struct config_source again = { "described", text, (size_t)len, 0 };
	if (config_load(&back, &again, 1, &err) != 0 || !config_equal(&c, &back))
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
