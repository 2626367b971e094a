/* Placing probe buffers by proximity domain (see numa.h). */

#include "efi/numa.h"
#include "efi/acpi.h"
#include "arch/cpu.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/madt.h"
#include "lib/srat.h"
#include "core/platform.h"

static struct {
	int have_srat;
	char srat_problem[240];   /* why the SRAT is not used, "" when it is */
	char madt_problem[96];    /* why the MADT gave no UID: "" when none was
				     needed or it was read whole */
	struct srat_cpu cpu;      /* the boot processor: its CPU id, its ACPI UID */
	int placed;               /* buffers are held to one domain */
	uint32_t domain;          /* that domain */
	int asked;                /* numa.node named it */
	struct efimap_range windows[SRAT_MEMORY_MAX];
	struct efimap_place place;
	char where[48];
} numa;
static struct srat srat;

/* "0, 1, 3": the domains the SRAT gives memory to, for messages. */
static void domain_list(char *buf, size_t size)
{
	struct mp_text t = { buf, size, 0 };

	buf[0] = '\0';
	for (size_t i = 0; i < srat.domain_count; i++)
		mp_append(&t, "%s%u", i ? ", " : "", srat.domains[i]);
}

static int refuse(const struct config *c, const char *why)
{
	char line[320];

	mp_snprintf(line, sizeof line, "memprobe: numa.node = %u: %s; no probe runs\n",
		    c->numa_node, why);
	plat_console(line);
	return -1;
}

static void hold_to(uint32_t domain)
{
	size_t n = 0;

	for (size_t i = 0; i < srat.memory_count; i++)
		if (srat.memory[i].domain == domain) {
			numa.windows[n].base = srat.memory[i].base;
			numa.windows[n].length = srat.memory[i].length;
			numa.windows[n].uncached = 0;
			n++;
		}
	numa.placed = 1;
	numa.domain = domain;
	mp_snprintf(numa.where, sizeof numa.where, " in proximity domain %u", domain);
	numa.place.windows = numa.windows;
	numa.place.nwindows = n;
}

/* The length field of a table acpi_find_table found: the parsers check it
   against their limit and the checksum before reading entries. */
static size_t table_length(const uint8_t *table)
{
	return (size_t)((uint32_t)table[4] | (uint32_t)table[5] << 8 |
			(uint32_t)table[6] << 16 | (uint32_t)table[7] << 24);
}

/* The boot processor's ACPI processor UID, which an AArch64 SRAT names it
   by (GICC affinity), from its MADT GICC entry. Without an MADT, or
   without a GICC entry for it (x86, whose SRAT names the APIC ID itself),
   the UID stays unknown and no GICC entry is taken for it; a corrupt MADT
   is remembered, so a boot CPU the SRAT then cannot find is not blamed on
   the SRAT alone. */
static void read_madt_uid(void)
{
	const uint8_t *madt = acpi_find_table("APIC");
	int rc = madt ? madt_gicc_uid(madt, table_length(madt), numa.cpu.cpu_id,
				      &numa.cpu.acpi_uid, numa.madt_problem,
				      sizeof numa.madt_problem) : 0;

	numa.cpu.have_uid = rc == 1;
	if (rc != -1)
		numa.madt_problem[0] = '\0';
}

static void read_srat(void)
{
	const uint8_t *table = acpi_find_table("SRAT");
	char why[96];

	numa.have_srat = 0;
	if (!table) {
		mp_snprintf(numa.srat_problem, sizeof numa.srat_problem,
			    "the firmware has no ACPI SRAT: one domain assumed");
		return;
	}
	if (srat_parse(table, table_length(table), &numa.cpu, &srat, why, sizeof why)) {
		mp_snprintf(numa.srat_problem, sizeof numa.srat_problem, "%s: not used", why);
		return;
	}
	numa.have_srat = 1;
}

int numa_init(const struct config *c)
{
	char list[160], why[240];

	numa.cpu.cpu_id = cpu_table_id();
	read_madt_uid();
	numa.place.allow_special = c->numa_special;
	numa.asked = c->numa_node != NUMA_NODE_AUTO;
	read_srat();
	if (!numa.have_srat) {
		if (numa.asked)
			return refuse(c, numa.srat_problem);
		return 0;
	}
	if (srat.memory_dropped || srat.domains_dropped) {
		mp_snprintf(why, sizeof why, "memprobe: SRAT: %llu memory ranges and %llu domains "
			    "beyond what is kept (%u, %u): buffers are placed from the first ones\n",
			    (unsigned long long)srat.memory_dropped,
			    (unsigned long long)srat.domains_dropped, SRAT_MEMORY_MAX,
			    SRAT_DOMAINS_MAX);
		plat_console(why);
	}
	domain_list(list, sizeof list);
	if (numa.asked) {
		if (!srat_has_domain(&srat, c->numa_node)) {
			mp_snprintf(why, sizeof why, "no proximity domain %u has memory here "
				    "(the SRAT gives memory to domains %s)", c->numa_node, list);
			return refuse(c, why);
		}
		hold_to(c->numa_node);
	} else if (srat.cpu_found) {
		hold_to(srat.cpu_domain);
	} else {
		mp_snprintf(numa.srat_problem, sizeof numa.srat_problem, "the SRAT does not list "
			    "the boot processor (%s %u%s%s): buffers from any domain",
			    cpu_id_name, numa.cpu.cpu_id,
			    numa.madt_problem[0] ? "; its ACPI UID unknown, " : "",
			    numa.madt_problem);
		plat_console("memprobe: NUMA: ");
		plat_console(numa.srat_problem);
		plat_console("\n");
	}
	return 0;
}

const struct efimap_place *numa_place(void) { return &numa.place; }
const char *numa_where(void) { return numa.where; }

int64_t numa_domain_of(uint64_t addr)
{
	return numa.have_srat ? srat_domain_of(&srat, addr) : -1;
}

void numa_buffer_words(uint64_t base, char *buf, size_t size)
{
	int64_t d = numa_domain_of(base);

	if (d < 0)
		mp_snprintf(buf, size, "proximity domain unknown (%s)",
			    numa.have_srat ? "not in the SRAT" : "no SRAT");
	else
		mp_snprintf(buf, size, "proximity domain %u%s", (unsigned)d,
			    !numa.placed ? "" : numa.asked ? " (numa.node)" : " (the boot CPU's)");
}

void numa_json(struct json *j)
{
	char list[160];

	json_object_begin(j, "numa");
	json_bool(j, "srat", numa.have_srat);
	if (numa.srat_problem[0])
		json_string(j, "note", numa.srat_problem);
	json_u64(j, "boot_cpu_id", numa.cpu.cpu_id);
	json_string(j, "boot_cpu_id_kind", cpu_id_name);
	if (numa.cpu.have_uid)
		json_u64(j, "boot_cpu_acpi_uid", numa.cpu.acpi_uid);
	if (numa.have_srat) {
		domain_list(list, sizeof list);
		json_string(j, "domains_with_memory", list);
		json_u64(j, "memory_ranges", srat.memory_count);
		json_u64(j, "enabled_cpus", srat.cpus);
		if (srat.cpu_found)
			json_u64(j, "boot_cpu_domain", srat.cpu_domain);
	}
	json_string(j, "placement", !numa.placed ? "any domain" : numa.asked
		    ? "numa.node" : "the boot CPU's domain");
	if (numa.placed)
		json_u64(j, "buffer_domain", numa.domain);
	json_bool(j, "special_purpose_memory_allowed", numa.place.allow_special);
	json_object_end(j);
}
