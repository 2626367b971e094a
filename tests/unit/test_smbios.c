/* The SMBIOS parser (lib/smbios.c) on hand-built tables: entry points of
 * both kinds (good, bad checksums, short lengths), a table as QEMU builds
 * it (type 1 with a UUID, type 2, two type 17 devices, an empty slot),
 * extended sizes and speeds, the UUID's byte order before and after 2.6,
 * all-ones and all-zero UUIDs falling back to the MAC, and malformed
 * tables: a length under the header, a structure past the end, strings
 * never ended, string numbers past the set, control bytes in strings,
 * structures too short for their fields, more devices than are kept.
 */
#include <string.h>

#include "check.h"
#include "lib/json.h"
#include "lib/smbios.h"
#include "run/machine_line.h"

static uint8_t table[16384];
static size_t used;
static struct smbios_info info;

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

static const uint8_t the_uuid[16] = { 0x78, 0x56, 0x34, 0x12, 0x34, 0x12, 0x78, 0x56,
				      0x9a, 0xbc, 0xde, 0xf0, 0x11, 0x22, 0x33, 0x44 };

/* A structure: its formatted bytes (header included, length set here),
   then its strings, each NUL-ended, then the closing NUL. */
static uint8_t *structure(uint8_t type, uint8_t length, const char *const *strings)
{
	uint8_t *s = table + used;
	size_t n = 0;

	memset(s, 0, length);
	s[0] = type;
	s[1] = length;
	put16(s + 2, (uint16_t)(used & 0xffff));
	used += length;
	for (; strings && strings[n]; n++) {
		size_t l = strlen(strings[n]) + 1;
		memcpy(table + used, strings[n], l);
		used += l;
	}
	if (!n)
		table[used++] = 0;
	table[used++] = 0;
	return s;
}

static void system_struct(const uint8_t *uuid)
{
	static const char *const str[] = { "QEMU", "Standard PC (Q35 + ICH9, 2009)", "pc-q35-7.2",
					   "SER-0001", "sku-a", "family-b", 0 };
	uint8_t *s = structure(1, 0x1b, str);
	s[4] = 1; s[5] = 2; s[6] = 3; s[7] = 4; s[0x19] = 5; s[0x1a] = 6;
	if (uuid)
		memcpy(s + 8, uuid, 16);
}

static void board_struct(void)
{
	static const char *const str[] = { "Acme Boards", "X570-Pro", "rev 1.1", "BRD-42", 0 };
	uint8_t *s = structure(2, 0x0f, str);
	s[4] = 1; s[5] = 2; s[6] = 3; s[7] = 4;
}

/* A 3.3-length type 17: size in MiB (or 0x7fff and extended), speeds. */
static uint8_t *memdev(uint16_t size, uint32_t ext_size, uint16_t speed, uint16_t configured,
		       uint8_t type, const char *locator, const char *part)
{
	const char *str[] = { locator, "BANK 0", "Samsung", "S123", "tag", part[0] ? part : 0, 0 };
	uint8_t *s = structure(17, 0x5c, str);
	put16(s + 0x0c, size);
	s[0x10] = 1; s[0x11] = 2; s[0x12] = type;
	put16(s + 0x15, speed);
	s[0x17] = 3; s[0x18] = 4; s[0x19] = 5; s[0x1a] = part[0] ? 6 : 0;
	put32(s + 0x1c, ext_size);
	put16(s + 0x20, configured);
	return s;
}

static void end_struct(void)
{
	structure(127, 4, 0);
}

static void begin(void)
{
	memset(table, 0, sizeof table);
	used = 0;
}

static void test_qemu_like(void)
{
	char text[128];
	uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

	begin();
	system_struct(the_uuid);
	board_struct();
	memdev(16384, 0, 3200, 2933, 0x1a, "DIMM 0", "M393A2K43BB1  ");
	memdev(0x7fff, 65536, 0xffff, 4800, 0x22, "DIMM 1", "HMCG94");
	memdev(0, 0, 0, 0, 0x02, "DIMM 2", "");
	end_struct();
	CHECK(smbios_parse(table, used, 3, 0, "test", &info) == 0 && info.present,
	      "a QEMU-like table parses");
	CHECK(info.structures == 6 && !info.stopped[0] && info.bad_strings == 0,
	      "6 structures, walk not stopped (%u, '%s', %u bad)", info.structures, info.stopped,
	      info.bad_strings);
	CHECK(strcmp(info.sys_manufacturer, "QEMU") == 0 &&
	      strcmp(info.sys_product, "Standard PC (Q35 + ICH9, 2009)") == 0 &&
	      strcmp(info.sys_version, "pc-q35-7.2") == 0 && strcmp(info.sys_serial, "SER-0001") == 0 &&
	      strcmp(info.sys_sku, "sku-a") == 0 && strcmp(info.sys_family, "family-b") == 0,
	      "type 1 strings: %s / %s / %s / %s", info.sys_manufacturer, info.sys_product,
	      info.sys_version, info.sys_serial);
	smbios_uuid_text(&info, text, sizeof text);
	CHECK(strcmp(text, "12345678-1234-5678-9abc-def011223344") == 0,
	      "3.0 UUID: first three fields little-endian (%s)", text);
	smbios_machine_id(&info, mac, text, sizeof text);
	CHECK(strcmp(text, "12345678-1234-5678-9abc-def011223344") == 0,
	      "machine id is the UUID even with a MAC (%s)", text);
	CHECK(info.have_board && strcmp(info.board_manufacturer, "Acme Boards") == 0 &&
	      strcmp(info.board_product, "X570-Pro") == 0 && strcmp(info.board_version, "rev 1.1") == 0 &&
	      strcmp(info.board_serial, "BRD-42") == 0, "type 2: %s %s", info.board_manufacturer,
	      info.board_product);
	CHECK(info.nmem == 3, "three memory devices (%zu)", info.nmem);
	CHECK(info.mem[0].installed && info.mem[0].size_bytes == 16ULL << 30 &&
	      info.mem[0].speed_mts == 3200 && info.mem[0].configured_mts == 2933 &&
	      strcmp(info.mem[0].type, "DDR4") == 0 && strcmp(info.mem[0].locator, "DIMM 0") == 0 &&
	      strcmp(info.mem[0].bank, "BANK 0") == 0 && strcmp(info.mem[0].manufacturer, "Samsung") == 0 &&
	      strcmp(info.mem[0].part_number, "M393A2K43BB1") == 0 &&
	      strcmp(info.mem[0].serial, "S123") == 0,
	      "DIMM 0: 16 GiB DDR4 3200/2933, part number's trailing blanks cut ('%s')",
	      info.mem[0].part_number);
	CHECK(info.mem[1].installed && info.mem[1].size_bytes == 64ULL << 30 &&
	      info.mem[1].speed_mts == 0 && info.mem[1].configured_mts == 4800 &&
	      strcmp(info.mem[1].type, "DDR5") == 0,
	      "DIMM 1: 0x7fff size read from the extended size (64 GiB), 0xffff speed with an "
	      "extended speed of 0 is unknown (%llu, %u)",
	      (unsigned long long)info.mem[1].size_bytes, info.mem[1].speed_mts);
	CHECK(!info.mem[2].installed && info.mem[2].size_bytes == 0 &&
	      strcmp(info.mem[2].type, "Unknown") == 0, "DIMM 2: an empty slot");
	CHECK(info.mem_total_bytes == 80ULL << 30, "installed total 80 GiB (%llu)",
	      (unsigned long long)info.mem_total_bytes);

	machine_line(&info, text, sizeof text, 79);
	CHECK(strncmp(text, "machine  QEMU Standard PC (Q35 + ICH9, 2009), 2 DIMMs 80 GiB DDR4",
		      66) == 0 && strlen(text) <= 79,
	      "card line: '%s' (%zu)", text, strlen(text));
	machine_line(&info, text, sizeof text, 30);
	CHECK(strlen(text) == 30, "card line cut to its width (%zu)", strlen(text));

	{
		static char buf[8192];
		struct json j;
		json_init(&j, buf, sizeof buf);
		json_object_begin(&j, 0);
		smbios_json(&j, &info, mac);
		json_object_end(&j);
		CHECK(strstr(buf, "\"machine\"") &&
		      strstr(buf, "\"id\":\"12345678-1234-5678-9abc-def011223344\"") &&
		      strstr(buf, "\"mac\":\"52:54:00:12:34:56\"") &&
		      strstr(buf, "\"part_number\":\"HMCG94\"") &&
		      strstr(buf, "\"configured_speed_mts\":2933") &&
		      strstr(buf, "\"product\":\"X570-Pro\"") &&
		      strstr(buf, "\"size_bytes\":17179869184"),
		      "system.json's machine holds the id, MAC, board and devices");
		if (!strstr(buf, "\"id\":\"12345678"))
			printf("%s\n", buf);
	}
}

static void test_uuid_order_and_fallback(void)
{
	static const uint8_t ones[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t mac[6] = { 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef };
	char text[64];

	begin();
	system_struct(the_uuid);
	end_struct();
	CHECK(smbios_parse(table, used, 2, 4, "t", &info) == 0, "2.4 table parses");
	smbios_uuid_text(&info, text, sizeof text);
	CHECK(strcmp(text, "78563412-3412-7856-9abc-def011223344") == 0,
	      "before 2.6 the UUID's bytes are in table order (%s)", text);

	begin();
	system_struct(ones);
	end_struct();
	smbios_parse(table, used, 3, 2, "t", &info);
	smbios_machine_id(&info, mac, text, sizeof text);
	CHECK(info.uuid_state == SMBIOS_UUID_ALL_ONES && strcmp(text, "mac-525400abcdef") == 0,
	      "an all-ones UUID falls back to the MAC (%s)", text);
	smbios_machine_id(&info, 0, text, sizeof text);
	CHECK(strcmp(text, "unknown") == 0, "no UUID and no MAC: unknown");

	begin();
	system_struct(0);
	end_struct();
	smbios_parse(table, used, 3, 2, "t", &info);
	smbios_machine_id(&info, mac, text, sizeof text);
	CHECK(info.uuid_state == SMBIOS_UUID_UNSET && strcmp(text, "mac-525400abcdef") == 0,
	      "an all-zero UUID falls back to the MAC (%s)", text);

	begin();
	{
		static const char *const str[] = { "Old", 0 };
		uint8_t *s = structure(1, 0x08, str);   /* 2.0: no UUID field */
		s[4] = 1;
		s[5] = 9;                               /* past the strings */
	}
	smbios_parse(table, used, 2, 0, "t", &info);
	smbios_machine_id(&info, mac, text, sizeof text);
	CHECK(info.uuid_state == SMBIOS_UUID_ABSENT && strcmp(info.sys_manufacturer, "Old") == 0 &&
	      info.sys_product[0] == 0 && info.bad_strings == 1 && strcmp(text, "mac-525400abcdef") == 0,
	      "a 2.0 type 1 has no UUID; a string number past the set reads empty and is counted");

	smbios_absent(&info, "/sys/firmware/dmi/tables/DMI", "not readable: run as root");
	machine_line(&info, text, sizeof text, 79);
	CHECK(strstr(text, "no SMBIOS: not readable: run as root") != 0, "absent: %s", text);
}

static void test_malformed(void)
{
	uint8_t *s;

	CHECK(smbios_parse(table, 0, 3, 0, "t", &info) == -1 && !info.present && info.why[0],
	      "empty table refused (%s)", info.why);
	CHECK(smbios_parse(0, 100, 3, 0, "t", &info) == -1, "NULL table refused");

	begin();
	system_struct(the_uuid);
	s = table + used;
	structure(2, 0x0f, 0);
	s[1] = 2;                   /* length under the header */
	end_struct();
	CHECK(smbios_parse(table, used, 3, 0, "t", &info) == 0 && info.structures == 1 &&
	      strstr(info.stopped, "under its header") && strcmp(info.sys_manufacturer, "QEMU") == 0,
	      "a length under the header stops the walk, the system kept (%s)", info.stopped);

	begin();
	system_struct(the_uuid);
	s = table + used;
	structure(17, 0x5c, 0);
	s[1] = 0xff;                /* past the end */
	CHECK(smbios_parse(table, used, 3, 0, "t", &info) == 0 && info.structures == 1 &&
	      info.nmem == 0 && strstr(info.stopped, "past the table"),
	      "a structure past the end stops the walk (%s)", info.stopped);

	begin();
	system_struct(the_uuid);
	CHECK(smbios_parse(table, used - 1, 3, 0, "t", &info) == -1 && strstr(info.why, "strings not ended"),
	      "strings not ended before the end: %s", info.why);

	begin();
	{
		static const char *const str[] = { "A\x01\x7f\xc3" "B", 0 };
		s = structure(1, 0x1b, str);
		s[4] = 1;
		s[5] = 0;
	}
	smbios_parse(table, used, 3, 0, "t", &info);
	CHECK(strcmp(info.sys_manufacturer, "A???B") == 0 && info.sys_product[0] == 0,
	      "control and non-ASCII bytes become '?' (%s), string 0 is empty", info.sys_manufacturer);

	begin();
	{
		static const char *const str[] = { "012345678901234567890123456789012345678901234567890"
						   "1234567890123456789012345678901234567890", 0 };
		s = structure(2, 0x08, str);
		s[4] = 1;
	}
	smbios_parse(table, used, 3, 0, "t", &info);
	CHECK(strlen(info.board_manufacturer) == SMBIOS_TEXT - 1, "a long string is cut to %d",
	      SMBIOS_TEXT - 1);

	begin();
	s = structure(17, 0x0d, 0);  /* too short for its size field's second byte */
	s[0x0c] = 0x10;
	s = structure(17, 0x15, 0);  /* 2.1: size, locators, type; no speed */
	put16(s + 0x0c, 0x8000 | 512);  /* KiB units */
	s[0x12] = 0x99;
	s[0x10] = 7;
	smbios_parse(table, used, 2, 1, "t", &info);
	CHECK(info.nmem == 2 && info.mem[0].installed && !info.mem[0].size_known &&
	      info.mem[1].size_bytes == 512 * 1024 && info.mem[1].speed_mts == 0 &&
	      info.mem[1].configured_mts == 0 && strcmp(info.mem[1].type, "unknown") == 0 &&
	      info.mem[1].locator[0] == 0,
	      "short type 17s: unknown size, KiB units, no speed fields, type code past the list");

	begin();
	for (int i = 0; i < SMBIOS_MEMDEV_MAX + 5; i++)
		memdev(1024, 0, 2400, 2400, 0x18, "D", "P");
	smbios_parse(table, used, 3, 0, "t", &info);
	CHECK(info.nmem == SMBIOS_MEMDEV_MAX && info.mem_dropped == 5 &&
	      info.mem_total_bytes == (uint64_t)SMBIOS_MEMDEV_MAX << 30,
	      "more devices than kept are counted (%zu kept, %zu dropped)", info.nmem, info.mem_dropped);

	begin();
	end_struct();
	system_struct(the_uuid);     /* after the end marker: not read */
	smbios_parse(table, used, 3, 0, "t", &info);
	CHECK(info.structures == 1 && !info.have_system, "the walk ends at type 127");
}

static void entry2(uint8_t *ep, uint32_t address, uint16_t length)
{
	uint8_t sum = 0;

	memset(ep, 0, 0x1f);
	memcpy(ep, "_SM_", 4);
	ep[5] = 0x1f;
	ep[6] = 2;
	ep[7] = 8;
	memcpy(ep + 0x10, "_DMI_", 5);
	put16(ep + 0x16, length);
	put32(ep + 0x18, address);
	for (int i = 0x10; i < 0x1f; i++)
		sum = (uint8_t)(sum + ep[i]);
	ep[0x15] = (uint8_t)(0x100 - sum);
	sum = 0;
	for (int i = 0; i < 0x1f; i++)
		sum = (uint8_t)(sum + ep[i]);
	ep[4] = (uint8_t)(0x100 - sum);
}

static void entry3(uint8_t *ep, uint64_t address, uint32_t length)
{
	uint8_t sum = 0;

	memset(ep, 0, 0x18);
	memcpy(ep, "_SM3_", 5);
	ep[6] = 0x18;
	ep[7] = 3;
	ep[8] = 3;
	ep[0x0a] = 1;
	put32(ep + 0x0c, length);
	put64(ep + 0x10, address);
	for (int i = 0; i < 0x18; i++)
		sum = (uint8_t)(sum + ep[i]);
	ep[5] = (uint8_t)(0x100 - sum);
}

static void test_entry_points(void)
{
	uint8_t ep[32];
	struct smbios_entry e;
	char why[96];

	entry2(ep, 0xf0000, 0x1234);
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == 0 && !e.v3 && e.major == 2 &&
	      e.minor == 8 && e.table_address == 0xf0000 && e.table_bytes == 0x1234,
	      "2.8 entry point: table at 0x%llx, %u bytes", (unsigned long long)e.table_address,
	      e.table_bytes);
	ep[4]++;
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == -1 && strstr(why, "checksum"),
	      "2.x bad checksum: %s", why);
	entry2(ep, 0xf0000, 0x1234);
	ep[0x11] = 'X';
	ep[4] = (uint8_t)(ep[4] - ('X' - 'D'));
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == -1 && strstr(why, "_DMI_"),
	      "2.x bad _DMI_ anchor: %s", why);
	entry2(ep, 0xf0000, 0x1234);
	CHECK(smbios_entry_parse(ep, 20, &e, why, sizeof why) == -1 && strstr(why, "length"),
	      "2.x entry point cut short: %s", why);
	entry2(ep, 0, 0);
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == -1 && strstr(why, "no structure"),
	      "2.x entry point without a table: %s", why);

	entry3(ep, 0x7f000000ULL << 4, 0x2000);
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == 0 && e.v3 && e.major == 3 &&
	      e.minor == 3 && e.table_address == 0x7f000000ULL << 4 && e.table_bytes == 0x2000,
	      "3.3 entry point: 64-bit address, maximum length");
	ep[6] = 0x30;
	CHECK(smbios_entry_parse(ep, 0x18, &e, why, sizeof why) == -1,
	      "3.x length field past the data refused: %s", why);
	entry3(ep, 0x1000, 0x2000);
	ep[0x10] ^= 1;
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == -1 && strstr(why, "checksum"),
	      "3.x bad checksum: %s", why);
	CHECK(smbios_entry_parse((const uint8_t *)"_XX_ hello there, nothing here", 30, &e, why,
				 sizeof why) == -1 && strstr(why, "anchor"), "no anchor: %s", why);
	CHECK(smbios_entry_parse(ep, 3, &e, why, sizeof why) == -1, "three bytes refused");
}

int main(void)
{
	test_qemu_like();
	test_uuid_order_and_fallback();
	test_malformed();
	test_entry_points();
	return check_summary();
}
