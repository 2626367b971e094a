/* PAT, MTRR and effective-type decoding against MSR values computed by hand
 * (MAXPHYADDR 40, so a variable range's mask is 0xff_ffff_f000 minus the
 * range's size, plus the valid bit 0x800).
 */
#include <string.h>

#include "check.h"
#include "arch/x86_64/memtype.h"

#define K(x) ((uint64_t)(x) << 10)
#define M(x) ((uint64_t)(x) << 20)
#define G(x) ((uint64_t)(x) << 30)

static void test_pat(void)
{
	const uint64_t power_on = 0x0007040600070406ull;
	const uint64_t linux_wc = 0x0007010600070106ull;

	CHECK(pat_entry_type(power_on, 0) == MT_WB && pat_entry_type(power_on, 1) == MT_WT &&
	      pat_entry_type(power_on, 2) == MT_UC_MINUS && pat_entry_type(power_on, 3) == MT_UC,
	      "power-on PAT: entries 0..3 are WB, WT, UC-, UC");
	CHECK(pat_entry_type(power_on, 4) == MT_WB && pat_entry_type(power_on, 7) == MT_UC,
	      "power-on PAT: entries 4..7 repeat 0..3");
	CHECK(pat_entry_type(linux_wc, 1) == MT_WC && pat_entry_type(linux_wc, 5) == MT_WC,
	      "a PAT with WC in entries 1 and 5 decodes so");
	CHECK(pat_entry_type(0x02, 0) == MT_RESERVED && pat_entry_type(0x0e, 0) == MT_RESERVED &&
	      pat_entry_type(0x0300000000000000ull, 7) == MT_RESERVED,
	      "PAT encodings 2, 3 and any with bits 7:3 set are reserved");
	CHECK(!strcmp(mem_type_name(MT_WB), "WB") && !strcmp(mem_type_name(MT_UC_MINUS), "UC-") &&
	      !strcmp(mem_type_name(MT_MIXED), "mixed") && !strcmp(mem_type_name(MT_UNDEFINED), "undefined"),
	      "type names");
}

/* Fixed ranges: WB below 640 KiB, UC VGA hole, WP option ROMs, one 4 KiB
   MSR half UC, half WB. Variable ranges overlapping on purpose. */
static struct mtrr_state firmware_like(void)
{
	struct mtrr_state s = {
		.cap = 0x508,        /* VCNT 8, FIX, WC */
		.def_type = 0xc00,   /* E, FE, default UC */
		.fixed = {
			0x0606060606060606ull, 0x0606060606060606ull, 0,
			0x0505050505050505ull, 0x0505050505050505ull, 0, 0,
			0x0505050505050505ull, 0x0606060600000000ull,
			0x0505050505050505ull, 0x0505050505050505ull,
		},
		.phys_bits = 40,
	};
	static const uint64_t pairs[8][2] = {
		{ 0x0000000006, 0xff80000800 }, /* [0, 2G) WB */
		{ 0x0070000000, 0xfff0000800 }, /* [1792M, 2G) UC */
		{ 0x0040000004, 0xfffff00800 }, /* [1G, 1G+1M) WT */
		{ 0x0020000001, 0xfffffff800 }, /* [512M, 512M+4K) WC */
		{ 0x0100000006, 0xff00000800 }, /* [4G, 8G) WB */
		{ 0x0030000000, 0xfff0000000 }, /* UC, valid bit clear */
		{ 0x00c0000005, 0xfffff00800 }, /* [3G, 3G+1M) WP */
		{ 0x0000000006, 0xfff0000800 }, /* [0, 256M) WB again */
	};
	for (unsigned i = 0; i < 8; i++) {
		s.phys_base[i] = pairs[i][0];
		s.phys_mask[i] = pairs[i][1];
	}
	return s;
}

static void expect(const struct mtrr_state *s, uint64_t base, uint64_t len, enum mem_type want,
		   const char *why)
{
	enum mem_type got = mtrr_range_type(s, base, len);
	CHECK(got == want, "MTRR [%#llx, +%#llx) is %s: %s (got %s)", (unsigned long long)base,
	      (unsigned long long)len, mem_type_name(want), why, mem_type_name(got));
}

static void test_mtrr_firmware_like(void)
{
	struct mtrr_state s = firmware_like();

	expect(&s, 0, 0x80000, MT_WB, "fixed 64K ranges");
	expect(&s, 0xa0000, 0x20000, MT_UC, "fixed 16K ranges over the VGA hole");
	expect(&s, 0x9f000, 0x2000, MT_MIXED, "across the 640 KiB edge");
	expect(&s, 0xc0000, 0x8000, MT_WP, "fixed 4K ranges");
	expect(&s, 0xe8000, 0x4000, MT_UC, "low half of FIX4K_E8000");
	expect(&s, 0xec000, 0x4000, MT_WB, "high half of FIX4K_E8000");
	expect(&s, 0xe8000, 0x8000, MT_MIXED, "both halves");
	expect(&s, 0, M(1), MT_MIXED, "the whole first MiB");
	expect(&s, M(1), M(1), MT_WB, "two identical WB ranges overlap");
	expect(&s, 0x70000000, K(4), MT_UC, "UC over WB wins");
	expect(&s, 0x6ffff000, K(8), MT_MIXED, "into the UC range");
	expect(&s, G(1), M(1), MT_WT, "WT over WB gives WT");
	expect(&s, M(512), K(4), MT_UNDEFINED, "WC over WB has no rule");
	expect(&s, M(512) - K(4), K(12), MT_UNDEFINED, "an undefined page makes the range undefined");
	expect(&s, G(2), G(1), MT_UC, "no variable range: the default");
	expect(&s, G(3), M(1), MT_WP, "a lone WP range");
	expect(&s, G(4), G(4), MT_WB, "above 4 GiB");
	expect(&s, G(6), G(4), MT_MIXED, "past the end of the 4..8 GiB range");
	expect(&s, M(768), K(4), MT_WB, "a pair without its valid bit is ignored");
	expect(&s, (1ull << 40) - K(4), K(8), MT_UNDEFINED, "beyond MAXPHYADDR");
	expect(&s, G(1), 0, MT_UNDEFINED, "an empty range");
	expect(&s, 0, 1ull << 40, MT_UNDEFINED, "all of physical memory, WC overlap included");

	s.def_type = 0x800;
	expect(&s, 0xa0000, 0x20000, MT_WB, "fixed ranges disabled (FE=0): variable ranges below 1 MiB");
	s.def_type = 0xc00;
	s.cap = 0x008;
	expect(&s, 0xa0000, 0x20000, MT_WB, "no fixed ranges in MTRRCAP: FE is not enough");
	s.cap = 0x508;
	s.def_type = 0xc06;
	expect(&s, G(2), K(4), MT_WB, "default type WB");
	s.def_type = 0x406;
	expect(&s, G(4), K(4), MT_UC, "MTRRs disabled (E=0): UC everywhere");
	expect(&s, 0, K(4), MT_UC, "MTRRs disabled (E=0): fixed ranges too");
	s.def_type = 0xc00;
	s.fixed[0] = 0x0000000000020000ull;
	expect(&s, 0x20000, 0x10000, MT_RESERVED, "a reserved fixed encoding");
	s.fixed[1] = 0x1e1e1e1e1e1e1e1eull;
	expect(&s, 0x80000, 0x20000, MT_WB, "AMD RdMem/WrMem bits ignored");
	s.cap = 0x521;
	expect(&s, G(4), K(4), MT_UNDEFINED, "VCNT 33 exceeds what the state holds");
}

static void test_mtrr_noncontiguous(void)
{
	/* Mask bit 20 clear: two 4 KiB pieces, at 0x30000000 and 0x30100000. */
	struct mtrr_state s = { .cap = 0x001, .def_type = 0x806, .phys_bits = 40 };

	s.phys_base[0] = 0x30000000;
	s.phys_mask[0] = 0xffffeff800;
	expect(&s, 0x30000000, K(4), MT_UC, "non-contiguous mask, first piece");
	expect(&s, 0x30100000, K(4), MT_UC, "non-contiguous mask, second piece");
	expect(&s, 0x30001000, 0x30100000 - 0x30001000, MT_WB, "between the pieces");
	expect(&s, 0x30200000, K(4), MT_WB, "bit 21 differs: no match");
	expect(&s, 0x30001000, M(2), MT_MIXED, "from the gap into the second piece");
	expect(&s, 0x30000000, M(2), MT_MIXED, "both pieces and the gap");
}

static void test_mtrr_tom2(void)
{
	struct mtrr_state s = { .cap = 0x001, .def_type = 0x800, .phys_bits = 40,
				.amd_tom2 = G(12) };

	s.phys_base[0] = 0x6;
	s.phys_mask[0] = 0xff80000800; /* [0, 2G) WB */
	expect(&s, G(4), G(8), MT_WB, "AMD TOM2: 4 GiB .. TOM2 is WB");
	expect(&s, G(12), K(4), MT_UC, "AMD TOM2: the default above TOM2");
	expect(&s, G(3), G(2), MT_MIXED, "AMD TOM2: the default below 4 GiB");
	s.amd_tom2 = 0;
	expect(&s, G(4), K(4), MT_UC, "without TOM2: the default above 4 GiB");
}

static void test_effective(void)
{
	static const struct { enum mem_type pat, mtrr, want; } cases[] = {
		{ MT_WB, MT_WB, MT_WB }, { MT_WB, MT_WT, MT_WT }, { MT_WB, MT_UC, MT_UC },
		{ MT_WB, MT_WC, MT_WC }, { MT_WB, MT_WP, MT_WP }, { MT_UC_MINUS, MT_WC, MT_WC },
		{ MT_UC_MINUS, MT_WB, MT_UC }, { MT_UC_MINUS, MT_WP, MT_WC }, { MT_WC, MT_UC, MT_WC },
		{ MT_WT, MT_WC, MT_UC }, { MT_WP, MT_WC, MT_UC }, { MT_WP, MT_WT, MT_WP },
		{ MT_WT, MT_WP, MT_WT }, { MT_WT, MT_WB, MT_WT }, { MT_WC, MT_WB, MT_WC },
		{ MT_WB, MT_MIXED, MT_MIXED }, { MT_WB, MT_UNDEFINED, MT_UNDEFINED },
		{ MT_RESERVED, MT_WB, MT_UNDEFINED }, { MT_WB, MT_UC_MINUS, MT_UNDEFINED },
	};
	static const enum mem_type mtrr_types[] = { MT_UC, MT_WC, MT_WT, MT_WB, MT_WP };
	static const enum mem_type pat_types[] = { MT_UC, MT_UC_MINUS, MT_WC, MT_WT, MT_WB, MT_WP };
	int uc_wins = 1, wb_defers = 1;

	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum mem_type got = mem_type_effective(cases[i].pat, cases[i].mtrr);
		CHECK(got == cases[i].want, "PAT %s, MTRR %s: effective %s (got %s)",
		      mem_type_name(cases[i].pat), mem_type_name(cases[i].mtrr),
		      mem_type_name(cases[i].want), mem_type_name(got));
	}
	for (unsigned i = 0; i < 5; i++)
		uc_wins &= mem_type_effective(MT_UC, mtrr_types[i]) == MT_UC;
	for (unsigned i = 0; i < 6; i++) {
		enum mem_type want = pat_types[i] == MT_UC_MINUS ? MT_UC : pat_types[i];
		wb_defers &= mem_type_effective(pat_types[i], MT_WB) == want;
	}
	CHECK(uc_wins, "PAT UC is UC over every MTRR type");
	CHECK(wb_defers, "MTRR WB leaves the PAT type (UC- becoming UC)");
}

int main(void)
{
	test_pat();
	test_mtrr_firmware_like();
	test_mtrr_noncontiguous();
	test_mtrr_tom2();
	test_effective();
	CHECK(mtrr_fixed_msr[0] == 0x250 && mtrr_fixed_msr[2] == 0x259 && mtrr_fixed_msr[3] == 0x268 &&
	      mtrr_fixed_msr[10] == 0x26f && MTRR_PHYSMASK_MSR(7) == 0x20f,
	      "fixed-range and variable MSR indices");
	return check_summary();
}
