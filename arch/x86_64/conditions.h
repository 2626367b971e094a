/* Conditions of the CPU that change what the probes measure, read once for
 * system.json and the banner (arch/cpu.h's cpu_conditions): memory
 * encryption (AMD SME/TSME, Intel TME), whether LFENCE serialises on AMD
 * (which the timestamps' ordering relies on), and CR4.CET (which forbids
 * the app's switch of tables). The decoding is a pure function of the
 * register values, so the host tests cover it.
 */
#ifndef MEMPROBE_X86_64_CONDITIONS_H
#define MEMPROBE_X86_64_CONDITIONS_H

#include <stddef.h>
#include "arch/cpu.h"
#include "arch/x86_64/cpuinfo.h"

#define MSR_AMD_SYSCFG 0xc0010010u
#define MSR_AMD_DE_CFG 0xc0011029u
#define MSR_TME_ACTIVATE 0x982u

#define SYSCFG_MEM_ENCRYPTION_MOD_EN (1ull << 23)
#define DE_CFG_LFENCE_SERIALIZE (1ull << 1)
#define TME_ACTIVATE_LOCKED (1ull << 0)
#define TME_ACTIVATE_ENABLED (1ull << 1)
#define TME_ACTIVATE_BYPASS (1ull << 31)

/* The raw values; an *_read flag 0 means the read raised #GP (or was not
   tried because CPUID says the register is absent). */
struct condition_regs {
	enum cpu_vendor vendor;
	int sme_supported;        /* CPUID 8000_001Fh EAX[0] */
	int syscfg_read;
	uint64_t syscfg;
	int tme_supported;        /* CPUID 7.0 ECX[13] */
	int tme_read;
	uint64_t tme_activate;
	int lfence_always_serialising;   /* CPUID 8000_0021h EAX[2] */
	int de_cfg_read;
	uint64_t de_cfg;
	uint64_t cr4;
};

/* The facts "memory_encryption", "lfence" and "cet", each as text;
   returns how many were written (at most max). The texts live in static
   buffers, valid until the next call. */
size_t conditions_decode(const struct condition_regs *r, struct arch_fact *out, size_t max);

#endif
