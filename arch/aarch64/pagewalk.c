/* The AArch64 translation-table walker (arch/paging.h), under the shared
 * verifier (arch/generic/pt_common.c): a
 * software walk of any map memprobe built, in whichever granule its pt_root
 * value names, as the CPU would walk it for a stage 1 EL1 or EL2 regime
 * with a 48-bit input address space.
 */

#include "arch/aarch64/tables.h"
#include "arch/generic/pt_common.h"

/* ---- Public Functions ------------------------------------------------- */

/* PT_WALK_OUT_OF_RANGE stands for an address beyond the 48 bits TTBR0
   translates (a level 0 translation fault on the CPU); PT_WALK_BAD_ENTRY
   for a descriptor the CPU would not accept: a block where the granule has
   none, or a level 3 entry with bit 1 clear. */
void pt_walk(const struct pt_config *cfg, uint64_t root, uint64_t va, struct pt_translation *t)
{
	const struct granule *g = &granules[root_granule(root) < GRANULES ? root_granule(root) : 0];
	const uint64_t *table = (const uint64_t *)(uintptr_t)root_table(root);
	unsigned level = g->start_level;

	(void)cfg;
	*t = (struct pt_translation){ .status = PT_WALK_OUT_OF_RANGE, .va_base = va, .writable = 1 };
	if (va >> VA_BITS)
		return;
	for (;;) {
		unsigned shift = level_shift(g, level);
		uint64_t span = 1ull << shift;
		uint64_t entry = table[(va >> shift) & (level_entries(g, level) - 1)];

		t->level = level;
		t->entry = entry;
		t->va_base = va & ~(span - 1);
		t->size = span;
		if (!(entry & DESC_VALID)) {
			t->status = PT_WALK_NOT_PRESENT;
			return;
		}
		if (level < 3 && (entry & DESC_TABLE)) {
			table = (const uint64_t *)(uintptr_t)(entry & DESC_ADDR_MASK);
			level++;
			continue;
		}
		if (!leaf_level(g, level) || (level == 3 && !(entry & DESC_TABLE))) {
			t->status = PT_WALK_BAD_ENTRY;
			return;
		}
		t->status = PT_WALK_MAPPED;
		t->phys = (entry & DESC_ADDR_MASK & ~(span - 1)) | (va & (span - 1));
		t->writable = !(entry & DESC_AP_RO);
		t->xn = (entry & (DESC_PXN | DESC_XN)) != 0;
		t->attr_index = DESC_ATTRINDX(entry);
		return;
	}
}

int pt_page_size_known(uint64_t page_size)
{
	return granule_of_page(page_size) >= 0;
}
