/* The mlp probe's chases: one random cycle laid out so that k pointers can
 * start evenly spaced round it, and the loop that follows k of them at
 * once, each step of each a dependent load.
 *
 * Up to MLP_REGISTER_CHASES chases the loop holds every pointer in a
 * register of its own (a function per k, the pointers named locals), so a
 * step is one load and nothing else; past that the pointers live in an
 * array in memory and each step adds one load and one store of the
 * pointer, the store forwarded to the next step's load: a few cycles that
 * add to every chase's step, visible at cache levels and not at memory's
 * latency (docs/METHOD.md, "The mlp probe").
 */
#ifndef MEMPROBE_MLP_KERNEL_H
#define MEMPROBE_MLP_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* x86-64 has 15 general registers beside the stack pointer: 12 pointers,
   the step count and the array's address leave one spare. AArch64 has
   more, and keeps the same split, so both architectures' points come from
   the same forms. */
#define MLP_REGISTER_CHASES 12u
/* Steps of every chase per iteration of the loop: a step count is a
   multiple of it. */
#define MLP_UNROLL 4u

/* Lays `slots` slots (chase.h's layout for page_bytes: packed lines, or
   one per page) into one random cycle, and writes the cycle's order into
   each slot's second word, so the slot at position i of the cycle is
   found without walking it (mlp_start). base is aligned to page_bytes. */
void mlp_build(void *base, size_t slots, size_t page_bytes, uint64_t seed);

/* The slot at position (turn + (j * slots) / k) mod slots of the cycle
   mlp_build made: chase j's start, j < k, turn < slots. The k chases so
   started stand a k-th of the cycle apart and, each taking a step at a
   time, stay so: each follows its own stretch of lines, none catching
   another. */
void *mlp_start(void *base, size_t slots, size_t page_bytes, size_t turn, unsigned j,
		unsigned k);

/* Follows each of the k chases in ptr[] (1 <= k <= MLP_CHASES_MAX) for
   steps steps (a multiple of MLP_UNROLL), all interleaved in one loop;
   ptr[] then holds where each stands. */
void mlp_follow(void **ptr, unsigned k, uint64_t steps);

/* 1 when k chases are followed with their pointers in registers. */
int mlp_in_registers(unsigned k);

#endif
