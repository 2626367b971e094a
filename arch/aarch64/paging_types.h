/* AArch64's own part of arch/paging.h's configuration and builder
 * (cfg.arch, b->arch), included by arch/paging.h alone, where the
 * Makefile (or a host test that compiles AArch64's tables on x86-64) names
 * it as MEMPROBE_ARCH_PAGING_TYPES.
 *
 * The neutral fields: levels is 4 (the 4 KiB granule's levels 0-3 over a
 * 48-bit input space), phys_bits the output size, capped at 48; has_1g
 * whether the 4 KiB granule, the one with 1 GiB blocks, is offered. The
 * attribute index a leaf selects is its MAIR index (AttrIndx); a walk's
 * PT_WALK_BAD_ENTRY is a descriptor the CPU would refuse (a translation
 * fault), PT_WALK_OUT_OF_RANGE an address beyond the 48 bits TTBR0
 * translates; execute-never is PXN or XN.
 */
#ifndef MEMPROBE_AARCH64_PAGING_TYPES_H
#define MEMPROBE_AARCH64_PAGING_TYPES_H

#include <stddef.h>
#include <stdint.h>

struct pt_range;

struct pt_config_arch {
	/* The translation granules the CPU offers
	   (ID_AA64MMFR0_EL1.TGran4/16/64), as bits 1 << 12, 1 << 14,
	   1 << 16. */
	unsigned granules;
	/* The tables serve EL2's own regime without VHE, whose leaves have
	   one execute-never bit (54) where EL1's have two. */
	int el2_single_xn;
};

/* Where a buffer map's tables are carved from: a run of consecutive pool
   pages (arch/paging.h's allocator contract), a granule's table at a
   time. */
struct pt_arena {
	uint64_t base, size, used;
};

struct pt_builder_arch {
	/* A buffer is given an identity map of its own in its page size's
	   granule (docs/PAGING.md, "AArch64"), whose tables come from that
	   granule's arena and are reused by the next buffer; buffer_root is
	   its pt_root value while it is mapped, else 0. */
	uint64_t buffer_root;
	struct pt_arena arena[3];
	/* The general map's ranges, normalised: every buffer map repeats
	   them around its buffer. */
	const struct pt_range *general;
	size_t ngeneral;
};

#endif
