/* Building and updating the app's page tables. */

#include "efi/paging.h"
#include "efi/fw.h"
#include "efi/memmap.h"
#include "efi/memtypes.h"
#include "lib/fmt.h"
#include "probes/buffer_need.h"
#include "probes/page_sizes.h"
#include "probes/platform.h"

/* Tables come from one pool allocated up front, so no firmware allocation
   is ever needed while mapping (and none while the tables are loaded). */
struct table_pool {
	uint64_t base;
	uint64_t pages, used;
};

static struct table_pool pool;
static struct pt_builder builder;
/* The general map, normalised: restored over each buffer given back. */
static struct pt_range *ranges;
static size_t range_count;
static struct efimap_skipped skipped;

/* The pool's next page: consecutive, one 4 KiB page after another, as
   arch/paging.h's allocator contract asks. */
static void *pool_page(void *ctx)
{
	struct table_pool *p = ctx;

	if (p->used == p->pages)
		return NULL;
	return (void *)(uintptr_t)(p->base + 4096 * p->used++);
}

static int fail(const char *what, enum pt_status s)
{
	char line[160];

	mp_snprintf(line, sizeof line, "memprobe: page tables: %s: %s\n", what, pt_status_name(s));
	plat_console(line);
	return -1;
}

static void *pool_alloc(UINTN bytes)
{
	void *p = NULL;

	if (uefi_call_wrapper(fw_bs->AllocatePool, 3, EfiLoaderData, bytes, &p) != EFI_SUCCESS)
		return NULL;
	return p;
}

/* The map's RAM and MMIO as ranges, one per descriptor however many there
   are; what lies beyond the identity map's reach is left out with a note. */
static int general_ranges(const struct efimap *map, const struct pt_config *cfg)
{
	struct efimap_range *found = pool_alloc((map->count + 1) * sizeof *found);
	char line[200], bytes[24];

	ranges = pool_alloc((map->count + 1) * sizeof *ranges);
	if (!found || !ranges) {
		mp_snprintf(line, sizeof line, "memprobe: page tables: no memory for the ranges "
			    "of %llu memory map descriptors\n", (unsigned long long)map->count);
		plat_console(line);
		return -1;
	}
	range_count = efimap_ranges(map, pt_identity_limit(cfg), found, &skipped);
	for (size_t i = 0; i < range_count; i++) {
		ranges[i].base = found[i].base;
		ranges[i].length = found[i].length;
		ranges[i].attr = found[i].uncached ? PT_UC : PT_WB;
	}
	uefi_call_wrapper(fw_bs->FreePool, 1, found);
	range_count = pt_normalize_ranges(ranges, range_count);
	if (skipped.descriptors) {
		mp_format_bytes(bytes, sizeof bytes, skipped.bytes);
		mp_snprintf(line, sizeof line, "memprobe: page tables: %llu memory map descriptor(s) "
			    "at or above 0x%llx (%s) lie beyond what an identity map reaches "
			    "(%u-bit physical): left unmapped, nothing there is used\n",
			    (unsigned long long)skipped.descriptors,
			    (unsigned long long)skipped.first_base, bytes, cfg->phys_bits);
		plat_console(line);
	}
	return 0;
}

/* The pool by need (arch/paging.h, pt_pool_tables): the general map with
   the largest pages, and the largest buffer of each asked page size at that
   size, never more than the free memory it could come from. */
static uint64_t pool_pages_needed(const struct config *c, const struct efimap *map,
				  const struct pt_config *cfg)
{
	unsigned shifts[PAGE_SIZES_MAX];
	unsigned n = page_shifts_asked(c->pages, shifts);
	uint64_t bytes[PAGE_SIZES_MAX], sizes[PAGE_SIZES_MAX];
	uint64_t free_bytes = efimap_bytes(map, 1);

	for (unsigned i = 0; i < n; i++) {
		sizes[i] = 1ull << shifts[i];
		bytes[i] = run_buffer_bytes(c, shifts[i]);
		if (bytes[i] > free_bytes)
			bytes[i] = free_bytes;
		if (!pt_page_size_offered(cfg, shifts[i], NULL, 0))
			bytes[i] = 0;
	}
	return pt_pool_tables(cfg, ranges, range_count, bytes, sizes, n);
}

int paging_init(const struct config *c)
{
	const struct efimap *map;
	struct pt_config cfg;
	enum pt_status s;
	EFI_PHYSICAL_ADDRESS base;
	char line[160];

	pt_config_read(&cfg, &fw_cpu);
	if (!(map = memmap_now()) || general_ranges(map, &cfg))
		return -1;
	pool.pages = pool_pages_needed(c, map, &cfg);
	if (uefi_call_wrapper(fw_bs->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
			      pool.pages, &base) != EFI_SUCCESS) {
		mp_snprintf(line, sizeof line, "memprobe: page tables: no memory for a pool of "
			    "%llu tables\n", (unsigned long long)pool.pages);
		plat_console(line);
		return -1;
	}
	pool.base = base;
	s = pt_init(&builder, &cfg, pool_page, &pool);
	if (s != PT_OK)
		return fail("init", s);
	s = pt_map_ranges(&builder, ranges, &range_count);
	if (s != PT_OK)
		return fail("identity map of the memory map", s);
	return 0;
}

uint64_t paging_root(void) { return builder.root ? pt_root(&builder) : 0; }
const struct pt_config *paging_config(void) { return &builder.cfg; }
const struct efimap_skipped *paging_skipped(void) { return &skipped; }

int paging_map_buffer(uint64_t base, uint64_t bytes, unsigned page_shift,
		      char *verified, size_t size)
{
	uint64_t page = 1ull << page_shift;
	struct pt_verify_report report;
	char page_text[16], types[96];
	enum pt_status s;

	mp_format_bytes(page_text, sizeof page_text, page);
	s = pt_map_exact(&builder, base, bytes, page, PT_WB);
	if (s != PT_OK) {
		mp_snprintf(verified, size, "pages NOT mapped: %s", pt_status_name(s));
		return 0;
	}
	s = pt_verify(&builder.cfg, pt_root(&builder), base, bytes, page,
		      pt_memattr_index(PT_WB), &report);
	memtypes_describe(base, bytes, pt_memattr_index(PT_WB), types, sizeof types);
	if (s != PT_OK) {
		mp_snprintf(verified, size, "pages NOT verified: %llu of %llu x %s bad, first at 0x%llx: %s",
			    (unsigned long long)report.pages_bad,
			    (unsigned long long)(report.pages_ok + report.pages_bad), page_text,
			    (unsigned long long)report.first_bad_va,
			    pt_verify_problem_name(report.first_problem));
		return 0;
	}
	mp_snprintf(verified, size, "pages verified: %llu x %s, %s",
		    (unsigned long long)report.pages_ok, page_text, types);
	return memtypes_write_back(base, bytes, pt_memattr_index(PT_WB));
}

/* The general map over everything again: the buffer's exact-size tables go
   back to the pool's free list, so the next buffer finds the pool as sized. */
void paging_unmap_buffer(void)
{
	enum pt_status s = pt_map_ranges(&builder, ranges, &range_count);

	if (s != PT_OK)
		fail("restoring the general map", s);
}

void paging_summary(char *buf, size_t size)
{
	mp_snprintf(buf, size, "%u-level, %u-bit physical, 1 GiB pages: %s, %llu of %llu tables used",
		    builder.cfg.levels, builder.cfg.phys_bits, builder.cfg.has_1g ? "yes" : "no",
		    (unsigned long long)builder.tables_in_use, (unsigned long long)pool.pages);
	pt_config_extra(&builder.cfg, buf + mp_strlen(buf), size - mp_strlen(buf));
}
