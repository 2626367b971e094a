/* The memory type of a probe buffer as the CPU will see it: the PAT entry
   the page-table entries select, the MTRRs over the physical range, and the
   effective type of the two combined. */
#ifndef MEMPROBE_MEMTYPES_H
#define MEMPROBE_MEMTYPES_H

#include <stddef.h>
#include <stdint.h>

struct json;

/* Reads IA32_PAT and the MTRRs once; later calls use what was read. */
void memtypes_init(void);
/* "PAT WB, MTRR WB, effective WB" */
void memtypes_describe(uint64_t base, uint64_t bytes, unsigned attr_index, char *buf, size_t size);
/* 1 when the effective type of the whole range is write-back. */
int memtypes_write_back(uint64_t base, uint64_t bytes, unsigned attr_index);
/* The "memory_types" members of system.json. */
void memtypes_json(struct json *j);

#endif
