/* Why a cache's step smears, as a model: the expected miss fraction of a
 * set-associative cache under a dependent chase through every line of a
 * working set, when the working set's frames land on the cache's page
 * colours at random; and the capacity that best explains a measured step.
 *
 * A cache of capacity C with W ways has a way span of C / W bytes: the
 * addresses one way covers before the set index repeats. Within a
 * physically contiguous buffer every set gets the same number of lines, so
 * the chase misses only once the buffer passes C: a sharp step. When the
 * buffer is made of frames of G bytes placed at random (a Linux process's
 * 4 KiB pages, or a guest's pages on a hypervisor's 4 KiB frames), and the
 * way span is larger than G, each frame picks one of K = C / (W G) colours
 * at random, so some sets overflow long before the buffer reaches C and
 * others stay under it well past it: the step starts early, ends late, and
 * its half-height crossing need not lie at C at all. Fitting the model
 * names C where the crossing cannot. docs/METHOD.md, "Reading the curves".
 *
 * Pure and freestanding (no libc, no libm): numbers in, numbers out.
 */
#ifndef MEMPROBE_PLACEMENT_H
#define MEMPROBE_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

/* The line size the model assumes. Only the count of lines per set
   matters, so a different true line size scales nothing that is fitted. */
#define PLACEMENT_LINE_BYTES 64

/* The most readings one fit takes: a whole curve's (edges.h's
   EDGES_MAX_POINTS, checked there). */
#define PLACEMENT_MAX_POINTS 256

/* One candidate cache. */
struct cache_model {
	uint64_t capacity;        /* bytes */
	unsigned ways;            /* >= 1 */
	uint64_t granule;         /* bytes placed together at random; 0: the
				     buffer is physically contiguous */
	double lru_share;         /* how an overflowing set misses: 1 as LRU
				     (every line, every time round a cyclic
				     chase), 0 as a random victim (it keeps a
				     share of its lines), between as a mix:
				     real pseudo-LRU policies lie between */
	int random_reads;         /* the loads are not a chase but reads at
				     random lines of the working set (another
				     program's pattern, tinymembench's): a set
				     holding k > ways lines keeps ways of them,
				     whatever the policy, so it misses 1 - ways/k
				     of its loads and a contiguous buffer's step
				     spreads as 1 - C/S instead of rising at C;
				     lru_share is then unused */
};

/* The share of the loads (a chase's, or random reads') that miss this cache with a working set
   of `bytes` (0 .. 1). Expected over the random placement of the frames:
   the lines per set of one colour follow a binomial law over the frames.
   0 for a malformed model. */
double placement_miss_fraction(const struct cache_model *m, uint64_t bytes);

/* The hit rate of one set holding `lines` lines of a cyclic chase with
   `ways` ways and a random victim on each miss: the fixed point h of
   h = (1 - 1/ways)^((lines - 1)(1 - h)) below 1 (each of the other lines'
   misses in a round evicts a given line with chance 1/ways). 1 when the
   lines fit. */
double placement_random_hit_rate(double lines, unsigned ways);

/* What placement_fit found for one step. */
struct placement_fit {
	uint64_t capacity;        /* the best fit's capacity, bytes */
	uint64_t range_lo;        /* the capacities that fit about as well: */
	uint64_t range_hi;        /*   [range_lo, range_hi] */
	struct cache_model best;  /* the best fit's whole model */
	double rms;               /* its residual, root mean square of ln(ns) */
	double sharp_rms;         /* the best physically contiguous model's */
	int smeared;              /* random placement explains the step
				     clearly better than a contiguous buffer */
};

/* Fits the step of a latency curve from level lo_ns up to hi_ns.

   Contract: x[0..n) ascending sizes in bytes, ns[0..n) their readings
   (outliers smoothed away), 3 <= n <= PLACEMENT_MAX_POINTS, 0 < lo_ns < hi_ns, the window
   running from the lower plateau's first point to the upper plateau's
   last. Candidates: capacities from x[0] to x[n-1] in 1/32-octave steps;
   4 to 32 ways; random frames of 4 KiB, random frames of the curve's own
   page size (page_bytes, when larger), or a contiguous buffer; a chase
   under LRU, random replacement or half of each, or random reads. The prediction of each is
   lo + (hi - lo) * miss fraction, compared in ln(ns).

   range: every capacity whose best model's residual lies within the
   noise's allowance of the best one's. smeared: the best random-placement
   model beats the best contiguous one by more than that allowance.
   Returns 0, or -1 (out untouched) when the contract is broken. */
int placement_fit(const uint64_t *x, const double *ns, size_t n, double lo_ns, double hi_ns,
		  uint64_t page_bytes, struct placement_fit *out);

#endif
