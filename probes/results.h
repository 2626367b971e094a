/* Where every figure goes: the console, report.txt, results.csv, system.json.
 *
 * report_printf() text reaches the console and report.txt alike, so
 * report.txt is exactly what the console showed. Rows are buffered per probe
 * and results_probe_done() writes and flushes them, so a run cut short keeps
 * every probe finished before it. The row and its columns are columns.h's;
 * docs/OUTPUT.md documents every column.
 */
#ifndef MEMPROBE_RESULTS_H
#define MEMPROBE_RESULTS_H

#include "probes/columns.h"
#include "lib/json.h"

/* Opens the run's files; writes the CSV header. Never fails: a file that
   cannot be written is reported once and the run goes on on the console. */
void results_open(void);
void results_row(const struct result_row *row);
void results_probe_done(void);
/* system.json is written whole at the end; fill gives its members. */
void results_system(void (*fill)(struct json *j, void *arg), void *arg);
void results_close(void);

void report_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
