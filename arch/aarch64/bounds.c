/* How many tables the AArch64 maps need (arch/paging.h pt_tables_bound and
 * pt_pool_tables), counted in the 4 KiB pages the pool hands out.
 */

#include "arch/aarch64/tables.h"

static uint64_t blocks_touched(uint64_t start, uint64_t end, unsigned shift)
{
	return start < end ? ((end - 1) >> shift) - (start >> shift) + 1 : 0;
}

/* Tables one range needs in granule g below the root: at every level
   under the root, one per entry of the level above that the range touches
   and that cannot be a leaf. Where the level above has leaves of the size
   asked for (or, with page_size 0, any leaves), only the two partly covered
   entries at the range's ends need a table, plus two for a split where a
   device range shares an entry with RAM. */
static uint64_t range_tables(const struct granule *g, uint64_t start, uint64_t end,
			     uint64_t page_size)
{
	uint64_t tables = 0;

	for (unsigned level = g->start_level + 1; level <= 3; level++) {
		unsigned above = level - 1, shift = level_shift(g, above);
		uint64_t touched = blocks_touched(start, end, shift);
		int leaf_above = page_size ? (1ull << shift) == page_size : leaf_level(g, above);

		if (page_size && (1ull << shift) <= page_size)
			break;
		tables += leaf_above ? (touched < 2 ? touched : 2) + 2 : touched;
	}
	return tables;
}

static uint64_t ranges_tables(const struct granule *g, const struct pt_range *ranges, size_t n,
			      uint64_t page_size)
{
	uint64_t tables = 0;

	for (size_t i = 0; i < n; i++)
		if (ranges[i].length)
			tables += range_tables(g, ranges[i].base, ranges[i].base + ranges[i].length,
					       page_size);
	return tables;
}

/* The 4 KiB granule's count, which is the general map's. */
uint64_t pt_tables_bound(const struct pt_config *cfg, const struct pt_range *ranges,
			 size_t n, uint64_t exact_page_size)
{
	int gi = exact_page_size ? granule_of_page(exact_page_size) : 0;

	(void)cfg;
	return ranges_tables(&granules[gi < 0 ? 0 : gi], ranges, n, exact_page_size);
}

/* The root and the general map, then for each granule a buffer asks for:
   its worst buffer map (a root, the general ranges in that granule, the
   buffer at a base aligned to nothing above its page size), each table
   granule-sized, plus the pages an arena may skip to align its first
   table and one restart of the arena (arena_table in pagetable.c). */
uint64_t pt_pool_tables(const struct pt_config *cfg, const struct pt_range *ranges, size_t n,
			const uint64_t *buffer_bytes, const uint64_t *page_sizes, size_t nbuffers)
{
	uint64_t worst[GRANULES] = { 0 }, pages = 1 + ranges_tables(&granules[0], ranges, n, 0);

	for (size_t i = 0; i < nbuffers; i++) {
		int gi = granule_of_page(page_sizes[i]);
		uint64_t top = 1ull << (VA_BITS - 1);
		struct pt_range r = { top - page_sizes[i], 0, PT_WB };
		uint64_t tables;

		if (gi < 0 || !buffer_bytes[i] || !(cfg->arch.granules & (1u << granules[gi].shift)))
			continue;
		r.length = (buffer_bytes[i] + page_sizes[i] - 1) & ~(page_sizes[i] - 1);
		tables = 1 + ranges_tables(&granules[gi], ranges, n, 0) +
			 ranges_tables(&granules[gi], &r, 1, page_sizes[i]);
		if (tables > worst[gi])
			worst[gi] = tables;
	}
	for (unsigned gi = 0; gi < GRANULES; gi++) {
		uint64_t per_table = (1ull << granules[gi].shift) / PT_SIZE_4K;
		if (worst[gi])
			pages += 2 * (worst[gi] * per_table + per_table - 1);
	}
	return pages;
}
