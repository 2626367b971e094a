/* The AArch64 translation-table builder (arch/paging.h): the general map
 * with the 4 KiB granule, and each buffer's own map in its page size's
 * granule (docs/PAGING.md, "AArch64").
 *
 * The granule is a property of the whole regime (TCR_ELx.TG0), not of a
 * leaf, so a 16 KiB or 64 KiB page cannot sit inside the 4 KiB general map
 * as a 2 MiB one can. Every buffer therefore gets a complete identity map
 * of its own, built in its granule when it is mapped: the general map's
 * ranges with the largest blocks that granule has, the buffer itself with
 * exactly its page size. The general map is never edited after it is
 * built, and a buffer's map is simply dropped when the buffer is given
 * back (pt_map_ranges), its tables kept in the granule's arena for the
 * next buffer.
 */

#include "arch/aarch64/tables.h"
#include "arch/aarch64/mair.h"
#include "arch/generic/pt_common.h"
#include "lib/fmt.h"

const struct granule granules[GRANULES] = {
	{ 12, 0, 0, "4 KiB" },   /* TG0 0b00 */
	{ 14, 0, 2, "16 KiB" },  /* TG0 0b10 */
	{ 16, 1, 1, "64 KiB" },  /* TG0 0b01 */
};

/* Where a map's tables come from: the general map's from alloc_page one
   4 KiB page at a time; a buffer map's from its granule's arena. */
struct table_source {
	struct pt_builder *b;
	const struct granule *g;
	struct pt_arena *arena;   /* NULL: alloc_page */
};

/* ---- Private Functions ------------------------------------------------ */

int granule_of_page(uint64_t page_size)
{
	switch (page_size) {
	case PT_SIZE_4K: case PT_SIZE_2M: case PT_SIZE_1G: return 0;
	case PT_SIZE_16K: case PT_SIZE_32M: return 1;
	case PT_SIZE_64K: case PT_SIZE_512M: return 2;
	}
	return -1;
}

/* A granule-sized, granule-aligned table out of the arena: the arena is a
   run of consecutive pages from alloc_page (arch/paging.h's allocator
   contract, which pt_take_page holds it to), grown a page at a time. A
   page that does not continue the run, because another granule's arena
   took pages since, starts a new one (the pages of the old run stay with
   the map that uses them, and are lost to later maps): pt_pool_tables
   counts a restart's worth of pages per granule. */
static enum pt_status arena_table(struct table_source *src, uint64_t **out)
{
	struct pt_arena *a = src->arena;
	uint64_t bytes = 1ull << src->g->shift, at;

	for (;;) {
		uint64_t *page;
		enum pt_status s;

		at = (a->base + a->used + bytes - 1) & ~(bytes - 1);
		if (a->size && at + bytes <= a->base + a->size)
			break;
		if ((s = pt_take_page(src->b, &page)) != PT_OK)
			return s;
		if (a->size && (uint64_t)(uintptr_t)page == a->base + a->size) {
			a->size += PT_SIZE_4K;
		} else {
			a->base = (uint64_t)(uintptr_t)page;
			a->size = PT_SIZE_4K;
			a->used = 0;
		}
	}
	a->used = at + bytes - a->base;
	*out = (uint64_t *)(uintptr_t)at;
	return PT_OK;
}

static enum pt_status new_table(struct table_source *src, uint64_t **out)
{
	uint64_t *t, bytes = 1ull << src->g->shift;
	enum pt_status s = src->arena ? arena_table(src, &t) : pt_take_page(src->b, &t);

	if (s != PT_OK)
		return s;
	if ((uint64_t)(uintptr_t)t + bytes > pt_identity_limit(&src->b->cfg))
		return PT_ERR_TABLE_ADDR;
	mp_memset(t, 0, bytes);
	/* The general map's tables: a buffer map's live in its arena, reused
	   whole by the next buffer. */
	if (!src->arena)
		src->b->tables_in_use++;
	*out = t;
	return PT_OK;
}

static uint64_t leaf_entry(const struct pt_builder *b, uint64_t pa, unsigned level,
			   enum pt_memattr attr)
{
	uint64_t d = pa | DESC_VALID | DESC_AF | (level == 3 ? DESC_TABLE : 0);

	if (attr == PT_WB)
		return d | DESC_SH_INNER | ((uint64_t)MAIR_INDEX_WB << 2);
	/* Device memory is never executable: without XN the CPU may fetch
	   instructions from it speculatively, reading device registers. */
	return d | ((uint64_t)MAIR_INDEX_DEVICE << 2) | DESC_XN |
	       (b->cfg.arch.el2_single_xn ? 0 : DESC_PXN);
}

/* A block's next level spelled out: the same memory, the same
   attributes, in entries one level smaller. */
static enum pt_status split_block(struct table_source *src, uint64_t *entry, unsigned level)
{
	uint64_t *t, span = 1ull << level_shift(src->g, level + 1);
	uint64_t keep = *entry & ~DESC_ADDR_MASK & ~DESC_TABLE;
	enum pt_status s = new_table(src, &t);

	if (s != PT_OK)
		return s;
	for (uint64_t i = 0; i < level_entries(src->g, level + 1); i++)
		t[i] = ((*entry & DESC_ADDR_MASK) + i * span) | keep |
		       (level + 1 == 3 ? DESC_TABLE : 0);
	*entry = (uint64_t)(uintptr_t)t | DESC_VALID | DESC_TABLE;
	return PT_OK;
}

/* Maps [start, end) under table (at level) with leaves of exactly
   page_size, or with 0 the largest leaves that fit, over whatever is
   there: a table under a new leaf is abandoned (its pages stay the
   arena's), a block under a smaller request is split. */
static enum pt_status map_level(struct table_source *src, uint64_t *table, unsigned level,
				uint64_t start, uint64_t end, uint64_t page_size,
				enum pt_memattr attr)
{
	unsigned shift = level_shift(src->g, level);
	uint64_t span = 1ull << shift, mask = level_entries(src->g, level) - 1;

	while (start < end) {
		uint64_t *entry = &table[(start >> shift) & mask];
		uint64_t next = (start & ~(span - 1)) + span;
		uint64_t stop = next < end ? next : end;
		int fits = (start & (span - 1)) == 0 && stop - start == span;
		enum pt_status s;

		if (leaf_level(src->g, level) && fits && (page_size ? page_size == span : 1)) {
			*entry = leaf_entry(src->b, start, level, attr);
		} else {
			if (level == 3)
				return PT_ERR_ALIGN;
			if (!(*entry & DESC_VALID)) {
				uint64_t *t;
				s = new_table(src, &t);
				if (s != PT_OK)
					return s;
				*entry = (uint64_t)(uintptr_t)t | DESC_VALID | DESC_TABLE;
			} else if (!(*entry & DESC_TABLE)) {
				s = split_block(src, entry, level);
				if (s != PT_OK)
					return s;
			}
			s = map_level(src, (uint64_t *)(uintptr_t)(*entry & DESC_ADDR_MASK), level + 1,
				      start, stop, page_size, attr);
			if (s != PT_OK)
				return s;
		}
		start = stop;
	}
	return PT_OK;
}

/* One range in a granule: aligned outward to it, which keeps RAM whole
   (a partial granule at a range's edge stays mapped); the ranges were
   sorted WB first, so device memory wins a granule the two share. */
static enum pt_status map_rounded(struct table_source *src, uint64_t *root, uint64_t start,
				  uint64_t end, enum pt_memattr attr)
{
	uint64_t g = 1ull << src->g->shift;

	start &= ~(g - 1);
	end = (end + g - 1) & ~(g - 1);
	if (start >= end)
		return PT_OK;
	return map_level(src, root, src->g->start_level, start, end, 0, attr);
}

/* ---- Public Functions ------------------------------------------------- */

uint64_t pt_identity_limit(const struct pt_config *cfg)
{
	uint64_t phys = 1ull << cfg->phys_bits;

	return phys < (1ull << VA_BITS) ? phys : 1ull << VA_BITS;
}

enum pt_status pt_init(struct pt_builder *b, const struct pt_config *cfg,
		       pt_alloc_page_fn alloc_page, void *alloc_ctx)
{
	struct table_source src = { b, &granules[0], NULL };

	mp_memset(b, 0, sizeof *b);
	if (cfg->levels != 4 || cfg->phys_bits < 32 || cfg->phys_bits > 52 ||
	    !(cfg->arch.granules & PT_SIZE_4K))
		return PT_ERR_CONFIG;
	b->cfg = *cfg;
	b->alloc_page = alloc_page;
	b->alloc_ctx = alloc_ctx;
	return new_table(&src, &b->root);
}

uint64_t pt_root(const struct pt_builder *b)
{
	return b->arch.buffer_root ? b->arch.buffer_root : root_value(b->root, 0);
}

/* The first call builds the general map; a later one (with the same
   ranges, efi/paging.c's restore after a buffer) drops the buffer's map,
   which leaves the general map, never edited, as it was. */
enum pt_status pt_map_ranges(struct pt_builder *b, struct pt_range *ranges, size_t *n)
{
	struct table_source src = { b, &granules[0], NULL };

	b->arch.buffer_root = 0;
	if (b->arch.general)
		return PT_OK;
	*n = pt_normalize_ranges(ranges, *n);
	for (size_t i = 0; i < *n; i++) {
		enum pt_status s = pt_check_limits(&b->cfg, ranges[i].base, ranges[i].length);
		if (s != PT_OK)
			return s;
	}
	for (size_t i = 0; i < *n; i++) {
		enum pt_status s = map_level(&src, b->root, 0, ranges[i].base,
					     ranges[i].base + ranges[i].length, 0, ranges[i].attr);
		if (s != PT_OK)
			return s;
	}
	b->arch.general = ranges;
	b->arch.ngeneral = *n;
	return PT_OK;
}

/* A new map in the page size's granule: the general ranges around the
   buffer with the largest blocks, the buffer with exactly page_size. */
enum pt_status pt_map_exact(struct pt_builder *b, uint64_t base, uint64_t length,
			    uint64_t page_size, enum pt_memattr attr)
{
	int gi = granule_of_page(page_size);
	struct table_source src;
	uint64_t *root, end = base + length;
	enum pt_status s;

	if (gi < 0)
		return PT_ERR_PAGE_SIZE;
	if (!(b->cfg.arch.granules & (1u << granules[gi].shift)))
		return PT_ERR_NO_GRANULE;
	if (!length || (base | length) & (page_size - 1))
		return PT_ERR_ALIGN;
	s = pt_check_limits(&b->cfg, base, length);
	if (s != PT_OK)
		return s;
	src = (struct table_source){ b, &granules[gi], &b->arch.arena[gi] };
	b->arch.buffer_root = 0;
	b->arch.arena[gi].used = 0;
	if ((s = new_table(&src, &root)) != PT_OK)
		return s;
	for (size_t i = 0; i < b->arch.ngeneral; i++) {
		const struct pt_range *r = &b->arch.general[i];
		uint64_t r_end = r->base + r->length;
		uint64_t below = r_end < base ? r_end : base, above = r->base > end ? r->base : end;

		if (r->base < below && (s = map_rounded(&src, root, r->base, below, r->attr)) != PT_OK)
			return s;
		if (above < r_end && (s = map_rounded(&src, root, above, r_end, r->attr)) != PT_OK)
			return s;
	}
	s = map_level(&src, root, granules[gi].start_level, base, end, page_size, attr);
	if (s != PT_OK)
		return s;
	b->arch.buffer_root = root_value(root, (unsigned)gi);
	return PT_OK;
}
