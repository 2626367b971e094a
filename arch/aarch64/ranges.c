/* The range list and the status words of arch/paging.h for AArch64. */

#include "arch/paging.h"

static int range_before(const struct pt_range *a, const struct pt_range *b)
{
	return a->attr != b->attr ? a->attr < b->attr : a->base < b->base;
}

/* Insertion sort: a firmware map has a few hundred entries at most. */
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

/* Outward to 4 KiB, saturating at the top instead of wrapping to 0. */
static size_t align_ranges(struct pt_range *r, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t end = r[i].base + r[i].length, base = r[i].base & ~(PT_SIZE_4K - 1);
		if (!r[i].length)
			continue;
		if (end < r[i].base || end > ~0ull - (PT_SIZE_4K - 1))
			end = ~(PT_SIZE_4K - 1);
		else
			end = (end + PT_SIZE_4K - 1) & ~(PT_SIZE_4K - 1);
		r[kept] = (struct pt_range){ base, end - base, r[i].attr };
		kept++;
	}
	return kept;
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

const char *pt_status_name(enum pt_status status)
{
	switch (status) {
	case PT_OK: return "ok";
	case PT_ERR_CONFIG: return "unsupported translation configuration";
	case PT_ERR_NOMEM: return "out of translation-table memory";
	case PT_ERR_TABLE_ADDR: return "table unaligned or beyond the physical address range";
	case PT_ERR_BEYOND_PHYS: return "range beyond the physical address range";
	case PT_ERR_BEYOND_VA: return "range beyond the 48-bit identity map";
	case PT_ERR_PAGE_SIZE: return "page size not 4 KiB, 16 KiB, 64 KiB, 2 MiB, 32 MiB, 512 MiB or 1 GiB";
	case PT_ERR_NO_1G: return "1 GiB blocks not offered (no 4 KiB granule)";
	case PT_ERR_NO_GRANULE: return "the page size's translation granule is not offered by this CPU";
	case PT_ERR_ALIGN: return "base or length not a non-zero multiple of the page size";
	case PT_ERR_MISMATCH: return "pages not mapped as asked";
	}
	return "unknown translation-table status";
}

const char *pt_verify_problem_name(enum pt_verify_problem problem)
{
	switch (problem) {
	case PT_VERIFY_OK: return "ok";
	case PT_VERIFY_NOT_MAPPED: return "not mapped";
	case PT_VERIFY_NOT_IDENTITY: return "not identity-mapped";
	case PT_VERIFY_WRONG_SIZE: return "wrong page size";
	case PT_VERIFY_WRONG_PAT: return "wrong MAIR attribute index";
	case PT_VERIFY_READ_ONLY: return "read-only";
	case PT_VERIFY_NO_EXECUTE: return "execute-never";
	}
	return "unknown problem";
}
