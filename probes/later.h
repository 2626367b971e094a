/* The latency meter's pure parts (Aces Hardware's LATency metER, 2003):
 * its parameter rules, its tables and its delay classes. probe_later in
 * later.c measures with them; docs/METHOD.md explains the method.
 */
#ifndef MEMPROBE_LATER_H
#define MEMPROBE_LATER_H

#include <stddef.h>
#include <stdint.h>
#include "core/config.h"

/* Highest later.table, later.block, later.stride. Word indices are 32-bit,
   as in the seed, and the delay's divisions work on the index with its top
   bit set (later.c, DIVIDE_PAIR): so indices stay below 2^31 and the table
   below 8 GiB. */
#define LATER_TABLE_BYTES_MAX (8ull << 30)

/* The settings of the later probe: its keys' values, in its block of
   struct config, read through LATER_SETTINGS(c); its keys, ranges and
   defaults are its registry row's (later.c). */
struct later_settings {
	uint64_t table;           /* bytes */
	uint64_t block;           /* bytes */
	uint64_t stride;          /* bytes */
	uint64_t steps;           /* accesses per run */
	double precision;
	unsigned min_repeat, max_repeat;
};
#define LATER_SETTINGS(c) PROBE_SETTINGS(struct later_settings, c, PROBE_ID_LATER)

/* 0 when later.table, later.block, later.stride, later.steps,
   later.precision, later.min_repeat and later.max_repeat can be measured
   with; else -1 with why[] naming the key and the rule it breaks. */
int later_check_params(const struct config *c, char *why, size_t why_len);

/* Links the table_bytes / stride slots of `table` (one slot every `stride`
   bytes; a slot's value is the word index of the next slot) into one cycle:
   block by block in address order, each block's block_bytes / stride slots
   in a random order of its own, the last slot of one block leading to a
   random first slot of the next and the last block's back to the first.
   Only the slots' first words are written. `order` is scratch for
   block_bytes / stride entries. With block_bytes == stride it is the plain
   line-by-line walk. The parameters must pass later_check_params. */
void later_buildtab(uint32_t *table, uint64_t table_bytes, uint64_t block_bytes,
		    uint64_t stride, uint32_t *order, uint64_t seed);

/* Division pairs per access for a delay factor: the factor rounded up to
   1, 2, 4, 8, 16 or 64 (the seed's classes); 0 when above 64. */
unsigned later_delay_pairs(uint64_t factor);

#endif
