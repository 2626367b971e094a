/* The run: every probe the configuration names, in the registry's order,
 * then the analysis, the card and the closing of the files. Each platform's
 * entry calls it once its configuration is loaded.
 */
#ifndef MEMPROBE_RUN_RUN_H
#define MEMPROBE_RUN_RUN_H

#include "core/config.h"

/* Runs every probe the configuration names, in the registry's order, each
   guarded so a failing probe does not stop the next. Returns 0 only if all
   succeeded. The platform adds its own members to system.json through
   plat_describe (core/platform.h). */
int memprobe_run(const struct config *c);
/* After memprobe_run: the signal (plat_stop_signal's name) that stopped
   its probes, or NULL when every probe it was to run ran. Taken once,
   when the probe loop broke, so a signal that comes later, while the
   files are closed and sent, changes nothing the files already say:
   system.json's stopped_by, report.html's verdict, the console's verdict
   and the exit status all read this one answer. */
const char *memprobe_stopped_by(void);

/* "memprobe VERSION (build ID)": the first line a platform prints, before
   anything can stop the run, and the only version line of the report. */
void memprobe_report_version(void);

#endif
