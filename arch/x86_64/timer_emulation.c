/* arch/counter.h's counter_timer_emulated for x86-64: Intel parts without a
 * chipset PM timer (since Skylake's client SoCs) have the CPU answer the PM
 * timer's port from the crystal that also drives the TSC, as MSR 0x121
 * configures it (bits 15:0 the port, bit 16 enable, bits 63:32 the
 * crystal-to-3.579545 MHz multiplier).
 */

#include "arch/counter.h"
#include "arch/x86_64/cpuinfo.h"
#include "arch/x86_64/msr.h"

#define MSR_PM_TIMER_EMULATION 0x121u
#define EMULATION_ENABLED (1u << 16)

enum counter_emulation counter_timer_emulated(const struct cpuinfo *ci, arch_guarded_fn run,
					      uint16_t port)
{
	uint64_t v;

	/* AMD and others have no such register: reading it there would only
	   fault, or read something else. */
	if (cpuinfo_vendor(ci->vendor) != CPU_VENDOR_INTEL)
		return COUNTER_EMULATION_NO_REGISTER;
	if (msr_read_guarded(run, MSR_PM_TIMER_EMULATION, &v))
		return COUNTER_EMULATION_UNREADABLE;
	return (v & EMULATION_ENABLED) && (uint16_t)v == port ? COUNTER_EMULATION_YES
							      : COUNTER_EMULATION_NO;
}
