/* Identity-mapped page tables, whatever the architecture: a builder, a
 * software walker and a verifier, with no firmware underneath so the host
 * tests run the same code, plus switching the CPU to the app's tables and
 * back. Each architecture implements it in arch/NAME/ (x86-64:
 * arch/x86_64/pagetable.c, pagewalk.c, paging.c; its entry format in
 * arch/x86_64/pagetable.h).
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

#define PT_SIZE_4K (1ull << 12)
#define PT_SIZE_2M (1ull << 21)
#define PT_SIZE_1G (1ull << 30)
/* AArch64's other granules and their blocks (docs/PAGING.md). */
#define PT_SIZE_16K (1ull << 14)
#define PT_SIZE_32M (1ull << 25)
#define PT_SIZE_64K (1ull << 16)
#define PT_SIZE_512M (1ull << 29)
/* ---- The builder -------------------------------------------------------- */

/* The attribute a range is mapped with: write-back RAM, or uncached MMIO.
   pt_memattr_index gives the index the leaves select (x86: the PAT entry,
   0 for WB and 3, strong UC, with the power-on PAT). */
enum pt_memattr { PT_WB, PT_UC };

/* The attribute index a leaf mapped with attr selects (x86: PAT entry). */
unsigned pt_memattr_index(enum pt_memattr attr);

struct pt_range {
	uint64_t base, length;
	enum pt_memattr attr;
};

struct pt_config {
	unsigned levels;    /* 4, or 5 when the firmware runs with CR4.LA57 */
	unsigned phys_bits; /* MAXPHYADDR, CPUID 8000_0008h EAX[7:0]: 32..52 */
	int has_1g;         /* CPUID 8000_0001h EDX[26] (pdpe1gb): the only guard,
			       QEMU TCG honours 1 GiB leaves whatever CPUID says */
	/* AArch64 only (x86 leaves them 0): the translation granules the CPU
	   offers (ID_AA64MMFR0_EL1.TGran4/16/64) as bits 1 << 12, 1 << 14,
	   1 << 16, and whether the tables serve EL2's own regime without VHE,
	   whose leaves have one execute-never bit (54) where EL1's have two. */
	unsigned granules;
	int el2_single_xn;
};

/* A 4 KiB-aligned page whose address is also its physical address, or NULL
   when out of memory. It need not be zeroed: the builder clears it. */
typedef void *(*pt_alloc_page_fn)(void *ctx);

struct pt_builder {
	struct pt_config cfg;
	uint64_t *root;              /* PML4, or PML5 with 5 levels */
	pt_alloc_page_fn alloc_page;
	void *alloc_ctx;
	uint64_t *free_tables;       /* tables a larger leaf replaced, reused first */
	uint64_t tables_in_use;      /* live tables, the root included */
	uint64_t tables_allocated;   /* pages ever taken from alloc_page */
	/* AArch64 only (x86 leaves them 0): a buffer is given an identity map
	   of its own in its page size's granule (docs/PAGING.md), whose tables
	   are carved from that granule's arena and reused by the next buffer;
	   buffer_root is its pt_root value while it is mapped. */
	uint64_t buffer_root;
	struct pt_arena {
		uint64_t base, size, used;
	} arena[3];
	const struct pt_range *general;   /* the general map's ranges, normalised */
	size_t ngeneral;
};

enum pt_status {
	PT_OK,
	PT_ERR_CONFIG,      /* levels not 4/5, phys_bits outside 32..52 */
	PT_ERR_NOMEM,       /* alloc_page returned NULL */
	PT_ERR_TABLE_ADDR,  /* alloc_page gave an unaligned page or one beyond MAXPHYADDR */
	PT_ERR_BEYOND_PHYS, /* a range ends beyond 2^phys_bits */
	PT_ERR_BEYOND_VA,   /* beyond the lower canonical half: no identity map possible */
	PT_ERR_PAGE_SIZE,   /* not a page size of this architecture */
	PT_ERR_NO_1G,       /* 1 GiB asked for, cfg.has_1g is 0 */
	PT_ERR_NO_GRANULE,  /* AArch64: the page size's granule is not offered */
	PT_ERR_ALIGN,       /* base or length not a multiple of the page size, or 0 */
	PT_ERR_MISMATCH,    /* pt_verify found a page that is not as asked */
};

const char *pt_status_name(enum pt_status status);

/* The first address an identity map cannot reach: 2^phys_bits, or the top of
   the lower canonical half (2^47, 2^56 with 5 levels) when that is lower. */
uint64_t pt_identity_limit(const struct pt_config *cfg);

/* Takes the root table from alloc_page. */
enum pt_status pt_init(struct pt_builder *b, const struct pt_config *cfg,
		       pt_alloc_page_fn alloc_page, void *alloc_ctx);

/* The value the CPU is given to use these tables (x86: CR3, the root's
   address with PWT = PCD = 0 and no PCID); never 0 once pt_init succeeded. */
uint64_t pt_root(const struct pt_builder *b);

/* Rewrites ranges[0..n) in place: each page-aligned outward, zero lengths
   dropped, sorted by (attr, base) so every WB range precedes every UC one,
   overlapping or touching ranges of one attr merged. Returns the new count. */
size_t pt_normalize_ranges(struct pt_range *ranges, size_t n);

/* Normalises ranges (updating *n) and identity-maps each with the largest
   page that fits, over whatever is mapped already. Where a WB and a UC range
   share a page, UC wins. Nothing is mapped when any range lies beyond
   pt_identity_limit. On PT_ERR_NOMEM the tables are a valid hierarchy with
   the request partly applied. Modify tables only while they are not in CR3:
   no TLB entry is invalidated here. */
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

/* The tables a run's pool needs (x86: 4 KiB pages each): the root, the
   general map of ranges (normalised) with the largest pages that fit, and
   the worst of the buffers the run will ask for, each with exactly its page
   size at the least aligned base it could get (the splits around it
   included). One buffer is mapped at a time, and the general map is
   restored over it when it is given back (pt_map_ranges), so the worst one
   bounds them all. buffer_bytes[i] is mapped with page_sizes[i]; a 0 there
   asks for nothing. */
uint64_t pt_pool_tables(const struct pt_config *cfg, const struct pt_range *ranges, size_t n,
			const uint64_t *buffer_bytes, const uint64_t *page_sizes, size_t nbuffers);

/* ---- The walker and the verifier (pagewalk.c) ---------------------------- */

enum pt_walk_status {
	PT_WALK_MAPPED,
	PT_WALK_NOT_PRESENT,
	PT_WALK_RESERVED_BITS, /* the CPU would raise #PF with RSVD set */
	PT_WALK_NON_CANONICAL, /* the CPU would raise #GP */
};

struct pt_translation {
	enum pt_walk_status status;
	uint64_t va_base;   /* first address of the page, or of the unmapped span */
	uint64_t size;      /* page size, or the span the non-present entry covers */
	uint64_t phys;      /* where va lands (MAPPED only) */
	unsigned level;     /* level of the entry that decided */
	uint64_t entry;     /* that entry */
	int writable;       /* R/W set at every level */
	int nx;             /* XD set at some level */
	unsigned pat_index; /* PAT entry the leaf selects (MAPPED only) */
};

/* Translates va as the CPU would through the tables root (a pt_root
   value, x86 CR3) points at (with
   cfg->levels levels), also the firmware's own. */
void pt_walk(const struct pt_config *cfg, uint64_t root, uint64_t va, struct pt_translation *t);

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
	PT_VERIFY_WRONG_PAT,
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
   PAT entry pat_index. PT_OK when all are; PT_ERR_MISMATCH with the report
   filled when not; PT_ERR_PAGE_SIZE / PT_ERR_ALIGN for bad arguments. */
enum pt_status pt_verify(const struct pt_config *cfg, uint64_t root, uint64_t base,
			 uint64_t length, uint64_t page_size, unsigned pat_index,
			 struct pt_verify_report *report);

/* ---- The CPU's own state (paging.c) ---------------------------------------- */

/* The configuration the firmware runs with (x86: 5 levels when CR4.LA57)
   and the CPU supports (ci's physical address bits and 1 GiB pages). */
void pt_config_read(struct pt_config *cfg, const struct cpuinfo *ci);

/* What pt_switch_to changed, for pt_switch_back (x86: CR3 and CR4;
   AArch64: TTBR0, TCR and MAIR). */
struct pt_saved {
	uint64_t word[3];
};

/* 1 when the architecture has pages (or blocks) of 2^page_shift bytes at
   all, whatever this CPU offers (x86-64: 4 KiB, 2 MiB, 1 GiB); else 0 with
   why (when not NULL) naming the size and the sizes it has. Pure: the
   configuration's `pages` key refuses any other size by name with it. */
int pt_page_size_architected(unsigned page_shift, char *why, size_t why_len);
/* 1 when this CPU can map buffers with pages of 2^page_shift bytes; else 0
   with why (when not NULL) saying so in words, naming the page size and
   the register or architecture that rules it out. */
int pt_page_size_offered(const struct pt_config *cfg, unsigned page_shift, char *why,
			 size_t why_len);
/* NULL when pt_switch_to may be used on this CPU, else why not (x86:
   CR4.CET set, since with shadow stacks the guard's unwinding return and
   the app's stack switch would raise #CP). */
const char *pt_switch_refusal(void);

/* Loads the tables whose pt_root is root, flushing every TLB entry the
   firmware left (x86: CR4.PGE cleared first, then CR3), and back. Only in
   the guarded state (arch/guard.h): no firmware code may run between. */
void pt_switch_to(uint64_t root, struct pt_saved *s);
void pt_switch_back(const struct pt_saved *s);

/* The firmware's paging registers for system.json (x86: "firmware_cr4");
   returns how many were written (at most max). */
size_t pt_firmware_facts(struct arch_fact *out, size_t max);

#endif
