/* arch/counter.h for x86-64: TSC facts from CPUID and the dependent-add clock. */

#include "arch/counter.h"
#include "arch/x86_64/cpu.h"

int counter_invariant(void)
{
	if (cpuid_max_ext_leaf() < 0x80000007u)
		return 0;
	return (cpuid(0x80000007u, 0).edx >> 8) & 1;
}

const char *counter_invariant_source(void)
{
	return "CPUID 8000_0007h EDX[8]";
}

uint64_t counter_hz_stated(enum counter_rate_source *leaf)
{
	uint32_t max = cpuid_max_leaf();

	if (max >= 0x15) {
		struct cpuid_regs r = cpuid(0x15, 0);
		/* EAX/EBX is the TSC/crystal ratio, ECX the crystal in Hz; a zero
		   ECX means "not enumerated", not a zero-hertz crystal. */
		if (r.eax && r.ebx && r.ecx) {
			*leaf = COUNTER_RATE_CRYSTAL;
			return (uint64_t)r.ecx * r.ebx / r.eax;
		}
	}
	if (max >= 0x16) {
		uint32_t mhz = cpuid(0x16, 0).eax & 0xffff;
		if (mhz) {
			*leaf = COUNTER_RATE_WHOLE_MHZ;
			return (uint64_t)mhz * 1000000u;
		}
	}
	*leaf = COUNTER_RATE_NONE;
	return 0;
}

const char *counter_name(void)
{
	return "TSC";
}

const char *counter_rate_source_name(enum counter_rate_source leaf)
{
	switch (leaf) {
	case COUNTER_RATE_CRYSTAL: return "CPUID 15h crystal ratio";
	case COUNTER_RATE_WHOLE_MHZ: return "CPUID 16h base frequency";
	case COUNTER_RATE_NONE: case COUNTER_RATE_REGISTER: break;
	}
	return "not described by CPUID";
}

/* 64 dependent adds per iteration; the loop counter is a second, independent
   chain that the core runs alongside, so it costs no cycles of the first.
   Each add takes its addend from a register, never an immediate: Intel
   cores since Golden Cove fold chains of add-immediate in the renamer and
   retire several per cycle, which read as a 12 GHz core on a 3 GHz Xeon. */
uint64_t add_chain_ticks(uint64_t adds)
{
	uint64_t iterations = adds / 64, acc = 0, one = 1;
	uint64_t t0, t1;

	if (!iterations)
		return 0;
	t0 = rdtsc_ordered();
	__asm__ volatile(
		"1:\n\t"
		".rept 64\n\t"
		"add %2, %0\n\t"
		".endr\n\t"
		"dec %1\n\t"
		"jnz 1b"
		: "+r"(acc), "+r"(iterations)
		: "r"(one));
	t1 = rdtsc_ordered();
	return t1 - t0;
}
