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

/* One stretch of batches (the timed body's argument). */
struct batch_run {
	/* In. */
	void *at;                 /* where the chase stands; Out: where it stopped */
	uint64_t batches;         /* how many batches */
	unsigned loads;           /* dependent loads per batch, >= 1 */
	uint32_t *ticks;          /* room for `batches` counts; Out: each batch's
				     ticks, counter cost included */
	/* Out. */
	uint32_t counter_ticks;   /* the counter's own cost, median of empty batches */
	uint64_t total_ticks;     /* the whole stretch, counter reads included */
};

/* The distribution of one or more stretches, in ns per load. */
struct batch_summary {
	uint64_t batches;         /* all, marked included */
	uint64_t marked;          /* longer than BATCH_MARK_NS: left out of the rest */
	double marked_max_ns;     /* the longest marked batch, per load */
	unsigned loads;           /* per batch */
	double counter_ns;        /* the counter's cost subtracted from each batch */
	double mean_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
	/* The mode apart: batches over twice p50, their share of the unmarked
	   ones and their median, per load (0 when none). */
	double slow_share, slow_ns;
};

/* The timed body (arg: struct batch_run *): the counter's cost from 257
   empty batches, then `batches` batches of r->loads loads each from
   r->at. Calls nothing but the counter, so it runs in any timed state and
   in a role on another CPU. */
void batch_run_stretch(void *arg);

/* Sorts ticks[0..n) in place (a heap sort: no libc on bare metal) and
   reads the distribution, every batch's ticks less counter_ticks over
   `loads` loads, at ns_per_tick, into *s. Pure. n >= 1. */
void batch_summarize(uint32_t *ticks, uint64_t n, unsigned loads, uint32_t counter_ticks,
		     double ns_per_tick, struct batch_summary *s);

/* Loads per batch for a chase whose loads take about ns_per_load: enough
   that a batch takes BATCH_MIN_NS, BATCH_LOADS to BATCH_LOADS_MAX. Pure. */
unsigned batch_loads_for(double ns_per_load);

/* The value below which a fraction q (0..1) of sorted[0..n) lies: the
   nearest rank, so p99.9 of 1000 values is the largest. n >= 1. */
uint32_t batch_quantile(const uint32_t *sorted, uint64_t n, double q);

#endif
