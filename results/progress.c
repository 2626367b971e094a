/* The run's progress lines and a probe's steps (see progress.h).
 *
 * The refinement is one ratio: the time the probes done so far took over
 * what the model gave them, applied to what is left. A model that is off
 * by a constant factor on this machine (a loaded host, memory slower than
 * the model's reference) is corrected by the first long probe.
 */

#include "results/progress.h"
#include "core/platform.h"
#include "lib/fmt.h"
#include "results/results.h"

/* ---- Constants -------------------------------------------------------- */

/* Below this much estimated time done, the ratio is not trusted yet: a
   probe of a few milliseconds says nothing of the machine's pace. */
#define REFINE_FROM_MS 2000.0

/* ---- Private Data ----------------------------------------------------- */

static struct {
	unsigned count, current;
	const char *name[PROGRESS_PROBES_MAX];
	double estimate_ms[PROGRESS_PROBES_MAX], total_ms;
	double done_estimate_ms, done_ms;
	uint64_t run_start_ms, probe_start_ms;
} run;

/* ---- Private Functions ------------------------------------------------ */

/* "45 s", "3 min 20 s", "1 h 5 min". */
static void format_duration(char *buf, size_t size, double ms)
{
	uint64_t s = (uint64_t)(ms / 1000.0 + 0.5);

	if (s < 60)
		mp_snprintf(buf, size, "%llu s", (unsigned long long)s);
	else if (s < 3600)
		mp_snprintf(buf, size, "%llu min %llu s", (unsigned long long)(s / 60),
			    (unsigned long long)(s % 60));
	else
		mp_snprintf(buf, size, "%llu h %llu min", (unsigned long long)(s / 3600),
			    (unsigned long long)(s / 60 % 60));
}

/* The model's time scaled by the probes done so far. */
static double refined(double ms)
{
	if (run.done_estimate_ms < REFINE_FROM_MS)
		return ms;
	return ms * run.done_ms / run.done_estimate_ms;
}

/* The current probe's line: its place, its share of the first estimate,
   the step (step_done of step_total; total 0: none) and the time left. */
static void probe_line(char *buf, size_t size, unsigned step_done, unsigned step_total)
{
	unsigned k = run.current;
	char left[32], step[32] = "";

	format_duration(left, sizeof left, progress_left_ms());
	if (step_total)
		mp_snprintf(step, sizeof step, ", step %u of %u", step_done, step_total);
	mp_snprintf(buf, size, "memprobe: [%u/%u] %s: %.0f%% of the run%s; about %s left", k + 1,
		    run.count, run.name[k],
		    run.total_ms > 0 ? 100.0 * run.estimate_ms[k] / run.total_ms : 0.0, step, left);
}

/* ---- Public Functions ------------------------------------------------- */

void progress_start(struct progress *p)
{
	p->started_ms = p->last_ms = p->drawn_ms = plat_elapsed_ms();
}

void progress_tick(struct progress *p, const char *what, unsigned done, unsigned total)
{
	uint64_t now = plat_elapsed_ms();
	char line[96];

	if (results_console_redraws() && run.count && now - p->drawn_ms >= PROGRESS_REDRAW_MS) {
		p->drawn_ms = now;
		probe_line(line, sizeof line, done, total);
		report_status(line);
	}
	if (now - p->last_ms < PROGRESS_EVERY_MS)
		return;
	p->last_ms = now;
	report_printf("      ... %s: %u of %u done, %.1f s so far\n", what, done, total,
		      (double)(now - p->started_ms) / 1000.0);
}

void progress_run_begin(unsigned count, const char *const names[], const double estimate_ms[],
			const char *how)
{
	char total[32], names_text[256], unknown[128];
	struct mp_text t = { names_text, sizeof names_text, 0 };
	struct mp_text u = { unknown, sizeof unknown, 0 };

	run.count = count < PROGRESS_PROBES_MAX ? count : PROGRESS_PROBES_MAX;
	run.total_ms = run.done_estimate_ms = run.done_ms = 0;
	names_text[0] = unknown[0] = 0;
	for (unsigned k = 0; k < run.count; k++) {
		run.name[k] = names[k];
		run.estimate_ms[k] = estimate_ms[k];
		run.total_ms += estimate_ms[k];
		mp_append(&t, "%s%s", k ? ", " : "", names[k]);
		if (!estimate_ms[k])
			mp_append(&u, "%s%s", u.len ? ", " : "", names[k]);
	}
	run.run_start_ms = plat_elapsed_ms();
	format_duration(total, sizeof total, run.total_ms);
	report_notice("memprobe: %u probe%s to run: %s; estimated %s (%s)%s%s\n", run.count,
		      run.count == 1 ? "" : "s", names_text, total, how,
		      u.len ? "; not estimated: " : "", unknown);
}

void progress_probe_begin(unsigned k)
{
	char line[96];

	if (k >= run.count)
		return;
	run.current = k;
	run.probe_start_ms = plat_elapsed_ms();
	probe_line(line, sizeof line, 0, 0);
	if (results_console_redraws())
		report_status(line);
	else
		report_notice("%s\n", line);
}

void progress_probe_end(unsigned k)
{
	if (k >= run.count)
		return;
	run.done_ms += (double)(plat_elapsed_ms() - run.probe_start_ms);
	run.done_estimate_ms += run.estimate_ms[k];
}

void progress_run_end(void)
{
	char took[32], estimated[32];

	report_status("");
	format_duration(took, sizeof took, (double)(plat_elapsed_ms() - run.run_start_ms));
	format_duration(estimated, sizeof estimated, run.total_ms);
	report_printf("memprobe: the probes took %s (estimated at the start: %s)\n", took,
		      estimated);
	run.count = 0;
}

double progress_left_ms(void)
{
	double left = 0, in_probe = (double)(plat_elapsed_ms() - run.probe_start_ms);

	for (unsigned k = run.current; k < run.count; k++)
		left += refined(run.estimate_ms[k]);
	left -= in_probe;
	/* A probe that outruns its share leaves the others' time. */
	if (left < refined(run.total_ms - run.done_estimate_ms - run.estimate_ms[run.current]))
		left = refined(run.total_ms - run.done_estimate_ms - run.estimate_ms[run.current]);
	return left > 0 ? left : 0;
}
