/* What a machine is, as plain data: the CPU's identity and the caches and
 * TLBs it claims. The architecture code (arch/) fills these from the CPU;
 * the probes' analysis and the system description read them. No hardware
 * access here, and nothing that knows a probe.
 */
#ifndef MEMPROBE_MACHINE_H
#define MEMPROBE_MACHINE_H

#include <stddef.h>
#include <stdint.h>

struct json;

struct cpuinfo {
	char vendor[13];          /* "AuthenticAMD", "GenuineIntel", ... */
	char brand[49];           /* the brand string, leading blanks dropped */
	unsigned family, model, stepping;   /* display values (extended folded in) */
	unsigned phys_addr_bits;  /* the physical address width (MAXPHYADDR) */
	unsigned virt_addr_bits;
	int has_1g_pages;         /* the CPU maps 1 GiB pages */
	/* Page-table entries pick their memory type from a table the CPU holds
	   (x86-64: the PAT; AArch64: MAIR, always there). */
	int has_attr_table;
	/* Registers that set the memory type of physical ranges under the
	   page tables' choice (x86-64: the MTRRs; AArch64 has none). */
	int has_range_types;
	int hypervisor;           /* running under a hypervisor */
	char hypervisor_id[13];   /* "TCGTCGTCGTCG", "KVMKVMKVM" */
};

/* The instruction sets, for code written at run time (probes/codegen.h). */
#define MACHINE_ISA_X86_64 1u
#define MACHINE_ISA_AARCH64 2u

enum cache_kind { CACHE_DATA = 1, CACHE_INSTRUCTION = 2, CACHE_UNIFIED = 3 };

struct cache_desc {
	unsigned level;
	enum cache_kind kind;
	uint64_t size_bytes;
	unsigned ways;            /* 0: fully associative */
	int ways_at_least;        /* 1: AMD's 4-bit code names a range; ways is its floor */
	unsigned line_bytes;
	unsigned sets;            /* 0 where the leaf gives no set count */
	unsigned shared_by;       /* logical processors sharing it; 0 unknown */
	const char *source;       /* "CPUID 8000_001Dh", ... */
};

enum tlb_kind { TLB_DATA = 1, TLB_INSTRUCTION = 2, TLB_UNIFIED = 3,
		TLB_LOAD = 4, TLB_STORE = 5 };

/* Page sizes a TLB holds, as bits (the order of leaf 18h EBX[3:0]). */
#define TLB_PAGE_4K (1u << 0)
#define TLB_PAGE_2M (1u << 1)
#define TLB_PAGE_4M (1u << 2)
#define TLB_PAGE_1G (1u << 3)

/* The TLB_PAGE_* bit of pages of 1 << page_shift bytes (12, 21 or 30); 0
   for any other size. */
unsigned tlb_page_bit(unsigned page_shift);

struct tlb_desc {
	unsigned level;
	enum tlb_kind kind;
	unsigned pages;           /* TLB_PAGE_* bits */
	unsigned entries;
	unsigned ways;            /* 0: fully associative; WAYS_UNSTATED */
	int ways_at_least;
	const char *source;
	int documented;           /* the vendor's documented figures for the model,
				     where the registers are empty: no hypervisor
				     filled them */
};

/* Some leaf 2 descriptors give the entries but not the associativity. */
#define WAYS_UNSTATED 0xffffffffu

/* A record of raw registers as text, with its terminating NUL. */
#define CLAIMS_RECORD_TEXT 48
#define CLAIMS_MAX_CACHES 8
#define CLAIMS_MAX_TLBS 24
#define CLAIMS_MAX_RECORDS 48

struct cache_claims {
	char vendor[13];
	/* Under a hypervisor (CPUID 1 ECX[31] on x86), which may back large guest pages
	   with small ones, so TLB reach need not follow the guest's pages. */
	int hypervisor;
	/* The hypervisor's vendor signature ("KVMKVMKVM", "TCGTCGTCGTCG": QEMU's
	   emulated CPU, whose timings are the emulator's), or "". */
	char hypervisor_id[13];
	struct cache_desc cache[CLAIMS_MAX_CACHES];
	unsigned ncaches;
	struct tlb_desc tlb[CLAIMS_MAX_TLBS];
	unsigned ntlbs;
	/* The registers the claims were decoded from, as text the platform's
	   decoder reads back: for x86 "8000001d.2 00000143 01c0003f 000003ff
	   00000002" (leaf.subleaf eax ebx ecx edx), so a later reader decodes a
	   recorded run's claims, not those of the machine it runs on. */
	char raw[CLAIMS_MAX_RECORDS][CLAIMS_RECORD_TEXT];
	unsigned nraw;
	/* Set when the CPU gave more than the tables hold: what is listed is
	   true, but not everything is listed. */
	int truncated;
};

/* Short names for the report: "data", "4K+2M", "L1d". */
const char *cache_kind_name(enum cache_kind k);
const char *tlb_kind_name(enum tlb_kind k);
/* Writes "4K+2M+4M" and the like; returns the length (buf needs 16 bytes). */
size_t tlb_pages_name(unsigned pages, char *buf);

/* The largest data or unified cache of the claims, bytes; 0: none. */
uint64_t claims_largest_cache(const struct cache_claims *c);

/* Whether the claims are those of QEMU's emulated CPU (the hypervisor
   signature "TCGTCGTCGTCG"): every timing is then the emulator's, and
   says nothing of the hardware the registers describe. */
int claims_emulated(const struct cache_claims *c);

/* Where the claims came from, for the report: each distinct source of the
   caches and TLBs listed, in order, ", "-separated ("CPUID 8000_001Dh,
   CPUID 8000_0005h", "CLIDR_EL1/CCSIDR_EL1"), or "" when none is listed. */
void claims_sources(const struct cache_claims *c, char *buf, size_t size);

/* The "caches" and "tlbs" arrays, the flags and the raw registers
   ("cpuid_cache_leaves") of a claims description in system.json. */
void claims_describe(struct json *j, const struct cache_claims *c);
/* The "cpu" object of system.json: identity, the microcode revision (0:
   not readable) and the claims. */
void machine_describe_cpu(struct json *j, const struct cpuinfo *ci, uint64_t microcode,
			  const struct cache_claims *claims);

/* Where one logical CPU sits: its CPU id and its package, core and
   thread, as the CPU itself reports them. */
struct cpu_topology {
	uint32_t cpu_id;          /* the architecture's CPU id (arch/cpu.h's
				     cpu_table_id): x86 the x2APIC ID of CPUID
				     1Fh/0Bh, else the initial APIC ID of CPUID
				     01h; AArch64 the MPIDR affinity */
	unsigned package, core, thread;
	const char *source;       /* which leaf said so, one phrase; NULL: not read
				     (the CPU could not be reached) */
};

/* system.json's "cpus" array: one object per logical CPU (its number, the
   platform's own ID for it, and its topology or why there is none). */
void machine_describe_topology(struct json *j, const struct cpu_topology *t,
			       const uint64_t *platform_id, const char *platform_id_name,
			       unsigned count);

#endif
