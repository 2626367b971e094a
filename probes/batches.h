/* Per-load latency as a distribution: a chase timed in many short batches
 * of a few dependent loads each, the counter's own cost measured beside
 * them and subtracted, and the distribution read back as p50, p90, p99,
 * p99.9 and the maximum. The tails probe runs it at each level's working
 * set, the loaded probe at each loaded point. The silent failure it exists
 * to prevent: a mean over millions of loads that hides a tail, and a tail
 * that is really the counter, an interrupt or a preemption.
 */
#ifndef MEMPROBE_PROBES_BATCHES_H
#define MEMPROBE_PROBES_BATCHES_H

#include <stdint.h>

/* Dependent loads per timed batch past the caches: enough that the
   counter's cost is a small share of a memory batch, few enough that one
   slow load stands out of its batch. Inside the caches a batch needs more
   (batch_loads_for). */
#define BATCH_LOADS 4u
/* The least a batch's loads should take, ns: a few loads of an L1 hit are
   a few ns, below what an ordered counter read resolves beside its own
   cost. */
#define BATCH_MIN_NS 64.0
#define BATCH_LOADS_MAX 64u
/* A batch longer than this is marked as hit from outside (an interrupt,
   an NMI or SMI, or a preemption): no few dependent loads take 20 us on
   any memory, page walks included. */
#define BATCH_MARK_NS 20000.0

/* Empty brackets a stretch times before its batches: odd, so their
   median is one of them where the counter is fine. */
#define BATCH_EMPTY 257u

/* One stretch of batches (the timed body's argument). */
struct batch_run {
	/* In. */
	void *at;                 /* where the chase stands; Out: where it stopped */
	uint64_t batches;         /* how many batches */
	unsigned loads;           /* dependent loads per batch, >= 1 */
	uint32_t *ticks;          /* room for `batches` counts; Out: each batch's
				     ticks, counter cost included */
	/* Out. */
	uint32_t empty[BATCH_EMPTY];  /* brackets with no load: the counter's own cost */
	uint64_t total_ticks;     /* the whole stretch, counter reads included */
};

/* The distribution of one stretch, in ns per load. */
struct batch_summary {
	uint64_t batches;         /* all, marked included */
	uint64_t marked;          /* longer than BATCH_MARK_NS: left out of the rest */
	double marked_max_ns;     /* the longest marked batch, per load */
	unsigned loads;           /* per batch */
	uint32_t step_ticks;      /* the counter's step: the greatest common divisor
				     of every bracket's ticks (1 where it counts
				     each tick; 21 on this project's Zen 5 VM) */
	double counter_ticks;     /* the counter's cost subtracted from each batch:
				     the empty brackets' median, read between steps */
	double counter_ns, step_ns;
	double p50_ticks;         /* the batches' median, counter included, between steps */
	double mean_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
	/* The mode apart: batches over twice p50, their share of the unmarked
	   ones and their median, per load (0 when none). */
	double slow_share, slow_ns;
};

/* The timed body (arg: struct batch_run *): BATCH_EMPTY empty brackets,
   then `batches` batches of r->loads loads each from r->at. Calls nothing
   but the counter, so it runs in any timed state and in a role on another
   CPU. */
void batch_run_stretch(void *arg);

/* Sorts r->ticks[0..r->batches) and r->empty in place (a heap sort: no
   libc on bare metal) and reads the distribution into *s: each quantile
   read between the counter's steps (batch_quantile_between), the empty
   brackets' median taken off, over r->loads loads, at ns_per_tick. Pure.
   r->batches >= 1. */
void batch_summarize(struct batch_run *r, double ns_per_tick, struct batch_summary *s);

/* Loads per batch for a chase whose loads take about ns_per_load: enough
   that a batch takes BATCH_MIN_NS, BATCH_LOADS to BATCH_LOADS_MAX. Pure. */
unsigned batch_loads_for(double ns_per_load);

/* The value below which a fraction q (0..1) of sorted[0..n) lies: the
   nearest rank, so p99.9 of 1000 values is the largest. n >= 1. */
uint32_t batch_quantile(const uint32_t *sorted, uint64_t n, double q);

/* The same quantile read between the counter's steps: a counter that
   moves `step` ticks at a time reads a bracket of true length (k + f)
   steps as k steps or k + 1 at random (the bracket's start falls anywhere
   between two steps), k + 1 with chance f. So each value's share is
   spread half below and half above it, the mid-distribution drawn
   linearly between neighbouring steps, and q read off it: a constant
   (k + f) steps reads back as its median exactly, where the nearest rank
   reads k or k + 1. Kept within [sorted[0], sorted[n - 1]]. step >= 1,
   n >= 1. Pure. */
double batch_quantile_between(const uint32_t *sorted, uint64_t n, uint32_t step, double q);

/* The greatest common divisor of v[0..n) and `step` (0: none yet): the
   step a counter moves by, from the brackets it timed. Pure. */
uint32_t batch_step(const uint32_t *v, uint64_t n, uint32_t step);

#endif
