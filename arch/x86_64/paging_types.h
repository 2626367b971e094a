/* x86-64's own part of arch/paging.h's configuration and builder
 * (cfg.arch, b->arch), included by arch/paging.h alone, where the
 * Makefile names it as MEMPROBE_ARCH_PAGING_TYPES.
 *
 * The neutral fields say all the configuration needs: levels is 4, or 5
 * when the firmware runs with CR4.LA57; phys_bits is MAXPHYADDR (CPUID
 * 8000_0008h EAX[7:0]); has_1g is CPUID 8000_0001h EDX[26] (pdpe1gb), the
 * only guard, since QEMU's TCG honours a 1 GiB leaf whatever CPUID says.
 * The attribute index a leaf selects is its PAT entry (PAT:PCD:PWT); a
 * walk's PT_WALK_BAD_ENTRY is an entry where the CPU would raise #PF with
 * RSVD set, PT_WALK_OUT_OF_RANGE an address beyond the lower canonical
 * half (#GP). Execute-never is the XD bit (63).
 */
#ifndef MEMPROBE_X86_64_PAGING_TYPES_H
#define MEMPROBE_X86_64_PAGING_TYPES_H

#include <stdint.h>

/* Nothing beyond the neutral fields. */
struct pt_config_arch {
};

struct pt_builder_arch {
	/* Tables a larger leaf replaced, reused before the allocator is asked
	   again: one pool serves every buffer the run maps in turn. */
	uint64_t *free_tables;
};

#endif
