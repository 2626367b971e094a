/* The parts of arch/paging.h every architecture's tables share: the range
 * list, the limits check, the verifier and the writable-range check over
 * the architecture's own walker. Built for every architecture (the
 * Makefile's ARCH_SRC); only arch/NAME/ includes it.
 */
#ifndef MEMPROBE_ARCH_GENERIC_PT_COMMON_H
#define MEMPROBE_ARCH_GENERIC_PT_COMMON_H

#include "arch/paging.h"

/* PT_OK, or why [base, base + length) cannot be identity-mapped:
   PT_ERR_BEYOND_PHYS past 2^phys_bits (or wrapping), PT_ERR_BEYOND_VA past
   pt_identity_limit. */
enum pt_status pt_check_limits(const struct pt_config *cfg, uint64_t base, uint64_t length);

/* One page from b's allocator for a table, held to the allocator's
   contract (arch/paging.h): PT_ERR_NOMEM when it has none,
   PT_ERR_TABLE_ADDR for a page unaligned or beyond pt_identity_limit (an
   entry would silently point at another page), PT_ERR_NOT_CONSECUTIVE for
   one that does not follow the page before. Counts it in
   tables_allocated; the caller clears it. */
enum pt_status pt_take_page(struct pt_builder *b, uint64_t **page);

/* x rounded up to a 4 KiB boundary, saturating at the last one instead of
   wrapping to 0: a range at the top of the address space stays beyond
   every limit instead of vanishing. */
static inline uint64_t pt_align_up_4k(uint64_t x)
{
	return x > ~0ull - (PT_SIZE_4K - 1) ? ~(PT_SIZE_4K - 1) : (x + PT_SIZE_4K - 1) & ~(PT_SIZE_4K - 1);
}

#endif
