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
#include "results/columns.h"

/* One slot per cache line, so the slot count is the line count and the
   working set is exactly slots * CHASE_SLOT bytes: a fact of the rows too
   (results/columns.h), which the analysis counts a chase's slots by. */
#define CHASE_SLOT ROW_CHASE_SLOT_BYTES
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

/* Links `slots` slots into one random cycle covering every slot exactly
   once; only the first word of each slot is written. base is aligned to
   page_bytes, a power of two >= CHASE_SLOT. Slot i lies in "page" i, at
   line chase_page_line(i, page_bytes) of it:
   - page_bytes == CHASE_SLOT packs the slots, one per line (the latency
     probe's cycle: the working set is slots * CHASE_SLOT bytes);
   - a real page size puts one slot in each page (the tlb probe's cycle):
     the cache footprint stays `slots` lines however large the pages, so
     the TLB's reach can be outrun while the lines still fit a cache. */
void chase_build(void *base, size_t slots, size_t page_bytes, uint64_t seed);

/* How many steps ahead a build draws or reads the random slot it will
   write, and prefetches it: enough misses in flight to cover a VM's
   300-400 ns a miss, where one step's random slot is otherwise waited for
   one or a few at a time (2 GiB on the Zen 5 VM: Sattolo's swaps 1.2 s in
   place, 0.75 s drawn ahead). chase_shuffle's and mlp_build's. */
#define CHASE_PREFETCH_AHEAD 32u

/* The swaps of Sattolo's algorithm (single_cycle: j drawn below i, which
   makes one cycle of all slots) or of Fisher-Yates' (j drawn up to i, any
   permutation), for i from slots - 1 down to 1, between word `word` of
   slot i and of slot j (slots laid out as chase_build lays them), with j
   from a chase_rng seeded with seed. Each draw is made CHASE_PREFETCH_AHEAD
   swaps early, in the same order, and its slot prefetched: the permutation is
   the one the draws give in place, built with many misses in flight. */
void chase_shuffle(void *base, size_t slots, size_t page_bytes, unsigned word,
		   int single_cycle, uint64_t seed);
/* The line inside page i that holds slot i: (i + i / L) mod L, L the lines
   per page. Among any L consecutive pages each line offset occurs once, so
   the slots fill the sets of a cache indexed inside the page offset (L1
   with 4 KiB pages) as evenly as packed lines; and on physically
   contiguous pages the pair (page bits, line) also covers the next cache's
   sets evenly (docs/METHOD.md gives the argument and its limits). */
size_t chase_page_line(size_t i, size_t page_bytes);

/* The address of slot i of a cycle built with this page_bytes. */
void *chase_slot(void *base, size_t i, size_t page_bytes);

/* Follows the chain from start for blocks * CHASE_UNROLL dependent loads and
   returns where it ended. */
void *chase_follow(void *start, uint64_t blocks);

/* 0 when the `slots` slots chase_build(base, slots, page_bytes, ...) lays
   out form one cycle that visits every slot exactly once, each link
   pointing at a slot's address (so a distinct cache line); otherwise -1
   with why[] saying which link broke. */
int chase_check(const void *base, size_t slots, size_t page_bytes, char *why, size_t why_len);

/* 0 when the links of `slots` packed slots (chase_build with page_bytes =
   CHASE_SLOT) are a permutation of them, checked in one sequential pass,
   as fast as the buffer streams: every link points at a slot of the
   buffer and none at itself, and three sums over the links' targets (of
   their indices, of the squares, of a mixing hash, all mod 2^64) equal
   the same sums over the slots. A link lost or repeated (two pages on one
   frame, memory that did not keep what was written) moves all three.
   Unlike chase_check it cannot see a permutation of several cycles, which
   chase_build never makes and a fault would have to swap whole links to
   make. -1 with why[] otherwise. */
int chase_scan_links(const void *base, size_t slots, char *why, size_t why_len);

/* Follows the chain of packed slots (base: slot 0) from start for `loads`
   dependent loads, as chase_follow does, setting bit i of marks (slot i's,
   bit i % 64 of word i / 64) for each slot it loads; returns where it
   ended. Untimed: the warm-up's record of the lines a chase's next loads
   will visit. */
void *chase_follow_marking(void *start, const void *base, uint64_t loads, uint64_t *marks);
/* Loads the link of every packed slot whose bit in marks is clear, once
   each, in a scrambled order that neither a stream nor a stride
   prefetcher follows, and not one marked slot. The loads are independent,
   so many are in flight at once: a pass over memory takes a fraction of a
   dependent lap. Returns the sum of the links loaded (so no load is dead)
   and their count in *touched. */
uint64_t chase_touch_unmarked(const void *base, size_t slots, const uint64_t *marks,
			      uint64_t *touched);

#endif
