/* CPUID identification. */

#include "arch/x86_64/cpuinfo.h"
#include "arch/x86_64/cpu.h"

/* Registers hold ASCII in the byte order they are listed by the manuals. */
static void put_regs(char *dst, const uint32_t *regs, int count)
{
	for (int r = 0; r < count; r++)
		for (int b = 0; b < 4; b++)
			dst[r * 4 + b] = (char)(regs[r] >> (8 * b));
	dst[count * 4] = 0;
}

static void read_vendor(struct cpuinfo *ci)
{
	struct cpuid_regs r = cpuid(0, 0);
	uint32_t order[3] = { r.ebx, r.edx, r.ecx };

	put_regs(ci->vendor, order, 3);
}

static void read_brand(struct cpuinfo *ci)
{
	char raw[49];
	const char *p = raw;
	int i = 0;

	ci->brand[0] = 0;
	if (cpuid_max_ext_leaf() < 0x80000004u)
		return;
	for (uint32_t leaf = 0; leaf < 3; leaf++) {
		struct cpuid_regs r = cpuid(0x80000002u + leaf, 0);
		uint32_t regs[4] = { r.eax, r.ebx, r.ecx, r.edx };
		put_regs(raw + leaf * 16, regs, 4);
	}
	while (*p == ' ')
		p++;
	while (*p && i < 48)
		ci->brand[i++] = *p++;
	while (i > 0 && ci->brand[i - 1] == ' ')
		i--;
	ci->brand[i] = 0;
}

/* The displayed family adds the extended family only when the base family is
   0xF; the model takes the extended model for families 6 and 0xF. */
static void read_signature(struct cpuinfo *ci)
{
	struct cpuid_regs r = cpuid(1, 0);
	unsigned base_family = (r.eax >> 8) & 0xf, base_model = (r.eax >> 4) & 0xf;

	ci->stepping = r.eax & 0xf;
	ci->family = base_family == 0xf ? base_family + ((r.eax >> 20) & 0xff) : base_family;
	ci->model = (base_family == 0x6 || base_family == 0xf)
		? (((r.eax >> 16) & 0xf) << 4) + base_model : base_model;
	ci->has_attr_table = (r.edx >> 16) & 1;   /* PAT */
	ci->has_range_types = (r.edx >> 12) & 1;  /* MTRR */
	ci->hypervisor = (r.ecx >> 31) & 1;
}

static void read_extended(struct cpuinfo *ci)
{
	uint32_t max = cpuid_max_ext_leaf();

	ci->has_1g_pages = max >= 0x80000001u && ((cpuid(0x80000001u, 0).edx >> 26) & 1);
	/* Without leaf 8000_0008h the architecture guarantees 36 physical bits. */
	ci->phys_addr_bits = 36;
	ci->virt_addr_bits = 48;
	if (max >= 0x80000008u) {
		uint32_t eax = cpuid(0x80000008u, 0).eax;
		ci->phys_addr_bits = eax & 0xff;
		ci->virt_addr_bits = (eax >> 8) & 0xff;
	}
}

static void read_hypervisor(struct cpuinfo *ci)
{
	ci->hypervisor_id[0] = 0;
	if (ci->hypervisor) {
		struct cpuid_regs r = cpuid(0x40000000u, 0);
		uint32_t regs[3] = { r.ebx, r.ecx, r.edx };
		put_regs(ci->hypervisor_id, regs, 3);
	}
}

void cpuinfo_read(struct cpuinfo *ci)
{
	read_vendor(ci);
	read_brand(ci);
	read_signature(ci);
	read_extended(ci);
	read_hypervisor(ci);
}

/* Exact comparison, without libc: this file builds freestanding for EFI. */
static int same_string(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

enum cpu_vendor cpuinfo_vendor(const char *vendor_string)
{
	static const struct {
		const char *text;
		enum cpu_vendor vendor;
	} known[] = {
		{ "GenuineIntel", CPU_VENDOR_INTEL },
		{ "AuthenticAMD", CPU_VENDOR_AMD },
		{ "HygonGenuine", CPU_VENDOR_HYGON },
	};

	for (unsigned i = 0; i < sizeof known / sizeof *known; i++)
		if (same_string(vendor_string, known[i].text))
			return known[i].vendor;
	return CPU_VENDOR_OTHER;
}
