/* The geometry probe's layouts and readings: address arithmetic and curve
 * reading only, no timing, so the host tests run them on synthetic data
 * (see geometry.h).
 */

#include "probes/geometry.h"
#include "probes/chase.h"
#include "lib/fmt.h"

// ---- Private Functions ------------------------------------------------------

/* "8:4.10 16:4.12 ..." into buf: a curve in a why[] text. */
static void curve_text(char *buf, size_t size, const unsigned *x, const double *y, unsigned n)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < n && len + 1 < size; i++) {
		mp_snprintf(buf + len, size - len, "%s%u:%.2f", i ? " " : "", x[i], y[i]);
		len = mp_strlen(buf);
	}
}

static void range_of(const double *v, unsigned from, unsigned to, double *lo, double *hi)
{
	*lo = *hi = v[from];
	for (unsigned i = from + 1; i < to; i++) {
		if (v[i] < *lo)
			*lo = v[i];
		if (v[i] > *hi)
			*hi = v[i];
	}
}

// ---- Public Functions: layouts ----------------------------------------------

uint64_t geometry_set_offset(unsigned k, uint64_t span)
{
	return (uint64_t)k * span;
}

uint64_t geometry_set_of(uint64_t offset, unsigned line, unsigned sets)
{
	return offset / line % sets;
}

uint64_t geometry_tlb_offset(unsigned k, uint64_t stride, uint64_t page_bytes)
{
	uint64_t lines = page_bytes / CHASE_SLOT;

	return (uint64_t)k * stride + (uint64_t)k % lines * CHASE_SLOT;
}

void geometry_link(void *base, const uint64_t *offsets, size_t n)
{
	char *b = base;

	for (size_t i = 0; i < n; i++)
		*(void **)(b + offsets[i]) = b + offsets[(i + 1) % n];
}

void geometry_shuffle(uint64_t *offsets, size_t n, uint64_t seed)
{
	struct chase_rng rng;

	chase_rng_seed(&rng, seed);
	for (size_t i = n; i-- > 1;) {
		size_t j = (size_t)chase_rng_below(&rng, i + 1);
		uint64_t t = offsets[i];

		offsets[i] = offsets[j];
		offsets[j] = t;
	}
}

size_t geometry_line_offsets(uint64_t *offsets, unsigned spacing, uint64_t seed)
{
	uint64_t order[GEOMETRY_LINE_BLOCKS];
	struct chase_rng rng;
	size_t n = 0;

	for (unsigned b = 0; b < GEOMETRY_LINE_BLOCKS; b++)
		order[b] = (uint64_t)b * GEOMETRY_LINE_BLOCK;
	geometry_shuffle(order, GEOMETRY_LINE_BLOCKS, seed);
	chase_rng_seed(&rng, seed ^ 0x9e3779b97f4a7c15ull);
	for (unsigned b = 0; b < GEOMETRY_LINE_BLOCKS; b++) {
		int second_first = (int)(chase_rng_next(&rng) >> 63);

		offsets[n++] = order[b] + (second_first ? spacing : 0);
		offsets[n++] = order[b] + (second_first ? 0 : spacing);
	}
	return n;
}

// ---- Public Functions: readings ---------------------------------------------

void geometry_read_line(const unsigned *spacings, const double *ns, unsigned n,
			struct geometry_line_reading *out)
{
	char curve[120];
	unsigned found = 0, at = 0;
	double lo = 0, hi = 0;

	out->line_bytes = 0;
	out->low_ns = out->high_ns = 0;
	out->why[0] = '\0';
	curve_text(curve, sizeof curve, spacings, ns, n);
	for (unsigned i = 0; i < n; i++)
		if (!(ns[i] > 0)) {
			mp_snprintf(out->why, sizeof out->why, "not measurable here: spacing %u "
				    "bytes has no figure", spacings[i]);
			return;
		}
	/* Every split into a low plateau [0, i) and a high one [i, n). */
	for (unsigned i = 1; i < n; i++) {
		double llo, lhi, hlo, hhi;

		range_of(ns, 0, i, &llo, &lhi);
		range_of(ns, i, n, &hlo, &hhi);
		if (lhi > llo * (1 + GEOMETRY_PLATEAU_TOL) || hhi > hlo * (1 + GEOMETRY_PLATEAU_TOL))
			continue;
		if (hlo < llo * GEOMETRY_STEP_MIN || hlo <= lhi)
			continue;
		found++;
		at = i;
		lo = llo;
		hi = hlo;
	}
	if (found == 1) {
		out->line_bytes = spacings[at];
		out->low_ns = lo;
		out->high_ns = hi;
		mp_snprintf(out->why, sizeof out->why, "one step, %.2f to %.2f ns, between "
			    "%u and %u bytes apart", lo, hi, spacings[at - 1], spacings[at]);
		return;
	}
	range_of(ns, 0, n, &lo, &hi);
	if (hi <= lo * (1 + GEOMETRY_PLATEAU_TOL))
		mp_snprintf(out->why, sizeof out->why, "not measurable here: no step from %u "
			    "to %u bytes (flat within %.0f%%: %s)", spacings[0], spacings[n - 1],
			    GEOMETRY_PLATEAU_TOL * 100, curve);
	else
		mp_snprintf(out->why, sizeof out->why, "not measurable here: no single clean "
			    "step (a prefetcher, or noise): %s", curve);
}

void geometry_read_step(const unsigned *k, const double *ns, unsigned n, unsigned after,
			struct geometry_step_reading *out)
{
	char curve[120];
	unsigned s = 0, spikes = 0;
	double base = 0;

	out->ways = 0;
	out->low_ns = out->high_ns = 0;
	out->sharp = 0;
	out->why[0] = '\0';
	while (s < n && k[s] <= after)
		s++;
	if (s >= n || !(ns[s] > 0)) {
		mp_snprintf(out->why, sizeof out->why, "not measurable here: no point past %u "
			    "lines", after);
		return;
	}
	base = ns[s];
	for (unsigned i = s + 1; i < n; i++) {
		int back = 0;
		unsigned j;

		if (!(ns[i] > 0)) {
			mp_snprintf(out->why, sizeof out->why, "not measurable here: %u lines have "
				    "no figure", k[i]);
			return;
		}
		if (ns[i] < base)
			base = ns[i];
		if (ns[i] <= base * (1 + GEOMETRY_PLATEAU_TOL))
			continue;
		if (ns[i] < base * GEOMETRY_STEP_MIN) {
			/* Between the plateau and a step: a gradual rise. */
			curve_text(curve, sizeof curve, k + s, ns + s, n - s < 12 ? n - s : 12);
			mp_snprintf(out->why, sizeof out->why, "not measurable here: the curve rises "
				    "%.0f%% at %u lines without a step (%s)",
				    (ns[i] / base - 1) * 100, k[i], curve);
			return;
		}
		/* A step, unless a later point comes back to the plateau: then
		   this point was a spike, and one is tolerated. */
		for (j = i + 1; j < n; j++)
			if (ns[j] <= base * (1 + GEOMETRY_PLATEAU_TOL))
				back = 1;
		if (back) {
			if (++spikes > 1) {
				mp_snprintf(out->why, sizeof out->why, "not measurable here: the "
					    "curve jumps and falls back more than once (noise) by "
					    "%u lines", k[i]);
				return;
			}
			continue;
		}
		for (j = i + 1; j < n; j++)
			if (ns[j] < base * GEOMETRY_STEP_MIN) {
				mp_snprintf(out->why, sizeof out->why, "not measurable here: after "
					    "the rise at %u lines the curve falls part way back at %u",
					    k[i], k[j]);
				return;
			}
		out->ways = k[i - 1];
		out->low_ns = base;
		out->high_ns = ns[i + 3 < n ? i + 3 : n - 1];
		out->sharp = ns[i] - base >= 0.5 * (out->high_ns - base);
		mp_snprintf(out->why, sizeof out->why, "%s step after %u lines, %.2f to %.2f ns",
			    out->sharp ? "a sharp" : "a gradual", k[i - 1], base, out->high_ns);
		return;
	}
	mp_snprintf(out->why, sizeof out->why, "not measurable here: no step from %u to %u "
		    "lines (flat within %.0f%%)", k[s], k[n - 1], GEOMETRY_PLATEAU_TOL * 100);
}

void geometry_read_sets(const uint64_t *spans, const unsigned *ways, unsigned n,
			struct geometry_sets_reading *out)
{
	unsigned w, j;

	out->ways = 0;
	out->way_span = 0;
	out->at_most = 0;
	out->why[0] = '\0';
	if (n < 2) {
		mp_snprintf(out->why, sizeof out->why, "not measurable here: fewer than two spans");
		return;
	}
	w = ways[n - 1];
	if (w == 0 || ways[n - 2] != w) {
		mp_snprintf(out->why, sizeof out->why, "not measurable here: the two largest "
			    "spans (%llu and %llu bytes) read %u and %u ways",
			    (unsigned long long)spans[n - 2], (unsigned long long)spans[n - 1],
			    ways[n - 2], w);
		return;
	}
	out->ways = w;
	j = n - 2;
	while (j > 0 && ways[j - 1] == w)
		j--;
	if (j == 0) {
		out->way_span = spans[0];
		out->at_most = 1;
		mp_snprintf(out->why, sizeof out->why, "every span from %llu bytes reads %u ways: "
			    "the way span is at most %llu bytes", (unsigned long long)spans[0], w,
			    (unsigned long long)spans[0]);
		return;
	}
	/* Lines half a way span apart fall in two sets: twice the lines fit.
	   0 there: the sweep stopped before that step, which is consistent. */
	if (ways[j - 1] != 0 && (ways[j - 1] * 2 < w * 3 || ways[j - 1] * 2 > w * 5)) {
		mp_snprintf(out->why, sizeof out->why, "not measurable here: %llu bytes apart "
			    "read %u ways, %llu bytes apart %u, not about twice",
			    (unsigned long long)spans[j], w, (unsigned long long)spans[j - 1],
			    ways[j - 1]);
		out->ways = 0;
		return;
	}
	out->way_span = spans[j];
	mp_snprintf(out->why, sizeof out->why, "%u ways from %llu bytes apart up; %llu bytes "
		    "apart read %u%s", w, (unsigned long long)spans[j],
		    (unsigned long long)spans[j - 1], ways[j - 1],
		    ways[j - 1] ? "" : " (no step in the sweep)");
}

// ---- Public Functions: verdicts ---------------------------------------------

const char *geometry_verdict_name(enum geometry_verdict v)
{
	switch (v) {
	case GEOMETRY_AGREES: return "agrees";
	case GEOMETRY_DIFFERS: return "differs";
	case GEOMETRY_NO_CLAIM: return "no claim";
	case GEOMETRY_NOT_MEASURABLE: return "not measurable";
	default: return "not run";
	}
}

enum geometry_verdict geometry_hold(uint64_t measured, uint64_t claimed)
{
	if (!measured)
		return GEOMETRY_NOT_MEASURABLE;
	if (!claimed)
		return GEOMETRY_NO_CLAIM;
	return measured == claimed ? GEOMETRY_AGREES : GEOMETRY_DIFFERS;
}
