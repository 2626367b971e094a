/* Plain machine data: names and the system.json description (see
 * machine.h).
 */
#include "lib/machine.h"
#include "lib/json.h"
#include "lib/fmt.h"

/* ---- Private Functions ------------------------------------------------ */

static void describe_ways(struct json *j, unsigned ways, int at_least)
{
	json_bool(j, "fully_associative", ways == 0);
	if (ways != 0 && ways != WAYS_UNSTATED)
		json_u64(j, "ways", ways);
	if (at_least)
		json_bool(j, "ways_at_least", 1);
}

/* ---- Public Functions ------------------------------------------------- */

const char *cache_kind_name(enum cache_kind k)
{
	switch (k) {
	case CACHE_DATA: return "data";
	case CACHE_INSTRUCTION: return "instruction";
	case CACHE_UNIFIED: return "unified";
	}
	return "unknown";
}

unsigned tlb_page_bit(unsigned page_shift)
{
	switch (page_shift) {
	case 12: return TLB_PAGE_4K;
	case 21: return TLB_PAGE_2M;
	case 30: return TLB_PAGE_1G;
	}
	return 0;
}

const char *tlb_kind_name(enum tlb_kind k)
{
	switch (k) {
	case TLB_DATA: return "data";
	case TLB_INSTRUCTION: return "instruction";
	case TLB_UNIFIED: return "unified";
	case TLB_LOAD: return "load";
	case TLB_STORE: return "store";
	}
	return "unknown";
}

size_t tlb_pages_name(unsigned pages, char *buf)
{
	static const char *const names[4] = { "4K", "2M", "4M", "1G" };
	char *p = buf;

	for (unsigned i = 0; i < 4; i++) {
		if (!((pages >> i) & 1))
			continue;
		if (p != buf)
			*p++ = '+';
		for (const char *s = names[i]; *s; s++)
			*p++ = *s;
	}
	*p = 0;
	return (size_t)(p - buf);
}

/* Appends source to t unless the first `before` sources of c already
   named it. */
static void add_source(struct mp_text *t, const struct cache_claims *c, unsigned before,
		       const char *source)
{
	for (unsigned i = 0; i < before; i++) {
		const char *s = i < c->ncaches ? c->cache[i].source : c->tlb[i - c->ncaches].source;
		if (s && !mp_strcmp(s, source))
			return;
	}
	mp_append(t, "%s%s", t->len ? ", " : "", source);
}

uint64_t claims_largest_cache(const struct cache_claims *c)
{
	uint64_t largest = 0;

	for (unsigned i = 0; i < c->ncaches; i++)
		if (c->cache[i].kind != CACHE_INSTRUCTION && c->cache[i].size_bytes > largest)
			largest = c->cache[i].size_bytes;
	return largest;
}

int claims_emulated(const struct cache_claims *c)
{
	return mp_strcmp(c->hypervisor_id, "TCGTCGTCGTCG") == 0;
}

void claims_sources(const struct cache_claims *c, char *buf, size_t size)
{
	struct mp_text t = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < c->ncaches + c->ntlbs; i++) {
		const char *s = i < c->ncaches ? c->cache[i].source : c->tlb[i - c->ncaches].source;
		if (s)
			add_source(&t, c, i, s);
	}
}

void claims_describe(struct json *j, const struct cache_claims *c)
{
	char text[16];

	json_array_begin(j, "caches");
	for (unsigned i = 0; i < c->ncaches; i++) {
		const struct cache_desc *d = &c->cache[i];
		json_object_begin(j, 0);
		json_u64(j, "level", d->level);
		json_string(j, "type", cache_kind_name(d->kind));
		json_u64(j, "size_bytes", d->size_bytes);
		describe_ways(j, d->ways, d->ways_at_least);
		json_u64(j, "line_bytes", d->line_bytes);
		if (d->sets)
			json_u64(j, "sets", d->sets);
		if (d->shared_by)
			json_u64(j, "shared_by_threads", d->shared_by);
		json_string(j, "source", d->source);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "tlbs");
	for (unsigned i = 0; i < c->ntlbs; i++) {
		const struct tlb_desc *t = &c->tlb[i];
		tlb_pages_name(t->pages, text);
		json_object_begin(j, 0);
		json_u64(j, "level", t->level);
		json_string(j, "type", tlb_kind_name(t->kind));
		json_string(j, "pages", text);
		json_u64(j, "entries", t->entries);
		describe_ways(j, t->ways, t->ways_at_least);
		json_string(j, "source", t->source);
		json_object_end(j);
	}
	json_array_end(j);
	/* Not "hypervisor": in cpu that key is the signature (the string
	   machine_describe_cpu writes), and a reader keeps only one of two. */
	json_bool(j, "under_hypervisor", c->hypervisor);
	json_bool(j, "cache_description_truncated", c->truncated);
	/* The registers themselves, so `memprobe analyze` decodes a recorded
	   run's claims, not those of the machine it happens to run on. */
	json_array_begin(j, "cpuid_cache_leaves");
	for (unsigned i = 0; i < c->nraw; i++)
		json_string(j, 0, c->raw[i]);
	json_array_end(j);
}

void machine_describe_cpu(struct json *j, const struct cpuinfo *ci, uint64_t microcode,
			  const struct cache_claims *claims)
{
	json_object_begin(j, "cpu");
	json_string(j, "vendor", ci->vendor);
	json_string(j, "brand", ci->brand);
	json_u64(j, "family", ci->family);
	json_u64(j, "model", ci->model);
	json_u64(j, "stepping", ci->stepping);
	if (microcode)
		json_u64(j, "microcode", microcode);
	else
		json_string(j, "microcode", "not readable");
	json_u64(j, "phys_addr_bits", ci->phys_addr_bits);
	json_u64(j, "virt_addr_bits", ci->virt_addr_bits);
	json_bool(j, "pages_1g", ci->has_1g_pages);
	json_bool(j, "memory_attribute_table", ci->has_attr_table);
	json_bool(j, "memory_range_types", ci->has_range_types);
	json_string(j, "hypervisor", ci->hypervisor ? ci->hypervisor_id : "none");
	claims_describe(j, claims);
	json_object_end(j);
}

void machine_describe_topology(struct json *j, const struct cpu_topology *t,
			       const uint64_t *platform_id, const char *platform_id_name,
			       unsigned count)
{
	json_array_begin(j, "cpus");
	for (unsigned i = 0; i < count; i++) {
		json_object_begin(j, 0);
		json_u64(j, "cpu", i);
		json_u64(j, platform_id_name, platform_id[i]);
		if (t[i].source) {
			json_u64(j, "cpu_id", t[i].cpu_id);
			json_u64(j, "package", t[i].package);
			json_u64(j, "core", t[i].core);
			json_u64(j, "thread", t[i].thread);
			json_string(j, "topology_source", t[i].source);
		} else {
			json_string(j, "topology_source", "not read: the CPU did not run its role");
		}
		json_object_end(j);
	}
	json_array_end(j);
}
