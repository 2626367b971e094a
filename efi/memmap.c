/* Memory map handling. */

#include "efi/memmap.h"
#include "efi/fw.h"
#include "lib/fmt.h"
#include "probes/platform.h"

#define TYPE_PERSISTENT 14           /* EfiPersistentMemory, newer than these headers */
#define LOW_MEMORY_END 0x100000ull

static int memmap_read(struct memmap *m)
{
	for (int attempt = 0; attempt < 4; attempt++) {
		UINTN size = m->capacity, key, desc_size;
		UINT32 version;
		EFI_STATUS s = uefi_call_wrapper(fw_bs->GetMemoryMap, 5, &size,
						 (EFI_MEMORY_DESCRIPTOR *)m->buf, &key,
						 &desc_size, &version);
		if (s == EFI_SUCCESS) {
			m->size = size;
			m->desc_size = desc_size;
			m->count = size / desc_size;
			return 0;
		}
		if (s != EFI_BUFFER_TOO_SMALL)
			break;
		/* Allocating the buffer adds descriptors of its own: leave room. */
		if (m->buf)
			uefi_call_wrapper(fw_bs->FreePool, 1, m->buf);
		m->capacity = size + 16 * desc_size;
		m->buf = NULL;
		if (uefi_call_wrapper(fw_bs->AllocatePool, 3, EfiLoaderData, m->capacity,
				      (void **)&m->buf) != EFI_SUCCESS) {
			m->capacity = 0;
			break;
		}
	}
	plat_console("memprobe: cannot read the firmware memory map\n");
	return -1;
}

static int is_ram_type(UINT32 type)
{
	switch (type) {
	case EfiLoaderCode: case EfiLoaderData:
	case EfiBootServicesCode: case EfiBootServicesData:
	case EfiRuntimeServicesCode: case EfiRuntimeServicesData:
	case EfiConventionalMemory: case EfiACPIReclaimMemory:
	case EfiACPIMemoryNVS: case TYPE_PERSISTENT:
		return 1;
	default:
		return 0;
	}
}

/* RAM is mapped write-back where the firmware says it may be cached so;
   MMIO uncacheable. Reserved and unusable ranges stay unmapped: nothing the
   app runs touches them, and a stray access there should fault, not pass. */
size_t memmap_ranges(const struct memmap *m, struct pt_range *out, size_t max)
{
	size_t n = 0;

	for (UINTN i = 0; i < m->count && n < max; i++) {
		EFI_MEMORY_DESCRIPTOR *d = memmap_at(m, i);
		int ram = is_ram_type(d->Type);
		int mmio = d->Type == EfiMemoryMappedIO || d->Type == EfiMemoryMappedIOPortSpace;

		if (!ram && !mmio)
			continue;
		out[n].base = d->PhysicalStart;
		out[n].length = d->NumberOfPages * EFI_PAGE_BYTES;
		out[n].attr = ram && (d->Attribute & EFI_MEMORY_WB) ? PT_WB : PT_UC;
		n++;
	}
	return n;
}

const struct memmap *memmap_now(void)
{
	static struct memmap current;

	return memmap_read(&current) == 0 ? &current : NULL;
}

uint64_t memmap_find_free(const struct memmap *m, uint64_t bytes, uint64_t align,
			  uint64_t *largest)
{
	uint64_t found = 0;

	*largest = 0;
	for (UINTN i = 0; i < m->count; i++) {
		EFI_MEMORY_DESCRIPTOR *d = memmap_at(m, i);
		uint64_t start, end, usable;

		if (d->Type != EfiConventionalMemory)
			continue;
		/* The first MiB stays out: a null pointer must never be a
		   buffer, and the legacy area below 1 MiB is where fixed-range
		   MTRRs and option ROMs give memory types of their own. */
		start = d->PhysicalStart < LOW_MEMORY_END ? LOW_MEMORY_END : d->PhysicalStart;
		start = (start + align - 1) & ~(align - 1);
		end = d->PhysicalStart + d->NumberOfPages * EFI_PAGE_BYTES;
		if (start >= end)
			continue;
		usable = (end - start) & ~(align - 1);
		if (usable > *largest)
			*largest = usable;
		if (usable >= bytes && (!found || start < found))
			found = start;
	}
	return found;
}

uint64_t memmap_bytes(const struct memmap *m, int conventional_only)
{
	uint64_t total = 0;

	for (UINTN i = 0; i < m->count; i++) {
		EFI_MEMORY_DESCRIPTOR *d = memmap_at(m, i);

		if (conventional_only ? d->Type == EfiConventionalMemory : is_ram_type(d->Type))
			total += d->NumberOfPages * EFI_PAGE_BYTES;
	}
	return total;
}
