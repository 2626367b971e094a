/* The CPU as the platforms see it, whatever the architecture: who it is, the
 * caches and TLBs it claims, and a few named register values for
 * system.json. Each architecture implements this in arch/NAME/.
 */
#ifndef MEMPROBE_ARCH_CPU_H
#define MEMPROBE_ARCH_CPU_H

#include <stddef.h>
#include <stdint.h>
#include "lib/machine.h"

/* How a platform runs a short piece of code so that a CPU exception inside
   it comes back as -1 instead of hanging the machine (efi: guarded_run).
   Arch code that reads registers which may be absent takes one. */
typedef int (*arch_guarded_fn)(void (*fn)(void *), void *arg);

/* A named fact for the platform's describer to write out: a number, or
   text when text is not NULL. arch/ writes no output itself. */
struct arch_fact {
	const char *name;
	const char *text;
	uint64_t value;
};

/* Who the CPU says it is (x86: CPUID). */
void cpuinfo_read(struct cpuinfo *ci);
/* The caches and TLBs the CPU claims, with the raw registers read. */
void cpu_caches_read(struct cache_claims *c);
/* Conditions of this CPU that change the figures, as text facts
   (x86: "memory_encryption", "lfence", "cet"), register reads under run;
   returns how many were written (at most max). */
size_t cpu_conditions(const struct cpuinfo *ci, arch_guarded_fn run, struct arch_fact *out,
		      size_t max);
/* The microcode revision, 0 when the CPU does not say; register reads run
   under run, as they may be absent under a hypervisor. */
uint64_t cpu_microcode(const struct cpuinfo *ci, arch_guarded_fn run);
/* The CPU id the firmware's tables (ACPI SRAT, MADT) and its MP services
   give the processor running this code: each architecture's own (x86: the
   x2APIC ID from CPUID 0Bh where the CPU has that leaf, else the initial
   APIC ID of CPUID 1 EBX[31:24]; AArch64: MPIDR_EL1's affinity fields). */
uint32_t cpu_table_id(void);
/* What that id is called on this architecture, for the report's words:
   "APIC ID", "MPIDR affinity". */
extern const char cpu_id_name[];

/* Where the CPU that calls it sits (lib/machine.h's struct cpu_topology),
   as the CPU itself reports it. */
void cpu_topology_read(struct cpu_topology *t);

/* ---- Code written at run time ---------------------------------------- */

/* This architecture's instruction set: lib/machine.h's MACHINE_ISA_*. */
unsigned cpu_isa(void);
/* Makes the code just written at [base, base + bytes) what this CPU's
   instruction fetch sees, before it is run: x86-64 needs nothing (its
   fetch follows stores to code, and the jump into it orders them);
   AArch64 cleans the data cache to the point of unification, invalidates
   the instruction cache over the range, and synchronises the context
   (DC CVAU, DSB, IC IVAU, DSB, ISB). Without it an AArch64 core may run
   what was there before. */
void cpu_code_written(void *base, size_t bytes);

/* ---- Lines of data ---------------------------------------------------- */

/* Writes back and evicts every cache line of [base, base + bytes) from
   every level of this CPU's caches and every other's in its coherence
   domain, and waits until that is done: x86-64 CLFLUSH over the line size
   CPUID 1 EBX[15:8] gives, then MFENCE; AArch64 DC CIVAC over CTR_EL0's
   smallest data line, then DSB SY. Afterwards a load of any of those
   bytes misses in every cache. */
void cpu_data_flush(void *base, size_t bytes);

#endif
