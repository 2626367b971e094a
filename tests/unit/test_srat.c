/* The SRAT parser (lib/srat.c) on synthetic tables: two domains as QEMU's
 * -numa gives them, x2APIC entries, disabled entries, more ranges than are
 * kept, and corrupt tables (checksum, lengths, an entry running past the
 * end, a zero-length entry that would loop forever).
 */
#include <string.h>

#include "check.h"
#include "lib/srat.h"

#define G(x) ((uint64_t)(x) << 30)
#define M(x) ((uint64_t)(x) << 20)

static uint8_t table[64 * 1024];
static size_t used;

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

static void begin(void)
{
	memset(table, 0, sizeof table);
	memcpy(table, "SRAT", 4);
	table[8] = 3;
	put32(table + 36, 1);
	used = 48;
}

static void apic(uint8_t id, uint32_t domain, int enabled)
{
	uint8_t *e = table + used;
	e[0] = 0;
	e[1] = 16;
	e[2] = (uint8_t)domain;
	e[3] = id;
	put32(e + 4, enabled ? 1 : 0);
	e[9] = (uint8_t)(domain >> 8);
	e[10] = (uint8_t)(domain >> 16);
	e[11] = (uint8_t)(domain >> 24);
	used += 16;
}

static void x2apic(uint32_t id, uint32_t domain)
{
	uint8_t *e = table + used;
	e[0] = 2;
	e[1] = 24;
	put32(e + 4, domain);
	put32(e + 8, id);
	put32(e + 12, 1);
	used += 24;
}

static void memory(uint32_t domain, uint64_t base, uint64_t length, uint32_t flags)
{
	uint8_t *e = table + used;
	e[0] = 1;
	e[1] = 40;
	put32(e + 2, domain);
	put64(e + 8, base);
	put64(e + 16, length);
	put32(e + 28, flags);
	used += 40;
}

/* Sets the length and makes the bytes add up to zero. */
static size_t finish(void)
{
	uint8_t sum = 0;

	put32(table + 4, (uint32_t)used);
	table[9] = 0;
	for (size_t i = 0; i < used; i++)
		sum = (uint8_t)(sum + table[i]);
	table[9] = (uint8_t)(0x100 - sum);
	return used;
}

/* QEMU's -numa node,nodeid=0 / 1 over 2 GiB: 640 KiB, then 1 MiB..1 GiB in
   node 0, 1..2 GiB in node 1; CPU 0 in node 0, CPU 1 in node 1; a hotplug
   range left disabled. */
static void test_two_nodes(void)
{
	struct srat s;
	char why[120] = "";
	size_t len;
	int rc;

	begin();
	apic(0, 0, 1);
	apic(1, 1, 1);
	apic(2, 1, 0);
	memory(0, 0, 0xa0000, 1);
	memory(0, M(1), G(1) - M(1), 1);
	memory(1, G(1), G(1), 1);
	memory(1, G(4), G(4), 1 | 2);
	memory(7, G(16), G(1), 0);
	len = finish();
	rc = srat_parse(table, len, 1, &s, why, sizeof why);
	CHECK(rc == 0, "two-node table parses (%s)", why);
	CHECK(s.domain_count == 2 && s.domains[0] == 0 && s.domains[1] == 1,
	      "domains with memory: 0 and 1, the disabled domain 7 not among them");
	CHECK(s.memory_count == 4 && s.memory[3].hot_pluggable && !s.memory[0].hot_pluggable,
	      "4 enabled memory ranges, the hot-pluggable flag read");
	CHECK(s.cpus == 2, "2 enabled processors (the disabled one not counted)");
	CHECK(s.cpu_found && s.cpu_domain == 1, "APIC ID 1 is in domain 1");
	CHECK(srat_domain_of(&s, G(1) + 5) == 1 && srat_domain_of(&s, M(1)) == 0 &&
	      srat_domain_of(&s, G(3)) == -1 && srat_domain_of(&s, G(16)) == -1,
	      "addresses map to their domains; a hole and a disabled range to none");
	CHECK(srat_has_domain(&s, 1) && !srat_has_domain(&s, 2) && !srat_has_domain(&s, 7),
	      "domain 2 and the disabled 7 are not domains with memory");
	rc = srat_parse(table, len, 2, &s, why, sizeof why);
	CHECK(rc == 0 && !s.cpu_found, "a disabled processor is not found");
}

static void test_x2apic_and_wide_domains(void)
{
	struct srat s;
	char why[120] = "";
	size_t len;

	begin();
	apic(5, 0x01020304, 1);
	x2apic(70000, 9);
	memory(9, G(2), G(2), 1);
	len = finish();
	CHECK(srat_parse(table, len, 70000, &s, why, sizeof why) == 0 && s.cpu_found &&
	      s.cpu_domain == 9, "an x2APIC ID above 255 is found in domain 9");
	CHECK(srat_parse(table, len, 5, &s, why, sizeof why) == 0 && s.cpu_domain == 0x01020304,
	      "a legacy entry's domain from its four bytes: 0x%x", s.cpu_domain);
}

static void test_more_than_kept(void)
{
	struct srat s;
	char why[120] = "";
	size_t len;

	begin();
	for (unsigned i = 0; i < SRAT_MEMORY_MAX + 10; i++)
		memory(i % (SRAT_DOMAINS_MAX + 3), G(i + 1), M(512), 1);
	len = finish();
	CHECK(srat_parse(table, len, 0, &s, why, sizeof why) == 0, "a large table parses");
	CHECK(s.memory_count == SRAT_MEMORY_MAX && s.memory_dropped == 10,
	      "%d ranges kept, 10 counted as dropped, not silently lost", SRAT_MEMORY_MAX);
	CHECK(s.domain_count == SRAT_DOMAINS_MAX && s.domains_dropped > 0,
	      "%d domains kept, the rest counted", SRAT_DOMAINS_MAX);
}

static void expect_refused(const char *what, size_t len, size_t available, const char *words)
{
	struct srat s;
	char why[120] = "";
	int rc = srat_parse(table, len > available ? available : len, 0, &s, why, sizeof why);

	(void)len;
	CHECK(rc == -1 && strstr(why, words), "%s: refused (%s)", what, why);
}

static void test_corrupt(void)
{
	size_t len;

	begin();
	apic(0, 0, 1);
	memory(0, 0, G(1), 1);
	len = finish();
	table[60] ^= 1;
	expect_refused("a flipped byte", len, sizeof table, "checksum");
	len = finish();
	memcpy(table, "SRAX", 4);
	expect_refused("a wrong signature", len, sizeof table, "signature");
	memcpy(table, "SRAT", 4);
	len = finish();
	expect_refused("a length beyond what is readable", len, len - 1, "length");
	put32(table + 4, 20);
	expect_refused("a length shorter than the header", len, sizeof table, "length");

	begin();
	apic(0, 0, 1);
	table[used] = 1;
	table[used + 1] = 0;
	used += 8;
	len = finish();
	expect_refused("a zero-length entry (an endless loop otherwise)", len, sizeof table,
		       "entry length zero");
	static const struct { uint8_t entry_length; const char *what, *words; } bad[] = {
		{ 200, "an entry running past the table's end", "past the table's end" },
		{ 20, "a memory entry shorter than its layout", "shorter" },
	};
	for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
		begin();
		memory(0, 0, G(1), 1);
		table[48 + 1] = bad[i].entry_length;
		if (bad[i].entry_length < 40)
			used = 48 + bad[i].entry_length;
		len = finish();
		expect_refused(bad[i].what, len, sizeof table, bad[i].words);
	}
}

int main(void)
{
	test_two_nodes();
	test_x2apic_and_wide_domains();
	test_more_than_kept();
	test_corrupt();
	return check_summary();
}
