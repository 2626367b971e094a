/* The firmware's memory map: read it, turn it into ranges for the page-table
 * builder, find free physically contiguous aligned memory, summarise it.
 */
#ifndef MEMPROBE_MEMMAP_H
#define MEMPROBE_MEMMAP_H

#include <efi.h>
#include "arch/paging.h"

/* The unit of the memory map and of AllocatePages. */
#define EFI_PAGE_BYTES 4096ull

struct memmap {
	UINT8 *buf;
	UINTN size;               /* bytes used */
	UINTN capacity;           /* bytes allocated */
	UINTN desc_size;
	UINTN count;
};

/* The memory map as it is now, read afresh into one buffer the app reuses
   (each allocation changes the map); NULL with a message printed when the
   firmware will not give it. */
const struct memmap *memmap_now(void);
static inline EFI_MEMORY_DESCRIPTOR *memmap_at(const struct memmap *m, UINTN i)
{
	return (EFI_MEMORY_DESCRIPTOR *)(m->buf + i * m->desc_size);
}

/* Every range the app may touch while its own tables are loaded, with its
   memory attribute; returns how many were written to out (at most max). */
size_t memmap_ranges(const struct memmap *m, struct pt_range *out, size_t max);

/* The lowest base at or above 1 MiB of a free (conventional) run of `bytes`
   aligned to `align`, or 0 when none exists. *largest receives the largest aligned free run. */
uint64_t memmap_find_free(const struct memmap *m, uint64_t bytes, uint64_t align,
			  uint64_t *largest);

/* Total bytes of conventional memory, and of all RAM-like types. */
uint64_t memmap_bytes(const struct memmap *m, int conventional_only);

#endif
