/* The geometry probe's layouts and readings: address arithmetic and curve
 * reading only, no timing, so the host tests run them on synthetic data
 * (see geometry.h).
 */

#include "probes/geometry.h"
#include "probes/chase.h"
#include "lib/fmt.h"

/* ---- Private Functions ------------------------------------------------ */

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

/* The line-size control: the same lines read whole cost the same at every
   spacing, so the aligned curve moves by under a quarter of the straddling
   step (judged against the step, not the figure: a drift of a few percent
   over the sweep, a core clock settling, is not a step; a cost of sets,
   banks or a page that the aligned loads share is). Else says why in out
   and returns 0. */
static int aligned_flat(const double *aligned, unsigned n, double step,
			const unsigned *spacings, struct geometry_line_reading *out)
{
	char curve[120];
	double lo, hi;

	range_of(aligned, 0, n, &lo, &hi);
	if (hi - lo <= GEOMETRY_STEP_PLATEAU_CUT * step)
		return 1;
	curve_text(curve, sizeof curve, spacings, aligned, n);
	mp_snprintf(out->why, sizeof out->why, "not measurable here: the aligned loads' own "
		    "curve moves %.2f ns, over a quarter of the straddling step (%s)", hi - lo,
		    curve);
	return 0;
}

/* ---- Public Functions: layouts ---------------------------------------- */

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

	/* Copied, not stored through a pointer type: a line-size slot
	   straddles a boundary on purpose, so it is not 8-byte aligned. */
	for (size_t i = 0; i < n; i++) {
		void *next = b + offsets[(i + 1) % n];

		__builtin_memcpy(b + offsets[i], &next, sizeof next);
	}
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

size_t geometry_line_offsets(uint64_t *offsets, unsigned spacing, int straddle, uint64_t seed)
{
	for (unsigned i = 0; i < GEOMETRY_LINE_SLOTS; i++)
		offsets[i] = (uint64_t)(2 * i + 1) * spacing - (straddle ? GEOMETRY_LINE_STRADDLE : 0);
	geometry_shuffle(offsets, GEOMETRY_LINE_SLOTS, seed);
	return GEOMETRY_LINE_SLOTS;
}

/* ---- Public Functions: readings --------------------------------------- */

void geometry_read_line(const unsigned *spacings, const double *straddling,
			const double *aligned, unsigned n, struct geometry_line_reading *out)
{
	const double *ns = straddling;
	char curve[120];
	unsigned found = 0, at = 0;
	double lo = 0, hi = 0;

	out->line_bytes = 0;
	out->low_ns = out->high_ns = 0;
	out->why[0] = '\0';
	for (unsigned i = 0; i < n; i++)
		if (!(ns[i] > 0) || !(aligned[i] > 0)) {
			mp_snprintf(out->why, sizeof out->why, "not measurable here: spacing %u "
				    "bytes has no figure", spacings[i]);
			return;
		}
	curve_text(curve, sizeof curve, spacings, ns, n);
	/* Every split into a low plateau [0, i) and a high one [i, n): each
	   plateau within GEOMETRY_LINE_BAND of the step's height (so noise is
	   judged against the step, not against the figure). */
	for (unsigned i = 1; i < n; i++) {
		double llo, lhi, hlo, hhi, band;

		range_of(ns, 0, i, &llo, &lhi);
		range_of(ns, i, n, &hlo, &hhi);
		if (hlo < llo * GEOMETRY_STEP_MIN)
			continue;
		band = GEOMETRY_LINE_BAND * (hlo - llo);
		if (lhi > llo + band || hhi > hlo + band)
			continue;
		found++;
		at = i;
		lo = llo;
		hi = hlo;
	}
	if (found == 1 && !aligned_flat(aligned, n, hi - lo, spacings, out))
		return;
	if (found == 1) {
		out->line_bytes = spacings[at];
		out->low_ns = lo;
		out->high_ns = hi;
		mp_snprintf(out->why, sizeof out->why, "straddling loads: one step, %.2f to "
			    "%.2f ns, between %u and %u bytes apart; aligned ones within a quarter of it", lo, hi,
			    spacings[at - 1], spacings[at]);
		return;
	}
	range_of(ns, 0, n, &lo, &hi);
	if (hi <= lo * (1 + GEOMETRY_PLATEAU_TOL))
		mp_snprintf(out->why, sizeof out->why, "not measurable here: no step from %u "
			    "to %u bytes (flat within %.0f%%: %s)", spacings[0], spacings[n - 1],
			    GEOMETRY_PLATEAU_TOL * 100, curve);
	else
		mp_snprintf(out->why, sizeof out->why, "not measurable here: no single clean "
			    "step (noise, or a cost at a second boundary): %s", curve);
}

/* The median of v[0..m), 1 <= m <= GEOMETRY_STEP_HIGH_POINTS: the upper
   middle of an even count. */
static double median_of_few(const double *v, unsigned m)
{
	double sorted[GEOMETRY_STEP_HIGH_POINTS];

	for (unsigned a = 0; a < m; a++) {
		unsigned b = a;

		while (b > 0 && sorted[b - 1] > v[a]) {
			sorted[b] = sorted[b - 1];
			b--;
		}
		sorted[b] = v[a];
	}
	return sorted[m / 2];
}

/* The points from `from` to n: the median of the last
   GEOMETRY_STEP_HIGH_POINTS of them (fewer where there are fewer). */
static double median_of_last(const double *ns, unsigned from, unsigned n)
{
	unsigned m = n - from < GEOMETRY_STEP_HIGH_POINTS ? n - from : GEOMETRY_STEP_HIGH_POINTS;

	return median_of_few(ns + n - m, m);
}

int geometry_levelled(const double *ns, unsigned n)
{
	double lo, hi;

	if (n < GEOMETRY_STEP_HIGH_POINTS)
		return 0;
	range_of(ns, n - GEOMETRY_STEP_HIGH_POINTS, n, &lo, &hi);
	return hi - lo <= GEOMETRY_PLATEAU_TOL * median_of_last(ns, 0, n);
}

/* A step, then a climb: the plateau flat to its last point (s .. i-1,
   within GEOMETRY_PLATEAU_TOL of the median of its last points, at most
   the spikes the plateau rule allows), the first point past it a clear
   step by itself (GEOMETRY_STEP_CLEAR over that level), then a
   climb that never falls back under that point and levels off before the
   curve ends (its last GEOMETRY_STEP_HIGH_POINTS points a plateau,
   geometry_levelled; the ways sweep goes on until they are, or to its
   end).
   An L2 whose replacement keeps a share of the lines past its ways, a
   share that falls as lines are added, reads so: on the Emerald Rapids
   VM's 16-way L2, lines 128 KiB apart read 5.5 ns to 16, then 15.3, 21.0,
   24.0 ... 36 ns from 26 on; 64 KiB apart (two sets) the same from 33.
   Lines spread over sets at random (a VM's 4 KiB frames) climb from
   below any clear step instead. 1 with out filled, else 0. */
static int step_then_climb(const unsigned *k, const double *ns, unsigned s, unsigned i,
			   unsigned n, struct geometry_step_reading *out)
{
	/* The plateau's level just before the step: the least of its first
	   points (geometry_read_step's base) can lie under it, where the first line past the
	   level below still hits there now and then (L2's 13 lines, 12 of
	   them in L1d's set, read 4.9 ns against 5.5 to 5.6 after). */
	double level = median_of_last(ns, s, i), top = median_of_last(ns, i, n);
	unsigned spikes = 0;

	if (i + GEOMETRY_STEP_HIGH_POINTS > n || ns[i] < level * GEOMETRY_STEP_CLEAR ||
	    ns[i - 1] > level * (1 + GEOMETRY_PLATEAU_TOL))
		return 0;
	for (unsigned j = s; j < i; j++)
		spikes += ns[j] > level * (1 + GEOMETRY_PLATEAU_TOL);
	if (spikes > 1 + (i - s) / 8)
		return 0;
	for (unsigned j = i + 1; j < n; j++)
		if (ns[j] < ns[i] * (1 - GEOMETRY_PLATEAU_TOL))
			return 0;
	if (!geometry_levelled(ns, n))
		return 0;
	out->ways = k[i - 1];
	out->low_ns = level;
	out->high_ns = top;
	mp_snprintf(out->why, sizeof out->why, "a step after %u, %.2f to %.2f ns, then a climb "
		    "to %.2f (the replacement keeps a share of the lines past the ways, less as "
		    "more come)", k[i - 1], level, ns[i], top);
	return 1;
}

void geometry_read_step(const unsigned *k, const double *ns, unsigned n, unsigned after,
			struct geometry_step_reading *out)
{
	char curve[120];
	unsigned s = 0, i, up, spikes = 0, m;
	double base, high, cut;

	out->ways = 0;
	out->low_ns = out->high_ns = 0;
	out->sharp = 0;
	out->lone = 0;
	out->no_step = 0;
	out->why[0] = '\0';
	while (s < n && k[s] <= after)
		s++;
	if (s + 2 > n) {
		mp_snprintf(out->why, sizeof out->why, "not measurable here: fewer than two points "
			    "past %u", after);
		return;
	}
	for (i = s; i < n; i++)
		if (!(ns[i] > 0)) {
			mp_snprintf(out->why, sizeof out->why, "not measurable here: %u has no "
				    "figure", k[i]);
			return;
		}
	/* The plateau's level: the least of its first three points (noise only
	   adds time). */
	base = ns[s];
	for (i = s + 1; i < n && i < s + 3; i++)
		if (ns[i] < base)
			base = ns[i];
	/* The step: the first point from which the curve stays up to the end
	   (a spike before it comes back down, so it is not the step). */
	for (i = n; i > s && ns[i - 1] >= base * GEOMETRY_STEP_MIN; i--)
		;
	curve_text(curve, sizeof curve, k + s, ns + s, n - s < 12 ? n - s : 12);
	if (i == n) {
		out->no_step = 1;
		mp_snprintf(out->why, sizeof out->why, "not measurable here: no step from %u to "
			    "%u (the last point is within %.0f%% of the first ones)", k[s],
			    k[n - 1], (GEOMETRY_STEP_MIN - 1) * 100);
		return;
	}
	if (i == s) {
		mp_snprintf(out->why, sizeof out->why, "not measurable here: no plateau before "
			    "the rise (%s)", curve);
		return;
	}
	up = i;
	/* The level after it: the median of its first points, past the first
	   when there are enough (that one may be part way up). */
	{
		unsigned from = n - i >= 3 ? i + 1 : i;

		m = n - from < GEOMETRY_STEP_HIGH_POINTS ? n - from : GEOMETRY_STEP_HIGH_POINTS;
		high = median_of_few(ns + from, m);
	}
	if (high < base * GEOMETRY_STEP_CLEAR) {
		mp_snprintf(out->why, sizeof out->why, "not measurable here: the curve rises only "
			    "%.0f%% from %u on, no clear step", (high / base - 1) * 100, k[i]);
		return;
	}
	/* The step stands where the curve crosses half its height for good,
	   or at a lone point part way up just before that crossing (below). */
	cut = base + GEOMETRY_STEP_PLATEAU_CUT * (high - base);
	{
		double half = base + 0.5 * (high - base), full = base + 0.85 * (high - base);
		unsigned c = n, partial = 0;

		while (c > i && ns[c - 1] >= half)
			c--;
		if (c == n) {
			mp_snprintf(out->why, sizeof out->why, "not measurable here: the curve ends "
				    "part way up (%s)", curve);
			return;
		}
		/* Part way up: above a quarter of the step, under 85 % of it,
		   from the rise until the curve first reaches the step's height
		   (a dip after that is the high plateau's noise, judged below),
		   at most two points past the crossing. A staircase, one set after
		   another overflowing, has two or more. */
		for (unsigned j = i; j < c + 2 && j < n && ns[j] < full; j++)
			if (ns[j] > cut)
				partial++;
		if (partial > 1) {
			if (step_then_climb(k, ns, s, up, n, out))
				return;
			mp_snprintf(out->why, sizeof out->why, "not measurable here: the rise around "
				    "%u spreads over several points, not one step (%s)", k[c], curve);
			return;
		}
		out->sharp = partial == 0;
		/* The one point part way up, just before the crossing (points
		   after the rise and before it lie under a quarter of the step),
		   is the first line past the ways, of which the replacement
		   keeps a share: tree-PLRU, random victims. Golden Cove's L1d
		   and L1 DTLB read 13 of 12 ways and 7 of 6 at 26 to 49 % of
		   their step, 25 of 24 over two sets; the crossing alone called
		   such a point a way when it fell under half. A set holding
		   exactly its ways has at most a small rise (the program's own
		   lines now and then), which stays under the quarter. A point
		   under the quarter but over GEOMETRY_STEP_LONE_CUT of the step,
		   and 1.15 x the plateau (it is past i), is taken the same way:
		   the EMR VM's L1d read its 13th line at 14 % one run in twelve,
		   and 25 lines over two sets at 21 % three in seven, which the
		   crossing called a way. Either is then measured again in other
		   sets (refine_step: not sharp), where a stray entry's rise
		   falls back and a replacement's share does not. */
		if (c > i && (partial == 1 ? ns[c - 1] > cut :
			      ns[c - 1] > base + GEOMETRY_STEP_LONE_CUT * (high - base))) {
			out->lone = 1;
			out->sharp = 0;
			c--;
		}
		i = c;
	}
	for (unsigned j = s; j < i; j++)
		if (ns[j] > cut)
			spikes++;
	if (spikes > 1 + (i - s) / 8) {
		mp_snprintf(out->why, sizeof out->why, "not measurable here: %u points before the "
			    "rise at %u lie above the plateau (noise, or a rise spread out: %s)",
			    spikes, k[i], curve);
		return;
	}
	/* After the step a plateau (or the next level's step, further on):
	   the points after its first within the band of the step's height. */
	m = n - i < GEOMETRY_STEP_HIGH_POINTS ? n - i : GEOMETRY_STEP_HIGH_POINTS;
	if (m > 2) {
		double lo2, hi2;

		range_of(ns, i + 1, i + m, &lo2, &hi2);
		if (hi2 - lo2 > GEOMETRY_LINE_BAND * (high - base)) {
			if (step_then_climb(k, ns, s, up, n, out))
				return;
			mp_snprintf(out->why, sizeof out->why, "not measurable here: the curve "
				    "climbs on after the rise at %u (%.2f to %.2f ns), no plateau",
				    k[i], lo2, hi2);
			return;
		}
	}
	out->ways = k[i - 1];
	out->low_ns = base;
	out->high_ns = high;
	if (out->lone)
		mp_snprintf(out->why, sizeof out->why, "a step after %u, %.2f to %.2f ns (%u part "
			    "way up, the first past the ways: the replacement keeps a share)",
			    k[i - 1], base, high, k[i]);
	else
		mp_snprintf(out->why, sizeof out->why, "a step after %u, %.2f to %.2f ns%s",
			    k[i - 1], base, high, out->sharp ? "" : " (one point part way up)");
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
	if (ways[j - 1] != 0 && (ways[j - 1] * 4 < w * 7 || ways[j - 1] * 4 > w * 9)) {
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

/* ---- Public Functions: verdicts --------------------------------------- */

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
