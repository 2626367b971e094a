/* Memory maps as big machines have them (lib/efimap.c) and the page-table
 * pool sized by need (arch pt_pool_tables, the probes' registry rows): thousands
 * of descriptors at the firmware's own stride, descriptors beyond MAXPHYADDR,
 * placement inside NUMA windows and away from special-purpose memory, and a
 * pool that is small for a quick run on 20 GiB yet never runs out.
 */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "check.h"
#include "arch/x86_64/pagetable.h"
#include "lib/efimap.h"
#include "core/probe.h"
#include "core/config.h"
#include "probes/page_sizes.h"
#include "probes/bandwidth_settings.h"
#include "probes/locality.h"
#include "probes/tlb_settings.h"
#include "probes/later.h"
#include "probes/loaded_settings.h"
#include "probes/sweep.h"
#include "core/platform.h"
#include "lib/machine.h"

#define K(x) ((uint64_t)(x) << 10)
#define M(x) ((uint64_t)(x) << 20)
#define G(x) ((uint64_t)(x) << 30)
#define ULL(x) ((unsigned long long)(x))

/* Firmware strides are larger than the struct (OVMF: 48 bytes for 40): a
   reader that steps by sizeof would read garbage from the second entry. */
#define STRIDE 48
#define MANY 3000

static uint8_t map_buf[MANY * STRIDE];

struct builder_map {
	struct efimap m;
	size_t n;
};

static void add(struct builder_map *b, uint32_t type, uint64_t base, uint64_t bytes,
		uint64_t attr)
{
	struct efimap_desc d = { type, 0xdeadbeef, base, 0x1111, bytes / EFIMAP_PAGE_BYTES, attr };

	memcpy(map_buf + b->n * STRIDE, &d, sizeof d);
	memset(map_buf + b->n * STRIDE + sizeof d, 0x5a, STRIDE - sizeof d);
	b->n++;
	b->m.buf = map_buf;
	b->m.count = b->n;
	b->m.desc_size = STRIDE;
}

/* ---- A page pool below 2 GiB, for the builder ------------------------- */

#define POOL_PAGES 8192u
static uint8_t *arena;

struct pool {
	size_t used, limit;
};

static void *pool_page(void *ctx)
{
	struct pool *p = ctx;

	if (p->used >= p->limit || p->used >= POOL_PAGES)
		return NULL;
	return arena + p->used++ * PT_SIZE_4K;
}

static size_t to_pt(const struct efimap_range *in, size_t n, struct pt_range *out)
{
	for (size_t i = 0; i < n; i++) {
		out[i].base = in[i].base;
		out[i].length = in[i].length;
		out[i].attr = in[i].uncached ? PT_UC : PT_WB;
	}
	return n;
}

static struct efimap_range found[MANY];
static struct pt_range ranges[MANY];

/* ---- Many descriptors ------------------------------------------------- */

static void test_many_descriptors(void)
{
	struct builder_map b = { { 0 }, 0 };
	struct efimap_skipped sk;
	uint64_t base = M(1), ram = 0, conventional = 0;
	size_t expect = 0, n, bad = 0;

	/* 3000 descriptors of 64 KiB each, types cycling through RAM,
	   reserved and MMIO, none contiguous with the next of its kind. */
	for (size_t i = 0; i < MANY; i++) {
		uint32_t types[] = { EFIMAP_CONVENTIONAL, EFIMAP_BS_DATA, EFIMAP_RESERVED,
				     EFIMAP_MMIO, EFIMAP_LOADER_DATA, EFIMAP_UNUSABLE };
		uint32_t t = types[i % 6];
		add(&b, t, base, K(64), t == EFIMAP_MMIO ? 0 : EFIMAP_ATTR_WB);
		if (t != EFIMAP_RESERVED && t != EFIMAP_UNUSABLE)
			expect++;
		if (t == EFIMAP_CONVENTIONAL || t == EFIMAP_BS_DATA || t == EFIMAP_LOADER_DATA)
			ram += K(64);
		if (t == EFIMAP_CONVENTIONAL)
			conventional += K(64);
		base += K(128);
	}
	n = efimap_ranges(&b.m, 1ull << 39, found, &sk);
	CHECK(n == expect && b.m.count == MANY, "%d descriptors at a %d-byte stride: %llu ranges "
	      "(every RAM and MMIO one, no cut at 1024), want %llu", MANY, STRIDE, ULL(n),
	      ULL(expect));
	CHECK(sk.descriptors == 0, "nothing skipped below MAXPHYADDR");
	for (size_t i = 0, r = 0; i < MANY && r < n; i++) {
		const struct efimap_desc *d = efimap_at(&b.m, i);
		if (d->type == EFIMAP_RESERVED || d->type == EFIMAP_UNUSABLE)
			continue;
		if (found[r].base != d->phys_start || found[r].length != K(64) ||
		    found[r].uncached != (d->type == EFIMAP_MMIO))
			bad++;
		r++;
	}
	/* Descriptor MANY - 3 is the last MMIO one, MANY - 2 the last RAM. */
	CHECK(bad == 0 && found[n - 1].base == efimap_at(&b.m, MANY - 2)->phys_start &&
	      found[n - 2].base == efimap_at(&b.m, MANY - 3)->phys_start,
	      "each range is its descriptor, the last ones (descriptors %d, %d) included; "
	      "%llu wrong", MANY - 3, MANY - 2, ULL(bad));
	CHECK(efimap_bytes(&b.m, 0) == ram && efimap_bytes(&b.m, 1) == conventional,
	      "RAM %llu KiB and conventional %llu KiB counted over all %d descriptors",
	      ULL(ram >> 10), ULL(conventional >> 10), MANY);

	/* The whole map goes into the tables, the last descriptor mapped. */
	struct pt_config cfg = { .levels = 4, .phys_bits = 39, .has_1g = 1 };
	struct pool pool = { 0, POOL_PAGES };
	struct pt_builder pb;
	struct pt_translation t;
	size_t count = to_pt(found, n, ranges);
	uint64_t need = pt_pool_tables(&cfg, ranges, pt_normalize_ranges(ranges, count), NULL,
				       NULL, 0);
	enum pt_status s;

	pool.limit = need;
	count = to_pt(found, n, ranges);
	s = pt_init(&pb, &cfg, pool_page, &pool);
	if (s == PT_OK)
		s = pt_map_ranges(&pb, ranges, &count);
	CHECK(s == PT_OK, "%llu ranges mapped from a pool of %llu tables (%s)", ULL(n), ULL(need),
	      pt_status_name(s));
	pt_walk(&cfg, pt_cr3(&pb), found[n - 2].base, &t);
	CHECK(t.status == PT_WALK_MAPPED && t.phys == found[n - 2].base && t.attr_index == 3,
	      "the last descriptor's MMIO is identity-mapped uncached");
}

/* ---- Beyond MAXPHYADDR ------------------------------------------------ */

static void test_beyond_limit(void)
{
	struct builder_map b = { { 0 }, 0 };
	struct efimap_skipped sk;
	struct pt_config cfg = { .levels = 4, .phys_bits = 39, .has_1g = 1 };
	uint64_t limit = pt_identity_limit(&cfg);
	struct pool pool = { 0, POOL_PAGES };
	struct pt_builder pb;
	struct pt_translation t;
	size_t n, count;
	enum pt_status s;

	add(&b, EFIMAP_CONVENTIONAL, M(1), G(2), EFIMAP_ATTR_WB);
	add(&b, EFIMAP_MMIO, G(3), M(256), 0);
	/* A 64-bit BAR window far above a 39-bit MAXPHYADDR (the case that
	   stopped every run), RAM straddling the limit, and a descriptor
	   whose page count overflows the address space. */
	add(&b, EFIMAP_MMIO, 1ull << 45, G(16), 0);
	add(&b, EFIMAP_CONVENTIONAL, limit - G(1), G(2), EFIMAP_ATTR_WB);
	add(&b, EFIMAP_MMIO, limit + G(8), ~0ull, 0);
	n = efimap_ranges(&b.m, limit, found, &sk);
	CHECK(n == 3, "the ranges below the limit kept: 2 whole and 1 cut (got %llu)", ULL(n));
	CHECK(n == 3 && found[2].base == limit - G(1) && found[2].length == G(1),
	      "the RAM straddling 2^39 is cut at the limit");
	CHECK(sk.descriptors == 3 && sk.first_base == limit,
	      "3 descriptors noted as beyond reach, the first address skipped 2^39 (0x%llx)",
	      ULL(sk.first_base));
	CHECK(sk.bytes == G(16) + G(1) + (~0ull - (limit + G(8))),
	      "the bytes left unmapped counted, the overflowing descriptor up to the top");

	count = to_pt(found, n, ranges);
	s = pt_init(&pb, &cfg, pool_page, &pool);
	if (s == PT_OK)
		s = pt_map_ranges(&pb, ranges, &count);
	CHECK(s == PT_OK, "the rest of the map builds: the run goes on (%s)", pt_status_name(s));
	pt_walk(&cfg, pt_cr3(&pb), limit - M(2), &t);
	CHECK(t.status == PT_WALK_MAPPED && t.phys == limit - M(2),
	      "RAM just below the limit is mapped");

	/* Without the cut, the same map is refused whole: what the skip prevents. */
	struct pt_range whole = { 1ull << 45, G(16), PT_UC };
	count = 1;
	CHECK(pt_map_ranges(&pb, &whole, &count) == PT_ERR_BEYOND_PHYS,
	      "an uncut descriptor beyond MAXPHYADDR is what the builder refuses");
}

/* ---- Placement -------------------------------------------------------- */

static void test_find_free(void)
{
	struct builder_map b = { { 0 }, 0 };
	struct efimap_place anywhere = { NULL, 0, 0 };
	struct efimap_range node1[] = { { G(4), G(4), 0 } };
	struct efimap_place in_node1 = { node1, 1, 0 };
	struct efimap_place special = { NULL, 0, 1 };
	uint64_t largest, at;

	add(&b, EFIMAP_CONVENTIONAL, 0, K(640), EFIMAP_ATTR_WB);
	add(&b, EFIMAP_CONVENTIONAL, M(1) + K(4), M(500), EFIMAP_ATTR_WB);
	add(&b, EFIMAP_CONVENTIONAL, G(2), G(1), EFIMAP_ATTR_WB | EFIMAP_ATTR_SP);
	add(&b, EFIMAP_CONVENTIONAL, G(5) + K(4), G(2), EFIMAP_ATTR_WB);
	add(&b, EFIMAP_BS_DATA, G(8), G(1), EFIMAP_ATTR_WB);

	at = efimap_find_free(&b.m, &anywhere, M(2), M(2), &largest);
	CHECK(at == M(2), "2 MiB aligned: the first 2 MiB boundary above the run's start (0x%llx)",
	      ULL(at));
	at = efimap_find_free(&b.m, &anywhere, K(4), K(4), &largest);
	CHECK(at == M(1) + K(4), "nothing below 1 MiB is given out (0x%llx)", ULL(at));
	at = efimap_find_free(&b.m, &anywhere, G(1), G(1), &largest);
	CHECK(at == G(6) && largest == G(1), "1 GiB: not the special-purpose GiB at 2 GiB but 6 GiB "
	      "(0x%llx, largest %llu MiB)", ULL(at), ULL(largest >> 20));
	at = efimap_find_free(&b.m, &special, G(1), G(1), &largest);
	CHECK(at == G(2), "with special memory allowed, the EFI_MEMORY_SP GiB (0x%llx)", ULL(at));
	at = efimap_find_free(&b.m, &in_node1, M(2), M(2), &largest);
	CHECK(at == G(5) + M(2), "held to the window [4 GiB, 8 GiB): from 5 GiB (0x%llx)", ULL(at));
	at = efimap_find_free(&b.m, &in_node1, G(2) + K(4), K(4), &largest);
	CHECK(at == 0 && largest == G(2),
	      "a run larger than the window's free memory: none, largest %llu MiB",
	      ULL(largest >> 20));
	node1[0].length = G(1) + K(4);
	at = efimap_find_free(&b.m, &in_node1, M(2), M(2), &largest);
	CHECK(at == 0 && largest == 0, "a window that cuts the run below an aligned 2 MiB: none");
}

/* ---- The pool by need ------------------------------------------------- */

/* QEMU q35 with -m 20G: 2 GiB low, the PCI hole, 18 GiB above 4 GiB. */
static size_t q35_20g(struct pt_range *r)
{
	size_t n = 0;
	r[n++] = (struct pt_range){ 0, K(640), PT_WB };
	r[n++] = (struct pt_range){ M(1), M(8) - M(1), PT_WB };
	r[n++] = (struct pt_range){ M(8) + K(32), G(2) - M(8) - K(32), PT_WB };
	r[n++] = (struct pt_range){ 0xb0000000ull, M(256), PT_UC };
	r[n++] = (struct pt_range){ 0xfeb00000ull, M(21), PT_UC };
	r[n++] = (struct pt_range){ 0xffc00000ull, M(4), PT_UC };
	r[n++] = (struct pt_range){ G(4), G(18), PT_WB };
	return n;
}

/* The largest single buffer the selected probes hold with page_shift
   swept, by their registry rows (efi/paging.c sizes the pool from them). */
static uint64_t held_bytes(const struct config *c, unsigned page_shift)
{
	struct probe_hold h[PROBE_HOLDS_MAX];
	uint64_t page = 1ull << page_shift, largest = 0;

	for (unsigned p = 0; p < PROBE_COUNT; p++) {
		unsigned n = c->probes & (1u << p) ? probe_holds_of(probe_registry[p], c, page_shift, h)
						   : 0;
		for (unsigned i = 0; i < n; i++)
			if (h[i].page_shift == page_shift && h[i].bytes > largest)
				largest = h[i].bytes;
	}
	return (largest + page - 1) / page * page;
}

static void test_pool_by_need(void)
{
	struct pt_config cfg = { .levels = 4, .phys_bits = 40, .has_1g = 1 };
	struct config c;
	unsigned shifts[PAGE_SIZES_MAX], np;
	uint64_t bytes[PAGE_SIZES_MAX], sizes[PAGE_SIZES_MAX], need, old;
	struct pt_range all_free = { M(2), G(20), PT_WB };
	size_t n = pt_normalize_ranges(ranges, q35_20g(ranges));

	config_defaults(&c, PROFILE_QUICK);
	c.probes = PROBE_LATENCY;
	/* An explicit top: the automatic one follows this machine's claims. */
	c.max_size = M(8);
	np = page_shifts_asked(c.pages, shifts);
	for (unsigned i = 0; i < np; i++) {
		sizes[i] = 1ull << shifts[i];
		bytes[i] = held_bytes(&c, shifts[i]);
	}
	CHECK(np == 3 && bytes[0] == M(8) && bytes[1] == M(8) && bytes[2] == G(1),
	      "quick latency asks for 8 MiB, 8 MiB of 2 MiB pages and one 1 GiB page");
	need = pt_pool_tables(&cfg, ranges, n, bytes, sizes, np);
	old = 1 + pt_tables_bound(&cfg, ranges, n, 0) + pt_tables_bound(&cfg, &all_free, 1, PT_SIZE_4K);
	CHECK(need <= 512, "20 GiB, quick latency at 4k,2m,1g: %llu tables by need (at most 512)",
	      ULL(need));
	CHECK(old > 10000 && need * 20 < old, "the old all-RAM-at-4-KiB pool was %llu tables", ULL(old));

	/* The bound holds wherever the buffer lands: build, map the worst
	   buffer at many bases, restore, and never run out of the pool. */
	struct pool pool = { 0, need };
	struct pt_builder pb;
	size_t count = n;
	enum pt_status s = pt_init(&pb, &cfg, pool_page, &pool);
	uint64_t peak = 0, bases[] = { M(2), M(10), G(1) - K(4), G(2) - M(8) - K(32),
				       G(4) + K(4), G(4) + M(6), G(7) - K(4) };

	if (s == PT_OK)
		s = pt_map_ranges(&pb, ranges, &count);
	for (unsigned i = 0; i < sizeof bases / sizeof *bases && s == PT_OK; i++) {
		for (unsigned p = 0; p < np && s == PT_OK; p++) {
			uint64_t base = (bases[i] + sizes[p] - 1) & ~(sizes[p] - 1);
			s = pt_map_exact(&pb, base, bytes[p], sizes[p], PT_WB);
			if (pb.tables_in_use > peak)
				peak = pb.tables_in_use;
			if (s == PT_OK)
				s = pt_map_ranges(&pb, ranges, &count);
		}
	}
	CHECK(s == PT_OK, "every buffer at every base mapped and restored from %llu tables "
	      "(peak %llu in use, %llu ever taken): %s", ULL(need), ULL(peak),
	      ULL(pb.tables_allocated), pt_status_name(s));

	/* The largest buffer of the run decides: later's two tables, tlb's
	   sweep top capped by tlb.max_buffer, locality's matrix. */
	c.probes = PROBE_LATER | PROBE_LOCALITY | PROBE_TLB;
	TLB_SETTINGS(&c)->max_pages = 1000;
	LATER_SETTINGS(&c)->table = M(48);
	CHECK(held_bytes(&c, PAGE_SHIFT_4K) == M(96),
	      "later's 48 MiB table is two tables' worth: 96 MiB");
	LATER_SETTINGS(&c)->table = K(64);
	CHECK(held_bytes(&c, PAGE_SHIFT_4K) ==
	      (((uint64_t)LOCALITY_SETTINGS(&c)->rows * LOCALITY_SETTINGS(&c)->cols * 4 + K(4) - 1) & ~(K(4) - 1)),
	      "then locality's %u x %u ints", LOCALITY_SETTINGS(&c)->rows, LOCALITY_SETTINGS(&c)->cols);
	CHECK(held_bytes(&c, PAGE_SHIFT_1G) == TLB_SETTINGS(&c)->max_buffer,
	      "with 1 GiB pages tlb's 1000 pages are capped by tlb.max_buffer (%llu GiB)",
	      ULL(TLB_SETTINGS(&c)->max_buffer >> 30));
	c.probes = PROBE_COST;
	CHECK(held_bytes(&c, PAGE_SHIFT_4K) == 0, "cost alone takes no buffer");

	/* Every probe that takes a buffer says so in its row: bandwidth's
	   sweep top, and loaded's chase beside its loaders' 4 KiB buffers,
	   all held at once. */
	struct probe_hold h[PROBE_HOLDS_MAX];
	BANDWIDTH_SETTINGS(&c)->min_size = M(256);
	BANDWIDTH_SETTINGS(&c)->max_size = M(512);
	CHECK(probe_holds_of(&probe_def_bandwidth, &c, PAGE_SHIFT_4K, h) == 1 &&
	      h[0].bytes == M(512) && h[0].page_shift == PAGE_SHIFT_4K && h[0].count == 1,
	      "bandwidth at 256 MiB .. 512 MiB holds one 512 MiB buffer");
	/* As many loaders as the run will use: 3 asked, at most one per CPU
	   beside the chase's. */
	unsigned loaders = plat_cpu_count() - 1 < 3 ? plat_cpu_count() - 1 : 3;
	LOADED_SETTINGS(&c)->loaders = 3;
	{
		/* loaded.size auto: 4 x the largest data cache claimed, at
		   least the quick profile's 32 MiB: past every cache. */
		static struct cache_claims cl;
		uint64_t want;

		plat_cache_claims(&cl);
		want = claims_largest_cache(&cl) * 4 > M(32) ? claims_largest_cache(&cl) * 4 : M(32);
		LOADED_SETTINGS(&c)->size = 0;
		CHECK(probe_holds_of(&probe_def_loaded, &c, PAGE_SHIFT_2M, h) == 2 &&
		      h[0].bytes == want, "loaded.size auto holds a chase of 4 x the largest "
		      "cache claimed (%llu MiB), at least 32 MiB: %llu MiB",
		      ULL(claims_largest_cache(&cl) >> 20), ULL(h[0].bytes >> 20));
		LOADED_SETTINGS(&c)->size = M(64);
	}
	CHECK(probe_holds_of(&probe_def_loaded, &c, PAGE_SHIFT_2M, h) == 2 &&
	      h[0].bytes == LOADED_SETTINGS(&c)->size && h[0].page_shift == PAGE_SHIFT_2M && h[0].count == 1 &&
	      h[1].bytes == LOADED_SETTINGS(&c)->load_size && h[1].page_shift == PAGE_SHIFT_4K &&
	      h[1].count == loaders, "loaded holds its chase and the %u loader buffers of 4 KiB pages "
	      "it will use (3 asked, %u CPUs), at once", loaders, plat_cpu_count());
	CHECK(probe_holds_of(&probe_def_c2c, &c, PAGE_SHIFT_1G, h) == 1 && h[0].bytes == K(4) &&
	      h[0].page_shift == PAGE_SHIFT_4K, "c2c holds one 4 KiB page whatever the pages asked");
	for (unsigned p = 0; p < PROBE_COUNT; p++)
		CHECK(probe_registry[p]->holds || p == PROBE_ID_COST || p == PROBE_ID_FAULT,
		      "%s: a row that says what it holds", probe_registry[p]->config.name);
}

int main(void)
{
	arena = arena_below_2g(POOL_PAGES);
	if (!arena)
		return check_summary();
	test_many_descriptors();
	test_beyond_limit();
	test_find_free();
	test_pool_by_need();
	return check_summary();
}
