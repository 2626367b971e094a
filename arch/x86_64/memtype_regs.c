/* arch/memtype.h for x86-64: reading the PAT and MTRR registers and naming
 * what they make of a range (the decoders are memtype.c's). */

#include "arch/memtype.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuinfo.h"
#include "arch/x86_64/memtype.h"
#include "arch/x86_64/msr.h"
#include "lib/fmt.h"

#define MSR_AMD_SYSCFG 0xc0010010u
#define MSR_AMD_TOM2   0xc001001du
/* MtrrTom2En (21) only enables TOM2; Tom2ForceMemTypeWB (22), which takes
   effect only with it, is what makes [4 GiB, TOM2) write-back where no
   variable MTRR matches. */
#define SYSCFG_TOM2_WB ((1ull << 21) | (1ull << 22))

static struct {
	int have_pat, have_mtrr;
	uint64_t pat;
	struct mtrr_state mtrr;
} regs;

static arch_guarded_fn guarded;

/* Each MSR is read through the guard: a hypervisor may leave one out, and a
   #GP under the firmware's own handler would hang the machine. */
static uint64_t msr_or_zero(uint32_t msr)
{
	uint64_t v = 0;

	msr_read_guarded(guarded, msr, &v);
	return v;
}

static void read_mtrrs(const struct cpuinfo *ci)
{
	struct mtrr_state *m = &regs.mtrr;
	unsigned vcnt;

	m->phys_bits = ci->phys_addr_bits;
	m->cap = msr_or_zero(MSR_IA32_MTRRCAP);
	m->def_type = msr_or_zero(MSR_IA32_MTRR_DEF_TYPE);
	if (m->cap & (1u << 8))
		for (unsigned i = 0; i < MTRR_FIXED_COUNT; i++)
			m->fixed[i] = msr_or_zero(mtrr_fixed_msr[i]);
	vcnt = mtrr_variable_count(m->cap);
	for (unsigned i = 0; i < vcnt && i < MTRR_VARIABLE_MAX; i++) {
		m->phys_base[i] = msr_or_zero(MTRR_PHYSBASE_MSR(i));
		m->phys_mask[i] = msr_or_zero(MTRR_PHYSMASK_MSR(i));
	}
	if (cpuinfo_vendor(ci->vendor) == CPU_VENDOR_AMD &&
	    (msr_or_zero(MSR_AMD_SYSCFG) & SYSCFG_TOM2_WB) == SYSCFG_TOM2_WB)
		m->amd_tom2 = msr_or_zero(MSR_AMD_TOM2);
}

void memtype_read(const struct cpuinfo *ci, arch_guarded_fn run)
{
	guarded = run;
	regs.have_pat = ci->has_attr_table && msr_read_guarded(run, MSR_IA32_PAT, &regs.pat) == 0;
	regs.have_mtrr = ci->has_range_types;
	if (regs.have_mtrr)
		read_mtrrs(ci);
}

static enum mem_type pat_type(unsigned pat_index)
{
	/* Without a PAT the entry's PCD/PWT bits select the same four types as
	   the power-on PAT's first four entries. */
	return regs.have_pat ? pat_entry_type(regs.pat, pat_index)
			     : pat_entry_type(0x0007040600070406ull, pat_index);
}

static enum mem_type mtrr_type(uint64_t base, uint64_t bytes)
{
	return regs.have_mtrr ? mtrr_range_type(&regs.mtrr, base, bytes) : MT_WB;
}

void memtype_describe(uint64_t base, uint64_t bytes, unsigned pat_index, char *buf, size_t size)
{
	enum mem_type p = pat_type(pat_index), m = mtrr_type(base, bytes);

	mp_snprintf(buf, size, "PAT %s, MTRR %s%s, effective %s", mem_type_name(p),
		    mem_type_name(m), regs.have_mtrr ? "" : " (no MTRRs)",
		    mem_type_name(mem_type_effective(p, m)));
}

int memtype_write_back(uint64_t base, uint64_t bytes, unsigned pat_index)
{
	return mem_type_effective(pat_type(pat_index), mtrr_type(base, bytes)) == MT_WB;
}

static void fact_u64(struct arch_fact *out, size_t max, size_t *n, const char *name,
		     uint64_t value)
{
	if (*n < max)
		out[*n] = (struct arch_fact){ .name = name, .value = value };
	++*n;
}

static void fact_text(struct arch_fact *out, size_t max, size_t *n, const char *name,
		      const char *text)
{
	if (*n < max)
		out[*n] = (struct arch_fact){ .name = name, .text = text };
	++*n;
}

size_t memtype_facts(struct arch_fact *out, size_t max)
{
	size_t n = 0;

	if (regs.have_pat)
		fact_u64(out, max, &n, "pat_msr", regs.pat);
	else
		fact_text(out, max, &n, "pat_msr", "no PAT");
	fact_text(out, max, &n, "pat_entry_used_by_buffers", mem_type_name(pat_type(0)));
	if (regs.have_mtrr) {
		fact_u64(out, max, &n, "mtrr_cap", regs.mtrr.cap);
		fact_u64(out, max, &n, "mtrr_def_type", regs.mtrr.def_type);
		fact_text(out, max, &n, "mtrr_default_type",
			  (regs.mtrr.def_type & (1u << 11)) ? mem_type_name(regs.mtrr.def_type & 0xff)
							   : "MTRRs disabled (UC)");
		fact_u64(out, max, &n, "mtrr_variable_count", mtrr_variable_count(regs.mtrr.cap));
	} else {
		fact_text(out, max, &n, "mtrr_cap", "no MTRRs");
	}
	return n < max ? n : max;
}
