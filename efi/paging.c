/* Building and updating the app's page tables. */

#include "efi/paging.h"
#include "efi/fw.h"
#include "efi/memmap.h"
#include "efi/memtypes.h"
#include "lib/fmt.h"
#include "probes/platform.h"

#define MAX_RANGES 1024

/* Tables come from one pool allocated up front, so no firmware allocation
   is ever needed while mapping (and none while the tables are loaded). */
struct table_pool {
	uint64_t base;
	uint64_t pages, used;
};

static struct table_pool pool;
static struct pt_builder builder;
static struct pt_range ranges[MAX_RANGES];

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

/* Enough tables for the general map plus the worst exact remapping: all
   conventional memory in 4 KiB pages, as one buffer could ask. */
static uint64_t pool_pages_needed(const struct memmap *map, const struct pt_config *cfg,
				  size_t n)
{
	struct pt_range all_free = { 0x200000, memmap_bytes(map, 1), PT_WB };

	return 1 + pt_tables_bound(cfg, ranges, n, 0) +
	       pt_tables_bound(cfg, &all_free, 1, PT_SIZE_4K);
}

int paging_init(void)
{
	const struct memmap *map;
	struct pt_config cfg;
	size_t n;
	enum pt_status s;
	EFI_PHYSICAL_ADDRESS base;

	pt_config_read(&cfg, &fw_cpu);
	if (!(map = memmap_now()))
		return -1;
	n = memmap_ranges(map, ranges, MAX_RANGES);
	pool.pages = pool_pages_needed(map, &cfg, n);
	if (uefi_call_wrapper(fw_bs->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
			      pool.pages, &base) != EFI_SUCCESS) {
		plat_console("memprobe: page tables: no memory for the table pool\n");
		return -1;
	}
	pool.base = base;
	s = pt_init(&builder, &cfg, pool_page, &pool);
	if (s != PT_OK)
		return fail("init", s);
	s = pt_map_ranges(&builder, ranges, &n);
	if (s != PT_OK)
		return fail("identity map of the memory map", s);
	return 0;
}

uint64_t paging_root(void) { return builder.root ? pt_root(&builder) : 0; }
const struct pt_config *paging_config(void) { return &builder.cfg; }

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

void paging_summary(char *buf, size_t size)
{
	mp_snprintf(buf, size, "%u-level, %u-bit physical, 1 GiB pages: %s, %llu of %llu tables used",
		    builder.cfg.levels, builder.cfg.phys_bits, builder.cfg.has_1g ? "yes" : "no",
		    (unsigned long long)builder.tables_in_use, (unsigned long long)pool.pages);
}
