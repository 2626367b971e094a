/* The AArch64 translation-table builder and walker (arch/aarch64/), pure C
 * run on the host: the general map in the 4 KiB granule, a map of its own
 * for a buffer of each of the seven page sizes in that size's granule,
 * walked page by page and compared with what was asked (identity, the
 * exact leaf size and level, the attribute, execute-never on device
 * memory), the refusals, and the pool bound against what was really taken.
 *
 * The x86-64 implementation of arch/paging.h is linked into every test
 * binary, so the AArch64 files, and the shared ones (arch/generic/) they
 * call, are compiled into this one under other names, with AArch64's own
 * part of the configuration and builder (the Makefile names x86-64's to
 * arch/paging.h; this file names AArch64's before any include): nothing
 * here passes a builder to x86-64's code.
 */
#undef MEMPROBE_ARCH_PAGING_TYPES
#define MEMPROBE_ARCH_PAGING_TYPES "arch/aarch64/paging_types.h"
#include <string.h>

#define pt_identity_limit a64_pt_identity_limit
#define pt_init a64_pt_init
#define pt_root a64_pt_root
#define pt_map_ranges a64_pt_map_ranges
#define pt_map_exact a64_pt_map_exact
#define pt_tables_bound a64_pt_tables_bound
#define pt_pool_tables a64_pt_pool_tables
#define pt_walk a64_pt_walk
#define pt_page_size_known a64_pt_page_size_known
#define pt_status_name a64_pt_status_name
#define pt_take_page a64_pt_take_page
#define pt_check_limits a64_pt_check_limits
#define pt_normalize_ranges a64_pt_normalize_ranges
#define pt_verify_problem_name a64_pt_verify_problem_name
#define pt_range_writable a64_pt_range_writable
#define pt_verify a64_pt_verify
#define granules a64_granules
#define granule_of_page a64_granule_of_page
#include "arch/aarch64/pagetable.c"
#include "arch/aarch64/bounds.c"
#include "arch/aarch64/pagewalk.c"
#include "arch/aarch64/status.c"
#include "arch/generic/pt_common.c"

#include "arena.h"
#include "check.h"

#define K(x) ((uint64_t)(x) << 10)
#define M(x) ((uint64_t)(x) << 20)
#define G(x) ((uint64_t)(x) << 30)
#define ULL(x) ((unsigned long long)(x))

#define POOL_PAGES 16384u
#define ALL_GRANULES ((1u << 12) | (1u << 14) | (1u << 16))

/* A QEMU-virt-like map: MMIO low, RAM from 1 GiB, an odd RAM edge. */
static struct pt_range ranges[] = {
	{ 0x09000000, K(4), PT_UC },          /* a UART */
	{ G(1), G(3) + K(12), PT_WB },        /* RAM, ending 12 KiB past a GiB */
	{ 0x08000000, M(1) + K(4), PT_UC },   /* an interrupt controller */
};

static struct pt_translation walk(const struct pt_builder *b, uint64_t va)
{
	struct pt_translation t;

	pt_walk(&b->cfg, pt_root(b), va, &t);
	return t;
}

/* Every page of [base, base + bytes) is identity-mapped with exactly
   page_size at attribute 0, writable, executable. */
static int buffer_pages_exact(const struct pt_builder *b, uint64_t base, uint64_t bytes,
			      uint64_t page_size)
{
	for (uint64_t va = base; va < base + bytes; va += page_size) {
		struct pt_translation t = walk(b, va + page_size / 2);
		if (t.status != PT_WALK_MAPPED || t.phys != va + page_size / 2 ||
		    t.size != page_size || t.attr_index != 0 || !t.writable || t.xn)
			return 0;
	}
	return 1;
}

static void test_general_map(struct pt_builder *b)
{
	struct pt_translation t;

	t = walk(b, G(2) + 123);
	CHECK(t.status == PT_WALK_MAPPED && t.size == G(1) && t.level == 1 && t.phys == G(2) + 123,
	      "general map: RAM in 1 GiB blocks at level 1 of the 4 KiB granule");
	CHECK(t.attr_index == 0 && t.writable && !t.xn, "general map: RAM normal WB, writable, executable");
	t = walk(b, G(4) + K(8));
	CHECK(t.status == PT_WALK_MAPPED && t.size == K(4) && t.level == 3,
	      "general map: the odd RAM edge in 4 KiB pages");
	t = walk(b, G(4) + K(12));
	CHECK(t.status == PT_WALK_NOT_PRESENT, "general map: nothing past the RAM's end");
	t = walk(b, 0x09000000);
	CHECK(t.status == PT_WALK_MAPPED && t.attr_index == 1 && t.xn && t.size == K(4),
	      "general map: MMIO is device memory (attr 1), execute-never");
	t = walk(b, 1ull << 48);
	CHECK(t.status == PT_WALK_OUT_OF_RANGE, "walk: beyond the 48-bit input space");
	CHECK(root_granule(pt_root(b)) == 0, "general map: the root value names the 4 KiB granule");
}

struct buffer_case {
	uint64_t base, bytes, page;
	unsigned granule, level;
};

static const struct buffer_case cases[] = {
	{ G(1) + M(2), M(1), K(4), 0, 3 },
	{ G(1) + M(64), M(1), K(16), 1, 3 },
	{ G(1) + M(128), M(1), K(64), 2, 3 },
	{ G(2) + M(2), M(4), M(2), 0, 2 },
	{ G(2) + M(32), M(64), M(32), 1, 2 },
	{ G(2) + M(512), M(512), M(512), 2, 2 },
	{ G(3), G(1), G(1), 0, 1 },
};

static void test_buffer(struct pt_builder *b, const struct buffer_case *k)
{
	uint64_t general_root = pt_root(b);
	enum pt_status s = pt_map_exact(b, k->base, k->bytes, k->page, PT_WB);
	struct pt_translation t;

	CHECK(s == PT_OK, "%llu KiB pages: mapped (%s)", ULL(k->page >> 10), pt_status_name(s));
	CHECK(root_granule(pt_root(b)) == k->granule && pt_root(b) != general_root,
	      "%llu KiB pages: a map of its own in granule %u", ULL(k->page >> 10), k->granule);
	CHECK(buffer_pages_exact(b, k->base, k->bytes, k->page),
	      "%llu KiB pages: every page identity-mapped, exactly that size, WB", ULL(k->page >> 10));
	t = walk(b, k->base);
	CHECK(t.level == k->level, "%llu KiB pages: leaves at level %u (%u)", ULL(k->page >> 10),
	      k->level, t.level);
	t = walk(b, G(1) + 8);
	CHECK(t.status == PT_WALK_MAPPED && t.phys == G(1) + 8 && t.attr_index == 0,
	      "%llu KiB pages: the rest of RAM still identity-mapped WB around the buffer",
	      ULL(k->page >> 10));
	t = walk(b, 0x09000000 + 16);
	CHECK(t.status == PT_WALK_MAPPED && t.attr_index == 1 && t.xn,
	      "%llu KiB pages: MMIO still device memory, execute-never", ULL(k->page >> 10));
	t = walk(b, G(4) + K(8));
	CHECK(t.status == PT_WALK_MAPPED && t.phys == G(4) + K(8),
	      "%llu KiB pages: the odd RAM edge still mapped (rounded out to the granule)",
	      ULL(k->page >> 10));
	s = pt_map_ranges(b, ranges, &(size_t){ sizeof ranges / sizeof ranges[0] });
	CHECK(s == PT_OK && pt_root(b) == general_root, "%llu KiB pages: given back, the general "
	      "map is loaded again", ULL(k->page >> 10));
}

static void test_refusals(struct pt_builder *b)
{
	struct pt_builder only4k = *b;

	CHECK(pt_map_exact(b, G(1), K(16), K(8), PT_WB) == PT_ERR_PAGE_SIZE,
	      "refused: 8 KiB is no AArch64 page size");
	CHECK(pt_map_exact(b, G(1) + K(4), K(16), K(16), PT_WB) == PT_ERR_ALIGN,
	      "refused: a 16 KiB buffer on a 4 KiB boundary");
	only4k.cfg.arch.granules = 1u << 12;
	CHECK(pt_map_exact(&only4k, G(1), K(64), K(64), PT_WB) == PT_ERR_NO_GRANULE,
	      "refused: 64 KiB pages where the CPU offers only the 4 KiB granule");
	CHECK(pt_map_exact(b, 1ull << 46, K(64), K(64), PT_WB) == PT_ERR_BEYOND_PHYS,
	      "refused: a buffer beyond the physical address range");
}

/* A pool that skips a page after each one breaks the allocator's
   contract: the builder says so rather than carving tables across it. */
static void test_out_of_order(const struct pt_config *cfg)
{
	struct table_pool p = { .base = arena_below_2g(64), .limit = 64, .gap = 1 };
	struct pt_range r[] = { { G(1), G(1), PT_WB } };
	size_t n = 1;
	static struct pt_builder b;
	enum pt_status s;

	if (!p.base)
		return;
	s = pt_init(&b, cfg, table_pool_page, &p);
	CHECK(s == PT_OK, "out of order: the root, the first page, is taken (%s)", pt_status_name(s));
	s = pt_map_ranges(&b, r, &n);
	CHECK(s == PT_ERR_NOT_CONSECUTIVE && b.tables_allocated == 1,
	      "out of order: the second page, one page past where it should be, is refused (%s)",
	      pt_status_name(s));
}

int main(void)
{
	/* Garbage-filled pages, so a table the builder forgets to clear shows. */
	struct table_pool p = { .base = arena_below_2g(POOL_PAGES), .limit = POOL_PAGES, .dirty = 1 };
	struct pt_config cfg = { .levels = 4, .phys_bits = 40, .has_1g = 1,
				 .arch.granules = ALL_GRANULES };
	uint64_t bytes[sizeof cases / sizeof cases[0]], sizes[sizeof cases / sizeof cases[0]];
	size_t n = sizeof ranges / sizeof ranges[0];
	static struct pt_builder b;
	enum pt_status s;

	if (!p.base)
		return check_summary();
	s = pt_init(&b, &cfg, table_pool_page, &p);
	CHECK(s == PT_OK, "init (%s)", pt_status_name(s));
	s = pt_map_ranges(&b, ranges, &n);
	CHECK(s == PT_OK && n == 3, "general map built (%s, %zu ranges)", pt_status_name(s), n);
	test_general_map(&b);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bytes[i] = cases[i].bytes;
		sizes[i] = cases[i].page;
		test_buffer(&b, &cases[i]);
	}
	CHECK(b.tables_allocated <= a64_pt_pool_tables(&cfg, ranges, n, bytes, sizes,
						      sizeof cases / sizeof cases[0]),
	      "the pool bound covers every page taken (%llu taken, bound %llu)",
	      ULL(b.tables_allocated), ULL(a64_pt_pool_tables(&cfg, ranges, n, bytes, sizes,
							     sizeof cases / sizeof cases[0])));
	test_refusals(&b);
	test_out_of_order(&cfg);
	return check_summary();
}
