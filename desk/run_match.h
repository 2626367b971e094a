/* Rows of several runs matched by what was measured, never by position, so
 * runs of different sweeps still line up: memprobe compare's tables and
 * charts both read them through here. What was measured is every identity
 * column of results.csv: probe, variant, page size, working set, cpu,
 * peer_cpu and loaders (a c2c row is one pair of CPUs, a loaded row one
 * count of loaders). The rows are sorted once, so matching runs of n rows
 * takes n log n, not n squared.
 */
#ifndef MEMPROBE_RUN_MATCH_H
#define MEMPROBE_RUN_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include "desk/run_folder.h"

/* One measured thing. */
struct run_key {
	const char *variant;
	unsigned variant_order;      /* first seen, so tables keep the probe's order */
	unsigned page_shift;
	uint64_t working_set_bytes;
	struct optional_count cpu, peer_cpu, loaders;
	uint64_t stride_bytes;       /* geometry: the spacing its rows differ by */
	struct optional_count chases; /* mlp: the chases its rows differ by */
};

/* Every distinct thing any of the runs measured for one probe, and each
   run's row for it. */
struct run_match {
	struct run_key *key;         /* ordered by variant (first seen first), page
					size, working set, stride, cpu, peer_cpu,
					loaders, chases */
	size_t nkeys;
	unsigned nruns;
	const struct run_row **row;  /* [k * nruns + r]: run r's row for key k, or NULL */
};

/* The keys of the probe's rows in runs[0..nruns) and each run's row for
   each: of several (a size measured again), the least reading, the first
   of equal ones, as the analysis takes it. Free with run_match_free. */
void run_match_build(struct run_match *m, const struct run_folder *runs, unsigned nruns,
		     const char *probe);
void run_match_free(struct run_match *m);
/* Run r's row for key k, or NULL when the run has none. */
const struct run_row *run_match_row(const struct run_match *m, size_t k, unsigned r);
/* Whether two keys lie on one curve over the working set: every identity
   but the working set the same. */
int run_match_same_curve(const struct run_key *a, const struct run_key *b);

/* The figure a probe is compared by: GB/s where the row gives it (the
   bandwidth probe's), else ns. rate says which: 1 for GB/s. NaN where the
   row does not give it. */
double run_match_figure(const struct run_row *row, int rate);
/* Whether the probe is compared in GB/s: any of its rows gives gb_per_s. */
int run_match_rate(const struct run_match *m);
/* The geometric mean of run r's figure over run 0's, over the keys both
   runs have with positive figures; *count of them. NaN when none. */
double run_match_geomean(const struct run_match *m, unsigned r, int rate, size_t *count);

#endif
