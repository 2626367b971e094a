/* Identity-mapped page tables, whatever the architecture: a builder, a
 * software walker and a verifier, with no firmware underneath so the host
 * tests run the same code, plus switching the CPU to the app's tables and
 * back. Each architecture implements it in arch/NAME/ (pagetable.c,
 * pagewalk.c, paging.c) and keeps its own fields, and what the neutral
 * names mean in its registers, in arch/NAME/paging_types.h; what every
 * architecture shares is arch/generic/pt_common.c.
 *
 * A table is reached through its physical address used as a pointer. That is
 * true while the firmware's identity map is loaded (UEFI guarantees it) and in
 * the host tests, where a table's "physical" address is its host pointer.
 * docs/PAGING.md describes the layout and the choices behind it.
 */
#ifndef MEMPROBE_ARCH_PAGING_H
#define MEMPROBE_ARCH_PAGING_H

#include <stddef.h>
#include <stdint.h>
#include "arch/cpu.h"

/* The page sizes every architecture here has; an architecture's others
   are in its own headers. A table page (the allocator's unit) is 4 KiB. */
#define PT_SIZE_4K (1ull << 12)
#define PT_SIZE_2M (1ull << 21)
#define PT_SIZE_1G (1ull << 30)

/* ---- The builder ------------------------------------------------------ */

/* The attribute a range is mapped with: write-back RAM, or uncached
   device memory. pt_memattr_index gives the memory attribute index the
   leaves select. */
enum pt_memattr { PT_WB, PT_UC };

/* The memory attribute index a leaf mapped with attr selects: an entry of
   the architecture's attribute table (arch/NAME/paging_types.h names it). */
unsigned pt_memattr_index(enum pt_memattr attr);

struct pt_range {
	uint64_t base, length;
	enum pt_memattr attr;
};

/* Each architecture's own part of the configuration and the builder
   (struct pt_config_arch, struct pt_builder_arch), in
   arch/NAME/paging_types.h, which the Makefile's architecture block names
   (ARCH_DEFS), so no #if on the architecture stands here. A host test that
   compiles AArch64's tables on x86-64 names AArch64's instead
   (tests/unit/test_aarch64_tables.c). */
#ifndef MEMPROBE_ARCH_PAGING_TYPES
#error "arch/paging.h: MEMPROBE_ARCH_PAGING_TYPES unset: build through the Makefile (ARCH_DEFS)"
#endif
#include MEMPROBE_ARCH_PAGING_TYPES

struct pt_config {
	unsigned levels;    /* the general map's table levels, root included */
	unsigned phys_bits; /* physical address bits an entry can hold: 32..52 */
	int has_1g;         /* 1 GiB leaves may be used, as the CPU says: the
			       only guard (an emulator may honour one anyway) */
	struct pt_config_arch arch;
};

/* A 4 KiB-aligned page whose address is also its physical address, or NULL
   when out of memory. It need not be zeroed: the builder clears it.
   Consecutive: every page lies 4 KiB above the one the same allocator gave
   before it (the first anywhere), because a table larger than a page (an
   AArch64 16 KiB or 64 KiB granule's) is carved from a run of them and the
   pool is sized for runs (pt_pool_tables). The builder checks it
   (PT_ERR_NOT_CONSECUTIVE), so an allocator that breaks it fails at once
   rather than wasting pages until a sized pool runs short. */
typedef void *(*pt_alloc_page_fn)(void *ctx);

struct pt_builder {
	struct pt_config cfg;
	uint64_t *root;              /* the general map's root table */
	pt_alloc_page_fn alloc_page;
	void *alloc_ctx;
	uint64_t last_page;          /* the page alloc_page gave last, 0: none yet */
	uint64_t tables_in_use;      /* live tables, the root included */
	uint64_t tables_allocated;   /* pages ever taken from alloc_page */
	struct pt_builder_arch arch;
};

enum pt_status {
	PT_OK,
	PT_ERR_CONFIG,      /* a configuration the architecture cannot build */
	PT_ERR_NOMEM,       /* alloc_page returned NULL */
	PT_ERR_TABLE_ADDR,  /* alloc_page gave an unaligned page or one beyond reach */
	PT_ERR_NOT_CONSECUTIVE, /* alloc_page broke its contract: a page out of order */
	PT_ERR_BEYOND_PHYS, /* a range ends beyond 2^phys_bits */
	PT_ERR_BEYOND_VA,   /* beyond the input addresses: no identity map possible */
	PT_ERR_PAGE_SIZE,   /* not a page size of this architecture */
	PT_ERR_NO_1G,       /* 1 GiB asked for, cfg.has_1g is 0 */
	PT_ERR_NO_GRANULE,  /* the page size's translation granule is not offered */
	PT_ERR_ALIGN,       /* base or length not a multiple of the page size, or 0 */
	PT_ERR_MISMATCH,    /* pt_verify found a page that is not as asked */
};

const char *pt_status_name(enum pt_status status);

/* The first address an identity map cannot reach: 2^phys_bits, or the top
   of the input addresses the tables translate when that is lower. */
uint64_t pt_identity_limit(const struct pt_config *cfg);

/* Takes the root table from alloc_page (consecutive pages, above). */
enum pt_status pt_init(struct pt_builder *b, const struct pt_config *cfg,
		       pt_alloc_page_fn alloc_page, void *alloc_ctx);

/* The value the CPU is given to use the tables now in force (the root's
   address, with whatever the architecture adds); never 0 once pt_init
   succeeded. */
uint64_t pt_root(const struct pt_builder *b);

/* Rewrites ranges[0..n) in place: each page-aligned outward, zero lengths
   dropped, sorted by (attr, base) so every WB range precedes every UC one,
   overlapping or touching ranges of one attr merged. Returns the new count. */
size_t pt_normalize_ranges(struct pt_range *ranges, size_t n);

/* Normalises ranges (updating *n) and identity-maps each with the largest
   page that fits, over whatever is mapped already. Where a WB and a UC range
   share a page, UC wins. Nothing is mapped when any range lies beyond
   pt_identity_limit. On PT_ERR_NOMEM the tables are a valid hierarchy with
   the request partly applied. Modify tables only while the CPU is not using
   them: no TLB entry is invalidated here. */
enum pt_status pt_map_ranges(struct pt_builder *b, struct pt_range *ranges, size_t *n);

/* Maps [base, base + length) with pages of exactly page_size, base and
   length aligned to it, overriding what was there: a larger leaf around it is
   split (the rest keeps its attributes), smaller pages under it are replaced
   and their tables kept for reuse. Call pt_map_ranges again to restore the
   general map afterwards. */
enum pt_status pt_map_exact(struct pt_builder *b, uint64_t base, uint64_t length,
			    uint64_t page_size, enum pt_memattr attr);

/* An upper bound on the tables below the root that mapping these ranges
   needs: with exact_page_size 0 as pt_map_ranges does, else as pt_map_exact.
   Bounds add up: a pool of 1 + the sum over every call made on one builder
   never runs out. */
uint64_t pt_tables_bound(const struct pt_config *cfg, const struct pt_range *ranges,
			 size_t n, uint64_t exact_page_size);

/* The 4 KiB pages a run's pool needs: the root, the
   general map of ranges (normalised) with the largest pages that fit, and
   the worst of the buffers the run will ask for, each with exactly its page
   size at the least aligned base it could get (the splits around it
   included). One buffer is mapped at a time, and the general map is
   restored over it when it is given back (pt_map_ranges), so the worst one
   bounds them all. buffer_bytes[i] is mapped with page_sizes[i]; a 0 there
   asks for nothing. */
uint64_t pt_pool_tables(const struct pt_config *cfg, const struct pt_range *ranges, size_t n,
			const uint64_t *buffer_bytes, const uint64_t *page_sizes, size_t nbuffers);

/* ---- The walker and the verifier (pagewalk.c) ------------------------- */

enum pt_walk_status {
	PT_WALK_MAPPED,
	PT_WALK_NOT_PRESENT,
	PT_WALK_BAD_ENTRY,     /* an entry the CPU would refuse: a fault, not a page */
	PT_WALK_OUT_OF_RANGE,  /* an address outside what the tables translate */
};

struct pt_translation {
	enum pt_walk_status status;
	uint64_t va_base;   /* first address of the page, or of the unmapped span */
	uint64_t size;      /* page size, or the span the non-present entry covers */
	uint64_t phys;      /* where va lands (MAPPED only) */
	unsigned level;     /* level of the entry that decided */
	uint64_t entry;     /* that entry */
	int writable;       /* writable at every level */
	int xn;             /* execute-never at some level */
	unsigned attr_index; /* memory attribute index the leaf selects (MAPPED only) */
};

/* Translates va as the CPU would through the tables root (a pt_root
   value) points at, built for cfg; also the firmware's own. */
void pt_walk(const struct pt_config *cfg, uint64_t root, uint64_t va, struct pt_translation *t);

/* 1 when page_size is one of the architecture's page or block sizes at all
   (whether this CPU offers it is pt_page_size_offered's question): the
   walker's, which the generic verifier asks through this header, so the
   verifier calls the architecture's code only through its neutral seam. */
int pt_page_size_known(uint64_t page_size);

/* 1 when every byte of [base, base + length) lies in a page the tables at
   root identity-map writable (what exception delivery needs of a stack, a
   descriptor table or a handler's data), whatever the page sizes; else 0
   with *bad the first page that is not and *t what the walk found there. */
int pt_range_writable(const struct pt_config *cfg, uint64_t root, uint64_t base,
		      uint64_t length, uint64_t *bad, struct pt_translation *t);

enum pt_verify_problem {
	PT_VERIFY_OK,
	PT_VERIFY_NOT_MAPPED,  /* not present, reserved bits or non-canonical */
	PT_VERIFY_NOT_IDENTITY,
	PT_VERIFY_WRONG_SIZE,
	PT_VERIFY_WRONG_ATTR,
	PT_VERIFY_READ_ONLY,
	PT_VERIFY_NO_EXECUTE,
};

const char *pt_verify_problem_name(enum pt_verify_problem problem);

struct pt_verify_report {
	uint64_t pages_ok, pages_bad;   /* pages of page_size examined */
	uint64_t first_bad_va;
	enum pt_verify_problem first_problem;
	struct pt_translation first_bad;
};

/* Walks every page_size page of [base, base + length) and checks it is
   identity-mapped, writable, executable, exactly page_size and selecting
   memory attribute index attr_index. PT_OK when all are; PT_ERR_MISMATCH
   with the report filled when not; PT_ERR_PAGE_SIZE / PT_ERR_ALIGN for bad
   arguments. */
enum pt_status pt_verify(const struct pt_config *cfg, uint64_t root, uint64_t base,
			 uint64_t length, uint64_t page_size, unsigned attr_index,
			 struct pt_verify_report *report);

/* ---- The CPU's own state (paging.c) ----------------------------------- */

/* The configuration the firmware runs with and the CPU supports (ci's
   physical address bits and 1 GiB pages). */
void pt_config_read(struct pt_config *cfg, const struct cpuinfo *ci);

/* What the architecture's part of cfg adds to the paging summary, as
   ", ..." text (AArch64: the granules offered), or "". */
void pt_config_extra(const struct pt_config *cfg, char *buf, size_t size);

/* What pt_switch_to changed, for pt_switch_back: the registers each
   architecture's paging.c names. */
struct pt_saved {
	uint64_t word[3];
};

/* 1 when the architecture has pages (or blocks) of 2^page_shift bytes at
   all, whatever this CPU offers; else 0 with
   why (when not NULL) naming the size and the sizes it has. Pure: the
   configuration's `pages` key refuses any other size by name with it. */
int pt_page_size_architected(unsigned page_shift, char *why, size_t why_len);
/* 1 when this CPU can map buffers with pages of 2^page_shift bytes; else 0
   with why (when not NULL) saying so in words, naming the page size and
   the register or architecture that rules it out. */
int pt_page_size_offered(const struct pt_config *cfg, unsigned page_shift, char *why,
			 size_t why_len);
/* NULL when pt_switch_to may be used on this CPU, else why not, naming the
   register state that rules it out (a shadow-stack mode, under which the
   guard's unwinding return and the app's stack switch would fault). */
const char *pt_switch_refusal(void);

/* Loads the tables whose pt_root is root, flushing every TLB entry the
   firmware left (global ones included), and back. Only in the guarded
   state (arch/guard.h): no firmware code may run between. */
void pt_switch_to(uint64_t root, struct pt_saved *s);
void pt_switch_back(const struct pt_saved *s);

/* The firmware's paging registers for system.json, each named as the
   architecture names it; returns how many were written (at most max). */
size_t pt_firmware_facts(struct arch_fact *out, size_t max);

#endif
