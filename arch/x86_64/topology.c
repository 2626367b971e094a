/* The calling CPU's place in the machine, from CPUID (see arch/cpu.h).
 *
 * Leaf 1Fh (or 0Bh before it) lists the levels from the thread up, each
 * with the number of APIC ID bits below the next level: the SMT level's
 * width splits thread from core, the last level's splits everything
 * below the package from the package number. Those are the SDM's rules;
 * a module, tile or die level (1Fh only) is folded into "core", so core
 * numbers are unique within a package but need not start at 0 per die.
 * AMD parts before leaf 0Bh say the same through 8000_001Eh (core and node
 * IDs); with none of these, the initial APIC ID of leaf 01h is all there is.
 * A hypervisor may list 8000_001Eh and leave it all zero (a Zen 5 KVM guest
 * does, on every vCPU): read as given, every CPU would be CPU 0 of core 0,
 * so an empty leaf counts as absent.
 */

#include "arch/x86_64/cpu.h"
#include "arch/x86_64/topology.h"

/* ---- Constants -------------------------------------------------------- */

#define LEVEL_TYPE_SMT 1u
/* Subleaves to read at most: the SDM defines five level types. */
#define LEVELS_MAX 8u

/* ---- Private Functions ------------------------------------------------ */

/* 0 when `leaf` (0Bh or 1Fh) lists levels on this CPU; the SMT and package
   widths and the x2APIC ID then in *t. */
static int from_level_leaf(struct cpu_topology *t, uint32_t leaf, const char *source)
{
	unsigned smt_shift = 0, package_shift = 0, levels = 0;
	uint32_t apic_id = 0;

	if (cpuid_max_leaf() < leaf)
		return -1;
	for (uint32_t sub = 0; sub < LEVELS_MAX; sub++) {
		struct cpuid_regs r = cpuid(leaf, sub);
		unsigned type = (r.ecx >> 8) & 0xffu;

		if (type == 0 || (r.ebx & 0xffffu) == 0)
			break;
		if (type == LEVEL_TYPE_SMT)
			smt_shift = r.eax & 0x1fu;
		package_shift = r.eax & 0x1fu;
		apic_id = r.edx;
		levels++;
	}
	if (!levels)
		return -1;
	topology_split(t, apic_id, smt_shift, package_shift, source);
	return 0;
}

/* The low n bits set; a CPU may report a width of 32 (one level holds every
   ID), where a plain shift would be undefined. */
static uint32_t low_bits(unsigned n)
{
	return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

/* ---- Public Functions ------------------------------------------------- */

void topology_split(struct cpu_topology *t, uint32_t apic_id, unsigned smt_shift,
		    unsigned package_shift, const char *source)
{
	if (package_shift < smt_shift)
		package_shift = smt_shift;
	t->cpu_id = apic_id;
	t->thread = apic_id & low_bits(smt_shift);
	t->core = smt_shift >= 32 ? 0 : (apic_id >> smt_shift) & low_bits(package_shift - smt_shift);
	t->package = package_shift >= 32 ? 0 : apic_id >> package_shift;
	t->source = source;
}

void cpu_topology_read(struct cpu_topology *t)
{
	struct cpuid_regs r;

	if (from_level_leaf(t, 0x1fu, "CPUID 1Fh") == 0 ||
	    from_level_leaf(t, 0x0bu, "CPUID 0Bh") == 0)
		return;
	r = cpuid_max_ext_leaf() >= 0x8000001eu ? cpuid(0x8000001eu, 0) : (struct cpuid_regs){ 0 };
	if (r.eax | r.ebx | r.ecx) {
		t->cpu_id = r.eax;
		t->thread = ((r.ebx >> 8) & 0xffu) ? r.eax & 1u : 0;
		t->core = r.ebx & 0xffu;
		t->package = r.ecx & 0xffu;
		t->source = "CPUID 8000_001Eh (package: its node ID)";
		return;
	}
	r = cpuid(1, 0);
	topology_split(t, r.ebx >> 24, 0, 0, "CPUID 01h initial APIC ID (no topology leaf)");
}
