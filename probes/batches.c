/* Timed batches of a few dependent loads, and their distribution (see
 * batches.h). Each batch is bracketed by two ordered counter reads; the
 * cost of a bracket with no load inside, measured in the same stretch, is
 * subtracted, so a batch's figure is its loads' time alone.
 */

#include "probes/batches.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

/* Empty brackets whose median is the counter's cost: odd, so the median is
   one of them. */
#define COUNTER_SAMPLES 257u

/* ---- Private Functions ------------------------------------------------ */

/* Sifts sorted-heap element i down within v[0..n) (a max-heap). */
static void sift_down(uint32_t *v, uint64_t i, uint64_t n)
{
	for (;;) {
		uint64_t big = i, l = 2 * i + 1, r = l + 1;
		uint32_t t;

		if (l < n && v[l] > v[big])
			big = l;
		if (r < n && v[r] > v[big])
			big = r;
		if (big == i)
			return;
		t = v[i];
		v[i] = v[big];
		v[big] = t;
		i = big;
	}
}

static void heap_sort(uint32_t *v, uint64_t n)
{
	for (uint64_t i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (uint64_t end = n; end-- > 1;) {
		uint32_t t = v[0];
		v[0] = v[end];
		v[end] = t;
		sift_down(v, 0, end);
	}
}

/* p moved by a zero the compiler cannot see, computed from the counter's
   reading t: the first load of a batch cannot issue before the counter
   read that opens it is done. Without that link the loads ran under the
   opening read's own latency, which the empty bracket counts in full: an
   L1 batch then read 29% under the latency probe's figure. */
static inline void *const *after_reading(void *const *p, uint64_t t)
{
	uint64_t d = t;

	__asm__ volatile("" : "+r"(d));
	return (void *const *)((const char *)p + (d - t));
}

/* The counter's cost: the median of COUNTER_SAMPLES empty brackets, each
   with the batch's link to the opening read and no load. */
static uint32_t counter_cost(void *const *p)
{
	uint32_t t[COUNTER_SAMPLES];

	for (unsigned i = 0; i < COUNTER_SAMPLES; i++) {
		uint64_t t0 = plat_ticks();
		p = after_reading(p, t0);
		__asm__ volatile("" : : "r"(p));
		t[i] = (uint32_t)(plat_ticks() - t0);
	}
	heap_sort(t, COUNTER_SAMPLES);
	return t[COUNTER_SAMPLES / 2];
}

/* A batch's ticks less the counter's, per load, in ns (0 at least). */
static double per_load_ns(uint32_t ticks, unsigned loads, uint32_t counter_ticks,
			  double ns_per_tick)
{
	return ticks > counter_ticks ? (ticks - counter_ticks) * ns_per_tick / loads : 0;
}

/* ---- Public Functions ------------------------------------------------- */

void batch_run_stretch(void *arg)
{
	struct batch_run *r = arg;
	void *const *p = r->at;
	uint64_t start;

	r->counter_ticks = counter_cost(p);
	start = plat_ticks();
	for (uint64_t b = 0; b < r->batches; b++) {
		uint64_t t0 = plat_ticks();

		p = after_reading(p, t0);
		/* Dependent loads: each address is the last load's value, so
		   the batch's time is the loads' latency, not their throughput. */
		for (unsigned k = 0; k < r->loads; k++)
			p = *(void *const *)p;
		r->ticks[b] = (uint32_t)(plat_ticks() - t0);
	}
	r->total_ticks = plat_ticks() - start;
	r->at = (void *)p;
}

unsigned batch_loads_for(double ns_per_load)
{
	double loads = ns_per_load > 0 ? BATCH_MIN_NS / ns_per_load + 0.999 : BATCH_LOADS_MAX;

	return loads < BATCH_LOADS ? BATCH_LOADS
	       : loads > BATCH_LOADS_MAX ? BATCH_LOADS_MAX : (unsigned)loads;
}

uint32_t batch_quantile(const uint32_t *sorted, uint64_t n, double q)
{
	uint64_t rank = (uint64_t)(q * (double)n + 0.999999);

	rank = rank < 1 ? 1 : rank > n ? n : rank;
	return sorted[rank - 1];
}

void batch_summarize(uint32_t *ticks, uint64_t n, unsigned loads, uint32_t counter_ticks,
		     double ns_per_tick, struct batch_summary *s)
{
	uint64_t kept = n, slow = 0;
	uint32_t mark = (uint32_t)(BATCH_MARK_NS / ns_per_tick), half;
	double sum = 0;

	heap_sort(ticks, n);
	while (kept > 1 && ticks[kept - 1] > mark)
		kept--;
	*s = (struct batch_summary){ .batches = n, .marked = n - kept, .loads = loads,
				     .counter_ns = counter_ticks * ns_per_tick };
	if (kept < n)
		s->marked_max_ns = per_load_ns(ticks[n - 1], loads, counter_ticks, ns_per_tick);
	for (uint64_t i = 0; i < kept; i++)
		sum += per_load_ns(ticks[i], loads, counter_ticks, ns_per_tick);
	s->mean_ns = sum / (double)kept;
	s->p50_ns = per_load_ns(batch_quantile(ticks, kept, 0.5), loads, counter_ticks, ns_per_tick);
	s->p90_ns = per_load_ns(batch_quantile(ticks, kept, 0.9), loads, counter_ticks, ns_per_tick);
	s->p99_ns = per_load_ns(batch_quantile(ticks, kept, 0.99), loads, counter_ticks, ns_per_tick);
	s->p999_ns = per_load_ns(batch_quantile(ticks, kept, 0.999), loads, counter_ticks, ns_per_tick);
	s->max_ns = per_load_ns(ticks[kept - 1], loads, counter_ticks, ns_per_tick);
	/* Twice p50, counter cost included: the brackets then compare as
	   the loads do. */
	half = batch_quantile(ticks, kept, 0.5);
	half = half > counter_ticks ? half - counter_ticks : 0;
	for (uint64_t i = kept; i-- > 0 && ticks[i] > counter_ticks + 2 * (uint64_t)half;)
		slow++;
	if (slow) {
		s->slow_share = (double)slow / (double)kept;
		s->slow_ns = per_load_ns(ticks[kept - slow + slow / 2], loads, counter_ticks, ns_per_tick);
	}
}
