/* Encoding the app's GDT and TSS (see gdt.h). */

#include "arch/x86_64/gdt.h"
#include "lib/fmt.h"

uint64_t gdt_segment(uint32_t base, uint32_t limit, unsigned access, unsigned flags)
{
	return (uint64_t)(limit & 0xffffu) | (uint64_t)(base & 0xffffffu) << 16 |
	       (uint64_t)(access & 0xffu) << 40 | (uint64_t)((limit >> 16) & 0xfu) << 48 |
	       (uint64_t)(flags & 0xfu) << 52 | (uint64_t)(base >> 24) << 56;
}

void gdt_tss(uint64_t base, uint32_t limit, unsigned type, uint64_t out[2])
{
	/* A system descriptor: S clear, present, DPL 0, byte granularity; the
	   upper entry holds base[63:32]. */
	out[0] = gdt_segment((uint32_t)base, limit, 0x80u | (type & 0xfu), 0);
	out[1] = base >> 32;
}

/* A data descriptor at selector sel, unless it is null (allowed for data
   segments at CPL 0 in 64-bit mode) or the code descriptor's. */
static const char *place_data(struct cpu_tables *t, uint16_t sel, uint16_t cs)
{
	unsigned index = sel >> 3;

	if (!(sel & ~7u))
		return "";
	if (sel & 4u)
		return "a firmware data selector points into an LDT";
	if (index >= GDT_TSS_INDEX)
		return "a firmware data selector lies beyond the app's GDT";
	if (index == (unsigned)(cs >> 3))
		return "a firmware data selector is its code selector";
	t->gdt[index] = gdt_segment(0, 0xfffffu, GDT_ACCESS_DATA, GDT_FLAGS_DATA);
	return "";
}

void gdt_build(struct cpu_tables *t, const struct cpu_selectors *sel)
{
	const uint16_t data[] = { sel->ss, sel->ds, sel->es };
	unsigned cs_index = sel->cs >> 3;

	mp_memset(t->gdt, 0, sizeof t->gdt);
	mp_memset(&t->tss, 0, sizeof t->tss);
	t->built = 1;
	t->uses_own_gdt = t->uses_tss = 0;
	t->problem = "";
	if (!cs_index || (sel->cs & 4u) || cs_index >= GDT_TSS_INDEX) {
		t->problem = "the firmware's code selector cannot be placed in the app's GDT";
		return;
	}
	t->gdt[cs_index] = gdt_segment(0, 0xfffffu, GDT_ACCESS_CODE, GDT_FLAGS_CODE64);
	for (size_t i = 0; i < sizeof data / sizeof *data; i++) {
		const char *why = place_data(t, data[i], sel->cs);
		if (why[0]) {
			t->problem = why;
			return;
		}
	}
	t->uses_own_gdt = 1;
	t->tss.io_map_base = sizeof t->tss;   /* no I/O permission map */
	t->tss.ist[IST_DOUBLE_FAULT - 1] = (uint64_t)(uintptr_t)(t->ist_stack[0] + IST_STACK_BYTES);
	t->tss.ist[IST_MACHINE_CHECK - 1] = (uint64_t)(uintptr_t)(t->ist_stack[1] + IST_STACK_BYTES);
	gdt_tss((uint64_t)(uintptr_t)&t->tss, sizeof t->tss - 1, TSS_TYPE_AVAILABLE,
		&t->gdt[GDT_TSS_INDEX]);
	if (sel->tr) {
		t->problem = "the firmware has a TSS loaded, which could not be given back: #DF "
			     "and #MC run on the interrupted stack";
		return;
	}
	t->uses_tss = 1;
}
