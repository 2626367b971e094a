/* The page-table builder, walker and verifier over synthetic and adversarial
 * memory maps. After each build every leaf and every hole of the whole lower
 * half is walked and compared with an independent model of what should be
 * mapped: identity, attribute, page size (the largest that fits, or exactly
 * the size asked for a buffer), and nothing where nothing was asked.
 */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "check.h"
#include "arch/x86_64/pagetable.h"

#define K(x) ((uint64_t)(x) << 10)
#define M(x) ((uint64_t)(x) << 20)
#define G(x) ((uint64_t)(x) << 30)
#define T(x) ((uint64_t)(x) << 40)
#define ULL(x) ((unsigned long long)(x))

/* ---- A page pool below 2 GiB, so its addresses fit any MAXPHYADDR ----- */

#define POOL_PAGES 4096u

static uint8_t *arena;

static struct table_pool pool_fresh(size_t limit)
{
	struct table_pool p = { .base = arena, .limit = limit };
	return p;
}

/* Remembers its page in *ctx: a refused page stays the caller's to free. */
static void *heap_page(void *ctx)
{
	void **page = ctx;
	*page = aligned_alloc(PT_SIZE_4K, PT_SIZE_4K);
	return *page;
}

/* ---- The model: layers of what should be mapped ----------------------- */

enum layer_class { CLASS_NONE, CLASS_WB, CLASS_UC, CLASS_BUFFER };

struct layer {
	uint64_t base, end;
	enum layer_class cls;
	enum pt_memattr attr;
	uint64_t page_size; /* buffers only */
};

struct model {
	struct layer l[32];
	size_t n;
};

static void model_ranges(struct model *m, const struct pt_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t base = r[i].base & ~(PT_SIZE_4K - 1);
		uint64_t end = (r[i].base + r[i].length + PT_SIZE_4K - 1) & ~(PT_SIZE_4K - 1);
		if (!r[i].length)
			continue;
		m->l[m->n++] = (struct layer){ base, end, r[i].attr == PT_UC ? CLASS_UC : CLASS_WB,
					       r[i].attr, 0 };
	}
}

static void model_buffer(struct model *m, uint64_t base, uint64_t len, uint64_t size,
			 enum pt_memattr attr)
{
	m->l[m->n++] = (struct layer){ base, base + len, CLASS_BUFFER, attr, size };
}

/* The layer that decides address a: buffers over UC over WB, later buffers
   over earlier ones. -1 for none. */
static int model_winner(const struct model *m, uint64_t a)
{
	int best = -1;

	for (size_t i = 0; i < m->n; i++)
		if (a >= m->l[i].base && a < m->l[i].end &&
		    (best < 0 || m->l[i].cls >= m->l[best].cls))
			best = (int)i;
	return best;
}

/* What a block must be uniform in to be one page: WB ranges are one kind,
   UC ranges another, each buffer its own. */
static long model_key(const struct model *m, uint64_t a)
{
	int w = model_winner(m, a);

	if (w < 0)
		return 0;
	return m->l[w].cls == CLASS_BUFFER ? 100 + w : (long)m->l[w].cls;
}

/* The key shared by all of [a, b), or -1 when it is not uniform. */
static long model_uniform(const struct model *m, uint64_t a, uint64_t b)
{
	long key = model_key(m, a);

	for (size_t i = 0; i < m->n; i++) {
		uint64_t cut[2] = { m->l[i].base, m->l[i].end };
		for (int c = 0; c < 2; c++)
			if (cut[c] > a && cut[c] < b && model_key(m, cut[c]) != key)
				return -1;
	}
	return key;
}

/* ---- Walking everything ----------------------------------------------- */

enum { EXPECT_MAXIMAL = 1, ALLOW_HOLES = 2 };

struct leaf_counts {
	uint64_t pages[3]; /* 4 KiB, 2 MiB, 1 GiB leaves */
	uint64_t holes, bad;
};

static uint64_t larger_size(const struct pt_builder *b, uint64_t size)
{
	if (size == PT_SIZE_4K)
		return PT_SIZE_2M;
	return size == PT_SIZE_2M && b->cfg.has_1g ? PT_SIZE_1G : 0;
}

static const char *leaf_problem(const struct pt_builder *b, const struct model *m,
				const struct pt_translation *t, uint64_t va, int flags)
{
	long key;
	int w;

	if (t->va_base != va || !t->size)
		return "walk does not start at the iteration address";
	if (t->status == PT_WALK_NOT_PRESENT)
		return (flags & ALLOW_HOLES) || model_uniform(m, va, va + t->size) == 0
			? NULL : "a hole where the model maps";
	if (t->status != PT_WALK_MAPPED)
		return "reserved bits set or non-canonical";
	key = model_uniform(m, va, va + t->size);
	w = model_winner(m, va);
	if (t->phys != va)
		return "not identity";
	if (!t->writable || t->xn)
		return "read-only or execute-disabled";
	if (key <= 0)
		return "leaf covers a hole or mixed attributes";
	if (t->attr_index != pt_memattr_pat_index(m->l[w].attr))
		return "wrong PAT index";
	if (m->l[w].cls == CLASS_BUFFER)
		return t->size == m->l[w].page_size ? NULL : "buffer page not the size asked";
	if (flags & EXPECT_MAXIMAL) {
		uint64_t larger = larger_size(b, t->size);
		if (larger && model_uniform(m, va & ~(larger - 1), (va & ~(larger - 1)) + larger) == key)
			return "a larger page would fit";
	}
	return NULL;
}

static int size_slot(uint64_t size)
{
	return size == PT_SIZE_4K ? 0 : size == PT_SIZE_2M ? 1 : 2;
}

static struct leaf_counts check_map(const struct pt_builder *b, const struct model *m,
				    int flags, const char *what)
{
	uint64_t top = 1ull << (b->cfg.levels == 5 ? 56 : 47);
	struct leaf_counts c = { { 0, 0, 0 }, 0, 0 };

	for (uint64_t va = 0; va < top;) {
		struct pt_translation t;
		const char *why;

		pt_walk(&b->cfg, pt_cr3(b), va, &t);
		why = leaf_problem(b, m, &t, va, flags);
		if (why && c.bad++ < 3)
			printf("  # %s: at %#llx (size %#llx, status %d): %s\n", what, ULL(va),
			       ULL(t.size), (int)t.status, why);
		if (t.status == PT_WALK_MAPPED)
			c.pages[size_slot(t.size)]++;
		else
			c.holes++;
		if (!t.size)
			break;
		va = t.va_base + t.size;
	}
	CHECK(c.bad == 0, "%s: every leaf and hole agrees with the model "
	      "(%llu x 4 KiB, %llu x 2 MiB, %llu x 1 GiB)", what,
	      ULL(c.pages[0]), ULL(c.pages[1]), ULL(c.pages[2]));
	return c;
}

static struct pt_translation walk(const struct pt_builder *b, uint64_t va)
{
	struct pt_translation t;
	pt_walk(&b->cfg, pt_cr3(b), va, &t);
	return t;
}

static int leaf_is(const struct pt_builder *b, uint64_t va, uint64_t size, unsigned pat)
{
	struct pt_translation t = walk(b, va);
	return t.status == PT_WALK_MAPPED && t.phys == va && t.size == size && t.attr_index == pat;
}

/* The entry that maps va, found by hand, for tests that corrupt one. */
static uint64_t *entry_for(const struct pt_builder *b, uint64_t va)
{
	uint64_t *table = b->root;

	for (unsigned level = b->cfg.levels;; level--) {
		uint64_t *e = &table[(va >> (12 + 9 * (level - 1))) & 511];
		if (level == 1 || (*e & PTE_LARGE))
			return e;
		table = (uint64_t *)(uintptr_t)(*e & PTE_ADDR_MASK);
	}
}

static struct pt_builder builder(struct table_pool *p, unsigned levels, unsigned phys_bits, int has_1g)
{
	struct pt_config cfg = { .levels = levels, .phys_bits = phys_bits, .has_1g = has_1g };
	struct pt_builder b;
	enum pt_status s = pt_init(&b, &cfg, table_pool_page, p);

	CHECK(s == PT_OK && b.tables_in_use == 1, "pt_init %u-level, MAXPHYADDR %u, 1 GiB %s",
	      levels, phys_bits, has_1g ? "yes" : "no");
	return b;
}

/* ---- Scenarios -------------------------------------------------------- */

/* A firmware-like map: unaligned and overlapping entries, an empty one, MMIO,
   and a UC range that shares a page with RAM. */
static const struct pt_range firmware_map[] = {
	{ 0x0, 0x9fc00, PT_WB },
	{ 0x100000, 0x7ef00123 - 0x100000, PT_WB },
	{ 0x7ef00000, 0x100000, PT_WB },
	{ G(4), G(2), PT_WB },
	{ 0xfee00000, 0x1000, PT_UC },
	{ 0xfec00000, 0x1000, PT_UC },
	{ 0xb0000000, 0x10000000, PT_UC },
	{ 0x9f000, 0x2000, PT_UC },
	{ 0x5000, 0, PT_WB },
};
#define FIRMWARE_MAP_N (sizeof firmware_map / sizeof firmware_map[0])

static void test_normalize(void)
{
	struct pt_range r[FIRMWARE_MAP_N];
	static const struct pt_range want[] = {
		{ 0x0, 0xa0000, PT_WB },
		{ 0x100000, 0x7f000000 - 0x100000, PT_WB },
		{ G(4), G(2), PT_WB },
		{ 0x9f000, 0x2000, PT_UC },
		{ 0xb0000000, 0x10000000, PT_UC },
		{ 0xfec00000, 0x1000, PT_UC },
		{ 0xfee00000, 0x1000, PT_UC },
	};
	size_t n;
	int same = 1;

	memcpy(r, firmware_map, sizeof r);
	n = pt_normalize_ranges(r, FIRMWARE_MAP_N);
	CHECK(n == 7, "normalise: 9 firmware entries become 7 ranges (got %zu)", n);
	for (size_t i = 0; i < 7 && i < n; i++)
		same &= r[i].base == want[i].base && r[i].length == want[i].length &&
			r[i].attr == want[i].attr;
	CHECK(same, "normalise: aligned outward, sorted WB then UC, overlaps merged, empty dropped");

	struct pt_range touching[] = {
		{ 0x3000, 0x1000, PT_WB }, { 0x1001, 0x1, PT_WB }, { 0x2000, 0x1000, PT_WB },
		{ 0x1000, 0x800, PT_WB },
	};
	n = pt_normalize_ranges(touching, 4);
	CHECK(n == 1 && touching[0].base == 0x1000 && touching[0].length == 0x3000,
	      "normalise: touching and unaligned duplicates merge into one range");
}

/* A fresh builder with map[0..n) put through pt_map_ranges, and the model
   of the same ranges. */
struct scenario {
	struct table_pool pool;
	struct pt_builder b;
	struct model m;
	size_t n;              /* ranges after normalising */
	enum pt_status status; /* of pt_map_ranges */
};

#define MAX_RANGES 16u

static void scenario_build(struct scenario *sc, struct table_pool pool, unsigned levels,
			   unsigned phys_bits, int has_1g, const struct pt_range *map, size_t n)
{
	struct pt_range r[MAX_RANGES];
	uint64_t bound;

	sc->pool = pool;
	sc->b = builder(&sc->pool, levels, phys_bits, has_1g);
	sc->m.n = 0;
	model_ranges(&sc->m, map, n);
	memcpy(r, map, n * sizeof r[0]);
	sc->n = n;
	sc->status = pt_map_ranges(&sc->b, r, &sc->n);
	bound = 1 + pt_tables_bound(&sc->b.cfg, map, n, 0);
	CHECK(sc->b.tables_allocated <= bound, "%zu ranges, %u-level, 1 GiB %s: %s, %llu tables "
	      "allocated, pt_tables_bound %llu", n, levels, has_1g ? "yes" : "no",
	      pt_status_name(sc->status), ULL(sc->b.tables_allocated), ULL(bound));
}

/* A UC range listed, and starting, before the WB range it overlaps: UC
   must still win, whatever order the firmware gave. */
static void test_uc_wins_any_order(void)
{
	static const struct pt_range map[3] = {
		{ 0x1000, 0x2000, PT_UC }, { 0x2000, M(2), PT_WB }, { 0, 0x1000, PT_WB },
	};
	struct scenario sc;

	scenario_build(&sc, pool_fresh(POOL_PAGES), 4, 39, 1, map, 3);
	CHECK(sc.status == PT_OK && sc.n == 3, "UC before WB: mapped as 3 ranges");
	check_map(&sc.b, &sc.m, EXPECT_MAXIMAL, "UC before WB");
	CHECK(leaf_is(&sc.b, 0x2000, PT_SIZE_4K, 3) && leaf_is(&sc.b, 0x3000, PT_SIZE_4K, 0),
	      "UC before WB: the overlapped page is UC, the next WB");
}

static void firmware_map_case(unsigned levels, int has_1g, int dirty, uint64_t want_tables)
{
	struct table_pool pool = pool_fresh(POOL_PAGES);
	struct scenario sc;
	struct pt_builder *b = &sc.b;
	char what[96];

	pool.dirty = dirty;
	scenario_build(&sc, pool, levels, 39, has_1g, firmware_map, FIRMWARE_MAP_N);
	snprintf(what, sizeof what, "firmware map, %u-level, 1 GiB %s%s", levels,
		 has_1g ? "yes" : "no", dirty ? ", dirty pool pages" : "");
	CHECK(sc.status == PT_OK && sc.n == 7, "%s: mapped", what);
	check_map(b, &sc.m, EXPECT_MAXIMAL, what);
	CHECK(b->tables_in_use == want_tables && b->tables_allocated == want_tables,
	      "%s: %llu tables, as counted by hand (got %llu)", what, ULL(want_tables),
	      ULL(b->tables_in_use));
	CHECK(leaf_is(b, 0x9f000, PT_SIZE_4K, 3) && leaf_is(b, 0x9e000, PT_SIZE_4K, 0),
	      "%s: the page RAM and MMIO share is UC, the one below WB", what);
	CHECK(walk(b, 0xa1000).status == PT_WALK_NOT_PRESENT &&
	      walk(b, 0x7f000000).status == PT_WALK_NOT_PRESENT,
	      "%s: holes after the UC page and after RAM are not present", what);
	CHECK(leaf_is(b, 0xb0000000, PT_SIZE_2M, 3) && leaf_is(b, 0xfee00000, PT_SIZE_4K, 3),
	      "%s: ECAM as 2 MiB UC, LAPIC as 4 KiB UC", what);
	CHECK(leaf_is(b, G(5), has_1g ? PT_SIZE_1G : PT_SIZE_2M, 0),
	      "%s: RAM above 4 GiB in %s pages", what, has_1g ? "1 GiB" : "2 MiB");
	CHECK(pt_cr3(b) == (uint64_t)(uintptr_t)b->root && !(pt_cr3(b) & 0xfff),
	      "%s: CR3 is the page-aligned root", what);
}

/* Ranges crossing 2 MiB, 1 GiB and 512 GiB boundaries, with holes between. */
static void test_boundaries(int has_1g)
{
	static const struct pt_range map[] = {
		{ G(1) - M(6) + K(4), M(16) - K(8), PT_WB },
		{ G(2) - K(4), K(8), PT_WB },
		{ G(512) - M(2) - K(12), G(1) + M(4) + K(20), PT_WB },
	};
	struct scenario sc;
	struct pt_builder *b = &sc.b;
	struct leaf_counts c;

	scenario_build(&sc, pool_fresh(POOL_PAGES), 4, 40, has_1g, map, 3);
	CHECK(sc.status == PT_OK, "boundaries, 1 GiB %s: mapped", has_1g ? "yes" : "no");
	c = check_map(b, &sc.m, EXPECT_MAXIMAL, has_1g ? "boundaries, 1 GiB yes" : "boundaries, 1 GiB no");
	CHECK(leaf_is(b, G(512) - M(2) - K(12), PT_SIZE_4K, 0) &&
	      leaf_is(b, G(512) - M(2), PT_SIZE_2M, 0) &&
	      leaf_is(b, G(512), has_1g ? PT_SIZE_1G : PT_SIZE_2M, 0) &&
	      leaf_is(b, G(513), PT_SIZE_2M, 0) && leaf_is(b, G(513) + M(2), PT_SIZE_4K, 0),
	      "boundaries: 4 KiB, 2 MiB, %s, 2 MiB, 4 KiB across 512 GiB",
	      has_1g ? "1 GiB" : "2 MiB");
	CHECK(walk(b, G(2) - K(8)).status == PT_WALK_NOT_PRESENT &&
	      leaf_is(b, G(2) - K(4), PT_SIZE_4K, 0) && leaf_is(b, G(2), PT_SIZE_4K, 0) &&
	      walk(b, G(2) + K(4)).status == PT_WALK_NOT_PRESENT,
	      "boundaries: two pages straddling 2 GiB, holes either side");
	CHECK(c.pages[2] == (has_1g ? 1u : 0u), "boundaries: %s 1 GiB leaf", has_1g ? "one" : "no");
}

/* More than 512 GiB: more than one PDPT, and without 1 GiB pages 358400
   2 MiB leaves. */
static void test_large(int has_1g)
{
	static const struct pt_range map[] = { { 0, G(700) + K(12), PT_WB } };
	uint64_t want_tables = has_1g ? 5 : 1 + 2 + 701 + 1;
	struct scenario sc;
	struct leaf_counts c;

	scenario_build(&sc, pool_fresh(POOL_PAGES), 4, 40, has_1g, map, 1);
	CHECK(sc.status == PT_OK, "700 GiB, 1 GiB %s: mapped", has_1g ? "yes" : "no");
	c = check_map(&sc.b, &sc.m, EXPECT_MAXIMAL, has_1g ? "700 GiB, 1 GiB yes" : "700 GiB, 1 GiB no");
	CHECK(c.pages[0] == 3 && c.pages[1] == (has_1g ? 0 : 700u * 512) &&
	      c.pages[2] == (has_1g ? 700u : 0), "700 GiB: leaf counts by size as computed by hand");
	CHECK(sc.b.tables_in_use == want_tables, "700 GiB: %llu tables (got %llu)",
	      ULL(want_tables), ULL(sc.b.tables_in_use));
	CHECK(pt_tables_bound(&sc.b.cfg, map, 1, 0) + 1 == want_tables,
	      "700 GiB: pt_tables_bound is exact for one range");
	CHECK(pt_tables_bound(&sc.b.cfg, &(struct pt_range){ G(1) + M(2) + K(8), K(64), PT_WB }, 1,
			      PT_SIZE_4K) == 3 &&
	      pt_tables_bound(&sc.b.cfg, &(struct pt_range){ G(3), G(2), PT_WB }, 1, PT_SIZE_2M) == 3 &&
	      pt_tables_bound(&sc.b.cfg, &(struct pt_range){ G(3), G(2), PT_WB }, 1, PT_SIZE_1G) == 1,
	      "pt_tables_bound for exact buffers: a PT, PD and PDPT; 2 PDs and a PDPT; a PDPT");
}

/* 5-level: ranges crossing the 256 TiB boundary (one PML5 entry) and near
   the top of a 52-bit physical space; 4-level refuses them. */
static void test_five_level(int has_1g)
{
	static const struct pt_range map[] = {
		{ T(256) - G(1) - M(2), G(2) + M(2) + K(4), PT_WB },
		{ 1ull << 51, M(2), PT_UC },
		{ 0, M(1), PT_WB },
	};
	struct scenario sc, sc4;
	struct pt_builder *b = &sc.b;
	struct model empty = { .n = 0 };

	scenario_build(&sc, pool_fresh(POOL_PAGES), 5, 52, has_1g, map, 3);
	CHECK(sc.status == PT_OK, "5-level, 1 GiB %s: mapped", has_1g ? "yes" : "no");
	check_map(b, &sc.m, EXPECT_MAXIMAL, has_1g ? "5-level, 1 GiB yes" : "5-level, 1 GiB no");
	CHECK(leaf_is(b, T(256) - G(1) - M(2), PT_SIZE_2M, 0) &&
	      leaf_is(b, T(256) - G(1), has_1g ? PT_SIZE_1G : PT_SIZE_2M, 0) &&
	      leaf_is(b, T(256), has_1g ? PT_SIZE_1G : PT_SIZE_2M, 0) &&
	      leaf_is(b, T(256) + G(1), PT_SIZE_4K, 0) &&
	      leaf_is(b, 1ull << 51, PT_SIZE_2M, 3), "5-level: leaves either side of 256 TiB, UC at 2^51");

	scenario_build(&sc4, pool_fresh(POOL_PAGES), 4, 52, has_1g, map, 3);
	CHECK(sc4.status == PT_ERR_BEYOND_VA, "4-level with MAXPHYADDR 52: 256 TiB refused (%s)",
	      pt_status_name(sc4.status));
	CHECK(sc4.b.tables_in_use == 1, "4-level: nothing built after the refusal");
	check_map(&sc4.b, &empty, 0, "4-level after refusal: nothing mapped");
}

/* 4 and 5 levels map the same low ranges with the same leaves, one table apart. */
static void test_levels_agree(void)
{
	struct scenario sc;

	scenario_build(&sc, pool_fresh(POOL_PAGES), 5, 39, 1, firmware_map, FIRMWARE_MAP_N);
	CHECK(sc.status == PT_OK, "firmware map, 5-level: mapped");
	check_map(&sc.b, &sc.m, EXPECT_MAXIMAL, "firmware map, 5-level");
	CHECK(sc.b.tables_in_use == 10, "firmware map, 5-level: one table more than 4-level (got %llu)",
	      ULL(sc.b.tables_in_use));
}

static void test_limits(void)
{
	struct table_pool p = pool_fresh(POOL_PAGES);
	struct pt_builder b = builder(&p, 4, 36, 1);
	struct model empty = { .n = 0 };
	struct pt_range r[2] = { { 0, G(1), PT_WB }, { G(64) - K(4), K(8), PT_WB } };
	struct pt_range wrap[1] = { { 0xfffffffffffff000ull, 0x2000, PT_WB } };
	struct pt_range edge[1] = { { G(63), G(1), PT_WB } };
	size_t n = 2;
	enum pt_status s = pt_map_ranges(&b, r, &n);

	CHECK(s == PT_ERR_BEYOND_PHYS, "MAXPHYADDR 36: a range ending past 64 GiB is refused (%s)",
	      pt_status_name(s));
	CHECK(b.tables_in_use == 1, "MAXPHYADDR 36: nothing built, not even the valid range");
	check_map(&b, &empty, 0, "after the MAXPHYADDR refusal: nothing mapped");
	n = 1;
	s = pt_map_ranges(&b, wrap, &n);
	CHECK(s == PT_ERR_BEYOND_PHYS, "a range wrapping past 2^64 is refused, not wrapped (%s)",
	      pt_status_name(s));
	n = 1;
	CHECK(pt_map_ranges(&b, edge, &n) == PT_OK && leaf_is(&b, G(63), PT_SIZE_1G, 0),
	      "MAXPHYADDR 36: a range ending exactly at 64 GiB maps");
	CHECK(pt_identity_limit(&b.cfg) == G(64), "identity limit with MAXPHYADDR 36 is 64 GiB");
	struct pt_config c5 = { .levels = 5, .phys_bits = 52, .has_1g = 1 };
	struct pt_config c4 = { .levels = 4, .phys_bits = 52, .has_1g = 1 };
	CHECK(pt_identity_limit(&c4) == 1ull << 47 && pt_identity_limit(&c5) == 1ull << 52,
	      "identity limit: 2^47 with 4 levels, MAXPHYADDR with 5");
}

static void test_config_and_table_addr(void)
{
	struct table_pool p = pool_fresh(POOL_PAGES);
	struct pt_config bad_levels = { .levels = 3, .phys_bits = 39, .has_1g = 1 };
	struct pt_config bad_bits = { .levels = 4, .phys_bits = 60, .has_1g = 1 };
	struct pt_config c36 = { .levels = 4, .phys_bits = 36, .has_1g = 1 };
	struct pt_builder b;
	void *probe = aligned_alloc(PT_SIZE_4K, PT_SIZE_4K), *heap = NULL;
	enum pt_status s;

	CHECK(pt_init(&b, &bad_levels, table_pool_page, &p) == PT_ERR_CONFIG, "3 levels refused");
	CHECK(pt_init(&b, &bad_bits, table_pool_page, &p) == PT_ERR_CONFIG, "MAXPHYADDR 60 refused");
	p.misalign = 1;
	s = pt_init(&b, &c36, table_pool_page, &p);
	CHECK(s == PT_ERR_TABLE_ADDR, "an unaligned page from the allocator is refused (%s)", pt_status_name(s));
	CHECK((uintptr_t)probe >= (1ull << 36), "precondition: the host heap lies above 2^36");
	free(probe);
	s = pt_init(&b, &c36, heap_page, &heap);
	CHECK(s == PT_ERR_TABLE_ADDR, "a table page beyond MAXPHYADDR is refused (%s)", pt_status_name(s));
	free(heap);
	p = pool_fresh(POOL_PAGES);
	p.gap = 1;
	s = pt_init(&b, &c36, table_pool_page, &p);
	CHECK(s == PT_OK, "the first page may lie anywhere (%s)", pt_status_name(s));
	s = pt_map_exact(&b, G(1), M(2), PT_SIZE_4K, PT_WB);
	CHECK(s == PT_ERR_NOT_CONSECUTIVE && b.tables_allocated == 1,
	      "a page that does not follow the one before is refused, not used (%s, %llu taken)",
	      pt_status_name(s), ULL(b.tables_allocated));
}

/* Buffers of each exact size inside ranges mapped with larger and smaller
   pages, then the general map restored. */
static void test_exact(void)
{
	static const struct pt_range map[] = {
		{ 0, G(8), PT_WB },
		{ G(3) + K(4), K(4), PT_UC },
		{ 0xb0000000, M(256), PT_UC },
	};
	struct scenario sc;
	struct pt_builder *b = &sc.b;
	struct pt_range r[3];
	struct pt_verify_report rep;
	size_t n = 3;
	uint64_t base_tables, allocated, tables_before;
	enum pt_status s;

	scenario_build(&sc, pool_fresh(POOL_PAGES), 4, 39, 1, map, 3);
	CHECK(sc.status == PT_OK, "exact: general map built");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "exact: general map");
	base_tables = b->tables_in_use;

	/* 4 KiB inside a 1 GiB leaf: the leaf splits twice. */
	s = pt_map_exact(b, G(1) + M(2) + K(8), K(64), PT_SIZE_4K, PT_WB);
	model_buffer(&sc.m, G(1) + M(2) + K(8), K(64), PT_SIZE_4K, PT_WB);
	CHECK(s == PT_OK && b->tables_in_use == base_tables + 2, "exact 4 KiB in a 1 GiB leaf: a PD and a PT added");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "exact 4 KiB in a 1 GiB leaf");
	s = pt_verify(&b->cfg, pt_cr3(b), G(1) + M(2) + K(8), K(64), PT_SIZE_4K, 0, &rep);
	CHECK(s == PT_OK && rep.pages_ok == 16 && rep.pages_bad == 0, "verify: 16 x 4 KiB, PAT 0");

	/* 2 MiB over a block of 4 KiB pages (with a UC page): the PT goes. */
	s = pt_map_exact(b, G(3), M(4), PT_SIZE_2M, PT_WB);
	model_buffer(&sc.m, G(3), M(4), PT_SIZE_2M, PT_WB);
	CHECK(s == PT_OK && b->tables_in_use == base_tables + 1, "exact 2 MiB over 4 KiB pages: their PT reclaimed");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "exact 2 MiB over 4 KiB pages");
	s = pt_verify(&b->cfg, pt_cr3(b), G(3), M(4), PT_SIZE_2M, 0, &rep);
	CHECK(s == PT_OK && rep.pages_ok == 2, "verify: 2 x 2 MiB, PAT 0");

	/* 4 KiB inside a UC 2 MiB leaf: the rest of the block stays UC. */
	s = pt_map_exact(b, 0xb0200000, K(4), PT_SIZE_4K, PT_WB);
	model_buffer(&sc.m, 0xb0200000, K(4), PT_SIZE_4K, PT_WB);
	CHECK(s == PT_OK && leaf_is(b, 0xb0201000, PT_SIZE_4K, 3) && leaf_is(b, 0xb0400000, PT_SIZE_2M, 3),
	      "exact WB 4 KiB in a UC 2 MiB leaf: neighbours keep UC");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "exact 4 KiB in a UC 2 MiB leaf");

	/* 1 GiB over a PD holding 2 MiB leaves and a buffer's PT. */
	s = pt_map_exact(b, G(1), G(1), PT_SIZE_1G, PT_WB);
	model_buffer(&sc.m, G(1), G(1), PT_SIZE_1G, PT_WB);
	CHECK(s == PT_OK && b->tables_in_use == base_tables, "exact 1 GiB over a split region: PD and PT reclaimed");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "exact 1 GiB over a split region");
	s = pt_verify(&b->cfg, pt_cr3(b), G(1), G(1), PT_SIZE_1G, 0, &rep);
	CHECK(s == PT_OK && rep.pages_ok == 1, "verify: 1 x 1 GiB, PAT 0");

	/* Restore the general map: back to the original tables, none allocated. */
	allocated = b->tables_allocated;
	memcpy(r, map, sizeof r);
	n = 3;
	sc.m.n = 0;
	model_ranges(&sc.m, map, 3);
	CHECK(pt_map_ranges(b, r, &n) == PT_OK && b->tables_in_use == base_tables,
	      "restore: tables back to %llu (got %llu)", ULL(base_tables), ULL(b->tables_in_use));
	check_map(b, &sc.m, EXPECT_MAXIMAL, "restored general map");
	s = pt_map_exact(b, G(6) + M(6), M(2), PT_SIZE_4K, PT_WB);
	model_buffer(&sc.m, G(6) + M(6), M(2), PT_SIZE_4K, PT_WB);
	CHECK(s == PT_OK && b->tables_allocated == allocated,
	      "exact 2 MiB of 4 KiB after restore: freed tables reused, none allocated");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "exact 4 KiB after restore");
	s = pt_verify(&b->cfg, pt_cr3(b), G(6) + M(6), M(2), PT_SIZE_4K, 0, &rep);
	CHECK(s == PT_OK && rep.pages_ok == 512, "verify: 512 x 4 KiB");

	/* 2 MiB inside a 1 GiB leaf; 4 KiB over 4 KiB pages (one of them UC). */
	s = pt_map_exact(b, G(5) + M(4), M(4), PT_SIZE_2M, PT_WB);
	model_buffer(&sc.m, G(5) + M(4), M(4), PT_SIZE_2M, PT_WB);
	CHECK(s == PT_OK && leaf_is(b, G(5), PT_SIZE_2M, 0), "exact 2 MiB in a 1 GiB leaf: split into 2 MiB leaves");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "exact 2 MiB in a 1 GiB leaf");
	tables_before = b->tables_in_use;
	s = pt_map_exact(b, G(3), K(8), PT_SIZE_4K, PT_WB);
	model_buffer(&sc.m, G(3), K(8), PT_SIZE_4K, PT_WB);
	CHECK(s == PT_OK && b->tables_in_use == tables_before && leaf_is(b, G(3) + K(4), PT_SIZE_4K, 0),
	      "exact 4 KiB over 4 KiB pages: same tables, the UC page now WB");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "exact 4 KiB over 4 KiB pages");

	/* A UC buffer in a hole gets mapped. */
	s = pt_map_exact(b, G(10), M(4), PT_SIZE_2M, PT_UC);
	model_buffer(&sc.m, G(10), M(4), PT_SIZE_2M, PT_UC);
	CHECK(s == PT_OK, "exact 2 MiB UC in a hole: mapped");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "exact 2 MiB UC in a hole");
	s = pt_verify(&b->cfg, pt_cr3(b), G(10), M(4), PT_SIZE_2M, 3, &rep);
	CHECK(s == PT_OK && rep.pages_ok == 2, "verify: 2 x 2 MiB, PAT 3");
	CHECK(b->tables_allocated <= 1 + pt_tables_bound(&b->cfg, map, 3, 0) * 2 +
	      pt_tables_bound(&b->cfg, &(struct pt_range){ G(1) + M(2) + K(8), K(64), PT_WB }, 1, PT_SIZE_4K) +
	      pt_tables_bound(&b->cfg, &(struct pt_range){ G(3), M(4), PT_WB }, 1, PT_SIZE_2M) +
	      pt_tables_bound(&b->cfg, &(struct pt_range){ 0xb0200000, K(4), PT_WB }, 1, PT_SIZE_4K) +
	      pt_tables_bound(&b->cfg, &(struct pt_range){ G(1), G(1), PT_WB }, 1, PT_SIZE_1G) +
	      pt_tables_bound(&b->cfg, &(struct pt_range){ G(6) + M(6), M(2), PT_WB }, 1, PT_SIZE_4K) +
	      pt_tables_bound(&b->cfg, &(struct pt_range){ G(5) + M(4), M(4), PT_WB }, 1, PT_SIZE_2M) +
	      pt_tables_bound(&b->cfg, &(struct pt_range){ G(3), K(8), PT_WB }, 1, PT_SIZE_4K) +
	      pt_tables_bound(&b->cfg, &(struct pt_range){ G(10), M(4), PT_UC }, 1, PT_SIZE_2M),
	      "exact: allocations within the sum of the bounds of every call");
}

static void test_exact_errors(void)
{
	static const struct pt_range map[1] = { { 0, G(4), PT_WB } };
	struct scenario sc;
	struct pt_builder *b = &sc.b;
	uint64_t tables;

	scenario_build(&sc, pool_fresh(POOL_PAGES), 4, 39, 0, map, 1);
	CHECK(sc.status == PT_OK, "no-1G builder: 4 GiB mapped");
	tables = b->tables_in_use;
	CHECK(pt_map_exact(b, G(1), G(1), PT_SIZE_1G, PT_WB) == PT_ERR_NO_1G,
	      "exact 1 GiB without CPU support: refused plainly");
	CHECK(pt_map_exact(b, G(1) + K(4), M(2), PT_SIZE_2M, PT_WB) == PT_ERR_ALIGN,
	      "exact 2 MiB at an unaligned base: refused");
	CHECK(pt_map_exact(b, G(1), M(3), PT_SIZE_2M, PT_WB) == PT_ERR_ALIGN,
	      "exact 2 MiB with a length not a multiple: refused");
	CHECK(pt_map_exact(b, G(1), 0, PT_SIZE_4K, PT_WB) == PT_ERR_ALIGN, "exact with length 0: refused");
	CHECK(pt_map_exact(b, G(1), K(8), K(8), PT_WB) == PT_ERR_PAGE_SIZE, "exact 8 KiB pages: refused");
	CHECK(pt_map_exact(b, G(512), M(2), PT_SIZE_2M, PT_WB) == PT_ERR_BEYOND_PHYS,
	      "exact beyond MAXPHYADDR 39: refused");
	CHECK(b->tables_in_use == tables, "after the refusals: no table added or removed");
	check_map(b, &sc.m, EXPECT_MAXIMAL, "no-1G builder after refused requests");

	CHECK(pt_map_exact(b, G(2), G(1), PT_SIZE_2M, PT_WB) == PT_OK, "no-1G: exact 2 MiB over 2 MiB leaves");
	model_buffer(&sc.m, G(2), G(1), PT_SIZE_2M, PT_WB);
	check_map(b, &sc.m, EXPECT_MAXIMAL, "no-1G: exact 2 MiB over 2 MiB leaves");
}

/* The verifier's negative answers, and the walker on corrupted entries. */
static void test_verify_problems(void)
{
	struct scenario sc;
	struct pt_builder *b = &sc.b;
	struct pt_verify_report rep;
	enum pt_status s;
	uint64_t *e;

	scenario_build(&sc, pool_fresh(POOL_PAGES), 4, 39, 1, firmware_map, FIRMWARE_MAP_N);
	s = pt_verify(&b->cfg, pt_cr3(b), M(2), M(4), PT_SIZE_4K, 0, &rep);
	CHECK(s == PT_ERR_MISMATCH && rep.pages_bad == 1024 && rep.pages_ok == 0 &&
	      rep.first_problem == PT_VERIFY_WRONG_SIZE && rep.first_bad_va == M(2) &&
	      rep.first_bad.size == PT_SIZE_2M, "verify: 2 MiB pages checked as 4 KiB -> wrong size, 1024 bad");
	s = pt_verify(&b->cfg, pt_cr3(b), 0xb0000000, M(4), PT_SIZE_2M, 0, &rep);
	CHECK(s == PT_ERR_MISMATCH && rep.first_problem == PT_VERIFY_WRONG_ATTR && rep.pages_bad == 2,
	      "verify: UC pages checked for PAT 0 -> wrong PAT");
	s = pt_verify(&b->cfg, pt_cr3(b), M(2030), M(4), PT_SIZE_2M, 0, &rep);
	CHECK(s == PT_ERR_MISMATCH && rep.first_problem == PT_VERIFY_NOT_MAPPED &&
	      rep.first_bad_va == 0x7f000000 && rep.pages_ok == 1 && rep.pages_bad == 1,
	      "verify: a hole -> not mapped (%s)", pt_verify_problem_name(rep.first_problem));
	s = pt_verify(&b->cfg, pt_cr3(b), M(2) + K(4), M(2), PT_SIZE_2M, 0, &rep);
	CHECK(s == PT_ERR_ALIGN, "verify: unaligned base refused");
	CHECK(pt_verify(&b->cfg, pt_cr3(b), 0, K(4), K(8), 0, &rep) == PT_ERR_PAGE_SIZE,
	      "verify: odd page size refused");

	e = entry_for(b, M(4));
	*e |= PTE_NX;
	s = pt_verify(&b->cfg, pt_cr3(b), M(2), M(4), PT_SIZE_2M, 0, &rep);
	CHECK(s == PT_ERR_MISMATCH && rep.first_problem == PT_VERIFY_NO_EXECUTE &&
	      rep.first_bad_va == M(4) && rep.pages_ok == 1 && rep.pages_bad == 1,
	      "verify: an NX leaf is caught, its neighbour passes");
	*e &= ~(PTE_NX | PTE_WRITABLE);
	pt_verify(&b->cfg, pt_cr3(b), M(4), M(2), PT_SIZE_2M, 0, &rep);
	CHECK(rep.first_problem == PT_VERIFY_READ_ONLY, "verify: a read-only leaf is caught");
	*e = (*e | PTE_WRITABLE) + M(2);
	pt_verify(&b->cfg, pt_cr3(b), M(4), M(2), PT_SIZE_2M, 0, &rep);
	CHECK(rep.first_problem == PT_VERIFY_NOT_IDENTITY && rep.first_bad.phys == M(6),
	      "verify: a leaf pointing elsewhere is not identity");
	*e = (*e - M(2)) | (1ull << 13);
	CHECK(walk(b, M(4)).status == PT_WALK_BAD_ENTRY, "walk: bit 13 set in a 2 MiB leaf is reserved");
	*e &= ~(1ull << 13);
	*e |= 1ull << 40;
	CHECK(walk(b, M(4)).status == PT_WALK_BAD_ENTRY, "walk: address bit beyond MAXPHYADDR 39 is reserved");
	*e &= ~(1ull << 40);
	CHECK(leaf_is(b, M(4), PT_SIZE_2M, 0), "walk: the repaired leaf maps again");

	struct pt_config no1g = b->cfg;
	no1g.has_1g = 0;
	CHECK(walk(b, G(4)).size == PT_SIZE_1G, "walk: a 1 GiB leaf with pdpe1gb");
	{
		struct pt_translation t;
		pt_walk(&no1g, pt_cr3(b), G(4), &t);
		CHECK(t.status == PT_WALK_BAD_ENTRY, "walk: the same leaf without pdpe1gb is reserved");
	}
	CHECK(walk(b, 0x0000800000000000ull).status == PT_WALK_OUT_OF_RANGE &&
	      walk(b, 0xffff800000000000ull).status == PT_WALK_NOT_PRESENT,
	      "walk: 2^47 non-canonical with 4 levels, its sign extension canonical");
}

/* The pre-switch check of the guard's memory: a range across pages of
   several sizes passes, a hole, a read-only leaf or a leaf pointing
   elsewhere is named by its first page. */
static void test_range_writable(void)
{
	struct scenario sc;
	struct pt_builder *b = &sc.b;
	struct pt_translation t;
	uint64_t bad = 0, *e;

	scenario_build(&sc, pool_fresh(POOL_PAGES), 4, 39, 1, firmware_map, FIRMWARE_MAP_N);
	CHECK(pt_range_writable(&b->cfg, pt_cr3(b), M(1) + 100, M(8), &bad, &t),
	      "range: 4 KiB and 2 MiB pages across 8 MiB, unaligned, pass");
	CHECK(pt_range_writable(&b->cfg, pt_cr3(b), G(4) + 5, G(1), &bad, &t),
	      "range: a 1 GiB page passes");
	CHECK(!pt_range_writable(&b->cfg, pt_cr3(b), 0x7eff0000, M(2), &bad, &t) &&
	      bad == 0x7f000000 && t.status == PT_WALK_NOT_PRESENT,
	      "range: the first unmapped page is named (0x%llx)", (unsigned long long)bad);
	CHECK(!pt_range_writable(&b->cfg, pt_cr3(b), 0xa0000, 0x1001, &bad, &t) && bad == 0xa1000 &&
	      t.status == PT_WALK_NOT_PRESENT,
	      "range: a range whose last byte lies in a page the map leaves out fails (0x%llx)",
	      (unsigned long long)bad);
	e = entry_for(b, M(6));
	*e &= ~PTE_WRITABLE;
	CHECK(!pt_range_writable(&b->cfg, pt_cr3(b), M(5), M(2), &bad, &t) && bad == M(6) &&
	      t.status == PT_WALK_MAPPED && !t.writable, "range: a read-only leaf is caught");
	*e = (*e | PTE_WRITABLE) + M(2);
	CHECK(!pt_range_writable(&b->cfg, pt_cr3(b), M(6), 1, &bad, &t) && bad == M(6) &&
	      t.phys == M(8), "range: a leaf that is not the identity is caught");
}

/* The PAT bit moves from bit 12 to bit 7 when a large leaf splits into
   4 KiB pages, and stays at 12 when a 1 GiB leaf splits into 2 MiB ones. */
static void test_split_keeps_pat_bit(void)
{
	static const struct pt_range map[1] = { { 0, G(2), PT_WB } };
	struct scenario sc;
	struct pt_builder *b = &sc.b;

	scenario_build(&sc, pool_fresh(POOL_PAGES), 4, 39, 1, map, 1);
	*entry_for(b, G(1)) |= PTE_PAT_LARGE | PTE_PWT;
	CHECK(walk(b, G(1)).attr_index == 5, "hand-set PAT:PCD:PWT = 1:0:1 on a 1 GiB leaf reads as index 5");
	CHECK(pt_map_exact(b, G(1) + M(4), K(4), PT_SIZE_4K, PT_WB) == PT_OK, "exact 4 KiB inside it");
	CHECK(leaf_is(b, G(1), PT_SIZE_2M, 5) && leaf_is(b, G(1) + M(4) + K(4), PT_SIZE_4K, 5) &&
	      leaf_is(b, G(1) + M(4), PT_SIZE_4K, 0),
	      "split: 2 MiB and 4 KiB neighbours keep PAT index 5, the buffer page has 0");
	CHECK((*entry_for(b, G(1) + M(4) + K(4)) & PTE_PAT_4K) && (*entry_for(b, G(1)) & PTE_PAT_LARGE),
	      "split: PAT bit at 7 in the 4 KiB entries, at 12 in the 2 MiB ones");
}

static void test_out_of_memory(void)
{
	static const struct pt_range huge[1] = { { 0, G(600), PT_WB } };
	static const struct pt_range small[1] = { { 0, G(4), PT_WB } };
	struct scenario sc;
	enum pt_status s;

	scenario_build(&sc, pool_fresh(3), 4, 40, 0, huge, 1);
	CHECK(sc.status == PT_ERR_NOMEM, "600 GiB of 2 MiB pages from a 3-page pool: out of memory reported (%s)",
	      pt_status_name(sc.status));
	CHECK(sc.b.tables_in_use == 3 && sc.b.tables_allocated == 3, "out of memory: the pool is used up, no more");
	check_map(&sc.b, &sc.m, ALLOW_HOLES, "out of memory: what is mapped is valid");

	scenario_build(&sc, pool_fresh(2), 4, 39, 1, small, 1);
	CHECK(sc.status == PT_OK && sc.b.tables_in_use == 2, "4 GiB in 1 GiB leaves: 2 tables");
	s = pt_map_exact(&sc.b, G(1), K(4), PT_SIZE_4K, PT_WB);
	CHECK(s == PT_ERR_NOMEM && leaf_is(&sc.b, G(1), PT_SIZE_1G, 0),
	      "split with no page left: out of memory, the 1 GiB leaf intact");
	sc.pool.limit = 3;
	s = pt_map_exact(&sc.b, G(1), K(4), PT_SIZE_4K, PT_WB);
	CHECK(s == PT_ERR_NOMEM && leaf_is(&sc.b, G(1), PT_SIZE_2M, 0),
	      "split with one page left: out of memory after the first split");
	check_map(&sc.b, &sc.m, 0, "after a half-done split: every page still mapped as before");
}

int main(void)
{
	arena = arena_below_2g(POOL_PAGES);
	if (!arena)
		return check_summary();

	test_normalize();
	firmware_map_case(4, 1, 0, 9);
	firmware_map_case(4, 0, 0, 11);
	firmware_map_case(4, 1, 1, 9);
	test_levels_agree();
	test_uc_wins_any_order();
	test_boundaries(1);
	test_boundaries(0);
	test_large(1);
	test_large(0);
	test_five_level(1);
	test_five_level(0);
	test_limits();
	test_config_and_table_addr();
	test_exact();
	test_exact_errors();
	test_verify_problems();
	test_split_keeps_pat_bit();
	test_range_writable();
	test_out_of_memory();
	return check_summary();
}
