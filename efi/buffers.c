/* Probe buffers: physically contiguous memory from the firmware, aligned to
 * the page size that will map it, remapped with exactly that page size and
 * verified before a probe sees it.
 */

#include "efi/buffers.h"
#include "efi/fw.h"
#include "efi/memmap.h"
#include "efi/numa.h"
#include "efi/paging.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "core/platform.h"
#include "arch/cpu.h"
#include "arch/string.h"

/* Every buffer of the run as it was verified, for system.json. */
#define BUFFERS_KEPT 64
static struct {
	uint64_t base, bytes;
	unsigned page_shift;
	int64_t domain;
	char verified[sizeof ((struct plat_buffer *)0)->verified];
} given[BUFFERS_KEPT];
static unsigned given_count;

/* The buffers handed out and not given back yet. Putting the general map
   back (paging_unmap_buffer) undoes every buffer's own pages, so the
   others held with one (loaded's loaders beside its chase) must be mapped
   again with theirs: else they would go on under whatever pages the
   general map has there while the report says what was verified. That is
   done once, before the next buffer is mapped (a buffer given back while
   others are held keeps its exact pages until then; its memory is the
   firmware's again, identity-mapped write-back as before), and the general
   map comes back as soon as none is held: so giving back many buffers
   one by one costs no remapping. The page-table pool is sized for all a
   probe holds at once (efi/paging.c). HELD_MAX covers a loader per CPU
   and the chase. */
#define HELD_MAX (PLAT_CPUS_MAX + 4)
struct held_buffer {
	uint64_t base, bytes;
	unsigned page_shift;
};
static struct held_buffer held[HELD_MAX];
static unsigned held_count;
static int general_map_due;   /* a buffer was given back while others are held */

/* The general map back, then every buffer still held mapped again with
   its own pages; a buffer that cannot be is said on the console. */
static void restore_general_map(void)
{
	char verified[sizeof ((struct plat_buffer *)0)->verified], line[256];

	paging_unmap_buffer();
	general_map_due = 0;
	for (unsigned i = 0; i < held_count; i++)
		if (paging_map_buffer(held[i].base, held[i].bytes, held[i].page_shift, verified,
				      sizeof verified) != 1) {
			mp_snprintf(line, sizeof line, "memprobe: a held buffer at 0x%llx, mapped "
				    "again after another was given back: %s\n",
				    (unsigned long long)held[i].base, verified);
			plat_console(line);
		}
}

static void remember(const struct plat_buffer *b)
{
	if (given_count == BUFFERS_KEPT)
		return;
	given[given_count].base = (uint64_t)(uintptr_t)b->base;
	given[given_count].bytes = b->bytes;
	given[given_count].page_shift = b->page_shift;
	given[given_count].domain = numa_domain_of(given[given_count].base);
	mp_strlcpy(given[given_count].verified, b->verified, sizeof given[0].verified);
	given_count++;
}

void buffers_json(struct json *j)
{
	json_array_begin(j, "buffers");
	for (unsigned i = 0; i < given_count; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "base", given[i].base);
		json_u64(j, "bytes", given[i].bytes);
		json_u64(j, "page_size", 1ull << given[i].page_shift);
		if (given[i].domain >= 0)
			json_u64(j, "proximity_domain", (uint64_t)given[i].domain);
		json_string(j, "verified", given[i].verified);
		json_object_end(j);
	}
	json_array_end(j);
}

/* The architecture says which page sizes this CPU maps, and names the
   reason for each it does not (arch/paging.h). */
static int page_size_available(unsigned page_shift, char *why, size_t why_len)
{
	return pt_page_size_offered(paging_config(), page_shift, why, why_len);
}

int plat_page_size_architected(unsigned page_shift, char *why, size_t why_len)
{
	return pt_page_size_architected(page_shift, why, why_len);
}

size_t plat_buffer_max(unsigned page_shift)
{
	const struct efimap *map;
	uint64_t largest;
	char why[8];

	if (!page_size_available(page_shift, why, sizeof why) || !(map = memmap_now()))
		return 0;
	efimap_find_free(map, numa_place(), ~0ull, 1ull << page_shift, &largest);
	return (size_t)largest;
}

int plat_buffer_get(struct plat_buffer *b, size_t bytes, unsigned page_shift,
		    char *why, size_t why_len)
{
	uint64_t page = 1ull << page_shift, largest, base;
	const struct efimap *map;
	EFI_PHYSICAL_ADDRESS addr;
	char want[16], have[16], align[16], domain[64];
	char verified[sizeof b->verified];
	EFI_STATUS s;
	int mapped;

	if (why_len)
		why[0] = '\0';   /* a buffer had says nothing */
	if (!page_size_available(page_shift, why, why_len))
		return -1;
	bytes = (bytes + page - 1) & ~(page - 1);
	if (!bytes || !(map = memmap_now())) {
		mp_snprintf(why, why_len, "no memory map");
		return -1;
	}
	base = efimap_find_free(map, numa_place(), bytes, page, &largest);
	if (!base) {
		mp_format_bytes(want, sizeof want, bytes);
		mp_format_bytes(have, sizeof have, largest);
		mp_format_bytes(align, sizeof align, page);
		mp_snprintf(why, why_len, "no free %s-aligned run of %s in the memory map%s "
			    "(largest: %s)", align, want, numa_where(), have);
		return -1;
	}
	if (general_map_due)
		restore_general_map();
	addr = base;
	s = uefi_call_wrapper(fw_bs->AllocatePages, 4, AllocateAddress, EfiLoaderData,
			      bytes / EFI_PAGE_BYTES, &addr);
	if (s != EFI_SUCCESS) {
		mp_snprintf(why, why_len, "AllocatePages at 0x%llx failed: %s",
			    (unsigned long long)base, fw_status_text(s));
		return -1;
	}
	mapped = paging_map_buffer(addr, bytes, page_shift, verified, sizeof verified);
	/* Unmapped, a probe would run over whatever pages the general map
	   left there and time the wrong thing: no buffer rather than that. */
	if (mapped < 0) {
		mp_strlcpy(why, verified, why_len);
		restore_general_map();
		uefi_call_wrapper(fw_bs->FreePages, 2, addr, bytes / EFI_PAGE_BYTES);
		return -1;
	}
	if (held_count < HELD_MAX)
		held[held_count++] = (struct held_buffer){ addr, bytes, page_shift };
	b->base = (void *)(uintptr_t)addr;
	b->bytes = bytes;
	b->page_shift = page_shift;
	b->plat_private = NULL;
	/* Identity-mapped from one AllocatePages range. */
	b->contiguous_bytes = bytes;
	mp_strlcpy(b->verified, verified, sizeof b->verified);
	b->verified_ok = mapped;
	numa_buffer_words(addr, domain, sizeof domain);
	mp_snprintf(b->verified + mp_strlen(b->verified),
		    sizeof b->verified - mp_strlen(b->verified), ", %s", domain);
	remember(b);
	return 0;
}

void plat_buffer_put(struct plat_buffer *b)
{
	uint64_t base = (uint64_t)(uintptr_t)b->base;
	unsigned kept = 0;

	if (!b->base)
		return;
	for (unsigned i = 0; i < held_count; i++)
		if (held[i].base != base)
			held[kept++] = held[i];
	held_count = kept;
	if (held_count) {
		general_map_due = 1;
	} else {
		paging_unmap_buffer();
		general_map_due = 0;
	}
	uefi_call_wrapper(fw_bs->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(uintptr_t)b->base,
			  b->bytes / EFI_PAGE_BYTES);
	b->base = NULL;
}

void plat_data_flush(void *base, size_t bytes)
{
	cpu_data_flush(base, bytes);
}

/* Scratch memory is whole pages of loader data: identity-mapped by both the
   firmware's tables and ours, since ours map every RAM descriptor. */
void *plat_alloc(size_t bytes)
{
	EFI_PHYSICAL_ADDRESS addr;

	if (uefi_call_wrapper(fw_bs->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
			      (bytes + EFI_PAGE_BYTES - 1) / EFI_PAGE_BYTES, &addr) != EFI_SUCCESS)
		return NULL;
	return (void *)(uintptr_t)addr;
}

void plat_free(void *p, size_t bytes)
{
	if (p)
		uefi_call_wrapper(fw_bs->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(uintptr_t)p,
				  (bytes + EFI_PAGE_BYTES - 1) / EFI_PAGE_BYTES);
}

/* ---- Code buffers ----------------------------------------------------- */

unsigned plat_code_isa(void)
{
	return cpu_isa();
}

/* The app's own tables map every buffer executable and writable, as the
   verifier checked when it was mapped (pt_verify: identity, writable,
   executable, the asked page size); the code then runs inside plat_timed
   under those tables. What is left is the architecture's rule for fresh
   code. W^X is not applied on bare metal: the verified text says so. */
int plat_code_seal(struct plat_buffer *b, char *why, size_t why_len)
{
	static const char note[] = "; code W+X in the app's tables "
				   "(no W^X on bare metal)";
	size_t len = mp_strlen(b->verified), tail = sizeof note - 1;

	if (why_len)
		why[0] = '\0';
	cpu_code_written(b->base, b->bytes);
	/* Said once: a buffer sealed again already ends with it. */
	if (len >= tail && !memcmp(b->verified + len - tail, note, tail))
		return 0;
	mp_snprintf(b->verified + len, sizeof b->verified - len, "%s", note);
	return 0;
}

int plat_code_unseal(struct plat_buffer *b, char *why, size_t why_len)
{
	(void)b;
	if (why_len)
		why[0] = '\0';
	return 0;
}
