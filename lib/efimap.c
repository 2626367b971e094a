/* Decisions made from a UEFI memory map (see efimap.h). */

#include "lib/efimap.h"

/* ---- Constants -------------------------------------------------------- */

#define LOW_MEMORY_END 0x100000ull

/* ---- Private Functions ------------------------------------------------ */

static int is_ram_type(uint32_t type)
{
	switch (type) {
	case EFIMAP_LOADER_CODE: case EFIMAP_LOADER_DATA:
	case EFIMAP_BS_CODE: case EFIMAP_BS_DATA:
	case EFIMAP_RT_CODE: case EFIMAP_RT_DATA:
	case EFIMAP_CONVENTIONAL: case EFIMAP_ACPI_RECLAIM:
	case EFIMAP_ACPI_NVS: case EFIMAP_PERSISTENT:
		return 1;
	default:
		return 0;
	}
}

/* The descriptor's end, saturated: a page count that overflows the address
   space must read as "reaches the top", never wrap to a small address. */
static uint64_t desc_end(const struct efimap_desc *d)
{
	uint64_t max_pages = (~0ull - d->phys_start) / EFIMAP_PAGE_BYTES;

	return d->pages > max_pages ? ~0ull : d->phys_start + d->pages * EFIMAP_PAGE_BYTES;
}

/* The best aligned run in [start, end): its base, and its usable length
   in *usable (0 when none fits). */
static uint64_t aligned_run(uint64_t start, uint64_t end, uint64_t align, uint64_t *usable)
{
	if (start < LOW_MEMORY_END)
		start = LOW_MEMORY_END;
	if (start > ~0ull - (align - 1)) {
		*usable = 0;
		return 0;
	}
	start = (start + align - 1) & ~(align - 1);
	*usable = start < end ? (end - start) & ~(align - 1) : 0;
	return start;
}

static void consider(uint64_t start, uint64_t end, uint64_t bytes, uint64_t align,
		     uint64_t *found, uint64_t *largest)
{
	uint64_t usable, base = aligned_run(start, end, align, &usable);

	if (usable > *largest)
		*largest = usable;
	if (usable && usable >= bytes && (!*found || base < *found))
		*found = base;
}

/* ---- Public Functions ------------------------------------------------- */

size_t efimap_ranges(const struct efimap *m, uint64_t limit, struct efimap_range *out,
		     struct efimap_skipped *skipped)
{
	size_t n = 0;

	skipped->descriptors = 0;
	skipped->bytes = 0;
	skipped->first_base = 0;
	for (size_t i = 0; i < m->count; i++) {
		const struct efimap_desc *d = efimap_at(m, i);
		int ram = is_ram_type(d->type);
		uint64_t end = desc_end(d);

		if ((!ram && d->type != EFIMAP_MMIO && d->type != EFIMAP_MMIO_PORT) ||
		    end <= d->phys_start)
			continue;
		if (end > limit) {
			uint64_t cut = d->phys_start > limit ? d->phys_start : limit;
			if (!skipped->descriptors || cut < skipped->first_base)
				skipped->first_base = cut;
			skipped->descriptors++;
			skipped->bytes += end - cut;
			if (d->phys_start >= limit)
				continue;
			end = limit;
		}
		out[n].base = d->phys_start;
		out[n].length = end - d->phys_start;
		/* RAM is cached where the firmware allows it; MMIO never is. */
		out[n].uncached = !(ram && (d->attr & EFIMAP_ATTR_WB));
		n++;
	}
	return n;
}

/* Special-purpose memory stays out unless asked for: the firmware set it
   apart (HBM, CXL) and a buffer there would measure another memory than
   the one the run claims. */
uint64_t efimap_find_free(const struct efimap *m, const struct efimap_place *place,
			  uint64_t bytes, uint64_t align, uint64_t *largest)
{
	uint64_t found = 0;

	*largest = 0;
	for (size_t i = 0; i < m->count; i++) {
		const struct efimap_desc *d = efimap_at(m, i);
		uint64_t start = d->phys_start, end = desc_end(d);

		if (d->type != EFIMAP_CONVENTIONAL ||
		    ((d->attr & EFIMAP_ATTR_SP) && !place->allow_special))
			continue;
		if (!place->windows) {
			consider(start, end, bytes, align, &found, largest);
			continue;
		}
		for (size_t w = 0; w < place->nwindows; w++) {
			const struct efimap_range *win = &place->windows[w];
			uint64_t win_end = win->base + win->length < win->base ? ~0ull
					 : win->base + win->length;
			uint64_t s = start > win->base ? start : win->base;
			uint64_t e = end < win_end ? end : win_end;
			if (s < e)
				consider(s, e, bytes, align, &found, largest);
		}
	}
	return found;
}

uint64_t efimap_bytes(const struct efimap *m, int conventional_only)
{
	uint64_t total = 0;

	for (size_t i = 0; i < m->count; i++) {
		const struct efimap_desc *d = efimap_at(m, i);

		if (conventional_only ? d->type == EFIMAP_CONVENTIONAL : is_ram_type(d->type))
			total += desc_end(d) - d->phys_start;
	}
	return total;
}
