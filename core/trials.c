/* Trial bookkeeping and the stop rule. */

#include "core/trials.h"

/* Run-wide, so that every series of every probe is counted without each
   probe passing a tally around. */
static struct trials_tally tally;

void trials_init(struct trials *t)
{
	t->best3[0] = t->best3[1] = t->best3[2] = 0;
	t->count = 0;
	t->discarded = 0;
	t->disturbed_kept = 0;
}

void trials_add(struct trials *t, double value)
{
	unsigned filled = t->count < 3 ? t->count : 3;
	unsigned i = filled;

	/* Insertion into the three smallest: shift larger ones up, drop the
	   fourth. */
	while (i > 0 && t->best3[i - 1] > value) {
		if (i < 3)
			t->best3[i] = t->best3[i - 1];
		i--;
	}
	if (i < 3)
		t->best3[i] = value;
	t->best_after[t->count % TRIALS_HISTORY] = t->best3[0];
	t->count++;
}

int trials_add_checked(struct trials *t, double value, const struct plat_disturbances *before,
		       const struct plat_disturbances *after)
{
	int disturbed = before->nmi != after->nmi || before->smi != after->smi;

	if (disturbed && t->discarded < TRIALS_DISCARD_MAX) {
		t->discarded++;
		tally.discarded++;
		return 0;
	}
	if (disturbed) {
		t->disturbed_kept++;
		tally.disturbed_kept++;
	}
	trials_add(t, value);
	return 1;
}

void trials_tally_take(struct trials_tally *out)
{
	*out = tally;
	tally = (struct trials_tally){ 0, 0 };
}

int trials_settled(const struct trials *t, unsigned min_trials, double precision)
{
	if (t->count < min_trials || t->count < 3)
		return 0;
	return t->best3[2] <= t->best3[0] * (1.0 + precision);
}

unsigned trials_steady_span(unsigned min_trials)
{
	if (min_trials < 1)
		return 1;
	return min_trials < TRIALS_HISTORY - 1 ? min_trials : TRIALS_HISTORY - 1;
}

int trials_steady(const struct trials *t, unsigned min_trials, double precision)
{
	unsigned span = trials_steady_span(min_trials);
	double then;

	if (t->count < 3 || t->count < min_trials + span)
		return 0;
	/* The best after trial count - span (index count - span - 1). */
	then = t->best_after[(t->count - span - 1) % TRIALS_HISTORY];
	return then <= t->best3[0] * (1.0 + precision);
}

double trials_best(const struct trials *t)
{
	return t->best3[0];
}

double trials_third(const struct trials *t)
{
	if (t->count == 0)
		return 0;
	return t->best3[(t->count < 3 ? t->count : 3) - 1];
}

double trials_spread(const struct trials *t)
{
	if (t->count == 0 || t->best3[0] <= 0)
		return 0;
	return (trials_third(t) - t->best3[0]) / t->best3[0];
}

const char *trials_stop(const struct trials *t, const struct config *c,
			uint64_t spent_ticks, uint64_t budget_ticks)
{
	/* A signal asked the run to stop (Linux): the series ends after the
	   trial just added, and its row says so. */
	if (t->count >= 1 && plat_stop_signal())
		return "signal";
	if (trials_settled(t, c->trials, c->precision))
		return "settled";
	if (t->count >= c->max_trials)
		return "max_trials";
	/* Steady needs the held trials to span time as well as count where
	   there is a budget: short trials (2 ms) can all fall inside one
	   burst of a busy machine's interference and agree on a wrong best,
	   so half the budget must be spent first. Without a budget
	   (UINT64_MAX: later's and cost's runs, 0.1 s and more each) the
	   count alone decides. */
	if (trials_steady(t, c->trials, c->precision) &&
	    (budget_ticks == UINT64_MAX || spent_ticks >= budget_ticks / 2))
		return "steady";
	if (t->count >= c->trials && spent_ticks >= budget_ticks)
		return "time";
	return 0;
}
