/* A UEFI memory map as plain data: the descriptors GetMemoryMap returns,
 * read at the stride the firmware reports, and the decisions made from them
 * (what to identity-map, where a free aligned run lies, how much RAM there
 * is). No firmware call here, so the host tests run the same code on
 * adversarial maps (thousands of descriptors, ranges beyond MAXPHYADDR).
 */
#ifndef MEMPROBE_EFIMAP_H
#define MEMPROBE_EFIMAP_H

#include <stddef.h>
#include <stdint.h>

/* UEFI 2.10, 7.2 (EFI_MEMORY_TYPE and the attribute bits used here). */
enum efimap_type {
	EFIMAP_RESERVED = 0, EFIMAP_LOADER_CODE = 1, EFIMAP_LOADER_DATA = 2,
	EFIMAP_BS_CODE = 3, EFIMAP_BS_DATA = 4, EFIMAP_RT_CODE = 5, EFIMAP_RT_DATA = 6,
	EFIMAP_CONVENTIONAL = 7, EFIMAP_UNUSABLE = 8, EFIMAP_ACPI_RECLAIM = 9,
	EFIMAP_ACPI_NVS = 10, EFIMAP_MMIO = 11, EFIMAP_MMIO_PORT = 12,
	EFIMAP_PAL_CODE = 13, EFIMAP_PERSISTENT = 14,
};
#define EFIMAP_ATTR_WB (1ull << 3)
/* EFI_MEMORY_SP, "specific purpose" memory (CXL, HBM): the firmware marks it
   so that nothing takes it by default. */
#define EFIMAP_ATTR_SP (1ull << 18)
#define EFIMAP_PAGE_BYTES 4096ull

/* EFI_MEMORY_DESCRIPTOR's layout. A firmware may use a larger stride
   (desc_size) than this struct: always step with efimap_at. */
struct efimap_desc {
	uint32_t type;
	uint32_t pad;
	uint64_t phys_start, virt_start, pages, attr;
};

struct efimap {
	const uint8_t *buf;
	size_t count, desc_size;
};

static inline const struct efimap_desc *efimap_at(const struct efimap *m, size_t i)
{
	return (const struct efimap_desc *)(const void *)(m->buf + i * m->desc_size);
}

/* A range the app's tables must map: RAM (write-back when the firmware says
   it may be cached so) or MMIO (uncached). */
struct efimap_range {
	uint64_t base, length;
	int uncached;
};

/* What efimap_ranges left out because it lies at or beyond limit. */
struct efimap_skipped {
	size_t descriptors;       /* descriptors cut or dropped */
	uint64_t bytes;           /* bytes left unmapped */
	uint64_t first_base;      /* the lowest address skipped */
};

/* Writes every RAM and MMIO descriptor as a range into out (room for
   m->count ranges: one per descriptor at most), the part at or beyond limit
   (the first address the identity map cannot reach) cut off and counted in
   *skipped, so that one MMIO window above MAXPHYADDR cannot stop the run.
   Reserved and unusable descriptors are left out. Returns the count. */
size_t efimap_ranges(const struct efimap *m, uint64_t limit, struct efimap_range *out,
		     struct efimap_skipped *skipped);

/* Where a buffer may come from: [base, base + length) windows (a NUMA
   domain's memory), and whether EFI_MEMORY_SP memory may be used. */
struct efimap_place {
	const struct efimap_range *windows;   /* NULL: anywhere */
	size_t nwindows;
	int allow_special;
};

/* The lowest base at or above 1 MiB of a free (conventional) run of `bytes`
   aligned to `align` (a power of two) inside one window of place, or 0 when
   none exists. *largest receives the largest aligned free run there. */
uint64_t efimap_find_free(const struct efimap *m, const struct efimap_place *place,
			  uint64_t bytes, uint64_t align, uint64_t *largest);

/* Total bytes of conventional memory (conventional_only), or of every
   RAM-like type. */
uint64_t efimap_bytes(const struct efimap *m, int conventional_only);

#endif
