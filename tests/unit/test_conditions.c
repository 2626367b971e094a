/* The conditions that change figures (arch/x86_64/conditions.c): memory
   encryption, LFENCE and CET named from register values, every unread
   register said as such. */

#include <string.h>

#include "check.h"
#include "arch/x86_64/conditions.h"
#include "arch/x86_64/cpu.h"

static struct arch_fact facts[3];

static const char *fact(const struct condition_regs *r, const char *name)
{
	size_t n = conditions_decode(r, facts, 3);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(facts[i].name, name))
			return facts[i].text;
	return "";
}

static void test_amd(void)
{
	struct condition_regs r = { .vendor = CPU_VENDOR_AMD, .sme_supported = 1, .syscfg_read = 1,
				    .syscfg = SYSCFG_MEM_ENCRYPTION_MOD_EN, .de_cfg_read = 1,
				    .de_cfg = DE_CFG_LFENCE_SERIALIZE };

	CHECK(strstr(fact(&r, "memory_encryption"), "AMD SME/TSME may encrypt memory: SYSCFG[23]") ==
	      fact(&r, "memory_encryption"), "SYSCFG[23] set: SME/TSME named");
	CHECK(!strcmp(fact(&r, "lfence"), "serialising: DE_CFG (MSR C001_1029) bit 1 set"),
	      "DE_CFG bit 1: serialising");
	r.syscfg = 0;
	r.de_cfg = 0;
	CHECK(strstr(fact(&r, "memory_encryption"), "none by SME: SYSCFG[23] clear") != NULL,
	      "SYSCFG[23] clear: no SME, TSME's caveat said");
	CHECK(strstr(fact(&r, "lfence"), "NOT serialising") == fact(&r, "lfence"),
	      "DE_CFG bit 1 clear: NOT serialising");
	r.lfence_always_serialising = 1;
	CHECK(strstr(fact(&r, "lfence"), "CPUID 8000_0021h EAX[2]") != NULL,
	      "CPUID's always-serialising bit wins over DE_CFG");
	r.lfence_always_serialising = 0;
	r.de_cfg_read = 0;
	r.syscfg_read = 0;
	CHECK(strstr(fact(&r, "lfence"), "unknown: DE_CFG (MSR C001_1029) raised #GP") != NULL,
	      "an unreadable DE_CFG: unknown");
	CHECK(strstr(fact(&r, "memory_encryption"), "unknown: SME supported, but SYSCFG") != NULL,
	      "an unreadable SYSCFG: unknown");
	r.sme_supported = 0;
	CHECK(strstr(fact(&r, "memory_encryption"), "none: the CPU has no SME") != NULL,
	      "no SME in CPUID: none");
	r.vendor = CPU_VENDOR_HYGON;
	CHECK(strstr(fact(&r, "lfence"), "unknown: DE_CFG") != NULL, "Hygon follows AMD's rules");
}

static void test_intel(void)
{
	struct condition_regs r = { .vendor = CPU_VENDOR_INTEL, .tme_supported = 1, .tme_read = 1,
				    .tme_activate = TME_ACTIVATE_LOCKED | TME_ACTIVATE_ENABLED };

	CHECK(!strcmp(fact(&r, "memory_encryption"), "Intel TME active: IA32_TME_ACTIVATE 0x3 "
		      "(locked, enabled); an encrypted line costs more to fetch"),
	      "TME locked and enabled: active (%s)", fact(&r, "memory_encryption"));
	r.tme_activate = TME_ACTIVATE_ENABLED;
	CHECK(strstr(fact(&r, "memory_encryption"), "none: IA32_TME_ACTIVATE 0x2") != NULL,
	      "enabled but not locked: not active");
	r.tme_read = 0;
	CHECK(strstr(fact(&r, "memory_encryption"), "unknown: TME supported") != NULL,
	      "an unreadable MSR 0x982: unknown");
	r.tme_supported = 0;
	CHECK(strstr(fact(&r, "memory_encryption"), "none: the CPU has no TME") != NULL,
	      "no TME in CPUID: none");
	CHECK(strstr(fact(&r, "lfence"), "serialising: Intel") == fact(&r, "lfence"),
	      "Intel: LFENCE serialising by definition");
}

static void test_cet(void)
{
	struct condition_regs r = { .vendor = CPU_VENDOR_OTHER };

	CHECK(!strcmp(fact(&r, "cet"), "CR4.CET clear"), "CET clear");
	r.cr4 = CR4_CET;
	CHECK(strstr(fact(&r, "cet"), "CR4.CET set: the app refuses to switch") != NULL,
	      "CET set: the refusal is named");
	CHECK(conditions_decode(&r, facts, 2) == 2, "max bounds the facts written");
	CHECK(strstr(fact(&r, "memory_encryption"), "unknown") != NULL, "another vendor: unknown");
}

int main(void)
{
	test_amd();
	test_intel();
	test_cet();
	return check_summary();
}
