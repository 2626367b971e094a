/* What the CPU claims about its caches and TLBs, decoded from CPUID.
 *
 * Intel: leaf 4 (deterministic cache parameters), leaf 2 descriptor bytes and
 * leaf 18h (deterministic address translation) for the TLBs. AMD and Hygon:
 * 8000_001Dh (the same layout as Intel's leaf 4), 8000_0005h and 8000_0006h
 * (L1/L2 caches and TLBs), 8000_0019h (1 GiB-page TLBs).
 *
 * The decoders are pure functions of register values, so the tests feed them
 * the values the manuals define and a later reader decodes a recorded run the
 * same way the run did. Integers only: this file is built into the EFI app
 * with -mgeneral-regs-only, and with no libc.
 */
#ifndef MEMPROBE_CPU_CACHES_H
#define MEMPROBE_CPU_CACHES_H

#include <stddef.h>
#include <stdint.h>
#include "arch/x86_64/cpu.h"
#include "lib/machine.h"

/* The registers a decode read, so they can be written out and decoded again. */
struct cpuid_record {
	uint32_t leaf, subleaf;
	struct cpuid_regs r;
};

/* ---- Pure decoders ---------------------------------------------------- */

/* Intel leaf 4 and AMD 8000_001Dh, one subleaf: 1 and *out filled for a
   cache, 0 for the "no more caches" type. */
int cpuid4_decode(const struct cpuid_regs *r, struct cache_desc *out, const char *source);

/* AMD's 4-bit associativity code of 8000_0006h: ways, 0 for fully
   associative; *at_least set where the code names a range. Returns -1 for
   "disabled" and for 9h ("see 8000_001Dh") and reserved codes. */
int amd_assoc_ways(unsigned code, int *at_least);

/* AMD 8000_0005h: L1 data and instruction caches, L1 TLBs for 4 KiB and
   2/4 MiB pages. Returns the number of caches and TLBs appended. */
unsigned amd_l1_decode(const struct cpuid_regs *r, struct cache_claims *c);
/* AMD 8000_0006h: L2 and L3 caches (each only where 8000_001Dh did not
   already describe that level) and the L2 TLBs. */
unsigned amd_l2_decode(const struct cpuid_regs *r, struct cache_claims *c);
/* AMD 8000_0019h: L1 and L2 TLBs for 1 GiB pages. */
unsigned amd_1g_tlb_decode(const struct cpuid_regs *r, struct cache_claims *c);

/* Intel leaf 2: appends the TLBs its descriptor bytes name; sets *use_leaf18
   when a byte says "see leaf 18h" (FEh). Cache descriptors are not decoded:
   every Intel CPU with long mode has leaf 4, which describes them exactly. */
unsigned intel_leaf2_decode(const struct cpuid_regs *r, struct cache_claims *c,
			    int *use_leaf18);
/* Intel leaf 18h, one subleaf: 1 and *out filled, 0 for an invalid subleaf. */
int intel_leaf18_decode(const struct cpuid_regs *r, struct tlb_desc *out);

/* ---- Whole decodes ---------------------------------------------------- */

/* Where registers come from: the live CPU or a recorded set. */
typedef struct cpuid_regs (*cpuid_source_fn)(uint32_t leaf, uint32_t subleaf, void *ctx);

/* Decodes every leaf the vendor defines, recording each register set read
   into c->raw. */
void cpu_caches_decode(struct cache_claims *c, cpuid_source_fn source, void *ctx);
/* cpu_caches_decode over the live CPUID instruction. */
void cpu_caches_read(struct cache_claims *c);
/* A cpuid_source_fn over recorded registers (ctx: a struct cache_claims
   whose raw[] holds them as text); a leaf that was not recorded reads as
   zeros. */
struct cpuid_regs cpuid_from_record(uint32_t leaf, uint32_t subleaf, void *ctx);

/* One record as text, "8000001d.2 00000143 01c0003f 000003ff 00000002",
   and back. format returns the length (the buffer needs CLAIMS_RECORD_TEXT
   bytes); parse returns 0, or -1 when the text is not exactly that form. */
size_t cpuid_record_format(const struct cpuid_record *rec, char *buf);
int cpuid_record_parse(const char *text, size_t len, struct cpuid_record *rec);

#endif
