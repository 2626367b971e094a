/* arch/counter.h for AArch64: the generic timer's facts and the
 * dependent-add clock.
 */

#include "arch/counter.h"
#include "arch/aarch64/sysreg.h"

const char *counter_name(void)
{
	return "CNTVCT_EL0";
}

/* The system counter runs at one fixed frequency whatever the cores'
   clocks do (ARM ARM, "The Generic Timer": "The system counter must be
   implemented in an always-on power domain" and counts at a fixed rate). */
int counter_invariant(void)
{
	return 1;
}

const char *counter_invariant_source(void)
{
	return "the generic timer's system counter: a fixed rate by the architecture";
}

/* CNTFRQ_EL0 is what the firmware wrote there, not a hardware fact: it can
   be wrong, which is why efi/clock.c checks it against Stall(). 0 means the
   firmware never set it. */
uint64_t counter_hz_stated(enum counter_rate_source *source)
{
	uint64_t hz = sysreg_read(cntfrq_el0) & 0xffffffffu;

	*source = hz ? COUNTER_RATE_REGISTER : COUNTER_RATE_NONE;
	return hz;
}

const char *counter_rate_source_name(enum counter_rate_source source)
{
	switch (source) {
	case COUNTER_RATE_REGISTER: return "CNTFRQ_EL0 (as the firmware set it)";
	case COUNTER_RATE_CRYSTAL: case COUNTER_RATE_WHOLE_MHZ: case COUNTER_RATE_NONE: break;
	}
	return "not set in CNTFRQ_EL0";
}

/* No port timer to emulate: AArch64 has no I/O ports. */
enum counter_emulation counter_timer_emulated(const struct cpuinfo *ci, arch_guarded_fn run,
					      uint16_t port)
{
	(void)ci;
	(void)run;
	(void)port;
	return COUNTER_EMULATION_NO_REGISTER;
}

/* 64 dependent adds per iteration, each taking its addend from a register
   (a core may fold add-immediate chains in its renamer, as some x86 cores
   do); the loop counter is an independent chain alongside. One add a cycle
   is the latency of a simple ALU op on every AArch64 core memprobe knows. */
uint64_t add_chain_ticks(uint64_t adds)
{
	uint64_t iterations = adds / 64, acc = 0, one = 1;
	uint64_t t0, t1;

	if (!iterations)
		return 0;
	t0 = counter_read();
	__asm__ volatile(
		"1:\n\t"
		".rept 64\n\t"
		"add %0, %0, %2\n\t"
		".endr\n\t"
		"subs %1, %1, #1\n\t"
		"b.ne 1b"
		: "+r"(acc), "+r"(iterations)
		: "r"(one)
		: "cc");
	t1 = counter_read();
	return t1 - t0;
}

/* PMCCNTR_EL0 is not used: the secure firmware may trap PMU accesses to
   EL3 (MDCR_EL3.TPM), where the guard cannot catch them, the counter must
   be started in PMCR_EL0 first, and QEMU TCG's PMU counts a notional
   1 GHz, so nothing here could check it (docs/METHOD.md, "AArch64"). The
   core clock is the add chain's. */
int core_cycles_available(arch_guarded_fn run)
{
	(void)run;
	return 0;
}

const char core_cycles_missing[] = "no core cycle count (PMCCNTR_EL0 is not used)";

void core_cycles_read(struct core_cycles *c)
{
	c->actual = 0;
	c->reference = 0;
}
