/* Rows of several runs matched by what was measured (probe, variant, page
 * size, working set), never by position, so runs of different sweeps
 * still line up: memprobe compare's tables and charts both read them
 * through here.
 */
#ifndef MEMPROBE_RUN_MATCH_H
#define MEMPROBE_RUN_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include "host/run_folder.h"

/* One measured thing. */
struct run_key {
	const char *variant;
	unsigned variant_order;      /* first seen, so tables keep the probe's order */
	unsigned page_shift;
	uint64_t working_set_bytes;
};

/* Every distinct thing any of the runs measured for the probe, ordered by
   variant (first seen first), page size, working set. An allocation the
   caller frees; *n of them. */
struct run_key *run_match_keys(const struct run_folder *runs, unsigned nruns, const char *probe,
			       size_t *n);
/* The run's row for the key (its first, as a run measures each thing
   once), or NULL when the run has none. */
const struct run_row *run_match_row(const struct run_folder *r, const char *probe,
				    const struct run_key *k);
/* Whether two keys lie on one curve: the same variant and page size. */
int run_match_same_curve(const struct run_key *a, const struct run_key *b);

#endif
