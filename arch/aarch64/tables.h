/* AArch64 VMSAv8-64 translation tables as memprobe builds them: the three
 * granules, their levels and block sizes, and the descriptor bits. Shared by
 * the builder (pagetable.c), the walker (pagewalk.c) and the regime switch
 * (paging.c). docs/PAGING.md, "AArch64", explains the choices.
 *
 * Every map memprobe builds translates a 48-bit input address space (T0SZ
 * 16) through TTBR0, so an identity map reaches 2^48 whatever the granule:
 *   4 KiB granule:  levels 0-3, 9 index bits each; blocks at level 1 (1 GiB)
 *                   and level 2 (2 MiB); pages at level 3.
 *   16 KiB granule: levels 0-3, level 0 with 1 index bit, 11 below; blocks
 *                   only at level 2 (32 MiB; level 1 blocks need FEAT_LPA2).
 *   64 KiB granule: levels 1-3, level 1 with 6 index bits, 13 below; blocks
 *                   only at level 2 (512 MiB; level 1 needs FEAT_LPA).
 */
#ifndef MEMPROBE_AARCH64_TABLES_H
#define MEMPROBE_AARCH64_TABLES_H

#include <stdint.h>
#include "arch/paging.h"

#define VA_BITS 48

/* The page sizes only AArch64 has: the 16 KiB and 64 KiB granules and
   their blocks (arch/paging.h has those every architecture shares). */
#define PT_SIZE_16K (1ull << 14)
#define PT_SIZE_32M (1ull << 25)
#define PT_SIZE_64K (1ull << 16)
#define PT_SIZE_512M (1ull << 29)

struct granule {
	unsigned shift;        /* 12, 14, 16 */
	unsigned start_level;  /* the root table's level */
	unsigned tg0;          /* TCR.TG0's encoding */
	const char *name;
};

/* The three, indexed 0 (4 KiB), 1 (16 KiB), 2 (64 KiB): the index is also
   what a pt_root value carries in bits [2:1] (pt_root_granule). */
#define GRANULES 3
extern const struct granule granules[GRANULES];

/* The granule a page size belongs to, or -1 for none. */
int granule_of_page(uint64_t page_size);

/* Address bits a level's entry translates: below it, the entry's span. */
static inline unsigned level_shift(const struct granule *g, unsigned level)
{
	return g->shift + (g->shift - 3) * (3 - level);
}

/* How many entries a table at that level holds: the root's may be fewer. */
static inline uint64_t level_entries(const struct granule *g, unsigned level)
{
	unsigned bits = level == g->start_level ? VA_BITS - level_shift(g, level) : g->shift - 3;
	return 1ull << bits;
}

/* Whether a leaf (a block, or a page at level 3) may sit at that level. */
static inline int leaf_level(const struct granule *g, unsigned level)
{
	return level == 3 || level == 2 || (level == 1 && g->shift == 12);
}

/* A pt_root value: the root table's address with the granule's index in
   bits [2:1], which no TTBR may carry (they sit below the table's
   alignment) and pt_switch_to clears. */
#define ROOT_GRANULE_SHIFT 1
static inline uint64_t root_value(const void *table, unsigned gi)
{
	return (uint64_t)(uintptr_t)table | ((uint64_t)gi << ROOT_GRANULE_SHIFT);
}
static inline unsigned root_granule(uint64_t root) { return (unsigned)(root >> ROOT_GRANULE_SHIFT) & 3; }
static inline uint64_t root_table(uint64_t root) { return root & ~0xfffull; }

/* Descriptor bits (ARM ARM D8.3, VMSAv8-64 descriptor formats). */
#define DESC_VALID      (1ull << 0)
#define DESC_TABLE      (1ull << 1)   /* at levels 0-2: a table; at level 3: a page */
#define DESC_ATTRINDX(d) ((unsigned)((d) >> 2) & 7)
#define DESC_AP_RO      (1ull << 7)   /* AP[2]: read-only */
#define DESC_SH_INNER   (3ull << 8)
#define DESC_AF         (1ull << 10)  /* the access flag: clear would fault on first use */
#define DESC_PXN        (1ull << 53)
#define DESC_XN         (1ull << 54)  /* UXN at EL1, XN in EL2's own regime */
/* Output address bits [47:12]; a granule's own low bits are below its
   alignment and zero in every descriptor memprobe writes. */
#define DESC_ADDR_MASK  0x0000fffffffff000ull

#endif
