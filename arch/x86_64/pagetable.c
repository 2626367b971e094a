/* The page-table builder: an identity map built level by level, the page
 * allocator passed in, so the host tests run the code the firmware runs.
 *
 * One recursive step serves every level (PML5 down to PT): the levels differ
 * only in the span of an entry and in whether that entry may be a leaf.
 */

#include "arch/x86_64/pagetable.h"
#include "arch/generic/pt_common.h"

/* ---- Constants -------------------------------------------------------- */

/* Accessed and Dirty are set up front: otherwise the first touch of each
   page makes the CPU write them back into the entry, a locked update inside
   a timed section. No Global bit: translations must die with the CR3 switch
   back to the firmware's tables. No NX: code runs from identity-mapped RAM. */
#define LEAF_BITS  (PTE_PRESENT | PTE_WRITABLE | PTE_ACCESSED | PTE_DIRTY)
#define TABLE_BITS (PTE_PRESENT | PTE_WRITABLE | PTE_ACCESSED)

/* What a split leaf hands down unchanged: the low flag bits except PS/PAT
   (bit 7, which means different things at different levels) and bits 52..63
   (NX, protection key, software bits). */
#define SPLIT_KEPT_BITS ((0xfffull & ~PTE_LARGE) | 0xfff0000000000000ull)

struct map_request {
	enum pt_memattr attr;
	uint64_t exact_size; /* 0: the largest page that fits */
};

/* ---- Private Functions ------------------------------------------------ */

static uint64_t attr_bits(enum pt_memattr attr)
{
	/* PAT:PCD:PWT = 0:1:1 selects PAT entry 3; 0:0:0 entry 0. The PAT bit
	   stays 0, so the encoding is the same for 4 KiB and large leaves. */
	return attr == PT_UC ? PTE_PCD | PTE_PWT : 0;
}

static uint64_t leaf_entry(uint64_t frame, unsigned level, enum pt_memattr attr)
{
	return frame | LEAF_BITS | attr_bits(attr) | (level > 1 ? PTE_LARGE : 0);
}

static uint64_t *entry_table(uint64_t entry)
{
	return (uint64_t *)(uintptr_t)(entry & PTE_ADDR_MASK);
}

static int leaf_allowed(const struct pt_builder *b, unsigned level)
{
	return level <= 2 || (level == 3 && b->cfg.has_1g);
}

static int same_attr(uint64_t leaf, enum pt_memattr attr)
{
	return (leaf & (PTE_PCD | PTE_PWT)) == attr_bits(attr);
}

static void clear_table(uint64_t *table)
{
	for (unsigned i = 0; i < PT_ENTRIES; i++)
		table[i] = 0;
}

static enum pt_status new_table(struct pt_builder *b, uint64_t **out)
{
	uint64_t *table = b->arch.free_tables;

	if (table) {
		b->arch.free_tables = (uint64_t *)(uintptr_t)table[0];
	} else {
		enum pt_status s = pt_take_page(b, &table);
		if (s != PT_OK)
			return s;
	}
	clear_table(table);
	b->tables_in_use++;
	*out = table;
	return PT_OK;
}

/* Puts a table that a leaf replaced, and every table below it, on the free
   list, where the next table allocation finds it first: the app remaps
   every probe buffer into tables taken from one fixed pool (efi/paging.c),
   so a table no entry points to any more must be reused, not leaked. */
static void reclaim_table(struct pt_builder *b, uint64_t *table, unsigned level)
{
	if (level > 1)
		for (unsigned i = 0; i < PT_ENTRIES; i++)
			if ((table[i] & PTE_PRESENT) && !pt_entry_is_leaf(table[i], level))
				reclaim_table(b, entry_table(table[i]), level - 1);
	table[0] = (uint64_t)(uintptr_t)b->arch.free_tables;
	b->arch.free_tables = table;
	b->tables_in_use--;
}

static void set_leaf(struct pt_builder *b, uint64_t *entry, uint64_t frame,
		     unsigned level, enum pt_memattr attr)
{
	uint64_t old = *entry;

	*entry = leaf_entry(frame, level, attr);
	if ((old & PTE_PRESENT) && !pt_entry_is_leaf(old, level))
		reclaim_table(b, entry_table(old), level - 1);
}

/* A table of level-1 leaves that maps exactly what the leaf did. It is filled
   before it replaces the leaf, so a failure leaves the old mapping whole. */
static enum pt_status split_leaf(struct pt_builder *b, uint64_t *entry, unsigned level)
{
	unsigned child_level = level - 1;
	uint64_t frame = pt_leaf_frame(*entry, level);
	uint64_t kept = *entry & SPLIT_KEPT_BITS;
	uint64_t child_span = pt_level_span(child_level);
	uint64_t *child;
	enum pt_status s = new_table(b, &child);

	if (s != PT_OK)
		return s;
	if (*entry & PTE_PAT_LARGE)
		kept |= child_level == 1 ? PTE_PAT_4K : PTE_PAT_LARGE;
	if (child_level > 1)
		kept |= PTE_LARGE;
	for (unsigned i = 0; i < PT_ENTRIES; i++)
		child[i] = (frame + i * child_span) | kept;
	*entry = (uint64_t)(uintptr_t)child | TABLE_BITS;
	return PT_OK;
}

static enum pt_status map_level(struct pt_builder *b, uint64_t *table, unsigned level,
				uint64_t start, uint64_t end, const struct map_request *req);

/* Makes *entry point at a table (new, split from a leaf, or the one there)
   and maps [start, end) in it. */
static enum pt_status descend(struct pt_builder *b, uint64_t *entry, unsigned level,
			      uint64_t start, uint64_t end, const struct map_request *req)
{
	enum pt_status s = PT_OK;

	if (!(*entry & PTE_PRESENT)) {
		uint64_t *child;
		s = new_table(b, &child);
		if (s == PT_OK)
			*entry = (uint64_t)(uintptr_t)child | TABLE_BITS;
	} else if (pt_entry_is_leaf(*entry, level)) {
		/* A larger leaf of the same type already maps the piece:
		   splitting it would only make the map worse. */
		if (!req->exact_size && same_attr(*entry, req->attr))
			return PT_OK;
		s = split_leaf(b, entry, level);
	}
	if (s != PT_OK)
		return s;
	return map_level(b, entry_table(*entry), level - 1, start, end, req);
}

static int leaf_fits(const struct pt_builder *b, unsigned level, uint64_t start,
		     uint64_t end, const struct map_request *req)
{
	uint64_t span = pt_level_span(level);

	if ((start & (span - 1)) || end - start != span)
		return 0;
	return req->exact_size ? req->exact_size == span : leaf_allowed(b, level);
}

static enum pt_status map_level(struct pt_builder *b, uint64_t *table, unsigned level,
				uint64_t start, uint64_t end, const struct map_request *req)
{
	uint64_t span = pt_level_span(level);

	while (start < end) {
		uint64_t *entry = &table[(start >> pt_level_shift(level)) % PT_ENTRIES];
		uint64_t entry_end = (start & ~(span - 1)) + span;
		uint64_t piece_end = end < entry_end ? end : entry_end;

		if (leaf_fits(b, level, start, piece_end, req)) {
			set_leaf(b, entry, start, level, req->attr);
		} else {
			enum pt_status s = descend(b, entry, level, start, piece_end, req);
			if (s != PT_OK)
				return s;
		}
		start = piece_end;
	}
	return PT_OK;
}

static uint64_t blocks_touched(uint64_t start, uint64_t end, unsigned shift)
{
	return start < end ? ((end - 1) >> shift) - (start >> shift) + 1 : 0;
}

static uint64_t blocks_covered(uint64_t start, uint64_t end, unsigned shift)
{
	uint64_t first = (start + (1ull << shift) - 1) >> shift, last = end >> shift;
	return last > first ? last - first : 0;
}

static unsigned size_level(uint64_t page_size)
{
	return page_size == PT_SIZE_1G ? 3 : page_size == PT_SIZE_2M ? 2 : 1;
}

/* Tables at `level` that one aligned range needs: one under every entry of
   the level above that it touches, less those entries it fills with a leaf. */
static uint64_t range_tables(const struct pt_config *cfg, uint64_t start, uint64_t end,
			     unsigned level, uint64_t exact_page_size)
{
	unsigned above = level + 1, shift = pt_level_shift(above);
	uint64_t touched = blocks_touched(start, end, shift);
	int leaf_above;

	if (exact_page_size) {
		if (level < size_level(exact_page_size))
			return 0;
		leaf_above = above == size_level(exact_page_size);
	} else {
		leaf_above = above == 2 || (above == 3 && cfg->has_1g);
	}
	return leaf_above ? touched - blocks_covered(start, end, shift) : touched;
}

/* ---- Public Functions ------------------------------------------------- */

const char *pt_status_name(enum pt_status status)
{
	switch (status) {
	case PT_OK: return "ok";
	case PT_ERR_CONFIG: return "unsupported paging configuration";
	case PT_ERR_NOMEM: return "out of page-table memory";
	case PT_ERR_TABLE_ADDR: return "page-table page unaligned or beyond MAXPHYADDR";
	case PT_ERR_NOT_CONSECUTIVE: return "page-table pool gave pages out of order";
	case PT_ERR_BEYOND_PHYS: return "range beyond MAXPHYADDR";
	case PT_ERR_BEYOND_VA: return "range beyond the identity-mappable virtual space";
	case PT_ERR_PAGE_SIZE: return "page size not 4 KiB, 2 MiB or 1 GiB";
	case PT_ERR_NO_1G: return "1 GiB pages not supported by this CPU";
	case PT_ERR_NO_GRANULE: return "translation granule not offered (x86-64 has none)";
	case PT_ERR_ALIGN: return "base or length not a non-zero multiple of the page size";
	case PT_ERR_MISMATCH: return "pages not mapped as asked";
	}
	return "unknown page-table status";
}

uint64_t pt_identity_limit(const struct pt_config *cfg)
{
	uint64_t phys = 1ull << cfg->phys_bits;
	uint64_t lower_half = 1ull << (cfg->levels == 5 ? 56 : 47);

	return phys < lower_half ? phys : lower_half;
}

enum pt_status pt_init(struct pt_builder *b, const struct pt_config *cfg,
		       pt_alloc_page_fn alloc_page, void *alloc_ctx)
{
	if ((cfg->levels != 4 && cfg->levels != 5) || cfg->phys_bits < 32 || cfg->phys_bits > 52)
		return PT_ERR_CONFIG;
	b->cfg = *cfg;
	b->alloc_page = alloc_page;
	b->alloc_ctx = alloc_ctx;
	b->arch.free_tables = 0;
	b->last_page = 0;
	b->tables_in_use = 0;
	b->tables_allocated = 0;
	b->root = 0;
	return new_table(b, &b->root);
}

enum pt_status pt_map_ranges(struct pt_builder *b, struct pt_range *ranges, size_t *n)
{
	*n = pt_normalize_ranges(ranges, *n);
	for (size_t i = 0; i < *n; i++) {
		enum pt_status s = pt_check_limits(&b->cfg, ranges[i].base, ranges[i].length);
		if (s != PT_OK)
			return s;
	}
	/* The sort put UC after WB, so a shared page ends up UC. */
	for (size_t i = 0; i < *n; i++) {
		struct map_request req = { ranges[i].attr, 0 };
		enum pt_status s = map_level(b, b->root, b->cfg.levels, ranges[i].base,
					     ranges[i].base + ranges[i].length, &req);
		if (s != PT_OK)
			return s;
	}
	return PT_OK;
}

enum pt_status pt_map_exact(struct pt_builder *b, uint64_t base, uint64_t length,
			    uint64_t page_size, enum pt_memattr attr)
{
	struct map_request req = { attr, page_size };
	enum pt_status s;

	if (page_size != PT_SIZE_4K && page_size != PT_SIZE_2M && page_size != PT_SIZE_1G)
		return PT_ERR_PAGE_SIZE;
	if (page_size == PT_SIZE_1G && !b->cfg.has_1g)
		return PT_ERR_NO_1G;
	if (!length || (base | length) & (page_size - 1))
		return PT_ERR_ALIGN;
	s = pt_check_limits(&b->cfg, base, length);
	if (s != PT_OK)
		return s;
	return map_level(b, b->root, b->cfg.levels, base, base + length, &req);
}

uint64_t pt_tables_bound(const struct pt_config *cfg, const struct pt_range *ranges,
			 size_t n, uint64_t exact_page_size)
{
	uint64_t tables = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t start = ranges[i].base & ~(PT_SIZE_4K - 1);
		uint64_t end = pt_align_up_4k(ranges[i].base + ranges[i].length);
		if (!ranges[i].length)
			continue;
		for (unsigned level = 1; level < cfg->levels; level++)
			tables += range_tables(cfg, start, end, level, exact_page_size);
	}
	return tables;
}

uint64_t pt_pool_tables(const struct pt_config *cfg, const struct pt_range *ranges, size_t n,
			const uint64_t *buffer_bytes, const uint64_t *page_sizes, size_t nbuffers)
{
	/* A base one page below the top level's boundary is misaligned at
	   every level above the page: the most blocks a length can touch. */
	uint64_t top_block = pt_level_span(cfg->levels), worst = 0;

	for (size_t i = 0; i < nbuffers; i++) {
		struct pt_range r = { top_block - page_sizes[i], 0, PT_WB };
		uint64_t tables;
		if (!buffer_bytes[i])
			continue;
		r.length = (buffer_bytes[i] + page_sizes[i] - 1) & ~(page_sizes[i] - 1);
		tables = pt_tables_bound(cfg, &r, 1, page_sizes[i]);
		if (tables > worst)
			worst = tables;
	}
	return 1 + pt_tables_bound(cfg, ranges, n, 0) + worst;
}
