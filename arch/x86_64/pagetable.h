/* x86-64's side of arch/paging.h: the entry format, the level arithmetic and
 * the PAT index a leaf selects. The builder, walker and verifier it
 * declares are pagetable.c and pagewalk.c; switching tables is paging.c.
 *
 * A table is reached through its physical address used as a pointer. That is
 * true while the firmware's identity map is loaded (UEFI guarantees it) and in
 * the host tests, where a table's "physical" address is its host pointer.
 * docs/PAGING.md describes the layout and the choices behind it.
 */
#ifndef MEMPROBE_PAGETABLE_H
#define MEMPROBE_PAGETABLE_H

#include <stddef.h>
#include <stdint.h>
#include "arch/paging.h"

#define PT_ENTRIES 512u

/* Entry bits. Bit 7 is PS (a leaf) in a PDE or PDPTE but PAT in a 4 KiB PTE;
   a 2 MiB or 1 GiB leaf keeps its PAT bit at 12, inside the address field. */
#define PTE_PRESENT   (1ull << 0)
#define PTE_WRITABLE  (1ull << 1)
#define PTE_PWT       (1ull << 3)
#define PTE_PCD       (1ull << 4)
#define PTE_ACCESSED  (1ull << 5)
#define PTE_DIRTY     (1ull << 6)
#define PTE_LARGE     (1ull << 7)
#define PTE_PAT_4K    (1ull << 7)
#define PTE_PAT_LARGE (1ull << 12)
#define PTE_NX        (1ull << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ull

/* Levels count up from the leaf: 1 = PT (4 KiB entries), 2 = PD, 3 = PDPT,
   4 = PML4, 5 = PML5 (CR4.LA57). */
static inline unsigned pt_level_shift(unsigned level) { return 12u + 9u * (level - 1u); }
static inline uint64_t pt_level_span(unsigned level) { return 1ull << pt_level_shift(level); }

static inline int pt_entry_is_leaf(uint64_t entry, unsigned level)
{
	return (entry & PTE_PRESENT) && (level == 1 || (entry & PTE_LARGE));
}

/* Frame address of a leaf: in a large leaf the low address bits hold the
   PAT bit and reserved zeros, not address. */
static inline uint64_t pt_leaf_frame(uint64_t entry, unsigned level)
{
	return entry & PTE_ADDR_MASK & ~(pt_level_span(level) - 1);
}

/* The PAT entry (0..7) a leaf selects: PAT:PCD:PWT. */
static inline unsigned pt_leaf_pat_index(uint64_t entry, unsigned level)
{
	uint64_t pat_bit = level == 1 ? PTE_PAT_4K : PTE_PAT_LARGE;
	return (unsigned)(((entry & pat_bit) ? 4 : 0) | ((entry & PTE_PCD) ? 2 : 0) |
			  ((entry & PTE_PWT) ? 1 : 0));
}

/* ---- The builder ------------------------------------------------------ */

/* pt_memattr_index, inline for the builder and the tests. */
static inline unsigned pt_memattr_pat_index(enum pt_memattr attr) { return attr == PT_UC ? 3u : 0u; }

/* The value for CR3: the root's address, PWT = PCD = 0 (tables are fetched
   write-back), no PCID. */
static inline uint64_t pt_cr3(const struct pt_builder *b) { return (uint64_t)(uintptr_t)b->root; }

#endif
