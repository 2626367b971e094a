/* The probes, their registry, and the driver that runs them.
 *
 * The registry: each probe describes itself once, in a row of its own
 * source file, PROBE_DEFINE(name, order) = { ... } (struct probe_def). The
 * build collects those rows (scripts/probe-registry.sh writes
 * core/probe_registry.h into the build folder), so the list of probes is
 * never a hand-edited file: the probes key's words, the PROBE_* bits, the
 * run order, the page-table pool and everything else that walks the
 * probes come from the rows. docs/LAYOUT.md, "A new probe".
 *
 * Each probe reads its parameters from the configuration, reports through
 * results.h and returns 0, or -1 when it could not measure what was asked
 * (the reason already reported, and said in a line through
 * probe_failed_because for the card).
 */
#ifndef MEMPROBE_PROBE_H
#define MEMPROBE_PROBE_H

#include <stdint.h>
#include "core/config.h"

/* A buffer kind a probe holds at once while it runs with one page size:
   `count` buffers of at most `bytes` each, mapped with pages of
   1 << page_shift (not always the page size swept: loaded's loaders take
   4 KiB pages whatever the chase's). */
struct probe_hold {
	uint64_t bytes;
	unsigned page_shift;
	unsigned count;
};
#define PROBE_HOLDS_MAX 2

/* Which reader after the run takes a probe's rows: the analysis's latency
   curves (the "chase" variant), its TLB curves, its bandwidth curves, the
   card's core-to-core figures, the card's loads in flight, its loaded-curve
   line, its memory tail; or none beyond the files. */
enum probe_rows_read {
	ROWS_UNREAD, ROWS_LATENCY_CURVE, ROWS_TLB_CURVE, ROWS_BANDWIDTH, ROWS_C2C, ROWS_MLP,
	ROWS_LOADED, ROWS_TAILS,
};

/* What a probe's run takes, counted from the configuration in units that
   do not depend on the machine (run/estimate.c turns them into time, at a
   pace per claimed cache level): dependent loads and bytes streamed, each
   by the working set they run over, bytes of buffers faulted in and
   written, and the time its own budgets set (trials x step_ms,
   deadlines). A rough count, not a promise: it exists so the console can
   say how long a run will take. Zeroed before a probe's row adds to it. */
#define PROBE_COST_BINS 64
/* The working set of work that goes to memory whatever the caches. */
#define PROBE_COST_MEMORY UINT64_MAX
struct probe_cost {
	double loads[PROBE_COST_BINS];    /* [k]: over a working set of at most
					     2^k bytes (probe_cost_loads) */
	double streamed[PROBE_COST_BINS]; /* bytes read or written in passes,
					     the same way */
	double bytes;                     /* faulted in and first written */
	double ms;
};

/* The bin of a working set of ws bytes: the least k with ws <= 2^k. */
static inline unsigned probe_cost_bin(uint64_t ws)
{
	unsigned k = 0;

	while (k + 1 < PROBE_COST_BINS && ((uint64_t)1 << k) < ws)
		k++;
	return k;
}

/* Adds n dependent loads over a working set of ws bytes. */
static inline void probe_cost_loads(struct probe_cost *cost, double n, uint64_t ws)
{
	cost->loads[probe_cost_bin(ws)] += n;
}

/* Adds `bytes` streamed over a working set of ws bytes. */
static inline void probe_cost_streamed(struct probe_cost *cost, double bytes, uint64_t ws)
{
	cost->streamed[probe_cost_bin(ws)] += bytes;
}

/* One probe's row. */
struct probe_def {
	struct probe_config config;   /* its name, its profiles (config.h) */
	int (*run)(const struct config *c);
	/* What it holds at once with page_shift swept, before memory caps it:
	   fills out[] and returns how many kinds (0: no buffer). The
	   page-table pool is sized from every selected probe's holds, so a
	   buffer the probe asks for is never left unmapped for want of
	   tables. NULL: the probe takes no buffer. */
	unsigned (*holds)(const struct config *c, unsigned page_shift,
			  struct probe_hold out[PROBE_HOLDS_MAX]);
	enum probe_rows_read rows_read;
	/* Adds what a run with c takes to *cost (struct probe_cost). NULL:
	   not estimated; the opening line says which probes it leaves out. */
	void (*cost)(const struct config *c, struct probe_cost *cost);
};

/* PROBE_DEFINE(NAME, ORDER) = { .config = { .name = "NAME", ... }, ... };
   at the start of a line, NAME an identifier, ORDER a decimal literal
   unique among the probes (the generated list sorts by it, and a repeat
   fails to compile). The row's .name is the one place the probe's name is
   written as text (tests/unit/test_config.c checks it is NAME). */
#define PROBE_DEFINE(name, order) const struct probe_def probe_def_##name

#define PROBE_EXTERN_(id, name, order) extern const struct probe_def probe_def_##name; \
	int probe_##name(const struct config *c);
PROBE_REGISTRY(PROBE_EXTERN_)
#undef PROBE_EXTERN_

/* Every probe's row, in run order (index = PROBE_ID_*). */
extern const struct probe_def *const probe_registry[PROBE_COUNT];

/* The row named `name` (its whole word), or NULL. */
const struct probe_def *probe_by_name(const char *name);

/* How the rows of the probe named `name` (a results row's probe column)
   are read: ROWS_UNREAD for an unknown name. */
enum probe_rows_read probe_rows_read(const char *name);

/* What p holds at once with page_shift swept (its holds function), the
   count of kinds returned; 0 when it takes no buffer. */
unsigned probe_holds_of(const struct probe_def *p, const struct config *c,
			unsigned page_shift, struct probe_hold out[PROBE_HOLDS_MAX]);

/* ---- A probe's failure ---------------------------------------------- */

/* The longest reason kept, its NUL included: a card line's width. */
#define PROBE_FAILURE_BYTES 80u

/* The reason the running probe failed, in one line, for the card (the
   report already says it where it happened); the first reason a probe
   gives is kept. Between probes (probe_run_begin not called) it is
   dropped. */
void probe_failed_because(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Probe `id` (PROBE_ID_*) starts: reasons given until probe_run_end are
   its own, and any reason of an earlier run of it is forgotten. */
void probe_run_begin(unsigned id);

/* Probe `id` ended with status rc: a success drops any reason it gave on
   the way (fewer loader buffers than wanted is no failure); a failure
   with no reason gets "report.txt says why". */
void probe_run_end(unsigned id, int rc);

/* Why probe `id` failed in this run: "" when it did not, or did not run. */
const char *probe_failure(unsigned id);

#endif
