/* libFuzzer target: the SMBIOS entry point and structure table parsers
 * over arbitrary bytes.
 *
 * fuzz-sources: lib/smbios.c lib/fmt.c lib/json.c run/machine_line.c
 *
 * The first byte picks the version the table is read as (and, when odd,
 * the entry point parser instead, with its checksum fixed half the time so
 * the fuzzer gets past it). Beyond "no crash": a walk keeps at most the
 * capacities, every kept string is printable ASCII and terminated, the
 * installed total is the sum of the devices' known sizes, a refusal says
 * why, and the JSON, the UUID text, the machine id and the card line
 * (cut to its width) can always be made from what was parsed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/smbios.h"
#include "run/machine_line.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

static void check_text(const char *s, size_t size)
{
	size_t n = strnlen(s, size);

	check(n < size);
	for (size_t i = 0; i < n; i++)
		check(s[i] >= 0x20 && s[i] < 0x7f);
}

static void check_entry(const uint8_t *data, size_t size)
{
	uint8_t *ep = malloc(size ? size : 1);
	struct smbios_entry e;
	char why[96];

	if (!ep)
		return;
	memcpy(ep, data, size);
	if (size > 0x20 && (data[0] & 2)) {
		int v3 = data[0] & 4;
		unsigned n = v3 ? 0x18 : 0x1f, sum_at = v3 ? 5 : 4;
		uint8_t sum = 0;
		memcpy(ep, v3 ? "_SM3_" : "_SM_", v3 ? 5 : 4);
		ep[v3 ? 6 : 5] = (uint8_t)n;
		ep[sum_at] = 0;
		if (!v3) {
			memcpy(ep + 0x10, "_DMI_", 5);
			ep[0x15] = 0;
			for (int i = 0x10; i < 0x1f; i++)
				sum = (uint8_t)(sum + ep[i]);
			ep[0x15] = (uint8_t)(0x100 - sum);
			sum = 0;
		}
		for (unsigned i = 0; i < n; i++)
			sum = (uint8_t)(sum + ep[i]);
		ep[sum_at] = (uint8_t)(0x100 - sum);
	}
	why[0] = 'x';
	if (smbios_entry_parse(ep, size, &e, why, sizeof why) == 0)
		check(e.table_address && e.table_bytes && why[0] == '\0');
	else
		check(why[0] != '\0' && strlen(why) < sizeof why);
	free(ep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct smbios_info s;
	static char buf[64 * 1024];
	char text[128];
	uint8_t *table;
	struct json j;
	uint64_t total = 0;
	unsigned version = size ? data[0] : 0;

	if (version & 1) {
		check_entry(data + 1, size ? size - 1 : 0);
		return 0;
	}
	table = malloc(size ? size - (size ? 1 : 0) + 1 : 1);
	if (!table)
		return 0;
	/* An exactly sized copy, so reading one byte past it is caught. */
	memcpy(table, data + (size ? 1 : 0), size ? size - 1 : 0);
	if (smbios_parse(table, size ? size - 1 : 0, 2 + (version >> 6), (version >> 1) & 15,
			 "fuzz", &s) != 0) {
		check(!s.present && s.why[0]);
	} else {
		check(s.present && s.structures > 0);
		check(s.nmem <= SMBIOS_MEMDEV_MAX);
		check_text(s.sys_manufacturer, SMBIOS_TEXT);
		check_text(s.sys_product, SMBIOS_TEXT);
		check_text(s.sys_serial, SMBIOS_TEXT);
		check_text(s.board_product, SMBIOS_TEXT);
		for (size_t i = 0; i < s.nmem; i++) {
			check_text(s.mem[i].locator, SMBIOS_TEXT);
			check_text(s.mem[i].part_number, SMBIOS_TEXT);
			check_text(s.mem[i].manufacturer, SMBIOS_TEXT);
			check(s.mem[i].type != NULL);
			if (s.mem[i].installed && s.mem[i].size_known)
				total += s.mem[i].size_bytes;
		}
		check(total == s.mem_total_bytes);
	}
	smbios_uuid_text(&s, text, sizeof text);
	check(text[0] == '\0' || strlen(text) == 36);
	smbios_machine_id(&s, size > 6 ? data + 1 : NULL, text, sizeof text);
	check(text[0] != '\0');
	machine_line(&s, text, sizeof text, 79);
	check(strlen(text) <= 79);
	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, 0);
	smbios_json(&j, &s, NULL);
	json_object_end(&j);
	free(table);
	return 0;
}
