/* The latency probe: a dependent-load chase through one random cycle of
 * line-sized slots, for each working set of the sweep and each page size.
 * docs/METHOD.md explains the method and where it departs from the seed.
 */

#include "probes/chase.h"
#include "probes/chase_run.h"
#include "probes/emit.h"
#include "lib/fmt.h"
#include "probes/page_sizes.h"
#include "probes/platform.h"
#include "probes/probe.h"
#include "probes/results.h"
#include "probes/sweep.h"
#include "probes/timebase.h"
#include "probes/trials.h"

// ---- Constants --------------------------------------------------------------

/* One seed for every size and page size: the same permutation shape at a
   size under 4 KiB and 2 MiB pages, so the pair differs only in the pages. */
#define CYCLE_SEED 0x243f6a8885a308d3ull

// ---- Private Functions ------------------------------------------------------

/* A size expected to take over a second gets a line before it, so a long
   sweep never looks hung: the previous size's latency times the laps this
   one costs at least (build, warm-up, the minimum trials). */
static void announce_long_size(const struct config *c, unsigned k, double previous_ns)
{
	double laps = 2.0 + (double)c->trials * CHASE_TRIAL_LAPS_MIN;
	double ms = previous_ns * (double)(sweep_bytes(k) / CHASE_SLOT) * laps / 1e6;
	char size_text[24];

	if (ms < 1000)
		return;
	mp_format_bytes(size_text, sizeof size_text, sweep_bytes(k));
	report_printf("  %11s ... measuring, about %.0f s at the last size's latency\n",
		      size_text, ms / 1000);
}

/* One working set: build the cycle (untimed), run the trials, report the
   row. 0 on success. */
static int measure_size(const struct config *c, const struct plat_buffer *buf,
			const char *page_name, unsigned k, double *ns)
{
	struct chase_run run;
	struct result_row fig = { 0 };
	char size_text[24], what[96];
	double cycles;

	mp_format_bytes(size_text, sizeof size_text, sweep_bytes(k));
	run.start = buf->base;
	run.slots = (size_t)(sweep_bytes(k) / CHASE_SLOT);
	run.c = c;
	chase_build(run.start, run.slots, CHASE_SLOT, CYCLE_SEED);

	mp_snprintf(what, sizeof what, "latency, %s, %s", page_name, size_text);
	if (chase_run_measure(&run, CHASE_SLOT, what) != 0)
		return -1;
	fig.probe = "latency";
	fig.variant = "chase";
	fig.page_shift = buf->page_shift;
	fig.working_set_bytes = sweep_bytes(k);
	fig.ns = trials_best(&run.trials);
	fig.trials = run.trials.count;
	fig.spread = trials_spread(&run.trials);
	fig.pages_verified = buf->verified;
	cycles = emit_result_row(&fig);
	*ns = fig.ns;
	report_printf("  %11s %10.3f %9.2f %7u %7.1f%% %-10s %7llu %8llu ms\n", size_text, fig.ns,
		      cycles, fig.trials, fig.spread * 100, run.stopped_by,
		      (unsigned long long)run.laps_per_trial,
		      (unsigned long long)plat_elapsed_ms());
	return 0;
}

/* 1 skipped (page size unavailable), 0 measured, -1 failed (reported). */
static int sweep_page_size(const struct config *c, unsigned shift)
{
	struct plat_buffer buf;
	char page_name[48];
	double ns = 0;
	unsigned k, first = 0, last = 0;
	int status;

	sweep_range(c->min_size, c->max_size, &first, &last);
	page_size_name(page_name, sizeof page_name, shift);
	status = sweep_buffer_get("latency", &buf, shift, page_name, first, &last);
	if (status != 0)
		return status;
	page_buffer_report("latency", page_name, &buf);
	report_printf("  %11s %10s %9s %7s %8s %-10s %7s %11s\n", "working set", "ns/load",
		      "cycles", "trials", "spread", "stopped by", "laps", "elapsed");
	for (k = first; k <= last; k++) {
		announce_long_size(c, k, ns);
		if (measure_size(c, &buf, page_name, k, &ns) != 0) {
			/* A fault or a broken cycle means the buffer cannot be
			   trusted for the remaining sizes either. */
			status = -1;
			break;
		}
	}
	plat_buffer_put(&buf);
	return status;
}

// ---- Public Functions -------------------------------------------------------

int probe_latency(const struct config *c)
{
	unsigned first = 0, last = 0;

	if (!sweep_range(c->min_size, c->max_size, &first, &last)) {
		report_printf("latency: no working set of the sweep (4 KiB .. 512 MiB) lies in "
			      "min_size .. max_size: nothing measured\n");
		return -1;
	}
	report_printf("latency: dependent-load chase, one random cycle of %u-byte slots, "
		      "%u loads per loop iteration; per size at least %u trials of >= %.0f ms "
		      "(whole laps, at least %u), stop when the best three agree within %.1f%%, "
		      "at most %u trials or, past %u, %.0f ms of trials; figure = best trial\n",
		      CHASE_SLOT, CHASE_UNROLL, c->trials, c->step_ms, CHASE_TRIAL_LAPS_MIN,
		      c->precision * 100, c->max_trials, c->trials, c->max_trials * c->step_ms);
	return page_sizes_each("latency", c, sweep_page_size);
}
