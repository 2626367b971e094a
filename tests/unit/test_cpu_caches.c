/* CPUID cache/TLB decoding against register values built from the manuals'
 * field definitions, and against the registers recorded on this project's
 * Zen 3 VMs.
 */
#include <string.h>
#include "check.h"
#include "arch/x86_64/cpu_caches.h"
#include "arch/x86_64/cpuinfo.h"
#include "lib/json.h"
#include "lib/json_read.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

static void fill(struct cache_claims *rec, const struct cpuid_record *set, unsigned n)
{
	memset(rec, 0, sizeof *rec);
	for (unsigned i = 0; i < n; i++)
		cpuid_record_format(&set[i], rec->raw[i]);
	rec->nraw = n;
}

/* Decodes the registers of set into *c, as a later reader of the record does. */
static void decode_set(struct cache_claims *c, const struct cpuid_record *set, unsigned n)
{
	static struct cache_claims rec;

	fill(&rec, set, n);
	cpu_caches_decode(c, cpuid_from_record, &rec);
}

static const struct cache_desc *find_cache(const struct cache_claims *c, unsigned level,
					   enum cache_kind kind)
{
	for (unsigned i = 0; i < c->ncaches; i++)
		if (c->cache[i].level == level && c->cache[i].kind == kind)
			return &c->cache[i];
	return 0;
}

static const struct tlb_desc *find_tlb(const struct cache_claims *c, unsigned level,
				       enum tlb_kind kind, unsigned pages)
{
	for (unsigned i = 0; i < c->ntlbs; i++)
		if (c->tlb[i].level == level && c->tlb[i].kind == kind &&
		    (c->tlb[i].pages & pages) == pages)
			return &c->tlb[i];
	return 0;
}

/* "AuthenticAMD" in EBX, EDX, ECX order. */
#define AMD_VENDOR 0x68747541u, 0x444d4163u, 0x69746e65u
#define INTEL_VENDOR 0x756e6547u, 0x6c65746eu, 0x49656e69u

/* A Ryzen 7 5800X (Zen 3, one CCD) as the family 19h PPR defines the fields:
   8000_001Dh subleaf 0: type 1 (data), level 1, self-initialising, two
   threads share it (EAX[25:14] = 1); EBX: 8 ways-1 in [31:22], 64-byte
   line-1 in [11:0]; ECX: 64 sets-1. L2: 1024 sets, 8 ways, inclusive
   (EDX[1]). L3: 16 threads, 16 ways, 32768 sets = 32 MiB.
   8000_0005h: FFh = fully associative, 40h = 64 entries; L1d 20h KiB,
   8-way, 1 line per tag, 64-byte lines. 8000_0006h: L2 TLB 2M 4h code
   (4-5 ways) 800h entries, 4K 6h code (8-15 ways) 800h entries; L2 cache 200h
   KiB code 6h; L3 40h x 512 KiB, code 9h (see 8000_001Dh). */
static const struct cpuid_record zen3[] = {
	{ 0x0, 0, { 0x10, AMD_VENDOR } },
	{ 0x80000000u, 0, { 0x80000020u, AMD_VENDOR } },
	{ 0x80000001u, 0, { 0x00a20f10u, 0, 1u << 22, 0 } },
	{ 0x8000001du, 0, { 0x00004121u, 0x01c0003fu, 0x0000003fu, 0 } },
	{ 0x8000001du, 1, { 0x00004122u, 0x01c0003fu, 0x0000003fu, 0 } },
	{ 0x8000001du, 2, { 0x00004143u, 0x01c0003fu, 0x000003ffu, 2 } },
	{ 0x8000001du, 3, { 0x0003c163u, 0x03c0003fu, 0x00007fffu, 1 } },
	{ 0x8000001du, 4, { 0, 0, 0, 0 } },
	{ 0x80000005u, 0, { 0xff40ff40u, 0xff40ff40u, 0x20080140u, 0x20080140u } },
	{ 0x80000006u, 0, { 0x48002200u, 0x68004200u, 0x02006140u, 0x01009140u } },
	{ 0x80000019u, 0, { 0xf040f040u, 0xf0400000u, 0, 0 } },
};

/* Read with CPUID on this project's VM (an EPYC "Milan" guest): the sharing
   fields are zeroed by the hypervisor and 8000_0006h's L3 is the whole
   package's 256 MiB, while one core's CCX has 32 MiB. */
static const struct cpuid_record zen3_vm[] = {
	{ 0x0, 0, { 0x10, AMD_VENDOR } },
	{ 0x1, 0, { 0x00a00f11u, 0x01020800u, 0xfffa3203u, 0x178bfbffu } },
	{ 0x80000000u, 0, { 0x80000022u, AMD_VENDOR } },
	{ 0x80000001u, 0, { 0x00a00f11u, 0x40000000u, 0x004003f3u, 0x2fd3fbffu } },
	{ 0x8000001du, 0, { 0x00000121u, 0x01c0003fu, 0x0000003fu, 0 } },
	{ 0x8000001du, 1, { 0x00000122u, 0x01c0003fu, 0x0000003fu, 0 } },
	{ 0x8000001du, 2, { 0x00000143u, 0x01c0003fu, 0x000003ffu, 2 } },
	{ 0x8000001du, 3, { 0x00004163u, 0x03c0003fu, 0x00007fffu, 1 } },
	{ 0x8000001du, 4, { 0, 0, 0, 0 } },
	{ 0x80000005u, 0, { 0xff40ff40u, 0xff40ff40u, 0x20080140u, 0x20080140u } },
	{ 0x80000006u, 0, { 0x48002200u, 0x68004200u, 0x02006140u, 0x08009140u } },
	{ 0x80000019u, 0, { 0xf040f040u, 0xf0400000u, 0, 0 } },
};

/* An Athlon 64 (K8): no 8000_001Dh, so caches come from 8000_0005h/6h:
   L1d 64 KiB 2-way; L2 512 KiB, code 8h = 16 ways; no L3 (EDX 0). */
static const struct cpuid_record k8[] = {
	{ 0x0, 0, { 0x1, AMD_VENDOR } },
	{ 0x80000000u, 0, { 0x80000018u, AMD_VENDOR } },
	{ 0x80000005u, 0, { 0xff08ff08u, 0xff20ff20u, 0x40020140u, 0x40020140u } },
	{ 0x80000006u, 0, { 0x00000000u, 0x42004200u, 0x02008140u, 0 } },
};

/* An 8-core Skylake-like Intel part: leaf 4 type/level/self-init in EAX,
   EAX[31:26] = cores-1 = 7, EAX[25:14] = threads-1; L1d 8 ways x 64 sets x
   64 B; L2 4 ways x 1024 sets = 256 KiB; L3 16 ways x 8192 sets = 8 MiB,
   inclusive with complex indexing (EDX = 6). Leaf 2: FFh (see leaf 4), FEh
   (see leaf 18h), F0h (prefetch). Leaf 18h: subleaf 0 gives the count (5) and
   an ITLB (4K+2M+4M, 8 ways x 16 sets); 1: load-only L1 DTLB 4K, 4 x 16;
   2: store-only L1 fully associative, all sizes, 16 entries; 3: L2 unified
   4K+2M, 8 x 256; 4: invalid (type 0), to be skipped; 5: L2 1G, 4 x 4. */
static const struct cpuid_record intel[] = {
	{ 0x0, 0, { 0x18, INTEL_VENDOR } },
	{ 0x80000000u, 0, { 0x80000008u, 0, 0, 0 } },
	{ 0x4, 0, { 0x1c004121u, 0x01c0003fu, 0x0000003fu, 0 } },
	{ 0x4, 1, { 0x1c004122u, 0x01c0003fu, 0x0000003fu, 0 } },
	{ 0x4, 2, { 0x1c004143u, 0x00c0003fu, 0x000003ffu, 0 } },
	{ 0x4, 3, { 0x1c03c163u, 0x03c0003fu, 0x00001fffu, 6 } },
	{ 0x4, 4, { 0, 0, 0, 0 } },
	{ 0x2, 0, { 0x00feff01u, 0x000000f0u, 0, 0 } },
	{ 0x18, 0, { 5, 0x00080007u, 16, 0x22 } },
	{ 0x18, 1, { 0, 0x00040001u, 16, 0x24 } },
	{ 0x18, 2, { 0, 0x0010000fu, 1, 0x125 } },
	{ 0x18, 3, { 0, 0x00080003u, 256, 0x43 } },
	{ 0x18, 4, { 0, 0, 0, 0 } },
	{ 0x18, 5, { 0, 0x00040008u, 4, 0x43 } },
};

/* A guest whose hypervisor leaves leaf 18h empty while leaf 2 points to
   it (this project's Emerald Rapids VM): the TLBs Intel documents for the
   model stand in, named as such, for the non-hybrid Golden Cove servers
   only; any other model gets none rather than a guess. */
static void test_documented_tlbs(void)
{
	struct cpuid_record set[] = {
		{ 0x0, 0, { 0x20, INTEL_VENDOR } },
		{ 0x1, 0, { 0x000c06f2u, 0, 0x80000000u, 0 } },   /* family 6 model CFh */
		{ 0x80000000u, 0, { 0x80000008u, 0, 0, 0 } },
		{ 0x2, 0, { 0x00feff01u, 0x000000f0u, 0, 0 } },
		{ 0x18, 0, { 0, 0, 0, 0 } },
	};
	struct cache_claims rec, c;
	const struct tlb_desc *t;

	fill(&rec, set, sizeof set / sizeof set[0]);
	cpu_caches_decode(&c, cpuid_from_record, &rec);
	t = find_tlb(&c, 1, TLB_LOAD, TLB_PAGE_4K);
	CHECK(c.ntlbs == 5 && t && t->entries == 96 && strstr(t->source, "documentation"),
	      "model CFh, leaf 18h empty: Golden Cove's documented TLBs, said so (%u, %s)",
	      c.ntlbs, t ? t->source : "-");
	t = find_tlb(&c, 2, TLB_UNIFIED, TLB_PAGE_4K | TLB_PAGE_2M | TLB_PAGE_4M);
	CHECK(t && t->entries == 2048 && t->ways == 16, "... its STLB: 2048 entries, 16-way");
	t = find_tlb(&c, 1, TLB_INSTRUCTION, TLB_PAGE_4K);
	CHECK(t && t->entries == 256 && t->ways == 8 && strstr(t->source, "documentation"),
	      "... its ITLB: 256 entries of 4 KiB pages, 8-way, said to be documented");
	t = find_tlb(&c, 1, TLB_INSTRUCTION, TLB_PAGE_2M | TLB_PAGE_4M);
	CHECK(t && t->entries == 32, "... and 32 entries of 2M/4M pages");
	set[1].r.eax = 0x00050654u;                        /* model 55h, Skylake-SP */
	fill(&rec, set, sizeof set / sizeof set[0]);
	cpu_caches_decode(&c, cpuid_from_record, &rec);
	CHECK(c.ntlbs == 0, "another model with leaf 18h empty: no TLB claimed (%u)", c.ntlbs);
}

/* The Zen 5 VM's registers (tests/data/zen5-vm-cpuid.json): 8000_0006h
   claims an L2 ITLB of 64 entries beside an L1 ITLB of 64, and an L2 DTLB
   of 128 beside an L1 DTLB of 96, which no core has. The TLBs AMD
   documents for the core (family 1Ah: Zen 5) stand in, named as such; so
   they do where the L2 fields are empty (a Zen 4 model here); a plausible
   L2 keeps what CPUID says, and so does a core the table does not hold. */
static void test_documented_amd_tlbs(void)
{
	struct cpuid_record set[] = {
		{ 0x0, 0, { 0x0d, AMD_VENDOR } },
		{ 0x1, 0, { 0x00b00f21u, 0x60fe0800u, 0xfed83203u, 0x178bfbffu } },
		{ 0x80000000u, 0, { 0x80000021u, AMD_VENDOR } },
		{ 0x80000001u, 0, { 0x00b00f21u, 0x40000000u, 0x440001f1u, 0x25d3fbffu } },
		{ 0x80000005u, 0, { 0xff60ff40u, 0xff60ff40u, 0x300c0140u, 0x20080140u } },
		{ 0x80000006u, 0, { 0x40802040u, 0x60804040u, 0x04006140u, 0x0fe09140u } },
	};
	struct cache_claims c;
	const struct tlb_desc *t;
	const unsigned n = sizeof set / sizeof set[0];

	decode_set(&c, set, n);
	t = find_tlb(&c, 2, TLB_INSTRUCTION, TLB_PAGE_4K | TLB_PAGE_2M | TLB_PAGE_4M);
	CHECK(c.ntlbs == 4 && t && t->entries == 2048 && strstr(t->source, "documentation for Zen 5"),
	      "Zen 5, L2 ITLB claimed as 64 beside an L1 of 64: the documented 2048 (%u TLBs, %s)",
	      c.ntlbs, t ? t->source : "-");
	t = find_tlb(&c, 2, TLB_DATA, TLB_PAGE_4K | TLB_PAGE_2M | TLB_PAGE_4M);
	CHECK(t && t->entries == 4096 && t->ways == WAYS_UNSTATED,
	      "... the L2 DTLB: 4096 entries, associativity not given");
	t = find_tlb(&c, 1, TLB_DATA, TLB_PAGE_4K | TLB_PAGE_2M | TLB_PAGE_4M);
	CHECK(t && t->entries == 96 && t->ways == 0, "... the L1 DTLB: 96, fully associative");
	t = find_tlb(&c, 1, TLB_INSTRUCTION, TLB_PAGE_4K | TLB_PAGE_2M | TLB_PAGE_4M);
	CHECK(t && t->entries == 64, "... the L1 ITLB: 64");

	set[5].r.eax = 0x48002200u;                        /* L2 TLBs of 2048, as Zen 3's */
	set[5].r.ebx = 0x68004200u;
	decode_set(&c, set, n);
	t = find_tlb(&c, 2, TLB_INSTRUCTION, TLB_PAGE_4K);
	CHECK(c.ntlbs == 8 && t && t->entries == 512 && !strstr(t->source, "documentation"),
	      "Zen 5 with plausible L2 TLBs: CPUID's claims kept (%u, %u)", c.ntlbs,
	      t ? t->entries : 0);

	set[5].r.eax = set[5].r.ebx = 0;                   /* L2 TLB fields empty */
	set[1].r.eax = set[3].r.eax = 0x00a10f11u;         /* family 19h model 11h: Zen 4 */
	decode_set(&c, set, n);
	t = find_tlb(&c, 2, TLB_DATA, TLB_PAGE_4K);
	CHECK(c.ntlbs == 4 && t && t->entries == 3072 && strstr(t->source, "Zen 4"),
	      "Zen 4 with its L2 TLB fields empty: the documented L2 DTLB of 3072 (%u, %s)",
	      c.ntlbs, t ? t->source : "-");
	t = find_tlb(&c, 1, TLB_DATA, TLB_PAGE_4K);
	CHECK(t && t->entries == 72, "... and its L1 DTLB of 72");

	set[5].r.eax = 0;                                  /* 2 MiB L2 fields empty, */
	set[5].r.ebx = 0x68004200u;                        /* 4 KiB ones as Zen 3's */
	set[1].r.eax = set[3].r.eax = 0x00a00f11u;         /* family 19h model 01h: Zen 3 */
	decode_set(&c, set, n);
	t = find_tlb(&c, 2, TLB_INSTRUCTION, TLB_PAGE_2M);
	CHECK(c.ntlbs == 4 && t && t->entries == 512 && strstr(t->source, "Zen 3"),
	      "Zen 3 with its 2 MiB L2 TLB fields empty: the documented TLBs (%u, %s)", c.ntlbs,
	      t ? t->source : "-");

	set[4].r.eax = set[4].r.ebx = set[5].r.ebx = 0;    /* every TLB field empty */
	decode_set(&c, set, n);
	t = find_tlb(&c, 2, TLB_DATA, TLB_PAGE_4K);
	CHECK(c.ntlbs == 4 && t && t->entries == 2048, "... and with every TLB field empty (%u)",
	      c.ntlbs);

	set[4].r.eax = 0xff60ff40u;                        /* the VM's claims again, */
	set[4].r.ebx = 0xff60ff40u;
	set[5].r.eax = 0x40802040u;
	set[5].r.ebx = 0x60804040u;
	set[1].r.eax = set[3].r.eax = 0x00800f12u;         /* family 17h: not in the table */
	decode_set(&c, set, n);
	t = find_tlb(&c, 2, TLB_INSTRUCTION, TLB_PAGE_4K);
	CHECK(c.ntlbs == 8 && t && t->entries == 64,
	      "family 17h with the same claims: no documentation stands in (%u, %u)", c.ntlbs,
	      t ? t->entries : 0);
}

static void test_zen3_spec(void)
{
	struct cache_claims rec, c;
	const struct cache_desc *d;
	const struct tlb_desc *t;

	fill(&rec, zen3, sizeof zen3 / sizeof zen3[0]);
	cpu_caches_decode(&c, cpuid_from_record, &rec);
	CHECK(strcmp(c.vendor, "AuthenticAMD") == 0, "vendor from leaf 0: %s", c.vendor);
	CHECK(c.ncaches == 4, "Zen 3: four caches (L1d, L1i, L2, L3), got %u", c.ncaches);
	d = find_cache(&c, 1, CACHE_DATA);
	CHECK(d && d->size_bytes == 32 * KIB && d->ways == 8 && d->line_bytes == 64 &&
	      d->sets == 64 && d->shared_by == 2,
	      "Zen 3 L1d: 32 KiB, 8-way, 64 B lines, 64 sets, 2 threads");
	CHECK(d && strcmp(d->source, "CPUID 8000_001Dh") == 0, "L1d from 8000_001Dh");
	d = find_cache(&c, 1, CACHE_INSTRUCTION);
	CHECK(d && d->size_bytes == 32 * KIB, "Zen 3 L1i: 32 KiB");
	d = find_cache(&c, 2, CACHE_UNIFIED);
	CHECK(d && d->size_bytes == 512 * KIB && d->ways == 8 && d->sets == 1024,
	      "Zen 3 L2: 512 KiB, 8-way, 1024 sets");
	d = find_cache(&c, 3, CACHE_UNIFIED);
	CHECK(d && d->size_bytes == 32 * MIB && d->ways == 16 && d->shared_by == 16,
	      "Zen 3 L3: 32 MiB, 16-way, 16 threads");

	t = find_tlb(&c, 1, TLB_DATA, TLB_PAGE_4K);
	CHECK(t && t->entries == 64 && t->ways == 0, "L1 DTLB 4K: 64 entries, fully associative");
	t = find_tlb(&c, 1, TLB_DATA, TLB_PAGE_2M);
	CHECK(t && t->entries == 64 && t->ways == 0, "L1 DTLB 2M: 64 entries, fully associative");
	t = find_tlb(&c, 2, TLB_DATA, TLB_PAGE_4K);
	CHECK(t && t->entries == 2048 && t->ways == 8 && t->ways_at_least,
	      "L2 DTLB 4K: 2048 entries, code 6h = at least 8 ways");
	t = find_tlb(&c, 2, TLB_DATA, TLB_PAGE_2M);
	CHECK(t && t->entries == 2048 && t->ways == 4 && t->ways_at_least,
	      "L2 DTLB 2M: 2048 entries, code 4h = at least 4 ways");
	t = find_tlb(&c, 2, TLB_INSTRUCTION, TLB_PAGE_4K);
	CHECK(t && t->entries == 512, "L2 ITLB 4K: 512 entries");
	t = find_tlb(&c, 1, TLB_DATA, TLB_PAGE_1G);
	CHECK(t && t->entries == 64 && t->ways == 0, "L1 DTLB 1G from 8000_0019h: 64, full");
	t = find_tlb(&c, 2, TLB_DATA, TLB_PAGE_1G);
	CHECK(t && t->entries == 64, "L2 DTLB 1G: 64");
	CHECK(!find_tlb(&c, 2, TLB_INSTRUCTION, TLB_PAGE_1G), "no L2 ITLB for 1G (0 entries)");
	CHECK(c.nraw == sizeof zen3 / sizeof zen3[0] + 1,
	      "every register set read is recorded, leaf 1 too (%u)", c.nraw);
	CHECK(!c.hypervisor, "leaf 1 not in the record: reads as zeros, no hypervisor");
	CHECK(!c.truncated, "nothing truncated");
}

static void test_zen3_vm_prefers_ccx_l3(void)
{
	struct cache_claims rec, c;
	const struct cache_desc *d;
	const struct tlb_desc *t;

	fill(&rec, zen3_vm, sizeof zen3_vm / sizeof zen3_vm[0]);
	cpu_caches_decode(&c, cpuid_from_record, &rec);
	d = find_cache(&c, 3, CACHE_UNIFIED);
	CHECK(d && d->size_bytes == 32 * MIB && strcmp(d->source, "CPUID 8000_001Dh") == 0,
	      "VM L3 is the CCX's 32 MiB from 8000_001Dh, not the package's 256 MiB");
	d = find_cache(&c, 1, CACHE_DATA);
	CHECK(d && d->shared_by == 1, "zeroed sharing field reads as one thread");
	CHECK(c.hypervisor, "VM: CPUID 1 ECX[31] set");
	t = find_tlb(&c, 2, TLB_DATA, TLB_PAGE_4K);
	CHECK(t && t->entries == 2048 && strcmp(t->source, "CPUID 8000_0006h") == 0,
	      "its plausible L2 DTLB claim is CPUID's own, no documentation in its place (%s)",
	      t ? t->source : "-");
}

/* Leaf 4000_0000h's signature in EBX, ECX, EDX, little-endian words. */
static struct cpuid_regs signature(const char *twelve)
{
	uint32_t w[3] = { 0, 0, 0 };

	for (int i = 0; i < 12; i++)
		w[i / 4] |= (uint32_t)(unsigned char)twelve[i] << (8 * (i % 4));
	return (struct cpuid_regs){ 0x40000001u, w[0], w[1], w[2] };
}

static void test_hypervisor_id(void)
{
	struct cpuid_record set[sizeof zen3_vm / sizeof zen3_vm[0] + 1];
	const unsigned n = sizeof zen3_vm / sizeof zen3_vm[0];
	struct cache_claims rec, c;

	memcpy(set, zen3_vm, sizeof zen3_vm);
	set[n] = (struct cpuid_record){ 0x40000000u, 0, signature("TCGTCGTCGTCG") };
	fill(&rec, set, n + 1);
	cpu_caches_decode(&c, cpuid_from_record, &rec);
	CHECK(strcmp(c.hypervisor_id, "TCGTCGTCGTCG") == 0,
	      "QEMU's emulator: leaf 4000_0000h names TCG (got \"%s\")", c.hypervisor_id);
	set[n] = (struct cpuid_record){ 0x40000000u, 0, signature("KVMKVMKVM\0\0\0") };
	fill(&rec, set, n + 1);
	cpu_caches_decode(&c, cpuid_from_record, &rec);
	CHECK(strcmp(c.hypervisor_id, "KVMKVMKVM") == 0, "KVM: its signature, NULs ending it");
	int recorded = 0;
	for (unsigned i = 0; i < c.nraw; i++)
		recorded |= strncmp(c.raw[i], "40000000.0 ", 11) == 0;
	CHECK(recorded, "the leaf is recorded with the claims, so a recorded run decodes it too");
	fill(&rec, zen3, sizeof zen3 / sizeof zen3[0]);
	cpu_caches_decode(&c, cpuid_from_record, &rec);
	CHECK(c.hypervisor_id[0] == 0, "no hypervisor bit: no signature read");
}

static void test_k8_fallback(void)
{
	struct cache_claims rec, c;
	const struct cache_desc *d;
	const struct tlb_desc *t;

	fill(&rec, k8, sizeof k8 / sizeof k8[0]);
	cpu_caches_decode(&c, cpuid_from_record, &rec);
	d = find_cache(&c, 1, CACHE_DATA);
	CHECK(d && d->size_bytes == 64 * KIB && d->ways == 2 && d->line_bytes == 64 &&
	      strcmp(d->source, "CPUID 8000_0005h") == 0, "K8 L1d: 64 KiB 2-way from 8000_0005h");
	d = find_cache(&c, 2, CACHE_UNIFIED);
	CHECK(d && d->size_bytes == 512 * KIB && d->ways == 16 && d->ways_at_least,
	      "K8 L2: 512 KiB, code 8h = at least 16 ways");
	CHECK(!find_cache(&c, 3, CACHE_UNIFIED), "K8: no L3 when EDX is 0");
	t = find_tlb(&c, 1, TLB_DATA, TLB_PAGE_4K);
	CHECK(t && t->entries == 32, "K8 L1 DTLB 4K: 32");
	t = find_tlb(&c, 2, TLB_DATA, TLB_PAGE_4K);
	CHECK(t && t->entries == 512 && t->ways == 4, "K8 L2 DTLB 4K: 512, 4-way");
	CHECK(!find_tlb(&c, 2, TLB_DATA, TLB_PAGE_2M), "K8: no L2 TLB for 2M (EAX 0)");
}

static void test_intel_leaf4_and_18(void)
{
	struct cache_claims rec, c;
	const struct cache_desc *d;
	const struct tlb_desc *t;

	fill(&rec, intel, sizeof intel / sizeof intel[0]);
	cpu_caches_decode(&c, cpuid_from_record, &rec);
	CHECK(strcmp(c.vendor, "GenuineIntel") == 0, "Intel vendor");
	CHECK(c.ncaches == 4, "leaf 4: four caches, got %u", c.ncaches);
	d = find_cache(&c, 1, CACHE_DATA);
	CHECK(d && d->size_bytes == 32 * KIB && d->ways == 8 && d->shared_by == 2,
	      "leaf 4 L1d: 32 KiB 8-way, 2 threads");
	d = find_cache(&c, 2, CACHE_UNIFIED);
	CHECK(d && d->size_bytes == 256 * KIB && d->ways == 4, "leaf 4 L2: 256 KiB 4-way");
	d = find_cache(&c, 3, CACHE_UNIFIED);
	CHECK(d && d->size_bytes == 8 * MIB && d->ways == 16 && d->shared_by == 16,
	      "leaf 4 L3: 8 MiB 16-way, 16 threads");
	CHECK(c.ntlbs == 5, "leaf 18h: five TLBs, the invalid subleaf skipped (%u)", c.ntlbs);
	t = find_tlb(&c, 1, TLB_INSTRUCTION, TLB_PAGE_4K | TLB_PAGE_2M | TLB_PAGE_4M);
	CHECK(t && t->entries == 128 && t->ways == 8, "subleaf 0 is a TLB too: ITLB 128, 8-way");
	t = find_tlb(&c, 1, TLB_LOAD, TLB_PAGE_4K);
	CHECK(t && t->entries == 64 && t->ways == 4, "load-only L1 DTLB 4K: 64, 4-way");
	t = find_tlb(&c, 1, TLB_STORE, TLB_PAGE_1G);
	CHECK(t && t->entries == 16 && t->ways == 0, "store-only L1: 16, fully associative");
	t = find_tlb(&c, 2, TLB_UNIFIED, TLB_PAGE_4K | TLB_PAGE_2M);
	CHECK(t && t->entries == 2048 && t->ways == 8, "STLB 4K+2M: 2048, 8-way");
	t = find_tlb(&c, 2, TLB_UNIFIED, TLB_PAGE_1G);
	CHECK(t && t->entries == 16, "STLB 1G after the skipped subleaf: 16");
}

/* A Haswell-like leaf 2: 63h (DTLB 2M/4M 32 x 4-way, and 1G 4 x 4-way),
   03h (DTLB 4K 64, 4-way), 76h (ITLB 2M/4M 8, full), FFh, B5h (ITLB 4K 64,
   8-way), F0h (prefetch, not a TLB), C1h (STLB 4K+2M 1024, 8-way). ECX has
   bit 31 set: its bytes are not descriptors and must be ignored. */
static void test_intel_leaf2(void)
{
	struct cpuid_regs r = { 0x76036301u, 0x00f0b5ffu, 0x80000003u, 0x00c10000u };
	struct cache_claims c;
	const struct tlb_desc *t;
	int use18;

	memset(&c, 0, sizeof c);
	CHECK(intel_leaf2_decode(&r, &c, &use18) == 6, "leaf 2: six TLBs, got %u", c.ntlbs);
	CHECK(!use18, "no FEh byte: leaf 18h not asked for");
	t = find_tlb(&c, 1, TLB_DATA, TLB_PAGE_4K);
	CHECK(t && t->entries == 64 && t->ways == 4, "03h: DTLB 4K 64, 4-way");
	t = find_tlb(&c, 1, TLB_DATA, TLB_PAGE_2M);
	CHECK(t && t->entries == 32, "63h: DTLB 2M/4M 32");
	t = find_tlb(&c, 1, TLB_DATA, TLB_PAGE_1G);
	CHECK(t && t->entries == 4, "63h also names a 1G DTLB of 4");
	t = find_tlb(&c, 2, TLB_UNIFIED, TLB_PAGE_4K | TLB_PAGE_2M);
	CHECK(t && t->entries == 1024 && t->ways == 8, "C1h: STLB 1024, 8-way");
	t = find_tlb(&c, 1, TLB_INSTRUCTION, TLB_PAGE_4K);
	CHECK(t && t->entries == 64 && t->ways == 8, "B5h: ITLB 4K 64, 8-way");

	/* The count byte of EAX is 01h = descriptor 01h (ITLB 4K): it must not
	   be read as one. */
	struct cpuid_regs count_only = { 0x00000001u, 0, 0, 0 };
	memset(&c, 0, sizeof c);
	CHECK(intel_leaf2_decode(&count_only, &c, &use18) == 0, "EAX's count byte is no descriptor");
}

static void test_amd_assoc_codes(void)
{
	int at_least;

	CHECK(amd_assoc_ways(0x0, &at_least) == -1, "code 0: disabled");
	CHECK(amd_assoc_ways(0x1, &at_least) == 1 && !at_least, "code 1: direct mapped");
	CHECK(amd_assoc_ways(0x2, &at_least) == 2 && !at_least, "code 2: 2 ways exactly");
	CHECK(amd_assoc_ways(0x6, &at_least) == 8 && at_least, "code 6: 8 to 15 ways");
	CHECK(amd_assoc_ways(0x9, &at_least) == -1, "code 9: see 8000_001Dh");
	CHECK(amd_assoc_ways(0xa, &at_least) == 32 && at_least, "code A: 32 to 47 ways");
	CHECK(amd_assoc_ways(0xf, &at_least) == 0 && !at_least, "code F: fully associative");
}

static void test_records(void)
{
	struct cpuid_record rec = { 0x8000001du, 2, { 0x143, 0x01c0003fu, 0x3ff, 2 } }, back;
	char text[CLAIMS_RECORD_TEXT];
	size_t n = cpuid_record_format(&rec, text);

	CHECK(strcmp(text, "8000001d.2 00000143 01c0003f 000003ff 00000002") == 0,
	      "record text: %s", text);
	CHECK(n == strlen(text), "format returns the length");
	CHECK(cpuid_record_parse(text, n, &back) == 0 && back.leaf == rec.leaf &&
	      back.subleaf == 2 && back.r.ebx == rec.r.ebx && back.r.edx == 2,
	      "record text parses back");
	CHECK(cpuid_record_parse("4.0 1 2 3", 9, &back) == -1, "three registers: rejected");
	CHECK(cpuid_record_parse("4.0 1 2 3 4 ", 12, &back) == -1, "trailing blank: rejected");
	CHECK(cpuid_record_parse("4.0 1 2 3 123456789", 19, &back) == -1,
	      "nine hex digits: rejected");
	CHECK(cpuid_record_parse("4.0 1 2 3 g", 11, &back) == -1, "not hex: rejected");
	CHECK(cpuid_record_parse("", 0, &back) == -1, "empty: rejected");
	/* The length bounds the parse, not a NUL. */
	CHECK(cpuid_record_parse("4.0 1 2 3 4", 10, &back) == -1, "cut short: rejected");
}

static void test_live_and_json(void)
{
	static char buf[16384];
	struct cache_claims c, again;
	struct json j;

	cpu_caches_read(&c);
	CHECK(c.nraw >= 2, "live read recorded %u register sets", c.nraw);
	printf("# live: %s, %u caches, %u TLBs\n", c.vendor, c.ncaches, c.ntlbs);
	cpu_caches_decode(&again, cpuid_from_record, &c);
	CHECK(again.ncaches == c.ncaches && again.ntlbs == c.ntlbs &&
	      (c.ncaches == 0 || again.cache[0].size_bytes == c.cache[0].size_bytes),
	      "the live record decodes to the same claims");

	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, 0);
	claims_describe(&j, &c);
	json_object_end(&j);
	CHECK(!j.overflow, "claims fit a 16 KiB JSON buffer");
	CHECK(strstr(buf, "\"cpuid_cache_leaves\":[\"00000000.0 ") != 0 ||
	      strstr(buf, "\"cpuid_cache_leaves\": [\"00000000.0 ") != 0,
	      "raw leaves listed, leaf 0 first");
}

/* One vendor classification for every caller. */
static void test_vendor(void)
{
	CHECK(cpuinfo_vendor("GenuineIntel") == CPU_VENDOR_INTEL &&
	      cpuinfo_vendor("AuthenticAMD") == CPU_VENDOR_AMD &&
	      cpuinfo_vendor("HygonGenuine") == CPU_VENDOR_HYGON,
	      "Intel, AMD and Hygon vendor strings are told apart");
	CHECK(cpuinfo_vendor("CentaurHauls") == CPU_VENDOR_OTHER &&
	      cpuinfo_vendor("GenuineInte") == CPU_VENDOR_OTHER &&
	      cpuinfo_vendor("GenuineIntelX") == CPU_VENDOR_OTHER &&
	      cpuinfo_vendor("") == CPU_VENDOR_OTHER,
	      "any other string, a prefix or a longer one, is another vendor");
}

/* system.json's cpu member: the hypervisor's signature and the bit that
   says there is one are two keys, so a reader (which keeps one of two
   equal keys) loses neither (test_describe reads a whole Linux one with
   Python, refusing any repeated key). */
static void test_cpu_json_hypervisor(void)
{
	static char buf[16384];
	static struct cache_claims claims;
	struct cpuinfo ci = { .vendor = "AuthenticAMD", .brand = "Test", .hypervisor = 1,
			      .hypervisor_id = "KVMKVMKVM" };
	char value[32];
	const char *p;
	struct json j;
	int keys = 0;

	claims.hypervisor = 1;
	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, 0);
	machine_describe_cpu(&j, &ci, 0, &claims);
	json_object_end(&j);
	for (p = buf; (p = strstr(p, "\"hypervisor\"")) != NULL; p++)
		keys++;
	CHECK(!j.overflow && keys == 1, "cpu names \"hypervisor\" once (%d)", keys);
	CHECK(json_get_scalar(buf, j.len, "cpu.hypervisor", value, sizeof value) == 0 &&
	      !strcmp(value, "KVMKVMKVM"), "cpu.hypervisor: the signature (%s)", value);
	CHECK(json_get_scalar(buf, j.len, "cpu.under_hypervisor", value, sizeof value) == 0 &&
	      !strcmp(value, "true"), "cpu.under_hypervisor: true (%s)", value);
}

int main(void)
{
	test_vendor();
	test_zen3_spec();
	test_zen3_vm_prefers_ccx_l3();
	test_hypervisor_id();
	test_k8_fallback();
	test_intel_leaf4_and_18();
	test_documented_tlbs();
	test_documented_amd_tlbs();
	test_intel_leaf2();
	test_amd_assoc_codes();
	test_records();
	test_live_and_json();
	test_cpu_json_hypervisor();
	return check_summary();
}
