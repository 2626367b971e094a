/* arch/cpu.h's cpu_table_id for x86-64: the running processor's APIC ID. */

#include "arch/cpu.h"
#include "arch/x86_64/cpu.h"

/* CPUID 0Bh gives the full 32-bit x2APIC ID, which the SRAT's x2APIC
   entries use; the 8-bit initial APIC ID would alias above 255 CPUs. A
   leaf 0Bh whose first level has EBX = 0 is not implemented (SDM, CPUID
   0Bh: "if EBX[15:0] is 0, the leaf is not supported"). */
const char cpu_id_name[] = "APIC ID";

uint32_t cpu_table_id(void)
{
	if (cpuid_max_leaf() >= 0x0b) {
		struct cpuid_regs r = cpuid(0x0b, 0);
		if (r.ebx & 0xffff)
			return r.edx;
	}
	return cpuid(1, 0).ebx >> 24;
}
