/* What the kernel actually gave a mapping: advice (MADV_HUGEPAGE) is only a
 * request, and a run that silently got 4 KiB pages would look like a result.
 */
#ifndef MEMPROBE_PAGECHECK_H
#define MEMPROBE_PAGECHECK_H

#include <stddef.h>

enum page_backing { BACKING_4K, BACKING_THP, BACKING_HUGETLB };

struct page_check {
	int ok;                 /* every page has the asked size */
	unsigned percent;       /* share of the bytes in pages of the asked size */
	char text[128];         /* for plat_buffer.verified */
};

/* Reads /proc/self/smaps for the mapping that starts at base (it must be one
   region of exactly `bytes`, already touched) and, where readable,
   /proc/self/pagemap for residency and physical contiguity. */
void page_check(const void *base, size_t bytes, unsigned page_shift,
		enum page_backing backing, struct page_check *out);

#endif
