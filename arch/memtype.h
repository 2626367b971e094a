/* Memory types: what the CPU will make of a physical range mapped with one
 * of the page tables' attribute indexes (arch/paging.h pt_memattr_index),
 * as text for the report and facts for system.json. x86: the PAT entry, the
 * MTRRs and their combination. Each architecture implements it in
 * arch/NAME/.
 */
#ifndef MEMPROBE_ARCH_MEMTYPE_H
#define MEMPROBE_ARCH_MEMTYPE_H

#include <stddef.h>
#include <stdint.h>
#include "arch/cpu.h"

/* Reads the registers that decide memory types once, each under run (a
   hypervisor may leave one out); later calls use what was read. */
void memtype_read(const struct cpuinfo *ci, arch_guarded_fn run);
/* "PAT WB, MTRR WB, effective WB" */
void memtype_describe(uint64_t base, uint64_t bytes, unsigned attr_index, char *buf, size_t size);
/* 1 when the effective type of the whole range is write-back. */
int memtype_write_back(uint64_t base, uint64_t bytes, unsigned attr_index);
/* The facts behind them, in order, for the "memory_types" object of
   system.json; returns how many were written (at most max). */
size_t memtype_facts(struct arch_fact *out, size_t max);

#endif
