/* arch/disturb.h for AArch64. Neither event it counts exists here as on x86:
 *
 *  - No NMI: an AArch64 interrupt is an IRQ or FIQ, and DAIF masks both
 *    for the length of a guarded section; one that arrived anyway (a GICv3
 *    NMI with FEAT_NMI, should a firmware enable superpriority with
 *    PSTATE.ALLINT clear) would be taken by the guard's vectors as a fault
 *    of the section, never silently absorbed. So the count is always 0.
 *  - No SMI counter: the equivalent of SMM is the secure monitor at EL3
 *    (firmware such as TF-A), which can take the core away from a section
 *    unseen, and no register counts its entries. The report says so.
 */

#include "arch/disturb.h"
#include "lib/fmt.h"

uint64_t disturb_nmi_count(void)
{
	return 0;
}

/* The protocol's types on AArch64 are the exception kinds (0 synchronous,
   1 IRQ, 2 FIQ, 3 SError): none is an NMI, and a handler there would
   swallow FIQs unacknowledged. */
int disturb_nmi_type(char *why, size_t size)
{
	mp_snprintf(why, size, "none on AArch64: an interrupt is an IRQ or FIQ, masked in timed "
		    "sections (DAIF), and one that arrived there would be a fault of the section");
	return -1;
}

int disturb_smi_init(const struct cpuinfo *ci, arch_guarded_fn run, char *why, size_t size)
{
	(void)ci;
	(void)run;
	mp_snprintf(why, size, "not counted: AArch64 has no SMI; EL3's secure monitor can take "
		    "the core unseen, and nothing counts it");
	return 0;
}

uint64_t disturb_smi_count(void)
{
	return 0;
}
