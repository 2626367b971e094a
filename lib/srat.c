/* Parsing the SRAT (see srat.h). Offsets from ACPI 6.5, 5.2.16. */

#include "lib/srat.h"
#include "lib/fmt.h"

// ---- Constants --------------------------------------------------------------

#define HEADER_BYTES 36
#define FIRST_ENTRY 48           /* header, 4 reserved (table revision 1), 8 reserved */
#define TYPE_APIC 0
#define TYPE_MEMORY 1
#define TYPE_X2APIC 2
#define APIC_BYTES 16
#define MEMORY_BYTES 40
#define X2APIC_BYTES 24
#define FLAG_ENABLED (1u << 0)
#define FLAG_HOT_PLUGGABLE (1u << 1)
#define FLAG_NON_VOLATILE (1u << 2)
/* A real SRAT of a few thousand CPUs is well under this: a larger length
   field is corruption, and reading it would walk through arbitrary memory. */
#define TABLE_MAX_BYTES (16u << 20)

// ---- Private Functions ------------------------------------------------------

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

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
	uint32_t flags = get32(e + 28);
	struct srat_memory *m;

	if (!(flags & FLAG_ENABLED) || !get64(e + 16))
		return;
	add_domain(s, get32(e + 2));
	if (s->memory_count == SRAT_MEMORY_MAX) {
		s->memory_dropped++;
		return;
	}
	m = &s->memory[s->memory_count++];
	m->domain = get32(e + 2);
	m->base = get64(e + 8);
	m->length = get64(e + 16);
	m->hot_pluggable = !!(flags & FLAG_HOT_PLUGGABLE);
	m->non_volatile = !!(flags & FLAG_NON_VOLATILE);
}

static void add_cpu(struct srat *s, uint32_t id, uint32_t domain, uint32_t flags,
		    uint32_t apic_id)
{
	if (!(flags & FLAG_ENABLED))
		return;
	s->cpus++;
	if (id == apic_id && !s->cpu_found) {
		s->cpu_found = 1;
		s->cpu_domain = domain;
	}
}

static int refuse(char *why, size_t why_len, const char *text, size_t at)
{
	mp_snprintf(why, why_len, "SRAT: %s (at byte %llu)", text, (unsigned long long)at);
	return -1;
}

// ---- Public Functions -------------------------------------------------------

int srat_parse(const uint8_t *table, size_t available, uint32_t apic_id, struct srat *out,
	       char *why, size_t why_len)
{
	uint32_t length;
	uint8_t sum = 0;

	out->memory_count = out->memory_dropped = 0;
	out->domain_count = out->domains_dropped = 0;
	out->cpu_found = 0;
	out->cpu_domain = 0;
	out->cpus = 0;
	if (available < HEADER_BYTES || mp_strncmp((const char *)table, "SRAT", 4) != 0)
		return refuse(why, why_len, "no SRAT signature", 0);
	length = get32(table + 4);
	if (length < FIRST_ENTRY || length > available || length > TABLE_MAX_BYTES)
		return refuse(why, why_len, "length field out of range", 4);
	for (uint32_t i = 0; i < length; i++)
		sum = (uint8_t)(sum + table[i]);
	if (sum)
		return refuse(why, why_len, "checksum does not add up to zero", 9);
	for (size_t at = FIRST_ENTRY; at < length;) {
		const uint8_t *e = table + at;
		uint8_t type, size;

		if (length - at < 2)
			return refuse(why, why_len, "entry header cut off by the table's end", at);
		type = e[0];
		size = e[1];
		if (size < 2 || size > length - at)
			return refuse(why, why_len, "entry length zero or past the table's end", at);
		if (type == TYPE_APIC && size >= APIC_BYTES)
			add_cpu(out, e[3], e[2] | (uint32_t)e[9] << 8 | (uint32_t)e[10] << 16 |
				(uint32_t)e[11] << 24, get32(e + 4), apic_id);
		else if (type == TYPE_X2APIC && size >= X2APIC_BYTES)
			add_cpu(out, get32(e + 8), get32(e + 4), get32(e + 12), apic_id);
		else if (type == TYPE_MEMORY && size >= MEMORY_BYTES)
			add_memory(out, e);
		else if (type <= TYPE_X2APIC)
			return refuse(why, why_len, "entry shorter than its type's layout", at);
		at += size;
	}
	return 0;
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
