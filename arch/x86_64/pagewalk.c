/* The software page walker and the per-buffer verifier: the proof that a
 * buffer has the page size and memory type its results claim.
 */

#include "arch/x86_64/pagetable.h"

// ---- Private Functions ------------------------------------------------------

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

static enum pt_verify_problem page_problem(const struct pt_translation *t, uint64_t va,
					   uint64_t page_size, unsigned pat_index)
{
	if (t->status != PT_WALK_MAPPED)
		return PT_VERIFY_NOT_MAPPED;
	if (t->phys != va)
		return PT_VERIFY_NOT_IDENTITY;
	if (t->size != page_size)
		return PT_VERIFY_WRONG_SIZE;
	if (t->pat_index != pat_index)
		return PT_VERIFY_WRONG_PAT;
	if (!t->writable)
		return PT_VERIFY_READ_ONLY;
	if (t->nx)
		return PT_VERIFY_NO_EXECUTE;
	return PT_VERIFY_OK;
}

// ---- Public Functions -------------------------------------------------------

void pt_walk(const struct pt_config *cfg, uint64_t cr3, uint64_t va, struct pt_translation *t)
{
	const uint64_t *table = (const uint64_t *)(uintptr_t)(cr3 & PTE_ADDR_MASK);
	unsigned level = cfg->levels;

	*t = (struct pt_translation){ .status = PT_WALK_NON_CANONICAL, .va_base = va, .writable = 1 };
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
			t->status = PT_WALK_RESERVED_BITS;
			return;
		}
		t->writable &= (entry & PTE_WRITABLE) != 0;
		t->nx |= (entry & PTE_NX) != 0;
		if (pt_entry_is_leaf(entry, level)) {
			t->status = PT_WALK_MAPPED;
			t->phys = pt_leaf_frame(entry, level) | (va & (span - 1));
			t->pat_index = pt_leaf_pat_index(entry, level);
			return;
		}
		table = (const uint64_t *)(uintptr_t)(entry & PTE_ADDR_MASK);
		level--;
	}
}

const char *pt_verify_problem_name(enum pt_verify_problem problem)
{
	switch (problem) {
	case PT_VERIFY_OK: return "ok";
	case PT_VERIFY_NOT_MAPPED: return "not mapped";
	case PT_VERIFY_NOT_IDENTITY: return "not identity-mapped";
	case PT_VERIFY_WRONG_SIZE: return "wrong page size";
	case PT_VERIFY_WRONG_PAT: return "wrong PAT entry";
	case PT_VERIFY_READ_ONLY: return "read-only";
	case PT_VERIFY_NO_EXECUTE: return "execute-disabled";
	}
	return "unknown problem";
}

int pt_range_writable(const struct pt_config *cfg, uint64_t root, uint64_t base,
		      uint64_t length, uint64_t *bad, struct pt_translation *t)
{
	uint64_t va = base & ~(PT_SIZE_4K - 1);

	while (va < base + length) {
		pt_walk(cfg, root, va, t);
		if (t->status != PT_WALK_MAPPED || !t->writable || t->phys != va) {
			*bad = va;
			return 0;
		}
		va = t->va_base + t->size;   /* the rest of this page is as good */
	}
	return 1;
}

enum pt_status pt_verify(const struct pt_config *cfg, uint64_t cr3, uint64_t base,
			 uint64_t length, uint64_t page_size, unsigned pat_index,
			 struct pt_verify_report *report)
{
	*report = (struct pt_verify_report){ .first_problem = PT_VERIFY_OK };
	if (page_size != PT_SIZE_4K && page_size != PT_SIZE_2M && page_size != PT_SIZE_1G)
		return PT_ERR_PAGE_SIZE;
	if (!length || (base | length) & (page_size - 1))
		return PT_ERR_ALIGN;
	for (uint64_t i = 0; i < length / page_size; i++) {
		uint64_t va = base + i * page_size;
		struct pt_translation t;
		enum pt_verify_problem problem;

		pt_walk(cfg, cr3, va, &t);
		problem = page_problem(&t, va, page_size, pat_index);
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
