/* libFuzzer target: the ACPI SRAT parser, and the MADT's GICC lookup that
 * gives it an AArch64 CPU's UID, over arbitrary bytes.
 *
 * fuzz-sources: lib/srat.c lib/madt.c lib/acpi_table.c lib/fmt.c
 *
 * The input is the table; the harness writes the signature, the length
 * field and the checksum into a copy half the time, so the fuzzer reaches
 * the entries instead of stopping at the checksum; the same bytes are then
 * read as an MADT ("APIC"), whose lookup must answer 1 with a UID, 0, or
 * -1 with a reason. The CPU looked up comes from the first bytes: its id,
 * and an ACPI UID where bit 1 of the first byte says one is known. Beyond
 * "no crash": a
 * parse that succeeds keeps at most the capacities, its domains ascending
 * and distinct, every kept range's domain among them, and a lookup that
 * answers only with a kept range's domain; a refusal always says why.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/madt.h"
#include "lib/srat.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* Copies the input, and half the time makes it a well-formed frame of a
   table with this signature (its length and checksum set). */
static uint8_t *framed(const uint8_t *data, size_t size, const char *signature)
{
	uint8_t *table = malloc(size ? size : 1);

	if (!table)
		return NULL;
	memcpy(table, data, size);
	if (size >= 48 && (data[0] & 1)) {
		uint8_t sum = 0;
		memcpy(table, signature, 4);
		for (int i = 0; i < 4; i++)
			table[4 + i] = (uint8_t)(size >> (8 * i));
		table[9] = 0;
		for (size_t i = 0; i < size; i++)
			sum = (uint8_t)(sum + table[i]);
		table[9] = (uint8_t)(0x100 - sum);
	}
	return table;
}

static void fuzz_srat(const uint8_t *data, size_t size, const struct srat_cpu *cpu)
{
	static struct srat s;
	uint8_t *table = framed(data, size, "SRAT");
	char why[120];
	int rc;

	if (!table)
		return;
	why[0] = '\0';
	rc = srat_parse(table, size, cpu, &s, why, sizeof why);
	if (rc != 0) {
		check(rc == -1 && why[0] != '\0' && strlen(why) < sizeof why);
	} else {
		check(s.memory_count <= SRAT_MEMORY_MAX && s.domain_count <= SRAT_DOMAINS_MAX);
		check(!s.cpu_found || s.cpus > 0);
		for (size_t i = 1; i < s.domain_count; i++)
			check(s.domains[i - 1] < s.domains[i]);
		for (size_t i = 0; i < s.memory_count; i++) {
			int64_t d = srat_domain_of(&s, s.memory[i].base);
			check(s.memory[i].length > 0 && d >= 0);
			check(srat_has_domain(&s, s.memory[i].domain) || s.domains_dropped);
		}
	}
	free(table);
}

static void fuzz_madt(const uint8_t *data, size_t size, uint32_t cpu_id)
{
	uint8_t *table = framed(data, size, "APIC");
	uint32_t uid = 0xdeadbeef;
	char why[120];
	int rc;

	if (!table)
		return;
	why[0] = '\0';
	rc = madt_gicc_uid(table, size, cpu_id, &uid, why, sizeof why);
	check(rc == 1 || rc == 0 || (rc == -1 && why[0] != '\0' && strlen(why) < sizeof why));
	check(rc == 1 || uid == 0xdeadbeef);
	free(table);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct srat_cpu cpu = { 0 };

	if (size)
		cpu.cpu_id = data[0];
	if (size >= 2 && (data[0] & 2)) {
		cpu.acpi_uid = data[1];
		cpu.have_uid = 1;
	}
	fuzz_srat(data, size, &cpu);
	fuzz_madt(data, size, cpu.cpu_id);
	return 0;
}
