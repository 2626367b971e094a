/* The working sets a probe measures "at each level": half of each cache
 * level (a working set the level holds whatever its ways), or where the
 * latency curve drew the level's plateau, no further than the middle of
 * that plateau (a smeared step starts before half the level), taken from the
 * latency probe's levels when it ran earlier in this run and from the
 * CPU's claims otherwise, with where they came from for the report. The
 * mlp and tails probes share it, so both measure at the same sizes. The
 * silent failure it prevents: a level taken from a claim that is a
 * hypervisor's fiction (a 508 MiB "L3"), whose half is memory, reported
 * as a cache.
 */
#ifndef MEMPROBE_PROBES_LEVEL_PICK_H
#define MEMPROBE_PROBES_LEVEL_PICK_H

#include <stddef.h>
#include <stdint.h>

/* Cache levels and memory, and room over. */
#define LEVEL_PICKS_MAX 6u

/* One working set to measure at, with what this run knows of it. */
struct level_pick {
	char name[16];            /* "L1", "L2", "L3", "memory" */
	uint64_t bytes;           /* the working set, whole 64-byte lines */
	double latency_ns;        /* the latency probe's figure for the level; 0: none */
	double latency_cycles;    /* the same in core cycles; 0: none */
};

/* The levels picked: cache levels first, smallest first; the probe adds
   memory last. */
struct level_picks {
	struct level_pick level[LEVEL_PICKS_MAX];
	unsigned count;
	const char *from;         /* where the cache levels came from, for the report */
	uint64_t largest_found;   /* the largest cache level the latency probe found; 0: none */
	uint64_t largest_claimed; /* the largest data or unified cache claimed; 0: none */
	double top_ns;            /* the latency probe's top level (memory), ns; 0: none */
	double top_cycles;        /* the same in core cycles; 0: none */
};

struct analysis;
struct cache_claims;

/* The cache levels of *p: half of each cache level the latency probe's
   curves named in `before` (analysis_so_far(); NULL: it did not run), at
   most the middle of its plateau on a log scale (from the first size past
   the level below, or the curve's first, to the last before its own
   step), else
   half of each data or unified level the claims list, L1 to L4, one per
   level. Leaves room for memory: at most LEVEL_PICKS_MAX - 1. Pure. */
void level_picks_caches(struct level_picks *p, const struct analysis *before,
			const struct cache_claims *claims);

/* Memory's working set as the last level: `bytes` (whole lines), its
   latency the latency probe's top level's where known; every cache level
   at or past it is dropped first (memory stays the largest working set),
   and their count returned. Pure. */
unsigned level_picks_add_memory(struct level_picks *p, uint64_t bytes);

/* The latency probe's reading at exactly `bytes` with pages of
   1 << page_shift in `before` (NULL: none); 0 when its curves hold no such
   point. The figure a level's own measurement is held against: the
   level's plateau can lie a TLB step away from its half. Pure. */
double level_pick_latency_at(const struct analysis *before, unsigned page_shift,
			     uint64_t bytes);

/* The same point's cycles: the latency probe's reading at exactly `bytes`
   in core cycles, by the clock of its own timed section; 0 when there is
   no such point. A figure held against it in cycles stands apart from it
   only by what the cache did, not by a clock the host moved between the
   two probes. Pure. */
double level_pick_cycles_at(const struct analysis *before, unsigned page_shift,
			    uint64_t bytes);

/* The latency probe's reading at `bytes` with pages of 1 << page_shift,
   read off the line between its curve's points either side of it where
   they lie within an octave of each other (ns, and *cycles, linear in the
   log of the size; *lo and *hi their working sets): a tails level at
   7 MiB stands beside the sweep's 6 and 8 MiB, not beside a plateau's
   median that a VM's climbing L3 put 10 % higher. 0 when no such pair
   is. Pure. */
double level_pick_latency_between(const struct analysis *before, unsigned page_shift,
				  uint64_t bytes, uint64_t *lo, uint64_t *hi, double *cycles);

/* "between 6 MiB and 8 MiB": the two working sets
   level_pick_latency_between read its figure between, for a report. */
void level_pick_between_text(char *buf, size_t size, uint64_t lo, uint64_t hi);

/* As level_pick_latency_at, at the point nearest `bytes` within an eighth
   of an octave either way (*at: its working set): the sweep's 2 GiB
   beside mlp's memory at 2032 MiB, a plateau's median never (memory's
   latency moves with the working set where pages miss the TLBs). 0 when
   no point is that near. Pure. */
double level_pick_latency_near(const struct analysis *before, unsigned page_shift,
			       uint64_t bytes, uint64_t *at);

#endif
