/* The range list, the limits check and the verifier of arch/paging.h, the
 * same for every architecture (arch/generic/pt_common.h).
 */

#include "arch/generic/pt_common.h"

/* ---- Private Functions ------------------------------------------------ */

static int range_before(const struct pt_range *a, const struct pt_range *b)
{
	return a->attr != b->attr ? a->attr < b->attr : a->base < b->base;
}

/* Insertion sort: a firmware map has a few hundred entries at most, and
   there is no libc qsort here. */
static void sort_ranges(struct pt_range *r, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct pt_range key = r[i];
		size_t j = i;
		for (; j > 0 && range_before(&key, &r[j - 1]); j--)
			r[j] = r[j - 1];
		r[j] = key;
	}
}

/* Aligns outward and drops empty ranges; returns the count kept. */
static size_t align_ranges(struct pt_range *r, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t end = r[i].base + r[i].length;
		uint64_t base = r[i].base & ~(PT_SIZE_4K - 1);
		if (!r[i].length)
			continue;
		end = pt_align_up_4k(end < r[i].base ? ~0ull : end);
		r[kept].base = base;
		r[kept].length = end - base;
		r[kept].attr = r[i].attr;
		kept++;
	}
	return kept;
}

static enum pt_verify_problem page_problem(const struct pt_translation *t, uint64_t va,
					   uint64_t page_size, unsigned attr_index)
{
	if (t->status != PT_WALK_MAPPED)
		return PT_VERIFY_NOT_MAPPED;
	if (t->phys != va)
		return PT_VERIFY_NOT_IDENTITY;
	if (t->size != page_size)
		return PT_VERIFY_WRONG_SIZE;
	if (t->attr_index != attr_index)
		return PT_VERIFY_WRONG_ATTR;
	if (!t->writable)
		return PT_VERIFY_READ_ONLY;
	if (t->xn)
		return PT_VERIFY_NO_EXECUTE;
	return PT_VERIFY_OK;
}

/* ---- Public Functions ------------------------------------------------- */

enum pt_status pt_take_page(struct pt_builder *b, uint64_t **page)
{
	uint64_t at = (uint64_t)(uintptr_t)b->alloc_page(b->alloc_ctx);

	if (!at)
		return PT_ERR_NOMEM;
	if ((at & (PT_SIZE_4K - 1)) || at + PT_SIZE_4K > pt_identity_limit(&b->cfg))
		return PT_ERR_TABLE_ADDR;
	if (b->last_page && at != b->last_page + PT_SIZE_4K)
		return PT_ERR_NOT_CONSECUTIVE;
	b->last_page = at;
	b->tables_allocated++;
	*page = (uint64_t *)(uintptr_t)at;
	return PT_OK;
}

enum pt_status pt_check_limits(const struct pt_config *cfg, uint64_t base, uint64_t length)
{
	uint64_t end = base + length;

	if (end < base || end > (1ull << cfg->phys_bits))
		return PT_ERR_BEYOND_PHYS;
	if (end > pt_identity_limit(cfg))
		return PT_ERR_BEYOND_VA;
	return PT_OK;
}

size_t pt_normalize_ranges(struct pt_range *r, size_t n)
{
	size_t out = 0;

	n = align_ranges(r, n);
	sort_ranges(r, n);
	for (size_t i = 0; i < n; i++) {
		struct pt_range *last = out ? &r[out - 1] : 0;
		if (last && last->attr == r[i].attr && r[i].base <= last->base + last->length) {
			uint64_t end = r[i].base + r[i].length;
			if (end > last->base + last->length)
				last->length = end - last->base;
		} else {
			r[out++] = r[i];
		}
	}
	return out;
}

const char *pt_verify_problem_name(enum pt_verify_problem problem)
{
	switch (problem) {
	case PT_VERIFY_OK: return "ok";
	case PT_VERIFY_NOT_MAPPED: return "not mapped";
	case PT_VERIFY_NOT_IDENTITY: return "not identity-mapped";
	case PT_VERIFY_WRONG_SIZE: return "wrong page size";
	case PT_VERIFY_WRONG_ATTR: return "wrong memory attribute index";
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

enum pt_status pt_verify(const struct pt_config *cfg, uint64_t root, uint64_t base,
			 uint64_t length, uint64_t page_size, unsigned attr_index,
			 struct pt_verify_report *report)
{
	*report = (struct pt_verify_report){ .first_problem = PT_VERIFY_OK };
	if (!pt_page_size_known(page_size))
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
