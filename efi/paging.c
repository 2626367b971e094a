/* Building and updating the app's page tables. */

#include "efi/paging.h"
#include "efi/fw.h"
#include "efi/memmap.h"
#include "efi/memtypes.h"
#include "lib/fmt.h"
#include "probes/page_sizes.h"
#include "core/platform.h"
#include "core/probe.h"

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

/* The tables one buffer of `bytes` mapped with pages of `size` can take at
   its worst base, beside the general map: the pool's bound with it less
   the bound without (arch/paging.h: bounds add up). */
static uint64_t buffer_tables(const struct pt_config *cfg, uint64_t bytes, uint64_t size)
{
	return pt_pool_tables(cfg, ranges, range_count, &bytes, &size, 1) -
	       pt_pool_tables(cfg, ranges, range_count, NULL, NULL, 0);
}

/* The tables probe p's buffers take while it runs with page_shift: every
   buffer it holds at once (the registry row's holds), together never more
   than the free memory they could come from, since a probe asks for less
   when memory is short. A size the CPU cannot map takes none. */
static uint64_t probe_tables(const struct probe_def *p, const struct config *c,
			     unsigned page_shift, const struct pt_config *cfg, uint64_t free_bytes)
{
	struct probe_hold h[PROBE_HOLDS_MAX];
	unsigned n = probe_holds_of(p, c, page_shift, h);
	uint64_t tables = 0;

	for (unsigned i = 0; i < n && free_bytes; i++) {
		uint64_t size = 1ull << h[i].page_shift;

		if (!pt_page_size_offered(cfg, h[i].page_shift, NULL, 0))
			continue;
		for (unsigned k = 0; k < h[i].count && free_bytes; k++) {
			uint64_t bytes = h[i].bytes < free_bytes ? h[i].bytes : free_bytes;
			tables += buffer_tables(cfg, bytes, size);
			free_bytes -= bytes;
		}
	}
	return tables;
}

/* The pool by need: the general map with the largest pages, and the most
   tables any one selected probe's buffers take at once with any asked page
   size (probes run one at a time, each page size in turn, and a buffer's
   tables go back to the pool when it is given back). The need comes from
   every probe's registry row, so a probe cannot be left out of it. */
static uint64_t pool_pages_needed(const struct config *c, const struct efimap *map,
				  const struct pt_config *cfg)
{
	unsigned shifts[PAGE_SIZES_MAX];
	unsigned n = page_shifts_asked(c->pages, shifts);
	uint64_t free_bytes = efimap_bytes(map, 1), worst = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!pt_page_size_offered(cfg, shifts[i], NULL, 0))
			continue;
		for (unsigned p = 0; p < PROBE_COUNT; p++) {
			uint64_t tables;

			if (!(c->probes & (1u << p)))
				continue;
			tables = probe_tables(probe_registry[p], c, shifts[i], cfg, free_bytes);
			if (tables > worst)
				worst = tables;
		}
	}
	return pt_pool_tables(cfg, ranges, range_count, NULL, NULL, 0) + worst;
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
	/* paging.test_pool: a pool short on purpose, so a test sees a buffer
	   that cannot be mapped refused and its probe failed. */
	pool.pages = c->paging_test_pool ? c->paging_test_pool : pool_pages_needed(c, map, &cfg);
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
		return -1;
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
