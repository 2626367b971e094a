/* arch/cpu.h for AArch64: who the CPU is (MIDR_EL1), what it offers
 * (ID_AA64MMFR0_EL1), the caches it describes (CLIDR_EL1, CCSIDR_EL1 through
 * CSSELR_EL1, CTR_EL0) and where it sits (MPIDR_EL1).
 *
 * No TLB claims: the architecture has no register that describes the TLBs
 * (unlike x86's CPUID leaves 2, 18h and 8000_0005h/6h), so the tlb probe's
 * levels stay unattributed on AArch64.
 */

#include "arch/cpu.h"
#include "arch/aarch64/sysreg.h"
#include "lib/fmt.h"
#include "lib/madt.h"

#define MIDR_IMPLEMENTER(m) ((unsigned)((m) >> 24) & 0xff)
#define MIDR_VARIANT(m)     ((unsigned)((m) >> 20) & 0xf)
#define MIDR_PARTNUM(m)     ((unsigned)((m) >> 4) & 0xfff)
#define MIDR_REVISION(m)    ((unsigned)(m) & 0xf)
/* Implementer 0 is "reserved for software use": QEMU TCG's -cpu max
   reports it (with part 0x051), no silicon does. */
#define IMPLEMENTER_SOFTWARE 0x00

#define MPIDR_MT (1ull << 24)

/* The implementer codes of the Arm ARM's MIDR_EL1 table that UEFI machines
   carry. */
static const struct { unsigned code; const char *name; } implementers[] = {
	{ 0x41, "Arm" },
	{ 0x42, "Broadcom" },
	{ 0x43, "Cavium" },
	{ 0x46, "Fujitsu" },
	{ 0x48, "HiSilicon" },
	{ 0x4e, "NVIDIA" },
	{ 0x51, "Qualcomm" },
	{ 0x61, "Apple" },
	{ 0xc0, "Ampere" },
};

/* PARange codes 0..6 as bits (ID_AA64MMFR0_EL1[3:0]). */
static const unsigned char parange_bits[] = { 32, 36, 40, 42, 44, 48, 52 };

static unsigned phys_bits(uint64_t mmfr0)
{
	unsigned code = MMFR0_PARANGE(mmfr0);

	return code < sizeof parange_bits ? parange_bits[code] : 48;
}

void cpuinfo_read(struct cpuinfo *ci)
{
	uint64_t midr = sysreg_read(midr_el1), mmfr0 = sysreg_read(id_aa64mmfr0_el1);
	unsigned impl = MIDR_IMPLEMENTER(midr);
	const char *name = NULL;

	mp_memset(ci, 0, sizeof *ci);
	for (size_t i = 0; i < sizeof implementers / sizeof implementers[0]; i++)
		if (implementers[i].code == impl)
			name = implementers[i].name;
	if (name)
		mp_strlcpy(ci->vendor, name, sizeof ci->vendor);
	else
		mp_snprintf(ci->vendor, sizeof ci->vendor, "impl 0x%02x", impl);
	mp_snprintf(ci->brand, sizeof ci->brand, "MIDR_EL1 0x%08llx, part 0x%03x r%up%u",
		    (unsigned long long)midr, MIDR_PARTNUM(midr), MIDR_VARIANT(midr),
		    MIDR_REVISION(midr));
	/* The banner's "family model stepping": implementer, part number,
	   revision. */
	ci->family = impl;
	ci->model = MIDR_PARTNUM(midr);
	ci->stepping = MIDR_REVISION(midr);
	/* Every AArch64 translation regime picks memory types from MAIR. */
	ci->has_attr_table = 1;
	ci->phys_addr_bits = phys_bits(mmfr0);
	ci->virt_addr_bits = 48;
	ci->has_1g_pages = MMFR0_TGRAN4(mmfr0) != 0xf;
	if (impl == IMPLEMENTER_SOFTWARE) {
		ci->hypervisor = 1;
		mp_strlcpy(ci->hypervisor_id, "TCGTCGTCGTCG", sizeof ci->hypervisor_id);
	}
}

/* ---- Caches ----------------------------------------------------------- */

#define CLIDR_CTYPE(clidr, level) ((unsigned)((clidr) >> (3 * (level))) & 7)
#define CTYPE_INSTRUCTION 1
#define CTYPE_DATA 2
#define CTYPE_SEPARATE 3
#define CTYPE_UNIFIED 4
/* ID_AA64MMFR2_EL1.CCIDX: CCSIDR_EL1 in its 64-bit layout. */
#define MMFR2_CCIDX(r) ((unsigned)((r) >> 20) & 0xf)

static void add_cache(struct cache_claims *c, unsigned level, enum cache_kind kind,
		      int instruction, int ccidx)
{
	uint64_t ccsidr;
	struct cache_desc *d;

	if (c->ncaches == CLAIMS_MAX_CACHES) {
		c->truncated = 1;
		return;
	}
	/* CSSELR picks level (bits 3:1) and instruction-or-not (bit 0); the
	   ISB makes CCSIDR read the one just selected. */
	sysreg_write(csselr_el1, ((uint64_t)(level - 1) << 1) | (unsigned)instruction);
	isb();
	ccsidr = sysreg_read(ccsidr_el1);
	d = &c->cache[c->ncaches++];
	d->level = level;
	d->kind = kind;
	d->line_bytes = 16u << (ccsidr & 7);
	if (ccidx) {
		d->ways = (unsigned)((ccsidr >> 3) & 0x1fffff) + 1;
		d->sets = (unsigned)((ccsidr >> 32) & 0xffffff) + 1;
	} else {
		d->ways = (unsigned)((ccsidr >> 3) & 0x3ff) + 1;
		d->sets = (unsigned)((ccsidr >> 13) & 0x7fff) + 1;
	}
	d->size_bytes = (uint64_t)d->line_bytes * d->ways * d->sets;
	d->source = "CLIDR_EL1/CCSIDR_EL1";
}

void cpu_caches_read(struct cache_claims *c)
{
	uint64_t clidr = sysreg_read(clidr_el1);
	int ccidx = MMFR2_CCIDX(sysreg_read(id_aa64mmfr2_el1)) != 0;
	struct cpuinfo ci;

	mp_memset(c, 0, sizeof *c);
	cpuinfo_read(&ci);
	mp_strlcpy(c->vendor, ci.vendor, sizeof c->vendor);
	c->hypervisor = ci.hypervisor;
	mp_strlcpy(c->hypervisor_id, ci.hypervisor_id, sizeof c->hypervisor_id);
	for (unsigned level = 1; level <= 7; level++) {
		unsigned type = CLIDR_CTYPE(clidr, level - 1);

		if (type == 0)
			break;
		if (type == CTYPE_INSTRUCTION || type == CTYPE_SEPARATE)
			add_cache(c, level, CACHE_INSTRUCTION, 1, ccidx);
		if (type == CTYPE_DATA || type == CTYPE_SEPARATE)
			add_cache(c, level, CACHE_DATA, 0, ccidx);
		if (type == CTYPE_UNIFIED)
			add_cache(c, level, CACHE_UNIFIED, 0, ccidx);
	}
	mp_snprintf(c->raw[c->nraw++], CLAIMS_RECORD_TEXT, "clidr_el1 %016llx",
		    (unsigned long long)clidr);
	mp_snprintf(c->raw[c->nraw++], CLAIMS_RECORD_TEXT, "ctr_el0 %016llx",
		    (unsigned long long)sysreg_read(ctr_el0));
}

/* What changes every figure on AArch64: the level the app runs at, and
   whether the firmware left the caches on (SCTLR_ELx.C for data and
   unified caches, .I for instructions; with C clear every access is
   non-cacheable and the curves measure memory only). */
size_t cpu_conditions(const struct cpuinfo *ci, arch_guarded_fn run, struct arch_fact *out,
		      size_t max)
{
	unsigned el = current_el();
	uint64_t sctlr = el == 2 ? sysreg_read(sctlr_el2) : sysreg_read(sctlr_el1);
	const struct arch_fact facts[] = {
		{ .name = "exception_level", .text = el == 2 ? "EL2 (the firmware's own level)"
							  : "EL1 (the firmware's own level)" },
		{ .name = "data_cache", .text = sctlr & (1ull << 2) ? "SCTLR_ELx.C set: on"
					: "SCTLR_ELx.C clear: OFF, every access non-cacheable" },
		{ .name = "instruction_cache", .text = sctlr & (1ull << 12) ? "SCTLR_ELx.I set: on"
					       : "SCTLR_ELx.I clear: off" },
	};
	size_t n = 0;

	(void)ci;
	(void)run;
	for (; n < max && n < sizeof facts / sizeof facts[0]; n++)
		out[n] = facts[n];
	return n;
}

/* No register states a microcode revision on Arm. */
uint64_t cpu_microcode(const struct cpuinfo *ci, arch_guarded_fn run)
{
	(void)ci;
	(void)run;
	return 0;
}

const char cpu_id_name[] = "MPIDR affinity";

/* The MADT's GICC entries name a CPU by its MPIDR affinity fields, packed
   as lib/madt.h's madt_mpidr_id packs them. */
uint32_t cpu_table_id(void)
{
	return madt_mpidr_id(sysreg_read(mpidr_el1));
}

/* MPIDR_EL1.MT says whether Aff0 numbers threads of a core (then Aff1 is
   the core and Aff2 the cluster) or cores (Aff1 the cluster); the package
   is not in the register at all, so it is given as the highest level
   there is. */
void cpu_topology_read(struct cpu_topology *t)
{
	uint64_t mpidr = sysreg_read(mpidr_el1);
	unsigned aff0 = mpidr & 0xff, aff1 = (mpidr >> 8) & 0xff, aff2 = (mpidr >> 16) & 0xff;

	t->cpu_id = cpu_table_id();
	if (mpidr & MPIDR_MT) {
		t->thread = aff0;
		t->core = aff1;
		t->package = aff2;
	} else {
		t->thread = 0;
		t->core = aff0;
		t->package = aff1;
	}
	t->source = "MPIDR_EL1 affinity (Aff2/Aff1/Aff0; no package field)";
}
