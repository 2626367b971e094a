/* Thin wrappers over x86-64 instructions: CPUID, MSRs, control registers,
 * descriptor tables, port I/O, the TSC. Header-only so both the EFI app and
 * the host build (where only the unprivileged ones may be called) share them.
 */
#ifndef MEMPROBE_CPU_H
#define MEMPROBE_CPU_H

#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;
	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	return r;
}

static inline uint32_t cpuid_max_leaf(void) { return cpuid(0, 0).eax; }
static inline uint32_t cpuid_max_ext_leaf(void) { return cpuid(0x80000000u, 0).eax; }

/* RDTSC is not ordered against earlier loads: LFENCE before it makes a
   timestamp wait for the work it is meant to close (on AMD this needs
   LFENCE to be dispatch-serialising, which every Zen part sets). */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" :: "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline uint64_t read_cr3(void) { uint64_t v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr4(void) { uint64_t v; __asm__ volatile("mov %%cr4, %0" : "=r"(v)); return v; }
/* Loading CR3 flushes every non-global TLB entry: the "memory" clobber keeps
   the compiler from moving accesses across the switch. */
static inline void write_cr3(uint64_t v) { __asm__ volatile("mov %0, %%cr3" :: "r"(v) : "memory"); }
/* Toggling CR4.PGE is the one way to flush global TLB entries too. */
static inline void write_cr4(uint64_t v) { __asm__ volatile("mov %0, %%cr4" :: "r"(v) : "memory"); }

/* No irq_enable: interrupts come back on with RestoreTPL, as the firmware
   had them (efi/guarded.c). */
static inline void irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }

struct __attribute__((packed)) descriptor_pointer {
	uint16_t limit;
	uint64_t base;
};

static inline void sidt(struct descriptor_pointer *p) { __asm__ volatile("sidt %0" : "=m"(*p)); }
static inline void lidt(const struct descriptor_pointer *p) { __asm__ volatile("lidt %0" :: "m"(*p)); }
static inline void sgdt(struct descriptor_pointer *p) { __asm__ volatile("sgdt %0" : "=m"(*p)); }
/* Only with the descriptors of every segment register in use present at
   the same selectors (arch/x86_64/gdt.h): none is reloaded here. */
static inline void lgdt(const struct descriptor_pointer *p) { __asm__ volatile("lgdt %0" :: "m"(*p) : "memory"); }
static inline uint16_t read_tr(void) { uint16_t v; __asm__ volatile("str %0" : "=r"(v)); return v; }
static inline void load_tr(uint16_t sel) { __asm__ volatile("ltr %0" :: "r"(sel) : "memory"); }
static inline uint16_t read_cs(void) { uint16_t v; __asm__ volatile("mov %%cs, %0" : "=r"(v)); return v; }
static inline uint16_t read_ss(void) { uint16_t v; __asm__ volatile("mov %%ss, %0" : "=r"(v)); return v; }
static inline uint16_t read_ds(void) { uint16_t v; __asm__ volatile("mov %%ds, %0" : "=r"(v)); return v; }
static inline uint16_t read_es(void) { uint16_t v; __asm__ volatile("mov %%es, %0" : "=r"(v)); return v; }

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline uint32_t inl(uint16_t port) { uint32_t v; __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }

#define MSR_IA32_PAT          0x277u
#define MSR_IA32_MTRRCAP      0x0feu
#define MSR_IA32_MTRR_DEF_TYPE 0x2ffu

#define CR4_PGE  (1ull << 7)
#define CR4_LA57 (1ull << 12)
#define CR4_CET  (1ull << 23)

#endif
