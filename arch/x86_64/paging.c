/* arch/paging.h for x86-64: the CPU's own paging state. Which tables are
 * loaded is CR3; CR4.PGE decides whether global TLB entries survive a CR3
 * load, CR4.LA57 whether the firmware runs with 5 levels. */

#include "arch/x86_64/pagetable.h"
#include "arch/x86_64/cpu.h"
#include "lib/fmt.h"

unsigned pt_memattr_index(enum pt_memattr attr) { return pt_memattr_pat_index(attr); }
uint64_t pt_root(const struct pt_builder *b) { return pt_cr3(b); }

void pt_config_read(struct pt_config *cfg, const struct cpuinfo *ci)
{
	cfg->levels = (read_cr4() & CR4_LA57) ? 5 : 4;
	cfg->phys_bits = ci->phys_addr_bits;
	cfg->has_1g = ci->has_1g_pages;
}

void pt_config_extra(const struct pt_config *cfg, char *buf, size_t size)
{
	(void)cfg;
	if (size)
		buf[0] = '\0';
}

int pt_page_size_architected(unsigned page_shift, char *why, size_t why_len)
{
	char size[16];

	if (page_shift == 12 || page_shift == 21 || page_shift == 30)
		return 1;
	mp_format_bytes(size, sizeof size, page_shift < 64 ? 1ull << page_shift : 0);
	if (why)
		mp_snprintf(why, why_len, "%s is not an x86-64 page size (4 KiB, 2 MiB and 1 GiB "
			    "are)", size);
	return 0;
}

int pt_page_size_offered(const struct pt_config *cfg, unsigned page_shift, char *why,
			 size_t why_len)
{
	if (!pt_page_size_architected(page_shift, why, why_len))
		return 0;
	if (page_shift == 30 && !cfg->has_1g) {
		if (why)
			mp_snprintf(why, why_len, "CPUID 8000_0001h EDX[26] (pdpe1gb) is clear on "
				    "this CPU");
		return 0;
	}
	return 1;
}

const char *pt_switch_refusal(void)
{
	if (read_cr4() & CR4_CET)
		return "CR4.CET is set (control-flow enforcement): with shadow stacks the guard's "
		       "unwinding return would raise #CP, so the app never loads its own tables";
	return NULL;
}

/* word[0] the firmware's CR3, word[1] its CR4. If CR4.PGE is set it is
   cleared first, because global entries the firmware left in the TLB would
   otherwise survive the CR3 load. Leaving undoes these in reverse order. */
void pt_switch_to(uint64_t root, struct pt_saved *s)
{
	s->word[0] = read_cr3();
	s->word[1] = read_cr4();
	if (s->word[1] & CR4_PGE)
		write_cr4(s->word[1] & ~CR4_PGE);
	write_cr3(root);
}

void pt_switch_back(const struct pt_saved *s)
{
	write_cr3(s->word[0]);
	if (s->word[1] & CR4_PGE)
		write_cr4(s->word[1]);
}

size_t pt_firmware_facts(struct arch_fact *out, size_t max)
{
	if (max < 1)
		return 0;
	out[0] = (struct arch_fact){ .name = "firmware_cr4", .value = read_cr4() };
	return 1;
}
