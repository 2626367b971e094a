/* The other CPUs on bare metal, through the firmware's MP services
 * (core/platform.h's "Other CPUs" is implemented in cpus.c).
 */
#ifndef MEMPROBE_CPUS_H
#define MEMPROBE_CPUS_H

struct json;

/* Finds the MP services protocol and the enabled CPUs (logical 0 the BSP,
   then the APs in the firmware's order), then reads each CPU's topology on
   that CPU. Needs paging_init: the APs run under the app's tables. Without
   the protocol, or with one CPU, plat_cpu_count is 1 and
   plat_cpus_conditions says why. */
void cpus_init(void);

/* system.json's "cpus": each logical CPU's CPU id as the firmware gives it
   (the APIC ID on x86, the MPIDR affinity on AArch64), and the topology
   the CPU itself gave on that CPU. */
void cpus_describe(struct json *j);

#endif
