/* The AArch64 translation-table walker and verifier (arch/paging.h): a
 * software walk of any map memprobe built, in whichever granule its pt_root
 * value names, as the CPU would walk it for a stage 1 EL1 or EL2 regime
 * with a 48-bit input address space.
 */

#include "arch/aarch64/tables.h"

static enum pt_verify_problem page_problem(const struct pt_translation *t, uint64_t va,
					   uint64_t page_size, unsigned attr_index)
{
	if (t->status != PT_WALK_MAPPED)
		return PT_VERIFY_NOT_MAPPED;
	if (t->phys != va)
		return PT_VERIFY_NOT_IDENTITY;
	if (t->size != page_size)
		return PT_VERIFY_WRONG_SIZE;
	if (t->pat_index != attr_index)
		return PT_VERIFY_WRONG_PAT;
	if (!t->writable)
		return PT_VERIFY_READ_ONLY;
	if (t->nx)
		return PT_VERIFY_NO_EXECUTE;
	return PT_VERIFY_OK;
}

// ---- Public Functions -------------------------------------------------------

/* PT_WALK_NON_CANONICAL stands for an address beyond the 48 bits TTBR0
   translates (a level 0 translation fault on the CPU); PT_WALK_RESERVED_BITS
   for a descriptor the CPU would not accept: a block where the granule has
   none, or a level 3 entry with bit 1 clear. */
void pt_walk(const struct pt_config *cfg, uint64_t root, uint64_t va, struct pt_translation *t)
{
	const struct granule *g = &granules[root_granule(root) < GRANULES ? root_granule(root) : 0];
	const uint64_t *table = (const uint64_t *)(uintptr_t)root_table(root);
	unsigned level = g->start_level;

	(void)cfg;
	*t = (struct pt_translation){ .status = PT_WALK_NON_CANONICAL, .va_base = va, .writable = 1 };
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
			t->status = PT_WALK_RESERVED_BITS;
			return;
		}
		t->status = PT_WALK_MAPPED;
		t->phys = (entry & DESC_ADDR_MASK & ~(span - 1)) | (va & (span - 1));
		t->writable = !(entry & DESC_AP_RO);
		t->nx = (entry & (DESC_PXN | DESC_XN)) != 0;
		t->pat_index = DESC_ATTRINDX(entry);
		return;
	}
}

enum pt_status pt_verify(const struct pt_config *cfg, uint64_t root, uint64_t base,
			 uint64_t length, uint64_t page_size, unsigned attr_index,
			 struct pt_verify_report *report)
{
	*report = (struct pt_verify_report){ .first_problem = PT_VERIFY_OK };
	if (granule_of_page(page_size) < 0)
		return PT_ERR_PAGE_SIZE;
	if (!length || (base | length) & (page_size - 1))
		return PT_ERR_ALIGN;
	for (uint64_t i = 0; i < length / page_size; i++) {
		uint64_t va = base + i * page_size;
		struct pt_translation t;
		enum pt_verify_problem problem;

		pt_walk(cfg, root, va, &t);
		problem = page_problem(&t, va, page_size, attr_index);
		if (problem == PT_VERIFY_OK) {
			report->pages_ok++;
			continue;
		}
		if (!report->pages_bad) {
			report->first_bad_va = va;
			report->first_problem = problem;
			report->first_bad = t;
		}
		report->pages_bad++;
	}
	return report->pages_bad ? PT_ERR_MISMATCH : PT_OK;
}
