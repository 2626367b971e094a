/* arch/paging.h for AArch64: the CPU's own translation regime, at EL1 or
 * EL2, whichever the firmware runs the app at. Which tables are loaded is
 * TTBR0_ELx; the granule, the input-address size and how the walker
 * caches tables are TCR_ELx; what each attribute index means is MAIR_ELx.
 * docs/PAGING.md, "AArch64", explains the switch step by step.
 */

#include "arch/aarch64/tables.h"
#include "arch/aarch64/mair.h"
#include "arch/aarch64/sysreg.h"
#include "lib/fmt.h"

/* TCR fields both layouts share (TCR_EL1's, and TCR_EL2's without VHE). */
#define TCR_T0SZ_MASK  0x3full
#define TCR_EPD0       (1ull << 7)
#define TCR_IRGN0_WB   (1ull << 8)    /* walks: inner write-back, write-allocate */
#define TCR_ORGN0_WB   (1ull << 10)   /* and outer */
#define TCR_SH0_INNER  (3ull << 12)
#define TCR_WALK_MASK  (TCR_T0SZ_MASK | TCR_EPD0 | (3ull << 8) | (3ull << 10) | (3ull << 12) | (3ull << 14))
#define TCR_TG0(code)  ((uint64_t)(code) << 14)
/* The output size: IPS at 34:32 in TCR_EL1's layout, PS at 18:16 in
   TCR_EL2's own. */
#define TCR_EL1_IPS_SHIFT 32
#define TCR_EL2_PS_SHIFT  16

#define SCTLR_M (1ull << 0)

/* ---- Private Functions ------------------------------------------------ */

/* Whether TCR_ELx has TCR_EL1's layout: at EL1, and at EL2 under VHE. */
static int tcr_el1_layout(unsigned el)
{
	return el == 1 || (sysreg_read(hcr_el2) & HCR_E2H);
}

/* The firmware's TCR with the TTBR0 walk fields replaced: a 48-bit input
   space, the granule, write-back inner-shareable walks (the tables are
   ordinary cacheable memory, so no cache maintenance is needed for the
   walker to see them), and the output size the CPU has, at most 48 bits. */
static uint64_t app_tcr(uint64_t firmware_tcr, unsigned el, const struct granule *g)
{
	unsigned ips = MMFR0_PARANGE(sysreg_read(id_aa64mmfr0_el1));
	unsigned ips_shift = tcr_el1_layout(el) ? TCR_EL1_IPS_SHIFT : TCR_EL2_PS_SHIFT;
	uint64_t tcr = firmware_tcr & ~TCR_WALK_MASK & ~(7ull << ips_shift);

	if (ips > 5)
		ips = 5;
	return tcr | (64 - VA_BITS) | TCR_IRGN0_WB | TCR_ORGN0_WB | TCR_SH0_INNER |
	       TCR_TG0(g->tg0) | ((uint64_t)ips << ips_shift);
}

/* Loads a whole regime (MAIR, TCR, TTBR0) at once, with the MMU off in
   between:
     DSB ISH      every table write done before a walk can read it;
     SCTLR.M = 0, ISB   no translation in use while the regime changes:
                  the old and new maps give the same addresses different
                  granules and block sizes, and TLB entries of both alive
                  at once could conflict (a TLB conflict abort);
     MAIR, TCR, TTBR0, ISB   the new regime;
     TLBI (VMALLE1 / ALLE2), DSB NSH, ISB   no entry of the old regime
                  survives into the new one; the DSB waits for the
                  invalidation, the ISB for the next fetch to see it;
     SCTLR as it was, ISB   translation back on, with the new tables.
   Nothing between touches memory (with the MMU off, data accesses would
   be Device accesses), which is why it is one asm block: the code itself
   is identity-mapped in both regimes, so the next fetch comes from the
   same address either way. */
#define LOAD_REGIME(suffix, tlbi, off, on, mair, tcr, ttbr0)                      \
	__asm__ volatile(                                                         \
		"dsb ish\n\t"                                                     \
		"msr sctlr_" suffix ", %[off_]\n\tisb\n\t"                        \
		"msr mair_" suffix ", %[mair_]\n\t"                                \
		"msr tcr_" suffix ", %[tcr_]\n\t"                                  \
		"msr ttbr0_" suffix ", %[ttbr_]\n\tisb\n\t"                       \
		"tlbi " tlbi "\n\tdsb nsh\n\tisb\n\t"                           \
		"msr sctlr_" suffix ", %[on_]\n\tisb"                              \
		:: [off_] "r"(off), [on_] "r"(on), [mair_] "r"(mair), [tcr_] "r"(tcr), \
		   [ttbr_] "r"(ttbr0) : "memory")

static void load_regime(unsigned el, uint64_t mair, uint64_t tcr, uint64_t ttbr0)
{
	uint64_t sctlr = el == 2 ? sysreg_read(sctlr_el2) : sysreg_read(sctlr_el1);

	if (el == 2)
		LOAD_REGIME("el2", "alle2", sctlr & ~SCTLR_M, sctlr, mair, tcr, ttbr0);
	else
		LOAD_REGIME("el1", "vmalle1", sctlr & ~SCTLR_M, sctlr, mair, tcr, ttbr0);
}

/* ---- Public Functions ------------------------------------------------- */

unsigned pt_memattr_index(enum pt_memattr attr)
{
	return attr == PT_WB ? MAIR_INDEX_WB : MAIR_INDEX_DEVICE;
}

void pt_config_read(struct pt_config *cfg, const struct cpuinfo *ci)
{
	uint64_t mmfr0 = sysreg_read(id_aa64mmfr0_el1);
	unsigned el = current_el();

	cfg->levels = 4;
	cfg->phys_bits = ci->phys_addr_bits > VA_BITS ? VA_BITS : ci->phys_addr_bits;
	cfg->arch.granules = (MMFR0_TGRAN4(mmfr0) != 0xf ? 1u << 12 : 0) |
			     (MMFR0_TGRAN16(mmfr0) != 0 ? 1u << 14 : 0) |
			     (MMFR0_TGRAN64(mmfr0) != 0xf ? 1u << 16 : 0);
	cfg->has_1g = (cfg->arch.granules & (1u << 12)) != 0;
	cfg->arch.el2_single_xn = el == 2 && !tcr_el1_layout(el);
}

void pt_config_extra(const struct pt_config *cfg, char *buf, size_t size)
{
	struct mp_text t = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	mp_append(&t, ", granules:");
	for (unsigned gi = 0; gi < GRANULES; gi++)
		if (cfg->arch.granules & (1u << granules[gi].shift))
			mp_append(&t, " %s", granules[gi].name);
}

int pt_page_size_architected(unsigned page_shift, char *why, size_t why_len)
{
	char size[16];

	if (page_shift < 64 && granule_of_page(1ull << page_shift) >= 0)
		return 1;
	mp_format_bytes(size, sizeof size, page_shift < 64 ? 1ull << page_shift : 0);
	if (why)
		mp_snprintf(why, why_len, "%s is not an AArch64 page size (4 KiB, 16 KiB, 64 KiB, "
			    "2 MiB, 32 MiB, 512 MiB and 1 GiB are)", size);
	return 0;
}

int pt_page_size_offered(const struct pt_config *cfg, unsigned page_shift, char *why,
			 size_t why_len)
{
	int gi = page_shift < 64 ? granule_of_page(1ull << page_shift) : -1;
	char size[16];

	if (!pt_page_size_architected(page_shift, why, why_len))
		return 0;
	mp_format_bytes(size, sizeof size, 1ull << page_shift);
	if (!(cfg->arch.granules & (1u << granules[gi].shift))) {
		if (why)
			mp_snprintf(why, why_len, "%s pages need the %s translation granule, which "
				    "ID_AA64MMFR0_EL1.TGran%u says this CPU does not offer", size,
				    granules[gi].name, 1u << (granules[gi].shift - 10));
		return 0;
	}
	return 1;
}

/* Nothing rules the switch out: AArch64 has no shadow-stack state that
   the guard's recovery would trip over (the Guarded Control Stack of
   FEAT_GCS is not enabled by any firmware memprobe knows, and would be
   named here if it were). */
const char *pt_switch_refusal(void)
{
	return NULL;
}

/* word[0] the firmware's TTBR0, word[1] its TCR, word[2] its MAIR. */
void pt_switch_to(uint64_t root, struct pt_saved *s)
{
	unsigned el = current_el(), gi = root_granule(root);
	const struct granule *g = &granules[gi < GRANULES ? gi : 0];

	if (el == 2) {
		s->word[0] = sysreg_read(ttbr0_el2);
		s->word[1] = sysreg_read(tcr_el2);
		s->word[2] = sysreg_read(mair_el2);
	} else {
		s->word[0] = sysreg_read(ttbr0_el1);
		s->word[1] = sysreg_read(tcr_el1);
		s->word[2] = sysreg_read(mair_el1);
	}
	load_regime(el, MAIR_APP, app_tcr(s->word[1], el, g), root_table(root));
}

void pt_switch_back(const struct pt_saved *s)
{
	load_regime(current_el(), s->word[2], s->word[1], s->word[0]);
}

size_t pt_firmware_facts(struct arch_fact *out, size_t max)
{
	unsigned el = current_el();
	struct arch_fact facts[] = {
		{ .name = "current_el", .value = el },
		{ .name = "firmware_tcr", .value = el == 2 ? sysreg_read(tcr_el2) : sysreg_read(tcr_el1) },
		{ .name = "firmware_sctlr", .value = el == 2 ? sysreg_read(sctlr_el2) : sysreg_read(sctlr_el1) },
		{ .name = "id_aa64mmfr0_el1", .value = sysreg_read(id_aa64mmfr0_el1) },
	};
	size_t n = 0;

	for (; n < max && n < sizeof facts / sizeof facts[0]; n++)
		out[n] = facts[n];
	return n;
}
