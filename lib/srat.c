/* Parsing the SRAT (see srat.h). Offsets from ACPI 6.5, 5.2.16. */

#include "lib/srat.h"
#include "lib/acpi_table.h"

/* ---- Constants -------------------------------------------------------- */

#define FIRST_ENTRY 48           /* header, 4 reserved (table revision 1), 8 reserved */
#define TYPE_APIC 0
#define TYPE_MEMORY 1
#define TYPE_X2APIC 2
#define TYPE_GICC 3
#define APIC_BYTES 16
#define MEMORY_BYTES 40
#define X2APIC_BYTES 24
#define GICC_BYTES 18
#define FLAG_ENABLED (1u << 0)
#define FLAG_HOT_PLUGGABLE (1u << 1)
#define FLAG_NON_VOLATILE (1u << 2)

/* ---- Private Functions ------------------------------------------------ */

static void add_domain(struct srat *s, uint32_t domain)
{
	size_t i = 0;

	while (i < s->domain_count && s->domains[i] < domain)
		i++;
	if (i < s->domain_count && s->domains[i] == domain)
		return;
	if (s->domain_count == SRAT_DOMAINS_MAX) {
		s->domains_dropped++;
		return;
	}
	for (size_t j = s->domain_count; j > i; j--)
		s->domains[j] = s->domains[j - 1];
	s->domains[i] = domain;
	s->domain_count++;
}

static void add_memory(struct srat *s, const uint8_t *e)
{
	uint32_t flags = acpi_get32(e + 28);
	struct srat_memory *m;

	if (!(flags & FLAG_ENABLED) || !acpi_get64(e + 16))
		return;
	add_domain(s, acpi_get32(e + 2));
	if (s->memory_count == SRAT_MEMORY_MAX) {
		s->memory_dropped++;
		return;
	}
	m = &s->memory[s->memory_count++];
	m->domain = acpi_get32(e + 2);
	m->base = acpi_get64(e + 8);
	m->length = acpi_get64(e + 16);
	m->hot_pluggable = !!(flags & FLAG_HOT_PLUGGABLE);
	m->non_volatile = !!(flags & FLAG_NON_VOLATILE);
}

/* One enabled processor entry; mine says whether it names the processor
   looked up. */
static void add_cpu(struct srat *s, int mine, uint32_t domain, uint32_t flags)
{
	if (!(flags & FLAG_ENABLED))
		return;
	s->cpus++;
	if (mine && !s->cpu_found) {
		s->cpu_found = 1;
		s->cpu_domain = domain;
	}
}

/* One entry of the list; -1 with why for one shorter than its type's
   layout. Types beyond these (GIC ITS, generic initiators) are skipped. */
static int read_entry(struct acpi_entries *w, const uint8_t *e, const struct srat_cpu *cpu,
		      struct srat *out)
{
	uint8_t type = e[0], size = e[1];

	if (type == TYPE_APIC && size >= APIC_BYTES)
		add_cpu(out, e[3] == cpu->cpu_id, e[2] | (uint32_t)e[9] << 8 |
			(uint32_t)e[10] << 16 | (uint32_t)e[11] << 24, acpi_get32(e + 4));
	else if (type == TYPE_X2APIC && size >= X2APIC_BYTES)
		add_cpu(out, acpi_get32(e + 8) == cpu->cpu_id, acpi_get32(e + 4),
			acpi_get32(e + 12));
	else if (type == TYPE_GICC && size >= GICC_BYTES)
		add_cpu(out, cpu->have_uid && acpi_get32(e + 6) == cpu->acpi_uid,
			acpi_get32(e + 2), acpi_get32(e + 10));
	else if (type == TYPE_MEMORY && size >= MEMORY_BYTES)
		add_memory(out, e);
	else if (type <= TYPE_GICC)
		return acpi_refuse_entry(w, e, "entry shorter than its type's layout");
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int srat_parse(const uint8_t *table, size_t available, const struct srat_cpu *cpu,
	       struct srat *out, char *why, size_t why_len)
{
	struct acpi_entries w;
	const uint8_t *e;
	int more;

	out->memory_count = out->memory_dropped = 0;
	out->domain_count = out->domains_dropped = 0;
	out->cpu_found = 0;
	out->cpu_domain = 0;
	out->cpus = 0;
	if (acpi_entries_open(&w, table, available, "SRAT", FIRST_ENTRY, why, why_len))
		return -1;
	while ((more = acpi_next_entry(&w, &e)) > 0)
		if (read_entry(&w, e, cpu, out))
			return -1;
	return more;
}

int64_t srat_domain_of(const struct srat *s, uint64_t addr)
{
	for (size_t i = 0; i < s->memory_count; i++)
		if (addr >= s->memory[i].base && addr - s->memory[i].base < s->memory[i].length)
			return s->memory[i].domain;
	return -1;
}

int srat_has_domain(const struct srat *s, uint32_t domain)
{
	for (size_t i = 0; i < s->domain_count; i++)
		if (s->domains[i] == domain)
			return 1;
	return 0;
}
