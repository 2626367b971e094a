/* The software page walker, under the per-buffer verifier
 * (arch/generic/pt_common.c): the proof that a buffer has the page size and
 * memory type its results claim.
 */

#include "arch/x86_64/pagetable.h"
#include "arch/generic/pt_common.h"

/* ---- Private Functions ------------------------------------------------ */

static int canonical(const struct pt_config *cfg, uint64_t va)
{
	unsigned unused = 64 - (cfg->levels == 5 ? 57 : 48);
	return (uint64_t)((int64_t)(va << unused) >> unused) == va;
}

/* The reserved-bit checks the CPU makes: an entry the builder got wrong
   faults there, so it must fail here too, not pass as mapped. */
static int reserved_bits_set(const struct pt_config *cfg, uint64_t entry, unsigned level)
{
	uint64_t beyond_phys = PTE_ADDR_MASK & ~((1ull << cfg->phys_bits) - 1);

	if (entry & beyond_phys)
		return 1;
	if (!(entry & PTE_LARGE) || level == 1)
		return 0;
	if (level >= 4 || (level == 3 && !cfg->has_1g))
		return 1;
	/* A large leaf's address bits below its size are zero, except PAT. */
	return (entry & (pt_level_span(level) - 1) & ~(PT_SIZE_4K - 1) & ~PTE_PAT_LARGE) != 0;
}

/* ---- Public Functions ------------------------------------------------- */

void pt_walk(const struct pt_config *cfg, uint64_t cr3, uint64_t va, struct pt_translation *t)
{
	const uint64_t *table = (const uint64_t *)(uintptr_t)(cr3 & PTE_ADDR_MASK);
	unsigned level = cfg->levels;

	*t = (struct pt_translation){ .status = PT_WALK_OUT_OF_RANGE, .va_base = va, .writable = 1 };
	if (!canonical(cfg, va))
		return;
	for (;;) {
		uint64_t span = pt_level_span(level);
		uint64_t entry = table[(va >> pt_level_shift(level)) % PT_ENTRIES];

		t->level = level;
		t->entry = entry;
		t->va_base = va & ~(span - 1);
		t->size = span;
		if (!(entry & PTE_PRESENT)) {
			t->status = PT_WALK_NOT_PRESENT;
			return;
		}
		if (reserved_bits_set(cfg, entry, level)) {
			t->status = PT_WALK_BAD_ENTRY;
			return;
		}
		t->writable &= (entry & PTE_WRITABLE) != 0;
		t->xn |= (entry & PTE_NX) != 0;
		if (pt_entry_is_leaf(entry, level)) {
			t->status = PT_WALK_MAPPED;
			t->phys = pt_leaf_frame(entry, level) | (va & (span - 1));
			t->attr_index = pt_leaf_pat_index(entry, level);
			return;
		}
		table = (const uint64_t *)(uintptr_t)(entry & PTE_ADDR_MASK);
		level--;
	}
}

int pt_page_size_known(uint64_t page_size)
{
	return page_size == PT_SIZE_4K || page_size == PT_SIZE_2M || page_size == PT_SIZE_1G;
}
