/* Rows of several runs matched by what was measured (see run_match.h). */

#include <stdlib.h>
#include <string.h>

#include "host/host.h"
#include "host/run_match.h"

// ---- Private Functions ------------------------------------------------------

/* qsort's order: variant, page size, working set. */
static int key_order(const void *pa, const void *pb)
{
	const struct run_key *a = pa, *b = pb;

	if (a->variant_order != b->variant_order)
		return a->variant_order < b->variant_order ? -1 : 1;
	if (a->page_shift != b->page_shift)
		return a->page_shift < b->page_shift ? -1 : 1;
	if (a->working_set_bytes != b->working_set_bytes)
		return a->working_set_bytes < b->working_set_bytes ? -1 : 1;
	return 0;
}

/* The order the probe's variant was first seen in, or the next one. */
static unsigned variant_order(const struct run_key *keys, size_t n, const char *variant,
			      unsigned *variants)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i].variant, variant))
			return keys[i].variant_order;
	return (*variants)++;
}

/* Whether k is among keys[0..n). */
static int have_key(const struct run_key *keys, size_t n, const struct run_key *k)
{
	for (size_t i = 0; i < n; i++)
		if (!key_order(&keys[i], k))
			return 1;
	return 0;
}

// ---- Public Functions -------------------------------------------------------

struct run_key *run_match_keys(const struct run_folder *runs, unsigned nruns, const char *probe,
			       size_t *n)
{
	struct run_key *keys = NULL;
	size_t count = 0, cap = 0;
	unsigned variants = 0;

	for (unsigned r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].nrows; i++) {
			const struct run_row *row = &runs[r].row[i];
			struct run_key k = { row->variant, 0, row->page_shift, row->working_set_bytes };

			if (strcmp(row->probe, probe))
				continue;
			k.variant_order = variant_order(keys, count, k.variant, &variants);
			if (have_key(keys, count, &k))
				continue;
			if (count == cap)
				keys = host_must(realloc(keys, (cap = cap ? cap * 2 : 64) * sizeof *keys));
			keys[count++] = k;
		}
	qsort(keys, count, sizeof *keys, key_order);
	*n = count;
	return keys;
}

const struct run_row *run_match_row(const struct run_folder *r, const char *probe,
				    const struct run_key *k)
{
	for (size_t i = 0; i < r->nrows; i++) {
		const struct run_row *row = &r->row[i];

		if (!strcmp(row->probe, probe) && !strcmp(row->variant, k->variant) &&
		    row->page_shift == k->page_shift &&
		    row->working_set_bytes == k->working_set_bytes)
			return row;
	}
	return NULL;
}

int run_match_same_curve(const struct run_key *a, const struct run_key *b)
{
	return a->variant_order == b->variant_order && a->page_shift == b->page_shift;
}
