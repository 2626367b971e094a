/* Repeated trials of one measurement, and the stop rule shared by every
 * probe: at least a minimum number of trials, then stop as soon as the best
 * three agree within a precision (the Aces Hardware latency meter's rule), or
 * at a maximum. The best trial is the figure: noise on a machine only ever
 * adds time, so the minimum is the least contaminated estimate.
 */
#ifndef MEMPROBE_TRIALS_H
#define MEMPROBE_TRIALS_H

#include <stdint.h>
#include "core/config.h"
#include "core/platform.h"

/* How many disturbed trials one series discards and measures again. Past
   it a disturbed trial is kept (and counted as such): a machine with a
   steady NMI source, a watchdog every few milliseconds, must still finish,
   and say that its figures carry the disturbance. */
#define TRIALS_DISCARD_MAX 16u

/* The best after each of the last TRIALS_HISTORY trials is kept, for the
   stop rule's "steady" limit: the best has not moved by more than the
   precision over the last trials (trials_stop). */
#define TRIALS_HISTORY 16u

struct trials {
	double best3[3];          /* the three smallest so far, ascending */
	unsigned count;           /* trials added, disturbed_kept included */
	unsigned discarded;       /* disturbed trials dropped and measured again */
	unsigned disturbed_kept;  /* disturbed trials added past TRIALS_DISCARD_MAX */
	/* best_after[k % TRIALS_HISTORY]: the best after trial k + 1 (the
	   last TRIALS_HISTORY of them). */
	double best_after[TRIALS_HISTORY];
};

/* Discards over a stretch of the run (one probe), every series together. */
struct trials_tally {
	uint64_t discarded, disturbed_kept;
};

void trials_init(struct trials *t);
void trials_add(struct trials *t, double value);
/* Every probe's way to add a trial: before and after are
   plat_disturbances() read just before and just after it. When an NMI or
   SMI count moved the trial measured that event too: it is discarded
   (returns 0, the caller measures again) unless the series has discarded
   TRIALS_DISCARD_MAX already, when it is added and counted in
   disturbed_kept. Returns 1 when value was added. */
int trials_add_checked(struct trials *t, double value, const struct plat_disturbances *before,
		       const struct plat_disturbances *after);
/* The discards and kept disturbed trials since the last take, then zero:
   the run driver takes it after each probe. */
void trials_tally_take(struct trials_tally *out);
/* 1 when count >= min_trials and best3[2] <= best3[0] * (1 + precision). */
int trials_settled(const struct trials *t, unsigned min_trials, double precision);
double trials_best(const struct trials *t);
/* The third best trial (with fewer trials, the worst of them); 0 with none. */
double trials_third(const struct trials *t);
/* (third best - best) / best, as a fraction: how far apart the best three
   trials are (with two trials, the two; with one, 0). The figure is the
   best trial and the stop rule waits for the best three to agree, so this
   says how far the trials that decide the figure could move it. The worst
   trial is left out on purpose: one trial preempted by the host reads 40x
   the rest and says nothing of the figure (docs/OUTPUT.md, `spread`). */
double trials_spread(const struct trials *t);

/* How many trials back the "steady" limit looks: c->trials, within
   1 .. TRIALS_HISTORY - 1. */
unsigned trials_steady_span(unsigned min_trials);
/* 1 when at least min_trials + trials_steady_span(min_trials) trials are
   in and the best of the trials before the last span of them was already
   within precision of the best now: the last span trials could not move
   the figure by more than the precision asked, so more of them will not
   either (the trials disagree, but their best is known). */
int trials_steady(const struct trials *t, unsigned min_trials, double precision);

/* The stop rule every probe shares: which limit ends a run of trials now,
   or NULL to go on. "signal" after the first trial once a signal asked
   the run to stop (plat_stop_signal: the series ends after the current
   trial, its row keeps the trials it has); "settled" when trials_settled
   with c->trials and c->precision (the best three agree); "steady" when
   trials_steady with the same (more trials cannot move the best) and,
   unless budget_ticks is UINT64_MAX (no time budget), half the budget
   spent;
   "max_trials" at c->max_trials; "time" past the first c->trials once
   spent_ticks (timed so far) reaches budget_ticks. The budget keeps a
   noisy machine from running every large size, where one trial may take a
   second, to max_trials. A fixed count is c->trials = c->max_trials: no
   limit but the count (and a signal) can end it sooner. */
const char *trials_stop(const struct trials *t, const struct config *c,
			uint64_t spent_ticks, uint64_t budget_ticks);

#endif
