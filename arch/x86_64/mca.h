/* The machine-check architecture's registers after a #MC (SDM vol. 3B,
 * "Machine-Check Architecture"; AMD APM vol. 2, "Machine-Check
 * Mechanism"): read through a guard, since a hypervisor may refuse them,
 * and decoded by a pure function so the host tests cover the decoding.
 */
#ifndef MEMPROBE_X86_64_MCA_H
#define MEMPROBE_X86_64_MCA_H

#include <stddef.h>
#include <stdint.h>
#include "arch/cpu.h"

#define MSR_MCG_CAP    0x179u
#define MSR_MCG_STATUS 0x17au
#define MSR_MC0_STATUS 0x401u   /* bank i: STATUS 0x401 + 4i, ADDR +1, MISC +2 */

#define MCG_STATUS_RIPV (1ull << 0)
#define MCG_STATUS_EIPV (1ull << 1)
#define MCG_STATUS_MCIP (1ull << 2)

#define MCI_STATUS_VAL   (1ull << 63)
#define MCI_STATUS_OVER  (1ull << 62)
#define MCI_STATUS_UC    (1ull << 61)
#define MCI_STATUS_EN    (1ull << 60)
#define MCI_STATUS_MISCV (1ull << 59)
#define MCI_STATUS_ADDRV (1ull << 58)
#define MCI_STATUS_PCC   (1ull << 57)

/* Banks read at most (MCG_CAP[7:0] may say up to 255); banks shown. */
#define MCA_BANKS_READ 32u
#define MCA_BANKS_SHOWN 4u

struct mca_bank {
	unsigned index;
	uint64_t status, addr;       /* addr only when status has ADDRV */
};

/* What a read found. */
struct mca_record {
	int supported;               /* CPUID 1 EDX[7] MCE and [14] MCA */
	int readable;                /* MCG_CAP and MCG_STATUS read without #GP */
	uint64_t mcg_status;
	unsigned banks;              /* MCG_CAP[7:0] */
	unsigned banks_unreadable;   /* bank STATUS reads that raised #GP */
	unsigned valid;              /* banks with MCi_STATUS.VAL */
	struct mca_bank shown[MCA_BANKS_SHOWN];   /* the first valid ones */
};

/* Reads MCG_CAP, MCG_STATUS and every bank's STATUS (and ADDR where
   ADDRV) through run. */
void mca_read(arch_guarded_fn run, struct mca_record *r);
/* One line: MCG_STATUS with its bits named, the bank count, each valid
   bank's STATUS named bit by bit with its error code and address; or why
   there is nothing to show. */
void mca_format(const struct mca_record *r, char *text, size_t size);

#endif
