/* Rows of several runs matched by what was measured (see run_match.h).
 *
 * The probe's rows of every run are sorted together by their identity,
 * then by run and position; equal neighbours are one key, and the least
 * reading of each run among them is that run's row (a size the sweep
 * measured again, `revisited`, has two rows; noise only ever adds time). The variants are then ranked
 * by where they were first seen and the keys sorted into the tables'
 * order. Two sorts and a few linear passes.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "desk/run_match.h"
#include "desk/desk.h"

/* ---- Private Types ---------------------------------------------------- */

/* One row of one run, as the first sort sees it. */
struct entry {
	const struct run_row *row;
	unsigned run;
	size_t index;                /* its position in the run */
};

/* One key while the keys are gathered: its rows are entry[first..first+n). */
struct gathered {
	struct run_key key;
	size_t first, n;
};

/* A variant, by the entry where it was first seen. */
struct variant_seen {
	const struct entry *first;
	size_t from, to;             /* its keys: gathered[from..to) */
};

/* ---- Private Functions ------------------------------------------------ */

/* Not given before given, then by value. */
static int count_order(struct optional_count a, struct optional_count b)
{
	if (a.given != b.given)
		return a.given < b.given ? -1 : 1;
	if (a.given && a.value != b.value)
		return a.value < b.value ? -1 : 1;
	return 0;
}

/* Every identity after the variant: page size, working set, stride, cpu,
   peer_cpu, loaders, chases. */
static int identity_order(unsigned page_a, uint64_t ws_a, uint64_t stride_a,
			  const struct optional_count *id_a, unsigned page_b, uint64_t ws_b,
			  uint64_t stride_b, const struct optional_count *id_b)
{
	if (page_a != page_b)
		return page_a < page_b ? -1 : 1;
	if (ws_a != ws_b)
		return ws_a < ws_b ? -1 : 1;
	if (stride_a != stride_b)
		return stride_a < stride_b ? -1 : 1;
	for (unsigned i = 0; i < 4; i++) {
		int c = count_order(id_a[i], id_b[i]);

		if (c)
			return c;
	}
	return 0;
}

/* qsort's order of the entries: identity (variant by name), then run and
   position, so a key's first entry is where it was first seen. */
static int entry_order(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	const struct optional_count ia[4] = { a->row->cpu, a->row->peer_cpu, a->row->loaders,
					      a->row->chases };
	const struct optional_count ib[4] = { b->row->cpu, b->row->peer_cpu, b->row->loaders,
					      b->row->chases };
	int c = strcmp(a->row->variant, b->row->variant);

	if (!c)
		c = identity_order(a->row->page_shift, a->row->working_set_bytes,
				   a->row->stride_bytes, ia, b->row->page_shift,
				   b->row->working_set_bytes, b->row->stride_bytes, ib);
	if (c)
		return c;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Whether two entries are rows of one key. */
static int same_key(const struct entry *a, const struct entry *b)
{
	const struct optional_count ia[4] = { a->row->cpu, a->row->peer_cpu, a->row->loaders,
					      a->row->chases };
	const struct optional_count ib[4] = { b->row->cpu, b->row->peer_cpu, b->row->loaders,
					      b->row->chases };

	return !strcmp(a->row->variant, b->row->variant) &&
	       !identity_order(a->row->page_shift, a->row->working_set_bytes,
			       a->row->stride_bytes, ia, b->row->page_shift,
			       b->row->working_set_bytes, b->row->stride_bytes, ib);
}

/* qsort's order of the keys: variant (first seen first), then the rest. */
static int key_order(const void *pa, const void *pb)
{
	const struct run_key *a = &((const struct gathered *)pa)->key;
	const struct run_key *b = &((const struct gathered *)pb)->key;
	const struct optional_count ia[4] = { a->cpu, a->peer_cpu, a->loaders, a->chases };
	const struct optional_count ib[4] = { b->cpu, b->peer_cpu, b->loaders, b->chases };

	if (a->variant_order != b->variant_order)
		return a->variant_order < b->variant_order ? -1 : 1;
	return identity_order(a->page_shift, a->working_set_bytes, a->stride_bytes, ia,
			      b->page_shift, b->working_set_bytes, b->stride_bytes, ib);
}

/* Whether row a reads less than row b: a usable ns (finite, above 0) below
   b's, or b has none. Bandwidth's GB/s is a line over ns, so the least ns
   is the most GB/s. */
static int reads_less(const struct run_row *a, const struct run_row *b)
{
	int a_usable = a->ns > 0 && a->ns < INFINITY, b_usable = b->ns > 0 && b->ns < INFINITY;

	return a_usable && (!b_usable || a->ns < b->ns);
}

/* Whether entry a was seen before entry b. */
static int seen_before(const struct entry *a, const struct entry *b)
{
	return a->run != b->run ? a->run < b->run : a->index < b->index;
}

static int variant_seen_order(const void *pa, const void *pb)
{
	const struct variant_seen *a = pa, *b = pb;

	return seen_before(a->first, b->first) ? -1 : seen_before(b->first, a->first);
}

/* Ranks the variants of the gathered keys (which come grouped by variant
   name) by where each was first seen. */
static void rank_variants(struct gathered *g, size_t n, const struct entry *e)
{
	struct variant_seen *v = desk_must(malloc((n ? n : 1) * sizeof *v));
	size_t nv = 0;

	for (size_t k = 0; k < n; k++) {
		const struct entry *first = &e[g[k].first];

		if (nv && !strcmp(g[k].key.variant, g[v[nv - 1].from].key.variant)) {
			if (seen_before(first, v[nv - 1].first))
				v[nv - 1].first = first;
			v[nv - 1].to = k + 1;
			continue;
		}
		v[nv++] = (struct variant_seen){ first, k, k + 1 };
	}
	qsort(v, nv, sizeof *v, variant_seen_order);
	for (size_t i = 0; i < nv; i++)
		for (size_t k = v[i].from; k < v[i].to; k++)
			g[k].key.variant_order = (unsigned)i;
	free(v);
}

/* The probe's rows of every run. */
static struct entry *gather_entries(const struct run_folder *runs, unsigned nruns,
				    const char *probe, size_t *n)
{
	size_t total = 0, count = 0;
	struct entry *e;

	for (unsigned r = 0; r < nruns; r++)
		total += runs[r].nrows;
	e = desk_must(malloc((total ? total : 1) * sizeof *e));
	for (unsigned r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].nrows; i++)
			if (!strcmp(runs[r].row[i].probe, probe))
				e[count++] = (struct entry){ &runs[r].row[i], r, i };
	*n = count;
	return e;
}

/* ---- Public Functions ------------------------------------------------- */

void run_match_build(struct run_match *m, const struct run_folder *runs, unsigned nruns,
		     const char *probe)
{
	size_t ne, nk = 0;
	struct entry *e = gather_entries(runs, nruns, probe, &ne);
	struct gathered *g = desk_must(malloc((ne ? ne : 1) * sizeof *g));

	qsort(e, ne, sizeof *e, entry_order);
	for (size_t i = 0; i < ne; i++) {
		const struct run_row *row = e[i].row;

		if (nk && same_key(&e[g[nk - 1].first], &e[i])) {
			g[nk - 1].n++;
			continue;
		}
		g[nk++] = (struct gathered){ { row->variant, 0, row->page_shift,
					       row->working_set_bytes, row->cpu, row->peer_cpu,
					       row->loaders, row->stride_bytes, row->chases }, i, 1 };
	}
	rank_variants(g, nk, e);
	qsort(g, nk, sizeof *g, key_order);

	m->nkeys = nk;
	m->nruns = nruns;
	m->key = desk_must(malloc((nk ? nk : 1) * sizeof *m->key));
	m->row = desk_must(calloc((nk ? nk : 1) * (nruns ? nruns : 1), sizeof *m->row));
	for (size_t k = 0; k < nk; k++) {
		m->key[k] = g[k].key;
		/* Within a key the entries run by run, then by position: each
		   run's least reading is its row, the first of equal ones. */
		for (size_t i = g[k].first; i < g[k].first + g[k].n; i++) {
			const struct run_row **have = &m->row[k * nruns + e[i].run];

			if (!*have || reads_less(e[i].row, *have))
				*have = e[i].row;
		}
	}
	free(g);
	free(e);
}

void run_match_free(struct run_match *m)
{
	free(m->key);
	free(m->row);
	memset(m, 0, sizeof *m);
}

const struct run_row *run_match_row(const struct run_match *m, size_t k, unsigned r)
{
	return k < m->nkeys && r < m->nruns ? m->row[k * m->nruns + r] : NULL;
}

int run_match_same_curve(const struct run_key *a, const struct run_key *b)
{
	return a->variant_order == b->variant_order && a->page_shift == b->page_shift &&
	       !count_order(a->cpu, b->cpu) && !count_order(a->peer_cpu, b->peer_cpu) &&
	       !count_order(a->loaders, b->loaders) && !count_order(a->chases, b->chases);
}

double run_match_figure(const struct run_row *row, int rate)
{
	if (!rate)
		return row->ns;
	return row->gb_per_s.given ? row->gb_per_s.value : NAN;
}

int run_match_rate(const struct run_match *m)
{
	for (size_t i = 0; i < m->nkeys * m->nruns; i++)
		if (m->row[i] && m->row[i]->gb_per_s.given)
			return 1;
	return 0;
}

double run_match_geomean(const struct run_match *m, unsigned r, int rate, size_t *count)
{
	double logs = 0;
	size_t n = 0;

	for (size_t k = 0; k < m->nkeys; k++) {
		const struct run_row *a = run_match_row(m, k, 0), *x = run_match_row(m, k, r);
		double fa, fx;

		if (!a || !x)
			continue;
		fa = run_match_figure(a, rate);
		fx = run_match_figure(x, rate);
		/* NaN and infinities fail both tests. */
		if (!(fa > 0 && fa < INFINITY) || !(fx > 0 && fx < INFINITY))
			continue;
		logs += log(fx / fa);
		n++;
	}
	*count = n;
	return n ? exp(logs / (double)n) : NAN;
}
