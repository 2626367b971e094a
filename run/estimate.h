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
   from memory, and a byte of a buffer faulted in, written or streamed. */
#define ESTIMATE_LOAD_NS 100.0
#define ESTIMATE_BYTE_NS 0.25
/* The work every probe has beside its counted work: its buffers' checks,
   its report and its chart. */
#define ESTIMATE_PROBE_MS 200.0

/* Probe id's (PROBE_ID_*) length with c, ms; 0 when its row counts
   nothing (not estimated). */
double estimate_probe_ms(const struct config *c, unsigned id);

/* Where estimate_probe_ms's figures come from, for the opening line. */
void estimate_how(char *buf, size_t size);

#endif
