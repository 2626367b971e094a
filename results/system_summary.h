/* report.html's system summary: the machine at a glance near the top of
 * the page (CPU, the caches and TLBs it claims, memory, firmware or OS,
 * timer, the page sizes available, how disturbances are counted), as a
 * table of what and value.
 *
 * Read from system.json's own text, filled by the same function that
 * writes the file at the end, so the summary and the file cannot differ
 * on a fact; the page sizes available and how NMIs and SMIs are counted
 * are asked of the platform as the probes ask it. Page only: report.txt's header lines say the same.
 */
#ifndef MEMPROBE_SYSTEM_SUMMARY_H
#define MEMPROBE_SYSTEM_SUMMARY_H

#include <stddef.h>

/* Writes the summary table into report.html (nothing without a page).
   json: a whole system.json document. */
void system_summary_html(const char *json, size_t len);

#endif
