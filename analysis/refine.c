/* The adaptive sweep's decision (see refine.h). */

#include "analysis/refine.h"
#include "lib/base2.h"

/* ---- Constants -------------------------------------------------------- */

/* Curves longer than this are not refined (the probes hold far fewer). */
#define REFINE_MAX_INPUT 256
/* An interval rising at least this much belongs to a rise for the report,
   when its window is a candidate edge. */
#define REFINE_RISING 1.03

/* ---- Private Types ---------------------------------------------------- */

/* What the points say about each interval i (between points i and i+1). */
struct intervals {
	size_t n;                          /* points */
	double level[REFINE_MAX_INPUT];    /* log2 of the envelope */
	unsigned char rising[REFINE_MAX_INPUT];
	unsigned char steep[REFINE_MAX_INPUT];
	unsigned char held[REFINE_MAX_INPUT];   /* holds the edge (concentrated) */
	uint64_t split[REFINE_MAX_INPUT];       /* its split point; 0 none */
	unsigned char at_top[REFINE_MAX_INPUT]; /* would be split, but is the last */
};

/* ---- Private Functions ------------------------------------------------ */

/* log2 of the envelope: each reading bounded by every larger size's, since
   a larger working set is never faster in truth and noise only adds time;
   so a disturbed reading with a lower one past it cannot look like a step. */
static void envelope(const struct refine_point *pt, size_t n, double *level)
{
	double low = 0;

	for (size_t i = n; i-- > 0;) {
		double y = pt[i].y > 1e-12 ? pt[i].y : 1e-12;

		if (i == n - 1 || y < low)
			low = y;
		level[i] = base2_log(low);
	}
}

static int read_intervals(const struct refine_point *pt, size_t n, uint64_t unit,
			  struct intervals *iv)
{
	double step = base2_log(REFINE_STEP_RISE), window_rise = base2_log(REFINE_WINDOW_RISE);
	double rising = base2_log(REFINE_RISING);

	iv->n = n;
	if (n < 2 || n > REFINE_MAX_INPUT)
		return -1;
	for (size_t i = 1; i < n; i++)
		if (pt[i].x <= pt[i - 1].x)
			return -1;
	envelope(pt, n, iv->level);
	for (size_t i = 0; i + 1 < n; i++) {
		size_t from = i ? i - 1 : 0, to = i + 2 < n ? i + 2 : n - 1;
		double d = iv->level[i + 1] - iv->level[i];
		double w = iv->level[to] - iv->level[from];

		iv->rising[i] = w >= window_rise && d >= rising;
		iv->steep[i] = iv->rising[i] && d >= step;
		iv->held[i] = iv->steep[i] && d >= REFINE_CONCENTRATED * w;
		/* The last interval is never split: its top has no point past it
		   to confirm it, so a disturbed last reading looks like a step,
		   and an edge there has no plateau past it to be judged by. */
		iv->split[i] = iv->held[i] ? refine_split(pt[i].x, pt[i + 1].x, unit) : 0;
		iv->at_top[i] = iv->split[i] && i + 2 >= n;
		if (iv->at_top[i])
			iv->split[i] = 0;
	}
	return 0;
}

static double distance(double a, double b)
{
	return a > b ? a - b : b - a;
}

static void put_edge(const struct refine_point *pt, enum refine_kind kind, size_t below,
		     size_t above, struct refine_edge *e)
{
	e->kind = kind;
	e->below = pt[below].x;
	e->above = pt[above].x;
	e->rise = pt[below].y > 0 && pt[above].y > 0 ? pt[above].y / pt[below].y : 0;
}

/* ---- Public Functions ------------------------------------------------- */

uint64_t refine_split(uint64_t a, uint64_t b, uint64_t unit)
{
	double mid, best_off = 0;
	uint64_t best = 0;
	unsigned k;

	if (!unit || a >= b || b - a < 2)
		return 0;
	mid = (base2_log((double)a) + base2_log((double)b)) / 2;
	for (k = 0; k < 63 && (1ull << k) <= b; k++) {
		if ((2ull << k) <= a)
			continue;
		/* The octave [2^k, 2^(k+1)): m * 2^k / 8 for m = 8 .. 15. */
		for (unsigned m = 8; m < 16; m++) {
			uint64_t g;
			double off;

			if (((uint64_t)m << k) % 8)
				continue;
			g = ((uint64_t)m << k) / 8;
			if (g <= a || g >= b || g % unit)
				continue;
			off = distance(base2_log((double)g), mid);
			if (!best || off < best_off) {
				best = g;
				best_off = off;
			}
		}
	}
	return best;
}

size_t refine_next(const struct refine_point *pt, size_t n, uint64_t unit,
		   uint64_t *out, size_t max)
{
	static struct intervals iv;
	size_t count = 0;

	if (read_intervals(pt, n, unit, &iv) != 0)
		return 0;
	for (size_t i = 0; i + 1 < n && count < max; i++)
		if (iv.split[i])
			out[count++] = iv.split[i];
	return count;
}

size_t refine_edges(const struct refine_point *pt, size_t n, uint64_t unit,
		    struct refine_edge *out, size_t max)
{
	static struct intervals iv;
	double window_rise = base2_log(REFINE_WINDOW_RISE);
	size_t count = 0, i = 0;

	if (read_intervals(pt, n, unit, &iv) != 0)
		return 0;
	while (i + 1 < n && count < max) {
		size_t s = i, t, first = n, last = 0;
		double run = 0, held = 0;
		int open = 0;

		if (!iv.rising[i]) {
			i++;
			continue;
		}
		for (t = s; t + 1 < n && iv.rising[t]; t++) {
			double d = iv.level[t + 1] - iv.level[t];

			run += d;
			if (iv.split[t] || iv.at_top[t])
				open = 1;
			if (iv.held[t]) {
				held += d;
				if (first == n)
					first = t;
				last = t;
			}
		}
		i = t;
		if (run < window_rise)
			continue;
		if (!open && first < n && held >= 0.5 * run) {
			/* Sharp: each group of adjacent held intervals is an edge
			   of its own (two steps in one rise stay two). */
			for (size_t g = first; g <= last && count < max;) {
				size_t h = g;

				while (h + 1 <= last && iv.held[h + 1])
					h++;
				put_edge(pt, REFINE_SHARP, g, h + 1, &out[count++]);
				for (g = h + 1; g <= last && !iv.held[g]; g++)
					;
			}
			continue;
		}
		put_edge(pt, open ? REFINE_OPEN : REFINE_SMEARED, s, t, &out[count++]);
	}
	return count;
}

double refine_points_cost(const struct refine_point *pt, size_t n)
{
	double cost = 0;

	for (size_t i = 0; i < n; i++)
		cost += (double)pt[i].x * pt[i].y;
	return cost;
}

int refine_run(struct refine_point *pt, size_t *n, size_t cap, uint64_t unit,
	       int (*measure)(void *ctx, uint64_t x, double *y), void *ctx)
{
	uint64_t next[REFINE_MAX_POINTS];
	double budget = refine_points_cost(pt, *n) * REFINE_COST_SHARE, spent = 0;
	int added = 0;

	for (;;) {
		size_t want = REFINE_MAX_POINTS - (size_t)added, count;

		if (*n >= cap)
			return added;
		if (want > cap - *n)
			want = cap - *n;
		if (!want)
			return added;
		count = refine_next(pt, *n, unit, next, want);
		if (!count)
			return added;
		for (size_t k = 0; k < count; k++) {
			size_t at = 0;
			double y;

			while (at < *n && pt[at].x < next[k])
				at++;
			/* The point above it bounds its reading: the curve rises. */
			spent += (double)next[k] * (at < *n ? pt[at].y : pt[*n - 1].y);
			if (spent > budget)
				return added;
			if (measure(ctx, next[k], &y) != 0)
				return -1;
			for (size_t j = *n; j > at; j--)
				pt[j] = pt[j - 1];
			pt[at].x = next[k];
			pt[at].y = y;
			(*n)++;
			added++;
		}
	}
}

const char *refine_kind_name(enum refine_kind k)
{
	switch (k) {
	case REFINE_SHARP:
		return "sharp";
	case REFINE_SMEARED:
		return "smeared";
	case REFINE_OPEN:
		return "open";
	}
	return "?";
}
