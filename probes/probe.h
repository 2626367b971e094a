/* The probes and the driver that runs them. Each probe reads its parameters
 * from the configuration, reports through results.h and returns 0, or -1 when
 * it could not measure what was asked (the reason already reported).
 */
#ifndef MEMPROBE_PROBE_H
#define MEMPROBE_PROBE_H

#include "probes/config.h"
#include "probes/probe_list.h"

/* int probe_latency(const struct config *c), and so on: one run function
   per probe of probe_list.h (probe_fault, test-only, faults on purpose). */
#define PROBE_RUN_FN_(id, name, bit, in_defaults) int probe_##name(const struct config *c);
PROBE_LIST(PROBE_RUN_FN_)
#undef PROBE_RUN_FN_

/* Runs every probe the configuration names, in probe_list.h's order, each
   guarded so a failing probe does not stop the next. Returns 0 only if all
   succeeded. The platform adds its own members to system.json through
   plat_describe (platform.h). */
int memprobe_run(const struct config *c);

/* "memprobe VERSION (build ID)": the first line a platform prints, before
   anything can stop the run, and the only version line of the report. */
void memprobe_report_version(void);

#endif
