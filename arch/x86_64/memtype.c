/* PAT and MTRR decoding, and their combination into the effective type. */

#include "arch/x86_64/memtype.h"

/* ---- Constants -------------------------------------------------------- */

#define DEF_TYPE_FIXED_ENABLE (1ull << 10)
#define DEF_TYPE_ENABLE       (1ull << 11)
#define CAP_FIXED             (1ull << 8)
#define PHYSMASK_VALID        (1ull << 11)
#define FIXED_TOP             0x100000ull
#define FOUR_GIB              (1ull << 32)
#define UNMATCHED             ~0ull

const uint32_t mtrr_fixed_msr[MTRR_FIXED_COUNT] = {
	0x250, 0x258, 0x259, 0x268, 0x269, 0x26a, 0x26b, 0x26c, 0x26d, 0x26e, 0x26f,
};

/* SDM vol. 3 table "Effective Page-Level Memory Types for Pentium III and
   More Recent Processor Families": rows MTRR UC, WC, WT, WB, WP; columns
   PAT UC, UC-, WC, WT, WB, WP. */
static const uint8_t effective_type[5][6] = {
	{ MT_UC, MT_UC, MT_WC, MT_UC, MT_UC, MT_UC },
	{ MT_UC, MT_WC, MT_WC, MT_UC, MT_WC, MT_UC },
	{ MT_UC, MT_UC, MT_WC, MT_WT, MT_WT, MT_WP },
	{ MT_UC, MT_UC, MT_WC, MT_WT, MT_WB, MT_WP },
	{ MT_UC, MT_WC, MT_WC, MT_WT, MT_WP, MT_WP },
};

/* ---- Private Functions ------------------------------------------------ */

static enum mem_type mtrr_encoding(uint64_t value)
{
	switch (value) {
	case MT_UC: case MT_WC: case MT_WT: case MT_WP: case MT_WB:
		return (enum mem_type)value;
	}
	return MT_RESERVED;
}

static int fixed_enabled(const struct mtrr_state *s)
{
	return (s->def_type & DEF_TYPE_FIXED_ENABLE) && (s->cap & CAP_FIXED);
}

/* 0..512 KiB in 64 KiB pieces, 512..768 KiB in 16 KiB, 768 KiB..1 MiB in
   4 KiB: eight one-byte types per MSR, the lowest address in the low byte. */
static uint64_t fixed_piece_size(uint64_t a)
{
	return a < 0x80000 ? 0x10000 : a < 0xc0000 ? 0x4000 : 0x1000;
}

static enum mem_type fixed_type(const struct mtrr_state *s, uint64_t a)
{
	unsigned piece = a < 0x80000 ? (unsigned)(a >> 16)
		       : a < 0xc0000 ? 8 + (unsigned)((a - 0x80000) >> 14)
				     : 24 + (unsigned)((a - 0xc0000) >> 12);
	/* Bits 4:3 are AMD's RdMem/WrMem; the type is bits 2:0. */
	return mtrr_encoding((s->fixed[piece / 8] >> (8 * (piece % 8))) & 0x7);
}

static uint64_t address_mask(const struct mtrr_state *s)
{
	return ((1ull << s->phys_bits) - 1) & ~0xfffull;
}

static int variable_matches(const struct mtrr_state *s, unsigned i, uint64_t a)
{
	uint64_t m = s->phys_mask[i] & address_mask(s);
	return (s->phys_mask[i] & PHYSMASK_VALID) && (a & m) == (s->phys_base[i] & m);
}

static enum mem_type unmatched_type(const struct mtrr_state *s, uint64_t a)
{
	if (s->amd_tom2 && a >= FOUR_GIB && a < s->amd_tom2)
		return MT_WB;
	return mtrr_encoding(s->def_type & 0xff);
}

static enum mem_type variable_type(const struct mtrr_state *s, uint64_t a)
{
	unsigned seen = 0; /* bit n: a matching range of encoding n; bit 7: reserved */

	for (unsigned i = 0; i < mtrr_variable_count(s->cap); i++) {
		if (variable_matches(s, i, a)) {
			enum mem_type t = mtrr_encoding(s->phys_base[i] & 0xff);
			seen |= 1u << (t == MT_RESERVED ? 7 : t);
		}
	}
	if (!seen)
		return unmatched_type(s, a);
	if (seen & (1u << 7))
		return MT_RESERVED;
	if (!(seen & (seen - 1)))
		return (enum mem_type)__builtin_ctz(seen);
	if (seen & (1u << MT_UC))
		return MT_UC;
	if (seen == ((1u << MT_WT) | (1u << MT_WB)))
		return MT_WT;
	return MT_UNDEFINED;
}

static enum mem_type type_at(const struct mtrr_state *s, uint64_t a)
{
	if (a < FIXED_TOP && fixed_enabled(s))
		return fixed_type(s, a);
	return variable_type(s, a);
}

/* The next address after a where variable range i may start or stop
   matching. A contiguous mask is one aligned block; a mask with holes
   repeats, so its match can change at every multiple of its lowest bit. */
static uint64_t variable_next(const struct mtrr_state *s, unsigned i, uint64_t a)
{
	uint64_t m = s->phys_mask[i] & address_mask(s), low = m & -m;
	uint64_t start = s->phys_base[i] & m;

	if (!(s->phys_mask[i] & PHYSMASK_VALID) || !m)
		return UNMATCHED;
	if (m + low != 1ull << s->phys_bits)
		return (a | (low - 1)) + 1;
	return a < start ? start : a < start + low ? start + low : UNMATCHED;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The next address after a where the type may change. */
static uint64_t next_boundary(const struct mtrr_state *s, uint64_t a)
{
	uint64_t next = 1ull << s->phys_bits;

	if (a < FIXED_TOP && fixed_enabled(s))
		next = min_u64(next, (a & ~(fixed_piece_size(a) - 1)) + fixed_piece_size(a));
	for (unsigned i = 0; i < mtrr_variable_count(s->cap); i++)
		next = min_u64(next, variable_next(s, i, a));
	if (s->amd_tom2 && a < FOUR_GIB)
		next = min_u64(next, FOUR_GIB);
	if (s->amd_tom2 && a < s->amd_tom2)
		next = min_u64(next, s->amd_tom2);
	return next;
}

static int pat_column(enum mem_type t)
{
	switch (t) {
	case MT_UC: return 0;
	case MT_UC_MINUS: return 1;
	case MT_WC: return 2;
	case MT_WT: return 3;
	case MT_WB: return 4;
	case MT_WP: return 5;
	default: return -1;
	}
}

static int mtrr_row(enum mem_type t)
{
	switch (t) {
	case MT_UC: return 0;
	case MT_WC: return 1;
	case MT_WT: return 2;
	case MT_WB: return 3;
	case MT_WP: return 4;
	default: return -1;
	}
}

/* ---- Public Functions ------------------------------------------------- */

const char *mem_type_name(enum mem_type type)
{
	switch (type) {
	case MT_UC: return "UC";
	case MT_WC: return "WC";
	case MT_WT: return "WT";
	case MT_WP: return "WP";
	case MT_WB: return "WB";
	case MT_UC_MINUS: return "UC-";
	case MT_RESERVED: return "reserved";
	case MT_MIXED: return "mixed";
	case MT_UNDEFINED: return "undefined";
	}
	return "unknown";
}

enum mem_type pat_entry_type(uint64_t pat_msr, unsigned index)
{
	uint64_t field = (pat_msr >> (8 * (index & 7))) & 0xff;
	return field == MT_UC_MINUS ? MT_UC_MINUS : mtrr_encoding(field);
}

enum mem_type mtrr_range_type(const struct mtrr_state *s, uint64_t base, uint64_t length)
{
	uint64_t end = base + length, a = base;
	enum mem_type result;

	if (!length || s->phys_bits < 32 || s->phys_bits > 52 || end < base ||
	    end > 1ull << s->phys_bits || mtrr_variable_count(s->cap) > MTRR_VARIABLE_MAX)
		return MT_UNDEFINED;
	if (!(s->def_type & DEF_TYPE_ENABLE))
		return MT_UC;
	result = type_at(s, a);
	while (result != MT_UNDEFINED) {
		enum mem_type t;
		a = next_boundary(s, a);
		if (a >= end)
			break;
		t = type_at(s, a);
		if (t == MT_UNDEFINED || t != result)
			result = t == MT_UNDEFINED ? MT_UNDEFINED : MT_MIXED;
	}
	return result;
}

enum mem_type mem_type_effective(enum mem_type pat, enum mem_type mtrr)
{
	int column = pat_column(pat), row = mtrr_row(mtrr);

	if (mtrr == MT_MIXED)
		return MT_MIXED;
	if (column < 0 || row < 0)
		return MT_UNDEFINED;
	return (enum mem_type)effective_type[row][column];
}
