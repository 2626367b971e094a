/* The memory type of a probe buffer as the CPU will see it: the memory
   attribute the page-table entries select and, where the architecture has
   them, the range registers over it (x86: the PAT entry, the MTRRs, and
   the effective type of the two combined; arch/memtype.h). */
#ifndef MEMPROBE_MEMTYPES_H
#define MEMPROBE_MEMTYPES_H

#include <stddef.h>
#include <stdint.h>

/* Reads the registers that decide memory types once; later calls use what
   was read. */
void memtypes_init(void);
/* "PAT WB, MTRR WB, effective WB" */
void memtypes_describe(uint64_t base, uint64_t bytes, unsigned attr_index, char *buf, size_t size);
/* 1 when the effective type of the whole range is write-back. */
int memtypes_write_back(uint64_t base, uint64_t bytes, unsigned attr_index);

#endif
