/* Who the CPU says it is: vendor, brand string, family/model/stepping, the
 * features memprobe depends on, and (where readable) the microcode level.
 */
#ifndef MEMPROBE_CPUINFO_H
#define MEMPROBE_CPUINFO_H

#include <stdint.h>

struct json;

struct cpuinfo {
	char vendor[13];          /* "AuthenticAMD", "GenuineIntel", ... */
	char brand[49];           /* CPUID 8000_0002h..4h, leading blanks dropped */
	unsigned family, model, stepping;   /* display values (extended folded in) */
	unsigned phys_addr_bits;  /* MAXPHYADDR, CPUID 8000_0008h EAX[7:0] */
	unsigned virt_addr_bits;
	int has_1g_pages;         /* CPUID 8000_0001h EDX[26] */
	int has_pat, has_mtrr;    /* CPUID 1 EDX[16], EDX[12] */
	int hypervisor;           /* CPUID 1 ECX[31] */
	char hypervisor_id[13];   /* CPUID 4000_0000h: "TCGTCGTCGTCG", "KVMKVMKVM" */
};

void cpuinfo_read(struct cpuinfo *ci);
/* The "cpu" members of system.json. microcode is the revision read from the
   MSR by a caller that may read MSRs (bare metal), or 0 when unknown. */
void cpuinfo_describe(struct json *j, const struct cpuinfo *ci, uint64_t microcode);

#endif
