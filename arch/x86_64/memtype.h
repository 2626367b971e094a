/* Memory types: what a PAT entry, the MTRRs and their combination make of a
 * physical range. Pure decoders: the caller reads the MSRs (rdmsr, cpu.h)
 * and passes the values, so the host tests feed hand-computed ones.
 */
#ifndef MEMPROBE_MEMTYPE_H
#define MEMPROBE_MEMTYPE_H

#include <stdint.h>

/* The first six are the architectural encodings (SDM vol. 3 "Memory Types
   That Can Be Encoded With PAT"); UC- exists only in the PAT. */
enum mem_type {
	MT_UC = 0,
	MT_WC = 1,
	MT_WT = 4,
	MT_WP = 5,
	MT_WB = 6,
	MT_UC_MINUS = 7,
	MT_RESERVED = 8, /* an encoding the SDM reserves (writing it raises #GP) */
	MT_MIXED,        /* the range holds more than one type */
	MT_UNDEFINED,    /* overlapping MTRRs the SDM gives no rule for, or a
			    query the registers cannot answer */
};

/* "UC", "WC", "WT", "WP", "WB", "UC-", "reserved", "mixed", "undefined". */
const char *mem_type_name(enum mem_type type);

/* The type in PAT entry index (0..7) of an IA32_PAT value (MSR 277h). */
enum mem_type pat_entry_type(uint64_t pat_msr, unsigned index);

#define MTRR_FIXED_COUNT 11u
#define MTRR_VARIABLE_MAX 32u
#define MTRR_PHYSBASE_MSR(n) (0x200u + 2u * (n))
#define MTRR_PHYSMASK_MSR(n) (0x201u + 2u * (n))

/* MSR indices of the fixed-range MTRRs in the order of mtrr_state.fixed:
   64K_00000, 16K_80000, 16K_A0000, 4K_C0000 .. 4K_F8000. */
extern const uint32_t mtrr_fixed_msr[MTRR_FIXED_COUNT];

struct mtrr_state {
	uint64_t cap;                          /* IA32_MTRRCAP (FEh) */
	uint64_t def_type;                     /* IA32_MTRR_DEF_TYPE (2FFh) */
	uint64_t fixed[MTRR_FIXED_COUNT];      /* read when cap.FIX is set */
	uint64_t phys_base[MTRR_VARIABLE_MAX]; /* pairs 0 .. VCNT-1 */
	uint64_t phys_mask[MTRR_VARIABLE_MAX];
	unsigned phys_bits;                    /* MAXPHYADDR */
	/* AMD: the TOM2 MSR (C001_001Dh) when SYSCFG (C001_0010h) has both
	   MtrrTom2En (bit 21) and Tom2ForceMemTypeWB (bit 22) set, else 0.
	   Memory in [4 GiB, TOM2) that no variable MTRR matches is then WB,
	   not the default type. */
	uint64_t amd_tom2;
};

/* VCNT: the variable pairs this CPU has (IA32_MTRRCAP[7:0]). */
static inline unsigned mtrr_variable_count(uint64_t cap) { return (unsigned)(cap & 0xff); }

/* The MTRR type of [base, base + length): one type, MT_MIXED, or
   MT_UNDEFINED when any part of it is undefined, when length is 0, when the
   range passes 2^phys_bits, or VCNT exceeds MTRR_VARIABLE_MAX. SDM vol. 3
   "MTRR Precedences": MTRRs disabled -> UC; below 1 MiB the fixed ranges
   when enabled; else the variable ranges (identical types agree, UC beats
   all, WT beats WB, anything else undefined); else the default type. */
enum mem_type mtrr_range_type(const struct mtrr_state *s, uint64_t base, uint64_t length);

/* The effective type of a page from its PAT type and MTRR type (SDM vol. 3
   "Effective Page-Level Memory Types", CR0.CD = 0). MT_MIXED passes through;
   anything else that is not a type gives MT_UNDEFINED. */
enum mem_type mem_type_effective(enum mem_type pat, enum mem_type mtrr);

#endif
