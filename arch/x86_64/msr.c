/* Guarded MSR access and the microcode revision (arch/cpu.h). */

#include "arch/x86_64/msr.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuinfo.h"

#define MSR_MICROCODE 0x8bu

struct msr_access {
	uint32_t msr;
	uint64_t value;
};

static void read_msr(void *arg)
{
	struct msr_access *a = arg;

	a->value = rdmsr(a->msr);
}

static void write_msr(void *arg)
{
	const struct msr_access *a = arg;

	wrmsr(a->msr, a->value);
}

int msr_read_guarded(arch_guarded_fn run, uint32_t msr, uint64_t *value)
{
	struct msr_access a = { msr, 0 };

	if (run(read_msr, &a))
		return -1;
	*value = a.value;
	return 0;
}

int msr_write_guarded(arch_guarded_fn run, uint32_t msr, uint64_t value)
{
	struct msr_access a = { msr, value };

	return run(write_msr, &a);
}

/* Intel reports the revision in the MSR's high half; AMD's patch level MSR
   reads directly. Either may be absent under a hypervisor. */
uint64_t cpu_microcode(const struct cpuinfo *ci, arch_guarded_fn run)
{
	uint64_t v = 0;

	if (cpuinfo_vendor(ci->vendor) == CPU_VENDOR_INTEL) {
		/* The SDM's procedure: clear the MSR, execute CPUID(1), read. */
		if (msr_write_guarded(run, MSR_MICROCODE, 0))
			return 0;
		(void)cpuid(1, 0);
		return msr_read_guarded(run, MSR_MICROCODE, &v) ? 0 : v >> 32;
	}
	return msr_read_guarded(run, MSR_MICROCODE, &v) ? 0 : v;
}
