/* CPUID identification. */

#include "arch/x86_64/cpuinfo.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpu_caches.h"
#include "lib/json.h"

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
	ci->has_pat = (r.edx >> 16) & 1;
	ci->has_mtrr = (r.edx >> 12) & 1;
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

void cpuinfo_describe(struct json *j, const struct cpuinfo *ci, uint64_t microcode)
{
	json_object_begin(j, "cpu");
	json_string(j, "vendor", ci->vendor);
	json_string(j, "brand", ci->brand);
	json_u64(j, "family", ci->family);
	json_u64(j, "model", ci->model);
	json_u64(j, "stepping", ci->stepping);
	if (microcode)
		json_u64(j, "microcode", microcode);
	else
		json_string(j, "microcode", "not readable");
	json_u64(j, "phys_addr_bits", ci->phys_addr_bits);
	json_u64(j, "virt_addr_bits", ci->virt_addr_bits);
	json_bool(j, "pages_1g", ci->has_1g_pages);
	json_bool(j, "pat", ci->has_pat);
	json_bool(j, "mtrr", ci->has_mtrr);
	json_string(j, "hypervisor", ci->hypervisor ? ci->hypervisor_id : "none");
	/* Static: the claims with their raw registers are large for a
	   firmware stack. */
	static struct cache_claims claims;
	cpu_caches_read(&claims);
	cpu_caches_describe(j, &claims);
	json_object_end(j);
}
