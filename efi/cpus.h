/* The other CPUs on bare metal, through the firmware's MP services
 * (core/platform.h's "Other CPUs" is implemented in cpus.c).
 */
#ifndef MEMPROBE_CPUS_H
#define MEMPROBE_CPUS_H

struct json;

/* Finds the MP services protocol and counts the enabled CPUs (logical 0
   the BSP, then the APs in the firmware's order), starting none: from then
   on plat_cpu_count says how many there are. Called before paging_init,
   whose page-table pool holds a buffer for each CPU a probe loads (a pool
   sized for one CPU left loaded's loaders unmapped). */
void cpus_count(void);

/* Gives each counted AP its descriptor tables and reads each CPU's
   topology on that CPU. Needs cpus_count and paging_init: the APs run
   under the app's tables. Without the protocol, with one CPU, or when an
   AP's tables cannot be given, plat_cpu_count is 1 from then on and
   plat_cpus_conditions says why (the pool may then be larger than
   needed, never smaller). */
void cpus_init(void);

/* system.json's "cpus": each logical CPU's CPU id as the firmware gives it
   (the APIC ID on x86, the MPIDR affinity on AArch64), and the topology
   the CPU itself gave on that CPU. */
void cpus_describe(struct json *j);

#endif
