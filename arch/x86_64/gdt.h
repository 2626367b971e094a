/* The app's own GDT and TSS for the guarded state, one set per CPU.
 *
 * Exception delivery reads the GDT for the gate's code selector, and IRET
 * reads it for the stack selector it pops: with the firmware's GDT loaded
 * that is memory the firmware chose, which on some machines lies outside
 * the RAM the app's tables map, so the first NMI would be a triple fault.
 * The app's GDT lies in its own image. It puts a 64-bit code descriptor at
 * the firmware's code selector and a data descriptor at each of its data
 * selectors, so no segment register is reloaded and there is no instant,
 * between loading the GDT and the IDT, at which a selector in use means
 * nothing: an NMI in that window is delivered either way.
 *
 * The TSS gives #DF and #MC stacks of their own (IST), so that a double
 * fault caused by the stack can still be reported. It is loaded (LTR) only
 * where the firmware runs without a TSS (TR 0, as OVMF does): a firmware
 * TSS could not be given back, since LTR refuses a busy descriptor.
 */
#ifndef MEMPROBE_X86_64_GDT_H
#define MEMPROBE_X86_64_GDT_H

#include <stddef.h>
#include <stdint.h>
#include "arch/x86_64/guard.h"

#define GDT_ENTRIES 32u
/* The TSS takes the last two entries (a 16-byte system descriptor). */
#define GDT_TSS_INDEX (GDT_ENTRIES - 2)
#define GDT_TSS_SELECTOR ((uint16_t)(GDT_TSS_INDEX * 8))
#define IST_STACK_BYTES 4096u
#define IST_DOUBLE_FAULT 1u   /* TSS.IST1 */
#define IST_MACHINE_CHECK 2u  /* TSS.IST2 */

/* The access byte and the flags nibble of a segment descriptor. */
#define GDT_ACCESS_CODE 0x9au  /* present, DPL 0, code, execute/read */
#define GDT_ACCESS_DATA 0x92u  /* present, DPL 0, data, read/write */
#define GDT_FLAGS_CODE64 0xau  /* 4 KiB granularity, long mode */
#define GDT_FLAGS_DATA 0xcu    /* 4 KiB granularity, 32-bit default */
#define TSS_TYPE_AVAILABLE 0x9u
#define TSS_TYPE_BUSY 0xbu

struct __attribute__((packed)) tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t io_map_base;
};

/* One CPU's tables: build them once, on that CPU, with gdt_build. */
struct cpu_tables {
	uint64_t gdt[GDT_ENTRIES] __attribute__((aligned(16)));
	struct tss64 tss __attribute__((aligned(16)));
	int built;
	int uses_own_gdt;        /* 0: the firmware's GDT stays (see problem) */
	int uses_tss;            /* 1: TR holds the app's TSS, #DF/#MC on IST stacks */
	const char *problem;     /* why not, when either is 0; "" otherwise */
	struct guard_context guard;  /* this CPU's guard_call and last fault */
	uint8_t ist_stack[2][IST_STACK_BYTES] __attribute__((aligned(16)));
};

/* The firmware's segment selectors on this CPU when its tables are built. */
struct cpu_selectors {
	uint16_t cs, ss, ds, es, tr;
};

/* A code or data descriptor (SDM vol. 3A, "Segment Descriptors"). */
uint64_t gdt_segment(uint32_t base, uint32_t limit, unsigned access, unsigned flags);
/* A 64-bit TSS descriptor of `type` (available or busy): two entries. */
void gdt_tss(uint64_t base, uint32_t limit, unsigned type, uint64_t out[2]);

/* Fills t for a CPU running with sel, with the TSS's IST stacks at t's own
   stacks' tops. Pure: touches no register, so the host tests run it. */
void gdt_build(struct cpu_tables *t, const struct cpu_selectors *sel);

#endif
