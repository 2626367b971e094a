/* The random-placement cache model and the fit of a step to it (see
 * placement.h; the method in docs/METHOD.md).
 */
#include "analysis/placement.h"
#include "lib/svg.h"

/* ---- Constants -------------------------------------------------------- */

/* The model's lines per set are tabulated up to this count; a set holding
   more misses as the largest tabulated count does (it overflows every
   candidate's ways many times over). */
#define MAX_TABLED_LINES 512
/* Past this mean load per set the binomial spread no longer matters
   (and its first term would underflow): every set holds about the mean. */
#define MEAN_LOAD_EXACT_LIMIT 400.0
/* Candidate capacities per octave. */
#define STEPS_PER_OCTAVE 32
#define MAX_CANDIDATES (STEPS_PER_OCTAVE * 48)
/* A fit whose residual is within this of the best (in rms of ln ns, plus
   a share of the best's own) explains the readings as well, as far as
   their noise tells: 0.02 is a 2% reading error. */
#define RMS_ALLOWANCE 0.02
#define RMS_SHARE 1.0

static const unsigned candidate_ways[] = { 4, 8, 12, 16, 24, 32 };
#define NWAYS (sizeof candidate_ways / sizeof candidate_ways[0])
/* How an overflowing set misses: a chase's three policies, and random
   reads (see struct cache_model). */
static const struct policy {
	double lru_share;
	int random_reads;
} candidate_policies[] = { { 0.0, 0 }, { 0.5, 0 }, { 1.0, 0 }, { 0.0, 1 } };
#define NPOLICIES (sizeof candidate_policies / sizeof candidate_policies[0])

/* What one candidate predicts per set: the miss share of a set holding
   k lines, k = 0 .. MAX_TABLED_LINES. */
struct set_misses {
	double share[MAX_TABLED_LINES + 1];
};

/* ---- Private Functions ------------------------------------------------ */

static double ln(double x)
{
	return svg_log2(x) * 0.69314718055994530942;
}

/* The share of a set's loads that miss when it holds `lines` lines. */
static double set_miss_share(double lines, unsigned ways, double lru_share, int random_reads)
{
	if (lines <= (double)ways)
		return 0.0;
	if (random_reads)
		return 1.0 - (double)ways / lines;
	if (lru_share >= 1.0)
		return 1.0;
	return lru_share + (1.0 - lru_share) * (1.0 - placement_random_hit_rate(lines, ways));
}

static double tabled_share(const struct set_misses *t, const struct cache_model *m, double lines)
{
	if (t) {
		size_t k = lines < (double)MAX_TABLED_LINES ? (size_t)lines : MAX_TABLED_LINES;
		return t->share[k];
	}
	return set_miss_share(lines, m->ways, m->lru_share, m->random_reads);
}

static void fill_table(struct set_misses *t, unsigned ways, const struct policy *p)
{
	for (size_t k = 0; k <= MAX_TABLED_LINES; k++)
		t->share[k] = set_miss_share((double)k, ways, p->lru_share, p->random_reads);
}

/* Every set holds q lines on average, as evenly as lines go: a share
   (q - a) of the sets holds a + 1, the rest a (a contiguous buffer's
   consecutive lines take consecutive sets). */
static double even_miss_fraction(const struct cache_model *m, const struct set_misses *t,
				 double q)
{
	double a, frac;

	if (!(q > 0.0))
		return 0.0;
	a = (double)(uint64_t)q;
	frac = q - a;
	return ((1.0 - frac) * a * tabled_share(t, m, a) +
		frac * (a + 1.0) * tabled_share(t, m, a + 1.0)) / q;
}

/* Frames of a random colour each: the lines per set of one colour are
   binomial over the frames, B(frames, 1/colours). */
static double binomial_miss_fraction(const struct cache_model *m, const struct set_misses *t,
				     double frames, double colours)
{
	double p = 1.0 / colours, mean = frames * p, pk, sum = 0.0, seen = 0.0;

	if (mean > MEAN_LOAD_EXACT_LIMIT)
		return even_miss_fraction(m, t, mean);
	pk = svg_exp2(frames * svg_log2(1.0 - p));
	for (double k = 0.0; k <= frames; k += 1.0) {
		sum += pk * k * tabled_share(t, m, k);
		seen += pk;
		if (k > mean && (seen > 1.0 - 1e-12 || pk < 1e-300))
			break;
		pk *= (frames - k) / (k + 1.0) * p / (1.0 - p);
	}
	return sum / mean;
}

static double miss_fraction_with(const struct cache_model *m, const struct set_misses *t,
				 uint64_t bytes)
{
	double way_span, colours, frames;

	if (!m || !m->capacity || !m->ways || !bytes)
		return 0.0;
	way_span = (double)m->capacity / (double)m->ways;
	/* Lines per set on average: bytes / line over capacity / (ways * line). */
	if (!m->granule || way_span <= (double)m->granule || bytes <= m->granule)
		return even_miss_fraction(m, t, (double)bytes * m->ways / (double)m->capacity);
	colours = way_span / (double)m->granule;
	frames = (double)(uint64_t)((double)bytes / (double)m->granule + 0.5);
	return binomial_miss_fraction(m, t, frames, colours);
}

/* The residual, rms of ln(ns), of model m over the window. */
static double model_rms(const struct cache_model *m, const struct set_misses *t,
			const uint64_t *x, const double *ln_ns, size_t n, double lo, double hi)
{
	double sum = 0.0;

	for (size_t k = 0; k < n; k++) {
		double pred = lo + (hi - lo) * miss_fraction_with(m, t, x[k]);
		double d = ln(pred) - ln_ns[k];
		sum += d * d;
	}
	/* sqrt by Newton's method: the sum is small and positive. */
	{
		double v = sum / (double)n, r = v > 1.0 ? v : 1.0;
		if (v <= 0.0)
			return 0.0;
		for (int i = 0; i < 60; i++)
			r = 0.5 * (r + v / r);
		return r;
	}
}

static uint64_t candidate_capacity(uint64_t x0, unsigned j)
{
	return (uint64_t)((double)x0 * svg_exp2((double)j / STEPS_PER_OCTAVE) + 0.5);
}

/* The capacities whose best residual, per[j], lies within allowance of
   best_rms: [lo, hi], holding `best`. */
static void fitting_range(const double *per, size_t ncand, uint64_t x0, double allowance,
			  double best_rms, uint64_t best, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = best;
	for (size_t j = 0; j < ncand; j++) {
		uint64_t c = candidate_capacity(x0, (unsigned)j);
		if (per[j] > best_rms + allowance)
			continue;
		if (c < *lo)
			*lo = c;
		if (c > *hi)
			*hi = c;
	}
}

/* ---- Public Functions ------------------------------------------------- */

double placement_random_hit_rate(double lines, unsigned ways)
{
	double h = 0.0, keep;

	if (lines <= (double)ways)
		return 1.0;
	if (ways <= 1)
		return 0.0;
	keep = svg_log2(1.0 - 1.0 / (double)ways);
	/* From h = 0 the iteration climbs to the smallest fixed point: the
	   steady state. h = 1 is a fixed point too (nothing ever evicted),
	   reached only when the others' misses cannot keep it down. */
	for (int i = 0; i < 500; i++) {
		double next = svg_exp2((lines - 1.0) * (1.0 - h) * keep);
		if (next - h < 1e-12 && h - next < 1e-12)
			return next;
		h = next;
	}
	return h;
}

double placement_miss_fraction(const struct cache_model *m, uint64_t bytes)
{
	return miss_fraction_with(m, 0, bytes);
}

int placement_fit(const uint64_t *x, const double *ns, size_t n, double lo_ns, double hi_ns,
		  uint64_t page_bytes, struct placement_fit *out)
{
	static struct set_misses table[NWAYS][NPOLICIES];
	static int tabled;
	static double per_capacity[MAX_CANDIDATES];
	double ln_ns[PLACEMENT_MAX_POINTS], best_rms = 1e300, contiguous_rms = 1e300, allowance;
	uint64_t granules[3];
	size_t ngranules = 0, ncand;
	struct cache_model best = { 0, 0, 0, 0.0, 0 };
	unsigned octaves_x32;

	if (!x || !ns || !out || n < 3 || n > PLACEMENT_MAX_POINTS || !(lo_ns > 0.0) || !(hi_ns > lo_ns) ||
	    hi_ns > 1e300)
		return -1;
	for (size_t k = 0; k < n; k++)
		if (!x[k] || (k && x[k] <= x[k - 1]) || !(ns[k] > 0.0) || ns[k] > 1e300)
			return -1;
	if (!tabled) {
		for (size_t w = 0; w < NWAYS; w++)
			for (size_t r = 0; r < NPOLICIES; r++)
				fill_table(&table[w][r], candidate_ways[w],
					   &candidate_policies[r]);
		tabled = 1;
	}
	for (size_t k = 0; k < n; k++)
		ln_ns[k] = ln(ns[k]);
	granules[ngranules++] = 0;
	granules[ngranules++] = 4096;
	if (page_bytes > 4096)
		granules[ngranules++] = page_bytes;
	octaves_x32 = (unsigned)(svg_log2((double)x[n - 1] / (double)x[0]) * STEPS_PER_OCTAVE);
	ncand = octaves_x32 + 1 < MAX_CANDIDATES ? octaves_x32 + 1 : MAX_CANDIDATES;
	for (size_t j = 0; j < ncand; j++)
		per_capacity[j] = 1e300;

	for (size_t g = 0; g < ngranules; g++)
		for (size_t w = 0; w < NWAYS; w++)
			for (size_t r = 0; r < NPOLICIES; r++)
				for (size_t j = 0; j < ncand; j++) {
					struct cache_model m = {
						candidate_capacity(x[0], (unsigned)j),
						candidate_ways[w], granules[g],
						candidate_policies[r].lru_share,
						candidate_policies[r].random_reads
					};
					double rms = model_rms(&m, &table[w][r], x, ln_ns, n,
							       lo_ns, hi_ns);
					if (rms < per_capacity[j])
						per_capacity[j] = rms;
					if (!m.granule && rms < contiguous_rms)
						contiguous_rms = rms;
					if (rms < best_rms) {
						best_rms = rms;
						best = m;
					}
				}

	allowance = best_rms * RMS_SHARE + RMS_ALLOWANCE;
	out->best = best;
	out->capacity = best.capacity;
	out->rms = best_rms;
	out->sharp_rms = contiguous_rms;
	out->smeared = best.granule != 0 && contiguous_rms > best_rms + allowance;
	fitting_range(per_capacity, ncand, x[0], allowance, best_rms, best.capacity,
		      &out->range_lo, &out->range_hi);
	return 0;
}