/* arch/disturb.h for x86-64: the guard's NMI count and Intel's SMI counter. */

#include "arch/disturb.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuinfo.h"
#include "arch/x86_64/guard.h"
#include "arch/x86_64/msr.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

/* MSR_SMI_COUNT (SDM vol. 4, "MSRs in Intel processors based on Nehalem
   microarchitecture" and later): bits 31:0 count SMIs since reset. */
#define MSR_SMI_COUNT 0x34u
#define SMI_COUNT_MASK 0xffffffffull

/* ---- Public Functions ------------------------------------------------- */

uint64_t disturb_nmi_count(void)
{
	return __atomic_load_n(&guard_nmi_count, __ATOMIC_RELAXED);
}

int disturb_nmi_type(char *why, size_t size)
{
	(void)why;
	(void)size;
	return 2;
}

/* Only Intel defines the MSR; on AMD the address is unassigned, and a
   hypervisor may refuse it on any part, so one guarded read decides. */
int disturb_smi_init(const struct cpuinfo *ci, arch_guarded_fn run, char *why, size_t size)
{
	uint64_t v;

	switch (cpuinfo_vendor(ci->vendor)) {
	case CPU_VENDOR_INTEL:
		break;
	case CPU_VENDOR_AMD:
	case CPU_VENDOR_HYGON:
		mp_snprintf(why, size, "not counted: AMD parts have no SMI counter the program can read");
		return 0;
	default:
		mp_snprintf(why, size, "not counted: only Intel's MSR 0x34 counts SMIs, and this CPU is %s",
			    ci->vendor);
		return 0;
	}
	if (msr_read_guarded(run, MSR_SMI_COUNT, &v)) {
		mp_snprintf(why, size, "not counted: reading MSR 0x34 (MSR_SMI_COUNT) raised #GP%s",
			    ci->hypervisor ? " (a hypervisor hides it)" : "");
		return 0;
	}
	mp_snprintf(why, size, "counted by MSR 0x34 (MSR_SMI_COUNT)");
	return 1;
}

uint64_t disturb_smi_count(void)
{
	return rdmsr(MSR_SMI_COUNT) & SMI_COUNT_MASK;
}
