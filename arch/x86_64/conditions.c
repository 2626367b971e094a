/* Reading and naming the conditions that change figures (see conditions.h). */

#include "arch/x86_64/conditions.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/msr.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

#define CPUID7_ECX_TME (1u << 13)
#define CPUID_8000001F_EAX_SME (1u << 0)
#define CPUID_80000021_EAX_LFENCE_SERIALISING (1u << 2)

/* ---- Private Data ----------------------------------------------------- */

static char encryption_text[200], lfence_text[200], cet_text[160];

/* ---- Private Functions ------------------------------------------------ */

static void describe_encryption(const struct condition_regs *r)
{
	int amd = r->vendor == CPU_VENDOR_AMD || r->vendor == CPU_VENDOR_HYGON;

	if (amd && !r->sme_supported)
		mp_snprintf(encryption_text, sizeof encryption_text,
			    "none: the CPU has no SME (CPUID 8000_001Fh EAX[0] clear)");
	else if (amd && !r->syscfg_read)
		mp_snprintf(encryption_text, sizeof encryption_text,
			    "unknown: SME supported, but SYSCFG (MSR C001_0010) raised #GP");
	else if (amd && (r->syscfg & SYSCFG_MEM_ENCRYPTION_MOD_EN))
		mp_snprintf(encryption_text, sizeof encryption_text,
			    "AMD SME/TSME may encrypt memory: SYSCFG[23] MemEncryptionModEn set "
			    "(0x%llx); an encrypted line costs more to fetch",
			    (unsigned long long)r->syscfg);
	else if (amd)
		mp_snprintf(encryption_text, sizeof encryption_text,
			    "none by SME: SYSCFG[23] clear (0x%llx); TSME, set in firmware setup, "
			    "is not shown there on every part", (unsigned long long)r->syscfg);
	else if (r->vendor == CPU_VENDOR_INTEL && !r->tme_supported)
		mp_snprintf(encryption_text, sizeof encryption_text,
			    "none: the CPU has no TME (CPUID 7 ECX[13] clear)");
	else if (r->vendor == CPU_VENDOR_INTEL && !r->tme_read)
		mp_snprintf(encryption_text, sizeof encryption_text,
			    "unknown: TME supported, but IA32_TME_ACTIVATE (MSR 0x982) raised #GP");
	else if (r->vendor == CPU_VENDOR_INTEL &&
		 (r->tme_activate & (TME_ACTIVATE_LOCKED | TME_ACTIVATE_ENABLED)) ==
		 (TME_ACTIVATE_LOCKED | TME_ACTIVATE_ENABLED))
		mp_snprintf(encryption_text, sizeof encryption_text,
			    "Intel TME active: IA32_TME_ACTIVATE 0x%llx (locked, enabled%s); an "
			    "encrypted line costs more to fetch", (unsigned long long)r->tme_activate,
			    (r->tme_activate & TME_ACTIVATE_BYPASS) ? ", bypass allowed" : "");
	else if (r->vendor == CPU_VENDOR_INTEL)
		mp_snprintf(encryption_text, sizeof encryption_text,
			    "none: IA32_TME_ACTIVATE 0x%llx (not locked and enabled)",
			    (unsigned long long)r->tme_activate);
	else
		mp_snprintf(encryption_text, sizeof encryption_text,
			    "unknown: neither Intel nor AMD, no register read");
}

/* The timestamps' LFENCE (arch/x86_64/cpu.h's rdtsc_ordered) waits for the
   work before it only where LFENCE is dispatch-serialising. */
static void describe_lfence(const struct condition_regs *r)
{
	int amd = r->vendor == CPU_VENDOR_AMD || r->vendor == CPU_VENDOR_HYGON;

	if (r->vendor == CPU_VENDOR_INTEL)
		mp_snprintf(lfence_text, sizeof lfence_text,
			    "serialising: Intel defines LFENCE as dispatch-serialising");
	else if (amd && r->lfence_always_serialising)
		mp_snprintf(lfence_text, sizeof lfence_text,
			    "serialising: CPUID 8000_0021h EAX[2] (always)");
	else if (amd && r->de_cfg_read && (r->de_cfg & DE_CFG_LFENCE_SERIALIZE))
		mp_snprintf(lfence_text, sizeof lfence_text,
			    "serialising: DE_CFG (MSR C001_1029) bit 1 set");
	else if (amd && r->de_cfg_read)
		mp_snprintf(lfence_text, sizeof lfence_text,
			    "NOT serialising: DE_CFG (MSR C001_1029) bit 1 clear; a timestamp "
			    "may not wait for the loads before it");
	else if (amd)
		mp_snprintf(lfence_text, sizeof lfence_text,
			    "unknown: DE_CFG (MSR C001_1029) raised #GP; a timestamp may not "
			    "wait for the loads before it");
	else
		mp_snprintf(lfence_text, sizeof lfence_text, "unknown: neither Intel nor AMD");
}

/* ---- Public Functions ------------------------------------------------- */

size_t conditions_decode(const struct condition_regs *r, struct arch_fact *out, size_t max)
{
	describe_encryption(r);
	describe_lfence(r);
	if (r->cr4 & CR4_CET)
		mp_snprintf(cet_text, sizeof cet_text, "CR4.CET set: the app refuses to switch to "
			    "its own page tables (shadow stacks would fault its stack switch)");
	else
		mp_snprintf(cet_text, sizeof cet_text, "CR4.CET clear");
	const struct arch_fact facts[] = {
		{ .name = "memory_encryption", .text = encryption_text },
		{ .name = "lfence", .text = lfence_text },
		{ .name = "cet", .text = cet_text },
	};
	size_t n = 0;

	for (; n < sizeof facts / sizeof *facts && n < max; n++)
		out[n] = facts[n];
	return n;
}

size_t cpu_conditions(const struct cpuinfo *ci, arch_guarded_fn run, struct arch_fact *out,
		      size_t max)
{
	struct condition_regs r = { .vendor = cpuinfo_vendor(ci->vendor), .cr4 = read_cr4() };
	uint32_t max_ext = cpuid_max_ext_leaf();

	if (max_ext >= 0x8000001fu)
		r.sme_supported = !!(cpuid(0x8000001fu, 0).eax & CPUID_8000001F_EAX_SME);
	if (max_ext >= 0x80000021u)
		r.lfence_always_serialising =
			!!(cpuid(0x80000021u, 0).eax & CPUID_80000021_EAX_LFENCE_SERIALISING);
	if (cpuid_max_leaf() >= 7)
		r.tme_supported = !!(cpuid(7, 0).ecx & CPUID7_ECX_TME);
	if (r.vendor == CPU_VENDOR_AMD || r.vendor == CPU_VENDOR_HYGON) {
		if (r.sme_supported)
			r.syscfg_read = !msr_read_guarded(run, MSR_AMD_SYSCFG, &r.syscfg);
		r.de_cfg_read = !msr_read_guarded(run, MSR_AMD_DE_CFG, &r.de_cfg);
	}
	if (r.vendor == CPU_VENDOR_INTEL && r.tme_supported)
		r.tme_read = !msr_read_guarded(run, MSR_TME_ACTIVATE, &r.tme_activate);
	return conditions_decode(&r, out, max);
}
