/* The SRAT parser (lib/srat.c) on synthetic tables: two domains as QEMU's
 * -numa gives them, x2APIC entries, disabled entries, AArch64's GICC
 * entries found through the MADT's UID for an MPIDR (lib/madt.c), more
 * ranges than are kept, and corrupt tables (checksum, lengths, an entry
 * running past the end, a zero-length entry that would loop forever).
 */
#include <string.h>

#include "check.h"
#include "lib/madt.h"
#include "lib/srat.h"

#define G(x) ((uint64_t)(x) << 30)
#define M(x) ((uint64_t)(x) << 20)

static uint8_t table[64 * 1024];
static size_t used;

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

static void begin_table(const char *signature, size_t first_entry)
{
	memset(table, 0, sizeof table);
	memcpy(table, signature, 4);
	table[8] = 3;
	put32(table + 36, 1);
	used = first_entry;
}

static void begin(void) { begin_table("SRAT", 48); }

/* The processor with this APIC ID (no ACPI UID known). */
static const struct srat_cpu *apic_cpu(uint32_t id)
{
	static struct srat_cpu c;

	c = (struct srat_cpu){ .cpu_id = id };
	return &c;
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
	rc = srat_parse(table, len, apic_cpu(1), &s, why, sizeof why);
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
	rc = srat_parse(table, len, apic_cpu(2), &s, why, sizeof why);
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
	CHECK(srat_parse(table, len, apic_cpu(70000), &s, why, sizeof why) == 0 && s.cpu_found &&
	      s.cpu_domain == 9, "an x2APIC ID above 255 is found in domain 9");
	CHECK(srat_parse(table, len, apic_cpu(5), &s, why, sizeof why) == 0 && s.cpu_domain == 0x01020304,
	      "a legacy entry's domain from its four bytes: 0x%x", s.cpu_domain);
}

/* SRAT GICC affinity (type 3, 18 bytes): domain at 2, ACPI processor UID
   at 6, flags at 10. */
static void gicc_affinity(uint32_t uid, uint32_t domain, int enabled)
{
	uint8_t *e = table + used;
	e[0] = 3;
	e[1] = 18;
	put32(e + 2, domain);
	put32(e + 6, uid);
	put32(e + 10, enabled ? 1 : 0);
	used += 18;
}

/* MADT GICC (type 0x0b, the ACPI 6.3 layout of 82 bytes, or as long as
   asked): ACPI processor UID at 8, MPIDR at 68. */
static void madt_gicc(uint32_t uid, uint64_t mpidr, uint8_t bytes)
{
	uint8_t *e = table + used;
	e[0] = 0x0b;
	e[1] = bytes;
	put32(e + 8, uid);
	put32(e + 12, 1);
	if (bytes >= 76)
		put64(e + 68, mpidr);
	used += bytes;
}

/* An AArch64 machine of two clusters: the MADT ties MPIDR 0x10100 (Aff2 1,
   Aff1 1) to UID 7 and one with Aff3 = 2 to UID 9; the SRAT puts UID 7 in
   domain 1, UID 9 in domain 2, and lists a disabled UID 3. */
static void test_gicc(void)
{
	uint64_t mpidr_aff3 = 2ull << 32 | 0x0001;
	struct srat_cpu cpu = { .cpu_id = madt_mpidr_id(0x80010100) };
	char why[120] = "";
	uint32_t uid = 0;
	struct srat s;
	size_t len;

	CHECK(cpu.cpu_id == 0x10100 && madt_mpidr_id(mpidr_aff3) == 0x02000001,
	      "MPIDR packed: Aff2..Aff0 low, Aff3 at the top, the U and MT bits gone (0x%x)",
	      cpu.cpu_id);
	begin_table("APIC", 44);
	table[used] = 0;                 /* a local APIC entry, skipped */
	table[used + 1] = 8;
	used += 8;
	madt_gicc(9, mpidr_aff3, 80);
	madt_gicc(7, 0x80010100, 82);
	len = finish();
	CHECK(madt_gicc_uid(table, len, cpu.cpu_id, &uid, why, sizeof why) == 1 && uid == 7,
	      "MADT: MPIDR 0x10100 is ACPI processor UID 7 (%u, %s)", uid, why);
	CHECK(madt_gicc_uid(table, len, 0x02000001, &uid, why, sizeof why) == 1 && uid == 9,
	      "MADT: an Aff3 CPU found by the packed id (%u)", uid);
	CHECK(madt_gicc_uid(table, len, 0x5, &uid, why, sizeof why) == 0,
	      "MADT: a CPU no GICC entry names is not found");
	table[60] ^= 1;
	CHECK(madt_gicc_uid(table, len, cpu.cpu_id, &uid, why, sizeof why) == -1 &&
	      strstr(why, "APIC: checksum"), "MADT: a corrupt table is refused (%s)", why);
	begin_table("APIC", 44);
	madt_gicc(7, 0x10100, 72);
	len = finish();
	CHECK(madt_gicc_uid(table, len, cpu.cpu_id, &uid, why, sizeof why) == -1 &&
	      strstr(why, "shorter"), "MADT: a GICC entry too short for its MPIDR is refused (%s)",
	      why);

	begin();
	gicc_affinity(3, 5, 0);
	gicc_affinity(7, 1, 1);
	gicc_affinity(9, 2, 1);
	memory(1, G(1), G(1), 1);
	memory(2, G(2), G(1), 1);
	len = finish();
	cpu.acpi_uid = 7;
	cpu.have_uid = 1;
	CHECK(srat_parse(table, len, &cpu, &s, why, sizeof why) == 0 && s.cpu_found &&
	      s.cpu_domain == 1 && s.cpus == 2,
	      "SRAT: the GICC entry of UID 7 puts the boot CPU in domain 1, 2 enabled CPUs");
	cpu.have_uid = 0;
	CHECK(srat_parse(table, len, &cpu, &s, why, sizeof why) == 0 && !s.cpu_found,
	      "SRAT: without a UID from the MADT no GICC entry is taken for the CPU");
	cpu = (struct srat_cpu){ .cpu_id = 3, .acpi_uid = 3, .have_uid = 1 };
	CHECK(srat_parse(table, len, &cpu, &s, why, sizeof why) == 0 && !s.cpu_found,
	      "SRAT: a disabled GICC entry is not found");
	cpu = (struct srat_cpu){ .cpu_id = 7 };
	begin();
	apic(7, 4, 1);
	gicc_affinity(7, 1, 1);
	len = finish();
	CHECK(srat_parse(table, len, &cpu, &s, why, sizeof why) == 0 && s.cpu_found &&
	      s.cpu_domain == 4, "SRAT: a GICC entry is never matched by the CPU id, only by the UID");
	begin();
	gicc_affinity(7, 1, 1);
	table[48 + 1] = 14;
	used = 48 + 14;
	len = finish();
	CHECK(srat_parse(table, len, &cpu, &s, why, sizeof why) == -1 && strstr(why, "shorter"),
	      "SRAT: a GICC entry shorter than its layout is refused (%s)", why);
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
	CHECK(srat_parse(table, len, apic_cpu(0), &s, why, sizeof why) == 0, "a large table parses");
	CHECK(s.memory_count == SRAT_MEMORY_MAX && s.memory_dropped == 10,
	      "%d ranges kept, 10 counted as dropped, not silently lost", SRAT_MEMORY_MAX);
	CHECK(s.domain_count == SRAT_DOMAINS_MAX && s.domains_dropped > 0,
	      "%d domains kept, the rest counted", SRAT_DOMAINS_MAX);
}

static void expect_refused(const char *what, size_t len, size_t available, const char *words)
{
	struct srat s;
	char why[120] = "";
	int rc = srat_parse(table, len > available ? available : len, apic_cpu(0), &s, why, sizeof why);

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
	test_gicc();
	test_more_than_kept();
	test_corrupt();
	return check_summary();
}
