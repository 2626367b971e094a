/* Decoding a CPU's place (package, core, thread) from its APIC ID and the
 * bit widths CPUID gives for each level: a pure function of register
 * values, so the host tests can feed it any machine's numbers.
 */
#ifndef MEMPROBE_X86_TOPOLOGY_H
#define MEMPROBE_X86_TOPOLOGY_H

#include <stdint.h>
#include "arch/cpu.h"

/* An APIC ID split at smt_shift (the bits that number threads in a core)
   and package_shift (the bits below the package number): thread = the low
   smt_shift bits, core = the bits between, package = the rest. */
void topology_split(struct cpu_topology *t, uint32_t apic_id, unsigned smt_shift,
		    unsigned package_shift, const char *source);

#endif
