/* The app's GDT and TSS (arch/x86_64/gdt.c): descriptors encoded as the
   SDM lays them out, the firmware's selectors given the same meaning, the
   TSS's IST stacks, and every firmware layout that cannot be mirrored
   refused with its reason. */

#include <stddef.h>
#include <string.h>

#include "check.h"
#include "arch/x86_64/gdt.h"

static struct cpu_tables t;

static void test_encoding(void)
{
	uint64_t tss[2];

	CHECK(gdt_segment(0, 0xfffff, GDT_ACCESS_CODE, GDT_FLAGS_CODE64) == 0x00af9a000000ffffull,
	      "64-bit code: 0x00af9a000000ffff");
	CHECK(gdt_segment(0, 0xfffff, GDT_ACCESS_DATA, GDT_FLAGS_DATA) == 0x00cf92000000ffffull,
	      "flat data: 0x00cf92000000ffff");
	CHECK(gdt_segment(0x12345678, 0xabcde, 0x92, 0x4) == 0x124a92345678bcdeull,
	      "base and limit scattered over their fields");
	gdt_tss(0xffff8123456789abull, 103, TSS_TYPE_AVAILABLE, tss);
	/* limit 0x0067, base[23:0] 0x6789ab, access 0x89, base[31:24] 0x45. */
	CHECK(tss[0] == 0x4500896789ab0067ull,
	      "TSS low half: limit 103, base[31:0], type 9 present (0x%016llx)",
	      (unsigned long long)tss[0]);
	CHECK(tss[1] == 0xffff8123ull, "TSS high half: base[63:32]");
	gdt_tss(0x1000, 103, TSS_TYPE_BUSY, tss);
	CHECK(((tss[0] >> 40) & 0xff) == 0x8b, "a busy TSS is type 0xb");
	CHECK(sizeof(struct tss64) == 104 && offsetof(struct tss64, ist) == 36 &&
	      offsetof(struct tss64, io_map_base) == 102, "the TSS is laid out as the SDM's");
}

/* OVMF's layout: code 0x38, data 0x30 everywhere, no TSS. */
static void test_ovmf_like(void)
{
	struct cpu_selectors sel = { .cs = 0x38, .ss = 0x30, .ds = 0x30, .es = 0x30, .tr = 0 };
	unsigned used = 0;

	memset(&t, 0xee, sizeof t);
	gdt_build(&t, &sel);
	CHECK(t.built && t.uses_own_gdt && t.uses_tss && !t.problem[0],
	      "OVMF's selectors: the app's GDT and TSS are used");
	CHECK(t.gdt[7] == 0x00af9a000000ffffull && t.gdt[6] == 0x00cf92000000ffffull,
	      "code at the firmware's 0x38, data at its 0x30");
	for (unsigned i = 0; i < GDT_TSS_INDEX; i++)
		used += t.gdt[i] != 0;
	CHECK(used == 2 && t.gdt[0] == 0, "nothing else below the TSS, the null descriptor null");
	CHECK(((t.gdt[GDT_TSS_INDEX] >> 40) & 0xff) == 0x89 &&
	      (t.gdt[GDT_TSS_INDEX] & 0xffff) == sizeof t.tss - 1,
	      "the TSS descriptor: available, limit 103");
	CHECK(t.tss.ist[IST_DOUBLE_FAULT - 1] == (uint64_t)(uintptr_t)(t.ist_stack[0] + IST_STACK_BYTES) &&
	      t.tss.ist[IST_MACHINE_CHECK - 1] == (uint64_t)(uintptr_t)(t.ist_stack[1] + IST_STACK_BYTES) &&
	      t.tss.ist[IST_DOUBLE_FAULT - 1] % 16 == 0 && t.tss.ist[2] == 0,
	      "#DF and #MC stacks: their own, 16-byte aligned tops; no other IST");
	CHECK(t.tss.io_map_base == 104 && t.tss.rsp[0] == 0, "no I/O map, no ring stacks");
}

static void test_refusals(void)
{
	static const struct {
		struct cpu_selectors sel;
		int own_gdt, tss;
		const char *why;
	} cases[] = {
		{ { 0x08, 0x10, 0x10, 0x10, 0x40 }, 1, 0, "the firmware has a TSS loaded" },
		{ { 0x08, 0, 0, 0, 0 }, 1, 1, "" },
		{ { 0, 0x10, 0x10, 0x10, 0 }, 0, 0, "code selector cannot be placed" },
		{ { 0xf0, 0x10, 0x10, 0x10, 0 }, 0, 0, "code selector cannot be placed" },
		{ { 0x0c, 0x10, 0x10, 0x10, 0 }, 0, 0, "code selector cannot be placed" },
		{ { 0x08, 0x08, 0x10, 0x10, 0 }, 0, 0, "data selector is its code selector" },
		{ { 0x08, 0x10, 0x1f8, 0x10, 0 }, 0, 0, "beyond the app's GDT" },
		{ { 0x08, 0x10, 0x10, 0x14, 0 }, 0, 0, "points into an LDT" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		gdt_build(&t, &cases[i].sel);
		CHECK(t.uses_own_gdt == cases[i].own_gdt && t.uses_tss == cases[i].tss &&
		      (cases[i].why[0] ? strstr(t.problem, cases[i].why) != NULL : !t.problem[0]),
		      "cs 0x%x ss 0x%x ds 0x%x es 0x%x tr 0x%x: own GDT %d, TSS %d (%s)",
		      cases[i].sel.cs, cases[i].sel.ss, cases[i].sel.ds, cases[i].sel.es,
		      cases[i].sel.tr, t.uses_own_gdt, t.uses_tss, t.problem);
	}
}

int main(void)
{
	test_encoding();
	test_ovmf_like();
	test_refusals();
	return check_summary();
}
