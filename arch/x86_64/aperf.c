/* arch/counter.h's core cycle count on x86-64: APERF and MPERF (SDM vol.
 * 3B, "Hardware Coordination Feedback"; AMD APM vol. 2). */

#include "arch/counter.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/msr.h"

#define MSR_IA32_MPERF 0xe7u
#define MSR_IA32_APERF 0xe8u
#define CPUID6_ECX_APERF_MPERF (1u << 0)

/* CPUID may claim the MSRs where a hypervisor still refuses them: one
   guarded read of each decides. */
int core_cycles_available(arch_guarded_fn run)
{
	uint64_t v;

	if (cpuid_max_leaf() < 6 || !(cpuid(6, 0).ecx & CPUID6_ECX_APERF_MPERF))
		return 0;
	return !msr_read_guarded(run, MSR_IA32_APERF, &v) &&
	       !msr_read_guarded(run, MSR_IA32_MPERF, &v);
}

const char core_cycles_missing[] = "no APERF/MPERF (CPUID 6 ECX[0] clear or refused)";

void core_cycles_read(struct core_cycles *c)
{
	c->actual = rdmsr(MSR_IA32_APERF);
	c->reference = rdmsr(MSR_IA32_MPERF);
}
