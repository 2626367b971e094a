/* arch/memtype.h for AArch64: a range's memory type is the MAIR attribute
 * its leaf selects, and nothing else (Arm has no MTRRs to combine with),
 * so the app's own MAIR (arch/aarch64/mair.h) decides it completely.
 */

#include "arch/memtype.h"
#include "arch/aarch64/mair.h"
#include "arch/aarch64/sysreg.h"
#include "lib/fmt.h"

static uint64_t firmware_mair;
static int read_done;

void memtype_read(const struct cpuinfo *ci, arch_guarded_fn run)
{
	(void)ci;
	(void)run;
	if (read_done)
		return;
	firmware_mair = current_el() == 2 ? sysreg_read(mair_el2) : sysreg_read(mair_el1);
	read_done = 1;
}

static uint64_t attr_of(unsigned attr_index)
{
	return (MAIR_APP >> (8 * (attr_index & 7))) & 0xff;
}

void memtype_describe(uint64_t base, uint64_t bytes, unsigned attr_index, char *buf, size_t size)
{
	uint64_t attr = attr_of(attr_index);

	(void)base;
	(void)bytes;
	mp_snprintf(buf, size, "MAIR attr%u 0x%02llx, effective %s", attr_index,
		    (unsigned long long)attr,
		    attr == MAIR_ATTR_WB ? "normal WB" :
		    attr == MAIR_ATTR_DEVICE ? "device nGnRnE" : "other");
}

int memtype_write_back(uint64_t base, uint64_t bytes, unsigned attr_index)
{
	(void)base;
	(void)bytes;
	return attr_of(attr_index) == MAIR_ATTR_WB;
}

size_t memtype_facts(struct arch_fact *out, size_t max)
{
	size_t n = 0;

	if (n < max)
		out[n++] = (struct arch_fact){ .name = "app_mair", .value = MAIR_APP };
	if (n < max && read_done)
		out[n++] = (struct arch_fact){ .name = "firmware_mair", .value = firmware_mair };
	return n;
}
