/* The pointer chase: one random cycle over line-sized slots, and the loop
 * that follows it one dependent load at a time.
 *
 * Each 64-byte slot holds, in its first word, the ADDRESS of the next slot,
 * so a step is `p = *p`: a load with a plain base-register address, no index
 * arithmetic on the critical path. That is what lets an L1 hit read the
 * core's true load-to-use latency (4 cycles on Zen 3) instead of the 5 that
 * a base+index chase (`i = next[i]`) pays for its address generation.
 */
#ifndef MEMPROBE_CHASE_H
#define MEMPROBE_CHASE_H

#include <stddef.h>
#include <stdint.h>

/* One slot per cache line, so the slot count is the line count and the
   working set is exactly slots * CHASE_SLOT bytes. */
#define CHASE_SLOT 64u
/* Loads per iteration of the chase loop: enough that the loop counter and
   branch are noise beside the dependent chain they run alongside. */
#define CHASE_UNROLL 16u

/* A fixed-seed generator (xorshift64*): the cycle, and so the measurement,
   is reproducible from the source and the seed alone. */
struct chase_rng {
	uint64_t state;
};
void chase_rng_seed(struct chase_rng *r, uint64_t seed);
uint64_t chase_rng_next(struct chase_rng *r);
/* Uniform in [0, bound), bound > 0. */
uint64_t chase_rng_below(struct chase_rng *r, uint64_t bound);

/* Links `slots` slots starting at base (64-byte aligned) into one random
   cycle covering every slot exactly once. Only the first word of each slot
   is written. */
void chase_build(void *base, size_t slots, uint64_t seed);

/* Follows the chain from start for blocks * CHASE_UNROLL dependent loads and
   returns where it ended. */
void *chase_follow(void *start, uint64_t blocks);

/* 0 when base..base+slots*CHASE_SLOT is one cycle that visits every slot
   exactly once, each link pointing at the start of a distinct slot (so a
   distinct cache line); otherwise -1 with why[] saying which link broke. */
int chase_check(const void *base, size_t slots, char *why, size_t why_len);

#endif
