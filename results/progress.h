/* Where a run stands, on the console: an opening line with the probes to
 * run and an estimate of the run's length, one progress line per probe
 * with its share of the run and the time left (the estimate refined by
 * how long the probes done so far took against theirs), and within a
 * long probe, lines for its steps. On a console that redraws (a
 * terminal: results_console) the probe's line is the status line, updated
 * in place at each step; elsewhere (a log, a pipe) each is a line of its
 * own, the steps' lines at most every PROGRESS_EVERY_MS.
 */
#ifndef MEMPROBE_PROGRESS_H
#define MEMPROBE_PROGRESS_H

#include <stdint.h>

#define PROGRESS_EVERY_MS 3000
/* The status line's steps, at most this often. */
#define PROGRESS_REDRAW_MS 250
/* The most probes one run's progress follows. */
#define PROGRESS_PROBES_MAX 32

/* ---- A probe's steps ------------------------------------------------- */

struct progress {
	uint64_t started_ms, last_ms, drawn_ms;
};

void progress_start(struct progress *p);
/* "<what>: step <done> of <total>, <elapsed> s so far", when due; on a
   console that redraws, the probe's status line with the step, sooner. */
void progress_tick(struct progress *p, const char *what, unsigned done, unsigned total);

/* ---- The run's probes ------------------------------------------------ */

/* The run begins with `count` probes (at most PROGRESS_PROBES_MAX), in
   run order: names[k] and estimate_ms[k], the model's length of probe k
   (0: not estimated, which the opening line says); how: one phrase on
   where the estimate comes from. Prints the opening line as a notice. */
void progress_run_begin(unsigned count, const char *const names[], const double estimate_ms[],
			const char *how);
/* Probe k of the run starts: its line, "[k+1/count] NAME: S% of the run;
   about T left". */
void progress_probe_begin(unsigned k);
/* Probe k ended: how long it took counts in the refinement. */
void progress_probe_end(unsigned k);
/* The last line (not on a quiet console): how long the probes took
   against the first estimate. */
void progress_run_end(void);
/* The time left as the line says it (the estimate refined): ms. */
double progress_left_ms(void);

#endif
