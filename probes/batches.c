/* Timed batches of a few dependent loads, and their distribution (see
 * batches.h). Each batch is bracketed by two ordered counter reads; the
 * cost of a bracket with no load inside, measured in the same stretch, is
 * subtracted, so a batch's figure is its loads' time alone. Every median
 * and quantile is read between the counter's steps: a counter that moves
 * 21 ticks at a time (this project's Zen 5 VM) rounds each bracket to a
 * step, and the plain median of rounded brackets, the empty ones' and the
 * batches', put L1 and L2 7 to 10 % under the latency probe.
 */

#include "probes/batches.h"
#include "core/platform.h"

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

/* BATCH_EMPTY empty brackets into t, each with the batch's link to the
   opening read and no load. */
static void time_empty(void *const *p, uint32_t *t)
{
	for (unsigned i = 0; i < BATCH_EMPTY; i++) {
		uint64_t t0 = plat_ticks();
		p = after_reading(p, t0);
		__asm__ volatile("" : : "r"(p));
		t[i] = (uint32_t)(plat_ticks() - t0);
	}
}

/* A bracket's ticks less the counter's, per load, in ns (0 at least). */
static double per_load_ns(double ticks, unsigned loads, double counter_ticks, double ns_per_tick)
{
	return ticks > counter_ticks ? (ticks - counter_ticks) * ns_per_tick / loads : 0;
}

/* The first index of sorted[0..n) whose value is at least x (n: none). */
static uint64_t first_at_least(const uint32_t *sorted, uint64_t n, uint64_t x)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (sorted[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How many of sorted[0..n) are x. */
static uint64_t count_of(const uint32_t *sorted, uint64_t n, uint64_t x)
{
	return first_at_least(sorted, n, x + 1) - first_at_least(sorted, n, x);
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* ---- Public Functions ------------------------------------------------- */

void batch_run_stretch(void *arg)
{
	struct batch_run *r = arg;
	void *const *p = r->at;
	uint64_t start;

	time_empty(p, r->empty);
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

double batch_quantile_between(const uint32_t *sorted, uint64_t n, uint32_t step, double q)
{
	uint32_t v = batch_quantile(sorted, n, q);
	uint64_t below = first_at_least(sorted, n, v);
	double want = q * (double)n, mid = (double)below + count_of(sorted, n, v) / 2.0;
	double next, prev, x;

	if (want >= mid) {
		next = (double)first_at_least(sorted, n, (uint64_t)v + 1) +
		       count_of(sorted, n, (uint64_t)v + step) / 2.0;
		x = v + step * (want - mid) / (next - mid);
	} else {
		prev = (double)below - (v >= step ? count_of(sorted, n, v - step) / 2.0 : 0);
		x = (double)v - step + step * (want - prev) / (mid - prev);
	}
	return x < sorted[0] ? sorted[0] : x > sorted[n - 1] ? sorted[n - 1] : x;
}

uint32_t batch_step(const uint32_t *v, uint64_t n, uint32_t step)
{
	for (uint64_t i = 0; i < n && step != 1; i++)
		step = gcd(v[i], step);
	return step;
}

void batch_summarize(struct batch_run *r, double ns_per_tick, struct batch_summary *s)
{
	uint32_t *ticks = r->ticks, mark = (uint32_t)(BATCH_MARK_NS / ns_per_tick), step;
	uint64_t n = r->batches, kept = n, slow = 0;
	unsigned loads = r->loads;
	double sum = 0, cost, twice;

	heap_sort(ticks, n);
	heap_sort(r->empty, BATCH_EMPTY);
	while (kept > 1 && ticks[kept - 1] > mark)
		kept--;
	step = batch_step(r->empty, BATCH_EMPTY, batch_step(ticks, kept, 0));
	step = step ? step : 1;
	cost = batch_quantile_between(r->empty, BATCH_EMPTY, step, 0.5);
	*s = (struct batch_summary){ .batches = n, .marked = n - kept, .loads = loads,
				     .step_ticks = step, .counter_ticks = cost,
				     .counter_ns = cost * ns_per_tick, .step_ns = step * ns_per_tick };
	if (kept < n)
		s->marked_max_ns = per_load_ns(ticks[n - 1], loads, cost, ns_per_tick);
	for (uint64_t i = 0; i < kept; i++)
		sum += ticks[i];
	s->mean_ns = per_load_ns(sum / (double)kept, loads, cost, ns_per_tick);
	s->p50_ticks = batch_quantile_between(ticks, kept, step, 0.5);
	s->p50_ns = per_load_ns(s->p50_ticks, loads, cost, ns_per_tick);
	s->p90_ns = per_load_ns(batch_quantile_between(ticks, kept, step, 0.9), loads, cost,
				ns_per_tick);
	s->p99_ns = per_load_ns(batch_quantile_between(ticks, kept, step, 0.99), loads, cost,
				ns_per_tick);
	s->p999_ns = per_load_ns(batch_quantile_between(ticks, kept, step, 0.999), loads, cost,
				 ns_per_tick);
	s->max_ns = per_load_ns(ticks[kept - 1], loads, cost, ns_per_tick);
	/* Twice p50, counter cost included: the brackets then compare as
	   the loads do. */
	twice = cost + 2 * (s->p50_ticks > cost ? s->p50_ticks - cost : 0);
	for (uint64_t i = kept; i-- > 0 && ticks[i] > twice;)
		slow++;
	if (slow) {
		s->slow_share = (double)slow / (double)kept;
		s->slow_ns = per_load_ns(ticks[kept - slow + slow / 2], loads, cost, ns_per_tick);
	}
}
