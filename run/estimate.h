/* How long each probe of a run will take, before it runs: each probe's
 * registry row counts its work from the configuration (core/probe.h's
 * struct probe_cost) and this module turns the counts into time at a
 * reference machine's pace. The console's opening line and progress lines
 * (results/progress.h) show it, refined as the probes finish.
 */
#ifndef MEMPROBE_RUN_ESTIMATE_H
#define MEMPROBE_RUN_ESTIMATE_H

#include "core/config.h"

/* The reference pace (docs/OUTPUT.md, "The console"): a dependent load
   from memory, a byte streamed from memory (10 GB/s), and a byte of a
   buffer faulted in and first written (4 GB/s). The caches' pace is
   estimate.c's, for ESTIMATE_CACHE_LEVELS levels (the last for any
   beyond). */
#define ESTIMATE_LOAD_NS 100.0
#define ESTIMATE_STREAM_NS 0.1
#define ESTIMATE_BYTE_NS 0.25
#define ESTIMATE_CACHE_LEVELS 3
/* The work every probe has beside its counted work: its buffers' checks,
   its report and its chart. */
#define ESTIMATE_PROBE_MS 200.0

/* Probe id's (PROBE_ID_*) length with c, ms, its work placed in this
   machine's claimed caches (plat_cache_claims); 0 when its row counts
   nothing (not estimated). */
double estimate_probe_ms(const struct config *c, unsigned id);

/* The length of the work counted in cost, ms, each working set priced at
   the pace of the claimed cache level that holds it (memory's past
   every one), with a probe's own ESTIMATE_PROBE_MS. Pure. */
struct probe_cost;
struct cache_claims;
double estimate_cost_ms(const struct probe_cost *cost, const struct cache_claims *claims);

/* Where estimate_probe_ms's figures come from, for the opening line. */
void estimate_how(char *buf, size_t size);

#endif
