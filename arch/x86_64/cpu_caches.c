/* CPUID cache and TLB decoding (see cpu_caches.h). Field positions are those
 * of the Intel SDM (CPUID leaves 2, 4, 18h) and AMD's APM and family 17h/19h
 * PPRs (8000_0005h, 8000_0006h, 8000_0019h, 8000_001Dh).
 */
#include "arch/x86_64/cpu_caches.h"
#include "arch/x86_64/cpuinfo.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

#define LEAF_VENDOR       0x0u
#define LEAF_FEATURES     0x1u
#define LEAF_DESCRIPTORS  0x2u
#define LEAF_CACHE_PARAMS 0x4u
#define LEAF_TLB_PARAMS   0x18u
#define LEAF_HYPERVISOR   0x40000000u
#define LEAF_EXT_MAX      0x80000000u
#define LEAF_EXT_FEATURES 0x80000001u
#define LEAF_AMD_L1       0x80000005u
#define LEAF_AMD_L2       0x80000006u
#define LEAF_AMD_1G_TLB   0x80000019u
#define LEAF_AMD_CACHES   0x8000001du

/* A CPU that lists more subleaves than this is either exotic or returning
   garbage (some hypervisors never return the terminating null type), and
   the loop must end either way. */
#define MAX_SUBLEAVES 16

/* Leaf 2 TLB descriptors (Intel SDM, "Encoding of CPUID Leaf 2 Descriptors").
   A byte may name two structures (63h, C3h), so it may appear twice. */
struct leaf2_tlb {
	uint8_t byte;
	uint8_t level;
	uint8_t kind;
	uint8_t pages;
	uint16_t entries;
	uint32_t ways;
};

#define P4K TLB_PAGE_4K
#define P2M TLB_PAGE_2M
#define P4M TLB_PAGE_4M
#define P1G TLB_PAGE_1G
#define FULL 0u
#define UNSTATED WAYS_UNSTATED

static const struct leaf2_tlb leaf2_tlbs[] = {
	{ 0x01, 1, TLB_INSTRUCTION, P4K, 32, 4 },
	{ 0x02, 1, TLB_INSTRUCTION, P4M, 2, FULL },
	{ 0x03, 1, TLB_DATA, P4K, 64, 4 },
	{ 0x04, 1, TLB_DATA, P4M, 8, 4 },
	{ 0x05, 2, TLB_DATA, P4M, 32, 4 },
	{ 0x0b, 1, TLB_INSTRUCTION, P4M, 4, 4 },
	{ 0x4f, 1, TLB_INSTRUCTION, P4K, 32, UNSTATED },
	{ 0x50, 1, TLB_INSTRUCTION, P4K | P2M | P4M, 64, UNSTATED },
	{ 0x51, 1, TLB_INSTRUCTION, P4K | P2M | P4M, 128, UNSTATED },
	{ 0x52, 1, TLB_INSTRUCTION, P4K | P2M | P4M, 256, UNSTATED },
	{ 0x55, 1, TLB_INSTRUCTION, P2M | P4M, 7, FULL },
	{ 0x56, 1, TLB_LOAD, P4M, 16, 4 },
	{ 0x57, 1, TLB_LOAD, P4K, 16, 4 },
	{ 0x59, 1, TLB_LOAD, P4K, 16, FULL },
	{ 0x5a, 1, TLB_LOAD, P2M | P4M, 32, 4 },
	{ 0x5b, 1, TLB_DATA, P4K | P4M, 64, UNSTATED },
	{ 0x5c, 1, TLB_DATA, P4K | P4M, 128, UNSTATED },
	{ 0x5d, 1, TLB_DATA, P4K | P4M, 256, UNSTATED },
	{ 0x61, 1, TLB_INSTRUCTION, P4K, 48, FULL },
	{ 0x63, 1, TLB_DATA, P2M | P4M, 32, 4 },
	{ 0x63, 1, TLB_DATA, P1G, 4, 4 },
	{ 0x64, 1, TLB_DATA, P4K, 512, 4 },
	{ 0x6a, 1, TLB_DATA, P4K, 64, 8 },
	{ 0x6b, 1, TLB_DATA, P4K, 256, 8 },
	{ 0x6c, 1, TLB_DATA, P2M | P4M, 128, 8 },
	{ 0x6d, 1, TLB_DATA, P1G, 16, FULL },
	{ 0x76, 1, TLB_INSTRUCTION, P2M | P4M, 8, FULL },
	{ 0xa0, 1, TLB_DATA, P4K, 32, FULL },
	{ 0xb0, 1, TLB_INSTRUCTION, P4K, 128, 4 },
	{ 0xb1, 1, TLB_INSTRUCTION, P2M, 8, 4 },
	{ 0xb2, 1, TLB_INSTRUCTION, P4K, 64, 4 },
	{ 0xb3, 1, TLB_DATA, P4K, 128, 4 },
	{ 0xb4, 2, TLB_DATA, P4K, 256, 4 },
	{ 0xb5, 1, TLB_INSTRUCTION, P4K, 64, 8 },
	{ 0xb6, 1, TLB_INSTRUCTION, P4K, 128, 8 },
	{ 0xba, 2, TLB_DATA, P4K, 64, 4 },
	{ 0xc0, 1, TLB_DATA, P4K | P4M, 8, 4 },
	{ 0xc1, 2, TLB_UNIFIED, P4K | P2M, 1024, 8 },
	{ 0xc2, 1, TLB_DATA, P4K | P2M, 16, 4 },
	{ 0xc3, 2, TLB_UNIFIED, P4K | P2M, 1536, 6 },
	{ 0xc3, 2, TLB_UNIFIED, P1G, 16, 4 },
	{ 0xc4, 1, TLB_DATA, P2M | P4M, 32, 4 },
	{ 0xca, 2, TLB_UNIFIED, P4K, 512, 4 },
};

#define LEAF2_SEE_LEAF18 0xfeu

/* ---- Private Functions ------------------------------------------------ */

static unsigned bits(uint32_t v, unsigned lo, unsigned width)
{
	return (v >> lo) & ((1u << width) - 1u);
}

static void add_cache(struct cache_claims *c, const struct cache_desc *d)
{
	if (c->ncaches < CLAIMS_MAX_CACHES)
		c->cache[c->ncaches++] = *d;
	else
		c->truncated = 1;
}

static unsigned add_tlb(struct cache_claims *c, unsigned level, enum tlb_kind kind,
			unsigned pages, unsigned entries, unsigned ways, int at_least,
			const char *source)
{
	struct tlb_desc *t;

	if (!entries)
		return 0;
	if (c->ntlbs >= CLAIMS_MAX_TLBS) {
		c->truncated = 1;
		return 0;
	}
	t = &c->tlb[c->ntlbs++];
	t->level = level;
	t->kind = kind;
	t->pages = pages;
	t->entries = entries;
	t->ways = ways;
	t->ways_at_least = at_least;
	t->source = source;
	return 1;
}

static int has_cache_level(const struct cache_claims *c, unsigned level)
{
	for (unsigned i = 0; i < c->ncaches; i++)
		if (c->cache[i].level == level)
			return 1;
	return 0;
}

/* 8000_0005h gives associativity as a plain count, FFh meaning fully. */
static unsigned amd_l1_ways(unsigned code)
{
	return code == 0xff ? FULL : code;
}

/* One register of 8000_0006h/8000_0019h TLB fields: data half in [31:16],
   instruction half in [15:0], each a 4-bit code over 12 bits of entries. */
static unsigned amd_tlb_pair(struct cache_claims *c, uint32_t reg, unsigned level,
			     unsigned pages, const char *source)
{
	unsigned added = 0;
	int at_least;
	int ways = amd_assoc_ways(bits(reg, 28, 4), &at_least);

	if (ways >= 0)
		added += add_tlb(c, level, TLB_DATA, pages, bits(reg, 16, 12),
				 (unsigned)ways, at_least, source);
	ways = amd_assoc_ways(bits(reg, 12, 4), &at_least);
	if (ways >= 0)
		added += add_tlb(c, level, TLB_INSTRUCTION, pages, bits(reg, 0, 12),
				 (unsigned)ways, at_least, source);
	return added;
}

static void amd_l1_cache(struct cache_claims *c, uint32_t reg, enum cache_kind kind)
{
	struct cache_desc d = { 0 };

	if (!bits(reg, 24, 8))
		return;
	d.level = 1;
	d.kind = kind;
	d.size_bytes = (uint64_t)bits(reg, 24, 8) * 1024u;
	d.ways = amd_l1_ways(bits(reg, 16, 8));
	d.line_bytes = bits(reg, 0, 8);
	d.source = "CPUID 8000_0005h";
	add_cache(c, &d);
}

/* 8000_0006h L2 (ECX) or L3 (EDX): the size fields differ, the rest agree. */
static void amd_l2_cache(struct cache_claims *c, unsigned level, uint64_t size_bytes,
			 uint32_t reg)
{
	struct cache_desc d = { 0 };
	int ways = amd_assoc_ways(bits(reg, 12, 4), &d.ways_at_least);

	/* Code 0 means the level is absent; 9h defers to 8000_001Dh, which a
	   caller reaching here does not have, so the ways stay unknown. */
	if (!size_bytes || bits(reg, 12, 4) == 0)
		return;
	d.level = level;
	d.kind = CACHE_UNIFIED;
	d.size_bytes = size_bytes;
	d.ways = ways >= 0 ? (unsigned)ways : WAYS_UNSTATED;
	d.line_bytes = bits(reg, 0, 8);
	d.source = "CPUID 8000_0006h";
	add_cache(c, &d);
}

struct recording {
	struct cache_claims *c;
	cpuid_source_fn source;
	void *ctx;
};

static struct cpuid_regs read_leaf(struct recording *rec, uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r = rec->source(leaf, subleaf, rec->ctx);
	struct cache_claims *c = rec->c;

	if (c->nraw < CLAIMS_MAX_RECORDS) {
		struct cpuid_record record = { leaf, subleaf, r };
		cpuid_record_format(&record, c->raw[c->nraw++]);
	} else {
		c->truncated = 1;
	}
	return r;
}

static void decode_leaf4_style(struct recording *rec, uint32_t leaf, const char *source)
{
	for (uint32_t sub = 0; sub < MAX_SUBLEAVES; sub++) {
		struct cpuid_regs r = read_leaf(rec, leaf, sub);
		struct cache_desc d;

		if (!cpuid4_decode(&r, &d, source))
			break;
		add_cache(rec->c, &d);
	}
}

/* TLBs that Intel documents for a core (the optimization reference
   manual's TLB tables), for when leaf 2 says "see leaf 18h" and leaf 18h
   is empty, as a hypervisor may leave it. Only non-hybrid server models:
   a hybrid part's E-cores have other TLBs. */
static const unsigned golden_cove_servers[] = {
	0x8f,                     /* family 6: Sapphire Rapids */
	0xcf,                     /* Emerald Rapids */
};

/* The display model of family 6 (leaf 1 EAX: model, extended model). */
static unsigned family6_model(uint32_t eax)
{
	unsigned family = (eax >> 8) & 0xf;

	if (family != 6)
		return 0;
	return ((eax >> 4) & 0xf) | (((eax >> 16) & 0xf) << 4);
}

/* Golden Cove's data TLBs for loads (96 entries of 4 KiB pages, 6-way; 32
   of 2M/4M, 4-way), its instruction TLBs (256 entries of 4 KiB pages,
   8-way; 32 of 2M/4M, associativity not given) and its shared STLB (2048
   entries of 4K/2M/4M pages, 16-way), when the model is one of
   golden_cove_servers. */
static void add_documented_tlbs(struct cache_claims *c, uint32_t leaf1_eax)
{
	static const char source[] = "Intel's documentation for this model (CPUID 18h empty)";
	unsigned model = family6_model(leaf1_eax);

	for (size_t i = 0; i < sizeof golden_cove_servers / sizeof golden_cove_servers[0]; i++) {
		if (golden_cove_servers[i] != model)
			continue;
		add_tlb(c, 1, TLB_LOAD, TLB_PAGE_4K, 96, 6, 0, source);
		add_tlb(c, 1, TLB_LOAD, TLB_PAGE_2M | TLB_PAGE_4M, 32, 4, 0, source);
		add_tlb(c, 1, TLB_INSTRUCTION, TLB_PAGE_4K, 256, 8, 0, source);
		add_tlb(c, 1, TLB_INSTRUCTION, TLB_PAGE_2M | TLB_PAGE_4M, 32, WAYS_UNSTATED, 0,
			source);
		add_tlb(c, 2, TLB_UNIFIED, TLB_PAGE_4K | TLB_PAGE_2M | TLB_PAGE_4M, 2048, 16, 0,
			source);
		for (unsigned k = 0; k < c->ntlbs; k++)
			c->tlb[k].documented |= c->tlb[k].source == source;
		return;
	}
}

static void decode_intel(struct recording *rec, uint32_t max_leaf)
{
	int use_leaf18 = 0;

	if (max_leaf >= LEAF_CACHE_PARAMS)
		decode_leaf4_style(rec, LEAF_CACHE_PARAMS, "CPUID 4");
	if (max_leaf >= LEAF_DESCRIPTORS) {
		struct cpuid_regs r = read_leaf(rec, LEAF_DESCRIPTORS, 0);
		intel_leaf2_decode(&r, rec->c, &use_leaf18);
	}
	if (use_leaf18 && max_leaf >= LEAF_TLB_PARAMS) {
		struct cpuid_regs r = read_leaf(rec, LEAF_TLB_PARAMS, 0);
		uint32_t last = r.eax < MAX_SUBLEAVES ? r.eax : MAX_SUBLEAVES - 1;
		struct tlb_desc t;

		/* Subleaf 0 describes a TLB of its own besides giving the count;
		   an invalid subleaf in the middle is skipped, not an end. */
		for (uint32_t sub = 0; sub <= last; sub++) {
			if (sub)
				r = read_leaf(rec, LEAF_TLB_PARAMS, sub);
			if (intel_leaf18_decode(&r, &t))
				add_tlb(rec->c, t.level, t.kind, t.pages, t.entries,
					t.ways, 0, t.source);
		}
	}
	if (use_leaf18 && !rec->c->ntlbs && max_leaf >= LEAF_FEATURES)
		add_documented_tlbs(rec->c, rec->source(LEAF_FEATURES, 0, rec->ctx).eax);
}

/* The displayed family and model (leaf 1 EAX: the extended fields count
   where the base family is Fh, as AMD numbers its families). */
static unsigned display_family(uint32_t eax)
{
	unsigned base = bits(eax, 8, 4);

	return base == 0xf ? base + bits(eax, 20, 8) : base;
}

static unsigned display_model(uint32_t eax)
{
	return bits(eax, 4, 4) | (bits(eax, 8, 4) == 0xf ? bits(eax, 16, 4) << 4 : 0);
}

/* Whether the L2 TLB claims cannot be the core's: an L1 TLB claim with no
   L2 claim of its kind for a page size it holds (a hypervisor's empty
   field: every AMD core since K8 has both levels for 4 KiB and 2 MiB
   pages), or an L2 claim holding fewer than twice the entries of the L1
   TLB of its kind for a page size both hold, which no second level does
   (the Zen 5 VM's 8000_0006h claims an L2 ITLB of 64 entries beside an L1
   ITLB of 64, and an L2 DTLB of 128 beside 96; the core has 2048 and
   4096). No TLB claim at all is empty fields too. 1 GiB pages, which
   8000_0019h describes, are not looked at. */
static int l2_tlbs_implausible(const struct cache_claims *c)
{
	if (!c->ntlbs)
		return 1;
	for (unsigned j = 0; j < c->ntlbs; j++) {
		const struct tlb_desc *l1 = &c->tlb[j];
		unsigned pages = l1->pages & (P4K | P2M), covered = 0;

		if (l1->level != 1)
			continue;
		for (unsigned i = 0; i < c->ntlbs; i++) {
			const struct tlb_desc *l2 = &c->tlb[i];

			if (l2->level != 2 || l2->kind != l1->kind || !(l1->pages & l2->pages))
				continue;
			if (l2->entries < 2 * l1->entries)
				return 1;
			covered |= l2->pages;
		}
		if ((pages & covered) != pages)
			return 1;
	}
	return 0;
}

/* The TLBs AMD documents for its cores, by family and model range (the
   ranges as Linux's arch/x86/kernel/cpu/amd.c assigns Zen 3 and Zen 4;
   family 1Ah is Zen 5 throughout). Entries of L1 ITLB, L1 DTLB (fully
   associative, every page size), L2 ITLB and L2 DTLB (4 KiB and 2 MiB
   pages; associativity not stated here): the software optimization
   guides for Zen 3 and Zen 4, and "Next Generation Zen 5 Core" (Hot Chips
   2024) for Zen 5. */
static const struct amd_core_tlbs {
	const char *source;
	unsigned family;
	struct { unsigned lo, hi; } models[2];   /* an unused range is { 1, 0 } */
	unsigned l1_itlb, l1_dtlb, l2_itlb, l2_dtlb;
} amd_core_tlbs[] = {
	{ "AMD's documentation for Zen 3 (CPUID 8000_0006h implausible or empty)",
	  0x19, { { 0x00, 0x0f }, { 0x20, 0x5f } }, 64, 64, 512, 2048 },
	{ "AMD's documentation for Zen 4 (CPUID 8000_0006h implausible or empty)",
	  0x19, { { 0x10, 0x1f }, { 0x60, 0xaf } }, 64, 72, 512, 3072 },
	{ "AMD's documentation for Zen 5 (CPUID 8000_0006h implausible or empty)",
	  0x1a, { { 0x00, 0xff }, { 1, 0 } }, 64, 96, 2048, 4096 },
};

/* Whether model lies in one of d's model ranges. */
static int amd_core_has_model(const struct amd_core_tlbs *d, unsigned model)
{
	for (size_t r = 0; r < sizeof d->models / sizeof d->models[0]; r++)
		if (model >= d->models[r].lo && model <= d->models[r].hi)
			return 1;
	return 0;
}

/* Replaces every 4 KiB and 2 MiB TLB claim of 8000_0005h and 8000_0006h
   with the documented TLBs of the core (amd_core_tlbs) when the L2 claims
   cannot be the core's (l2_tlbs_implausible); a core not in the table
   keeps what CPUID says. */
static void replace_with_documented(struct cache_claims *c, uint32_t leaf1_eax)
{
	unsigned family = display_family(leaf1_eax), model = display_model(leaf1_eax);

	if (!l2_tlbs_implausible(c))
		return;
	for (size_t i = 0; i < sizeof amd_core_tlbs / sizeof amd_core_tlbs[0]; i++) {
		const struct amd_core_tlbs *d = &amd_core_tlbs[i];

		if (d->family != family || !amd_core_has_model(d, model))
			continue;
		c->ntlbs = 0;
		add_tlb(c, 1, TLB_DATA, P4K | P2M | P4M, d->l1_dtlb, FULL, 0, d->source);
		add_tlb(c, 1, TLB_INSTRUCTION, P4K | P2M | P4M, d->l1_itlb, FULL, 0, d->source);
		add_tlb(c, 2, TLB_DATA, P4K | P2M | P4M, d->l2_dtlb, UNSTATED, 0, d->source);
		add_tlb(c, 2, TLB_INSTRUCTION, P4K | P2M | P4M, d->l2_itlb, UNSTATED, 0, d->source);
		return;
	}
}

static void decode_amd(struct recording *rec, uint32_t max_ext)
{
	if (max_ext >= LEAF_AMD_CACHES && max_ext >= LEAF_EXT_FEATURES) {
		/* 8000_001Dh is defined only with TopologyExtensions. */
		struct cpuid_regs f = read_leaf(rec, LEAF_EXT_FEATURES, 0);
		if ((f.ecx >> 22) & 1)
			decode_leaf4_style(rec, LEAF_AMD_CACHES, "CPUID 8000_001Dh");
	}
	if (max_ext >= LEAF_AMD_L1) {
		struct cpuid_regs r = read_leaf(rec, LEAF_AMD_L1, 0);
		amd_l1_decode(&r, rec->c);
	}
	if (max_ext >= LEAF_AMD_L2) {
		struct cpuid_regs r = read_leaf(rec, LEAF_AMD_L2, 0);
		amd_l2_decode(&r, rec->c);
		/* Leaf 1 is in the record already (cpu_caches_decode). */
		replace_with_documented(rec->c, rec->source(LEAF_FEATURES, 0, rec->ctx).eax);
	}
	if (max_ext >= LEAF_AMD_1G_TLB) {
		struct cpuid_regs r = read_leaf(rec, LEAF_AMD_1G_TLB, 0);
		amd_1g_tlb_decode(&r, rec->c);
	}
}

static struct cpuid_regs live_cpuid(uint32_t leaf, uint32_t subleaf, void *ctx)
{
	(void)ctx;
	return cpuid(leaf, subleaf);
}

static char hex_digit(unsigned v)
{
	return (char)(v < 10 ? '0' + v : 'a' + v - 10);
}

static char *put_hex32(char *p, uint32_t v, int min_digits)
{
	int digits = 8;

	while (digits > min_digits && !((v >> ((digits - 1) * 4)) & 0xf))
		digits--;
	for (int i = digits - 1; i >= 0; i--)
		*p++ = hex_digit((v >> (i * 4)) & 0xf);
	return p;
}

/* Reads 1..8 hex digits at text[*pos]; -1 when there are none or too many. */
static int take_hex32(const char *text, size_t len, size_t *pos, uint32_t *out)
{
	size_t start = *pos;
	uint32_t v = 0;

	while (*pos < len && mp_hex_value(text[*pos]) >= 0) {
		if (*pos - start == 8)
			return -1;
		v = (v << 4) | (uint32_t)mp_hex_value(text[*pos]);
		(*pos)++;
	}
	*out = v;
	return *pos > start ? 0 : -1;
}

/* ---- Public Functions ------------------------------------------------- */

int cpuid4_decode(const struct cpuid_regs *r, struct cache_desc *out, const char *source)
{
	unsigned type = bits(r->eax, 0, 5);
	unsigned ways = bits(r->ebx, 22, 10) + 1, partitions = bits(r->ebx, 12, 10) + 1;
	unsigned line = bits(r->ebx, 0, 12) + 1;
	uint64_t sets = (uint64_t)r->ecx + 1;

	if (type < CACHE_DATA || type > CACHE_UNIFIED)
		return 0;
	out->level = bits(r->eax, 5, 3);
	out->kind = (enum cache_kind)type;
	out->size_bytes = (uint64_t)ways * partitions * line * sets;
	out->ways = bits(r->eax, 9, 1) ? FULL : ways;
	out->ways_at_least = 0;
	out->line_bytes = line;
	out->sets = (unsigned)sets;
	out->shared_by = bits(r->eax, 14, 12) + 1;
	out->source = source;
	return 1;
}

int amd_assoc_ways(unsigned code, int *at_least)
{
	/* The APM's table: 4h is "4 to 5 ways", 6h "8 to 15", ... each range's
	   floor is the count earlier families defined exactly. */
	static const int floor_ways[16] = {
		-1, 1, 2, 3, 4, 6, 8, -1, 16, -1, 32, 48, 64, 96, 128, 0,
	};
	static const uint8_t is_range[16] = {
		0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0,
	};

	code &= 0xf;
	*at_least = is_range[code];
	return floor_ways[code];
}

unsigned amd_l1_decode(const struct cpuid_regs *r, struct cache_claims *c)
{
	unsigned before = c->ncaches, added = 0;
	const char *src = "CPUID 8000_0005h";

	if (!has_cache_level(c, 1)) {
		amd_l1_cache(c, r->ecx, CACHE_DATA);
		amd_l1_cache(c, r->edx, CACHE_INSTRUCTION);
	}
	added += add_tlb(c, 1, TLB_DATA, P2M | P4M, bits(r->eax, 16, 8),
			 amd_l1_ways(bits(r->eax, 24, 8)), 0, src);
	added += add_tlb(c, 1, TLB_INSTRUCTION, P2M | P4M, bits(r->eax, 0, 8),
			 amd_l1_ways(bits(r->eax, 8, 8)), 0, src);
	added += add_tlb(c, 1, TLB_DATA, P4K, bits(r->ebx, 16, 8),
			 amd_l1_ways(bits(r->ebx, 24, 8)), 0, src);
	added += add_tlb(c, 1, TLB_INSTRUCTION, P4K, bits(r->ebx, 0, 8),
			 amd_l1_ways(bits(r->ebx, 8, 8)), 0, src);
	return added + (c->ncaches - before);
}

unsigned amd_l2_decode(const struct cpuid_regs *r, struct cache_claims *c)
{
	unsigned before = c->ncaches, added = 0;
	const char *src = "CPUID 8000_0006h";

	if (!has_cache_level(c, 2))
		amd_l2_cache(c, 2, (uint64_t)bits(r->ecx, 16, 16) * 1024u, r->ecx);
	/* EDX[31:18] counts 512 KiB units of the whole package's L3, which on
	   multi-CCD parts is several times what one core can use: 8000_001Dh's
	   per-complex figure is preferred whenever it was read. */
	if (!has_cache_level(c, 3))
		amd_l2_cache(c, 3, (uint64_t)bits(r->edx, 18, 14) * 512u * 1024u, r->edx);
	added += amd_tlb_pair(c, r->eax, 2, P2M | P4M, src);
	added += amd_tlb_pair(c, r->ebx, 2, P4K, src);
	return added + (c->ncaches - before);
}

unsigned amd_1g_tlb_decode(const struct cpuid_regs *r, struct cache_claims *c)
{
	const char *src = "CPUID 8000_0019h";

	return amd_tlb_pair(c, r->eax, 1, P1G, src) + amd_tlb_pair(c, r->ebx, 2, P1G, src);
}

unsigned intel_leaf2_decode(const struct cpuid_regs *r, struct cache_claims *c,
			    int *use_leaf18)
{
	uint32_t regs[4] = { r->eax, r->ebx, r->ecx, r->edx };
	unsigned added = 0;

	*use_leaf18 = 0;
	for (int i = 0; i < 4; i++) {
		/* Bit 31 set: this register holds no descriptors. */
		if (regs[i] >> 31)
			continue;
		/* EAX's low byte is the iteration count, not a descriptor. */
		for (int b = (i == 0) ? 1 : 0; b < 4; b++) {
			unsigned byte = bits(regs[i], (unsigned)b * 8, 8);

			if (byte == LEAF2_SEE_LEAF18)
				*use_leaf18 = 1;
			for (size_t k = 0; k < sizeof leaf2_tlbs / sizeof leaf2_tlbs[0]; k++) {
				const struct leaf2_tlb *t = &leaf2_tlbs[k];
				if (t->byte == byte)
					added += add_tlb(c, t->level, (enum tlb_kind)t->kind,
							 t->pages, t->entries, t->ways, 0,
							 "CPUID 2");
			}
		}
	}
	return added;
}

int intel_leaf18_decode(const struct cpuid_regs *r, struct tlb_desc *out)
{
	unsigned type = bits(r->edx, 0, 5);
	unsigned ways = bits(r->ebx, 16, 16);

	if (type < TLB_DATA || type > TLB_STORE)
		return 0;
	out->level = bits(r->edx, 5, 3);
	out->kind = (enum tlb_kind)type;
	out->pages = bits(r->ebx, 0, 4);
	out->entries = ways * r->ecx;
	out->ways = bits(r->edx, 8, 1) ? FULL : ways;
	out->ways_at_least = 0;
	out->source = "CPUID 18h";
	return out->entries != 0;
}

/* Leaf 4000_0000h, which a hypervisor answers with its vendor signature
   in EBX, ECX, EDX (KVM "KVMKVMKVM", QEMU's emulator "TCGTCGTCGTCG"); read
   only when CPUID 1 ECX[31] says one is there. */
static void read_hypervisor_id(struct cache_claims *c, struct recording *rec)
{
	struct cpuid_regs h;
	uint32_t part[3];

	c->hypervisor_id[0] = 0;
	if (!c->hypervisor)
		return;
	h = read_leaf(rec, LEAF_HYPERVISOR, 0);
	part[0] = h.ebx;
	part[1] = h.ecx;
	part[2] = h.edx;
	for (int w = 0; w < 3; w++)
		for (int b = 0; b < 4; b++) {
			char ch = (char)(part[w] >> (8 * b));
			c->hypervisor_id[4 * w + b] = ch >= 0x20 && ch < 0x7f ? ch : 0;
		}
	c->hypervisor_id[12] = 0;
}

void cpu_caches_decode(struct cache_claims *c, cpuid_source_fn source, void *ctx)
{
	struct recording rec = { c, source, ctx };
	struct cpuid_regs v;
	uint32_t max_leaf, max_ext;
	enum cpu_vendor vendor;

	c->ncaches = c->ntlbs = c->nraw = 0;
	c->truncated = 0;
	v = read_leaf(&rec, LEAF_VENDOR, 0);
	max_leaf = v.eax;
	for (int b = 0; b < 4; b++) {
		c->vendor[b] = (char)(v.ebx >> (8 * b));
		c->vendor[4 + b] = (char)(v.edx >> (8 * b));
		c->vendor[8 + b] = (char)(v.ecx >> (8 * b));
	}
	c->vendor[12] = 0;
	c->hypervisor = max_leaf >= LEAF_FEATURES &&
		((read_leaf(&rec, LEAF_FEATURES, 0).ecx >> 31) & 1);
	read_hypervisor_id(c, &rec);
	max_ext = read_leaf(&rec, LEAF_EXT_MAX, 0).eax;
	if (max_ext < LEAF_EXT_MAX)
		max_ext = 0;

	vendor = cpuinfo_vendor(c->vendor);
	if (vendor == CPU_VENDOR_AMD || vendor == CPU_VENDOR_HYGON) {
		decode_amd(&rec, max_ext);
		return;
	}
	decode_intel(&rec, max_leaf);
	/* Other vendors (VIA, Zhaoxin, some emulators) may implement only the
	   AMD-style extended leaves. */
	if (!c->ncaches)
		decode_amd(&rec, max_ext);
}

void cpu_caches_read(struct cache_claims *c)
{
	cpu_caches_decode(c, live_cpuid, 0);
}

struct cpuid_regs cpuid_from_record(uint32_t leaf, uint32_t subleaf, void *ctx)
{
	const struct cache_claims *recorded = ctx;
	struct cpuid_regs none = { 0, 0, 0, 0 };
	struct cpuid_record rec;

	for (unsigned i = 0; i < recorded->nraw; i++)
		if (cpuid_record_parse(recorded->raw[i], mp_strlen(recorded->raw[i]), &rec) == 0 &&
		    rec.leaf == leaf && rec.subleaf == subleaf)
			return rec.r;
	return none;
}

size_t cpuid_record_format(const struct cpuid_record *rec, char *buf)
{
	uint32_t regs[4] = { rec->r.eax, rec->r.ebx, rec->r.ecx, rec->r.edx };
	char *p = buf;

	p = put_hex32(p, rec->leaf, 8);
	*p++ = '.';
	p = put_hex32(p, rec->subleaf, 1);
	for (int i = 0; i < 4; i++) {
		*p++ = ' ';
		p = put_hex32(p, regs[i], 8);
	}
	*p = 0;
	return (size_t)(p - buf);
}

int cpuid_record_parse(const char *text, size_t len, struct cpuid_record *rec)
{
	uint32_t regs[4];
	size_t pos = 0;

	if (take_hex32(text, len, &pos, &rec->leaf) || pos >= len || text[pos++] != '.')
		return -1;
	if (take_hex32(text, len, &pos, &rec->subleaf))
		return -1;
	for (int i = 0; i < 4; i++) {
		if (pos >= len || text[pos++] != ' ')
			return -1;
		if (take_hex32(text, len, &pos, &regs[i]))
			return -1;
	}
	if (pos != len)
		return -1;
	rec->r.eax = regs[0];
	rec->r.ebx = regs[1];
	rec->r.ecx = regs[2];
	rec->r.edx = regs[3];
	return 0;
}
