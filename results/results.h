/* Where every figure goes: the console, report.txt, report.html, results.csv,
 * system.json.
 *
 * report_printf() text reaches the console and report.txt alike, so
 * report.txt is exactly what the console showed. Each row is written to
 * results.csv as it is made, so a process killed outright loses at most the
 * row being written, and results_probe_done() flushes them to the medium,
 * so a run cut short by a power cut keeps every probe finished before it. The row and its columns are columns.h's;
 * docs/OUTPUT.md documents every column.
 */
#ifndef MEMPROBE_RESULTS_H
#define MEMPROBE_RESULTS_H

#include "results/columns.h"
#include "lib/json.h"
#include "lib/svg.h"

/* system.json's schema_version, its first member: docs/system.schema.json
   describes this version (docs/OUTPUT.md, "system.json", says what each
   version changed). */
#define SYSTEM_JSON_SCHEMA_VERSION 2

/* About what a run's files take (docs/OUTPUT.md): a results folder or a
   volume with less room is said before the first probe, on both
   platforms. report.html and results.csv are most of it. */
#define RUN_FILES_QUICK_BYTES (512u * 1024)
#define RUN_FILES_FULL_BYTES (2u * 1024 * 1024)

/* Opens the run's files; writes the CSV header. Never fails: a file that
   cannot be written is reported once and the run goes on on the console. */
void results_open(void);
void results_row(const struct result_row *row);
void results_probe_done(void);
/* A section: "== TITLE ==" in the text, a heading in report.html. */
void results_section(const char *title);
/* A chart just written to its own file, inline in report.html too: produce
   writes the SVG document again (chart_file.h's produce functions). */
void results_chart_inline(const char *name,
			  int (*produce)(svg_write_fn write, void *ctx, const void *arg),
			  const void *arg);
/* The run's verdict, closing report.html: a failure when a probe failed
   or a result file is missing or incomplete, saying which, as the
   platform's own verdict (the console's line, the exit status) counts
   both; "STOPPED by NAME" when stopped_by (memprobe_stopped_by: a signal
   that stopped the probes) is not NULL. */
void results_verdict(int probes_ok, int files_ok, const char *stopped_by);
/* report.html's system summary, near the top of the page: fill gives
   system.json's members, as results_system's does (system_summary.h). */
void results_summary(void (*fill)(struct json *j, void *arg), void *arg);
/* system.json as known at the run's start ("state": "running"), written
   whole and flushed now, so a run that a full volume or a kill cuts short
   still leaves one; fill gives its members. */
void results_system_early(void (*fill)(struct json *j, void *arg), void *arg);
/* A member of the description results_system_early wrote ("cpu.brand",
   lib/json_read.h's paths), as text into out: 0, or -1 with out empty
   when there is no such member or no description yet. */
int results_system_member(const char *path, char *out, size_t size);
/* system.json whole at the end: written to system.draft.json, flushed,
   and only then put in the early one's place (deleted, then renamed), so
   at every moment the volume holds one whole system.json; when the final
   one does not fit, the early one stays and the report says so. */
void results_system(void (*fill)(struct json *j, void *arg), void *arg);
/* The card (card.h): written to summary.txt now, and put first in
   report.txt and in report.html (as <section id="summary">) when
   results_close ends the run: each is streamed and flushed as the run goes,
   then rewritten once from the streamed copy with the card in front
   (docs/OUTPUT.md says why). */
void results_card(const char *text, size_t len);
/* Ends the run's files: -1 when report.txt, report.html or results.csv
   was cut or lost (each said where it happened), else 0. The card-first
   copies (report.draft.*) are not counted: when one does not fit, the
   file stays whole as it was streamed, and the console says so. */
int results_close(void);

/* ---- The console ------------------------------------------------------ */

/* How the console shows the run (docs/OUTPUT.md, "The console"): quiet
   shows only report_notice's text (the opening line, progress, failures,
   the card) while report.txt still gets everything; redraws says the
   console can return to a line's start (a terminal), so report_status
   keeps one line there that each new status replaces in place. */
void results_console(int quiet, int redraws);
/* What results_console was told the console does. */
int results_console_redraws(void);
/* The status line: on a console that redraws, text (under 80 columns)
   replaces the last status in place, kept under any text printed after
   it; nothing on another console, nor in the files. */
void report_status(const char *text);

/* Text to the console alone (never the files), a quiet one too, the
   status line kept under it. */
void report_console(const char *text);

/* Text to the console and report.txt alike (not to a quiet console). */
void report_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* report_printf as a print callback of (ctx, text), ctx unused: for the
   printers that write a line at a time (analysis_print, ifetch_print,
   report_table). */
void report_put(void *ctx, const char *text);
/* As report_printf, and on the console even when it is quiet. */
void report_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
