/* Thin wrappers over the AArch64 system registers memprobe reads and
 * writes, and the exception level the firmware runs the app at. Header-only;
 * AArch64 EFI app only.
 */
#ifndef MEMPROBE_AARCH64_SYSREG_H
#define MEMPROBE_AARCH64_SYSREG_H

#include <stdint.h>

/* mrs/msr by name: the register name is pasted into the instruction, so a
   misspelt one fails at assembly, never at run time. */
#define sysreg_read(name) ({ uint64_t v_; \
	__asm__ volatile("mrs %0, " #name : "=r"(v_)); v_; })
#define sysreg_write(name, v) \
	__asm__ volatile("msr " #name ", %0" :: "r"((uint64_t)(v)) : "memory")

static inline void isb(void) { __asm__ volatile("isb" ::: "memory"); }

/* The exception level this code runs at: 1 or 2 under UEFI (the firmware
   runs boot applications at the level it runs itself). */
static inline unsigned current_el(void) { return (unsigned)(sysreg_read(CurrentEL) >> 2) & 3; }

/* At EL2 with HCR_EL2.E2H set (VHE), TCR_EL2 has TCR_EL1's layout. */
#define HCR_E2H (1ull << 34)

/* ID_AA64MMFR0_EL1 fields: the physical address range and each granule. */
#define MMFR0_PARANGE(r) ((unsigned)(r) & 0xf)
#define MMFR0_TGRAN16(r) ((unsigned)((r) >> 20) & 0xf)   /* 0: absent, 1/2: present */
#define MMFR0_TGRAN64(r) ((unsigned)((r) >> 24) & 0xf)   /* 0: present, 0xf: absent */
#define MMFR0_TGRAN4(r)  ((unsigned)((r) >> 28) & 0xf)   /* 0/1: present, 0xf: absent */

#endif
