/* The probes and the driver that runs them. Each probe reads its parameters
 * from the configuration, reports through results.h and returns 0, or -1 when
 * it could not measure what was asked (the reason already reported).
 */
#ifndef MEMPROBE_PROBE_H
#define MEMPROBE_PROBE_H

#include "probes/config.h"

int probe_latency(const struct config *c);
int probe_tlb(const struct config *c);
int probe_locality(const struct config *c);
int probe_later(const struct config *c);
int probe_cost(const struct config *c);
int probe_fault(const struct config *c);   /* test-only: faults on purpose */

/* Runs every probe the configuration names, in a fixed order, each guarded so
   a failing probe does not stop the next. Returns 0 only if all succeeded.
   describe_platform adds the platform's own members to system.json. */
int memprobe_run(const struct config *c);

#endif
