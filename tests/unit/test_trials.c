/* The shared stop rule: best three, settling, spread, and the discard of
   trials an NMI or SMI disturbed. */

#include <math.h>
#include <string.h>

#include "check.h"
#include "core/trials.h"

static void add_all(struct trials *t, const double *v, unsigned n)
{
	unsigned i;

	trials_init(t);
	for (i = 0; i < n; i++)
		trials_add(t, v[i]);
}

static void test_best_three(void)
{
	static const double v[] = { 9, 3, 7, 1, 8, 2, 6 };
	struct trials t;

	add_all(&t, v, 7);
	CHECK(t.count == 7, "count follows the adds (%u)", t.count);
	CHECK(t.best3[0] == 1 && t.best3[1] == 2 && t.best3[2] == 3,
	      "best three are the three smallest, ascending (%g %g %g)",
	      t.best3[0], t.best3[1], t.best3[2]);
	CHECK(trials_best(&t) == 1, "best is the minimum");
	CHECK(trials_third(&t) == 3, "the third best is 3 (%g)", trials_third(&t));

	add_all(&t, v, 2);
	CHECK(t.best3[0] == 3 && t.best3[1] == 9, "two trials: both kept in order");

	{
		static const double equal[] = { 5, 5, 5, 4 };
		add_all(&t, equal, 4);
		CHECK(t.best3[0] == 4 && t.best3[1] == 5 && t.best3[2] == 5,
		      "ties are kept, a smaller value enters at the front");
	}
}

static void test_settled(void)
{
	static const double close_values[] = { 100, 100.5, 100.9 };
	static const double far_values[] = { 100, 103, 110 };
	struct trials t;

	add_all(&t, close_values, 2);
	CHECK(!trials_settled(&t, 1, 0.5), "never settled before three trials, whatever the minimum");
	add_all(&t, close_values, 3);
	CHECK(trials_settled(&t, 3, 0.01), "three within 1%% settle at minimum 3");
	CHECK(!trials_settled(&t, 4, 0.01), "but not before the minimum count (4)");
	CHECK(!trials_settled(&t, 3, 0.005), "and not when the precision is tighter than their spread");

	add_all(&t, far_values, 3);
	CHECK(!trials_settled(&t, 3, 0.05), "best three 10%% apart do not settle at 5%%");
	trials_add(&t, 100.2);
	trials_add(&t, 101);
	CHECK(trials_settled(&t, 3, 0.01), "two more close trials displace the outliers and settle");
	CHECK(t.best3[2] == 101, "the third best is now 101 (%g)", t.best3[2]);
}

static void test_spread(void)
{
	static const double v[] = { 2, 3, 2.5 };
	/* One preempted trial among steady ones: 80 against 2.0-2.1. */
	static const double preempted[] = { 2.0, 80, 2.1, 2.05, 2.02 };
	struct trials t;

	trials_init(&t);
	CHECK(trials_spread(&t) == 0, "no trials: spread 0");
	add_all(&t, v, 3);
	CHECK(fabs(trials_spread(&t) - 0.5) < 1e-12,
	      "spread is (third best - best) / best: 3 against 2 (%g)", trials_spread(&t));
	add_all(&t, v, 2);
	CHECK(fabs(trials_spread(&t) - 0.5) < 1e-12, "with two trials, the two (%g)",
	      trials_spread(&t));
	add_all(&t, preempted, 5);
	CHECK(fabs(trials_spread(&t) - 0.025) < 1e-12 && trials_third(&t) == 2.05,
	      "one preempted trial (80 among 2.0-2.1) leaves the spread at the best three's "
	      "2.5%%, not 3900%% (%g)", trials_spread(&t));
	add_all(&t, preempted, 2);
	CHECK(fabs(trials_spread(&t) - 39) < 1e-12,
	      "but two trials, one preempted, cannot tell which was: 3900%% (%g)",
	      trials_spread(&t));
	add_all(&t, v, 1);
	CHECK(trials_spread(&t) == 0, "one trial: spread 0");
}

/* The loop every probe writes: at least min, stop on agreement, at most max. */
static unsigned run_until_settled(const double *v, unsigned n, unsigned min, unsigned max,
				  double precision)
{
	struct trials t;
	unsigned i = 0;

	trials_init(&t);
	do
		trials_add(&t, v[i++ % n]);
	while (!trials_settled(&t, min, precision) && t.count < max);
	return t.count;
}

static void test_stop_rule_loop(void)
{
	static const double steady[] = { 10, 10.01, 10.02 };
	/* Each trial slower than the last: the best three never come closer. */
	static const double drifting[] = { 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21 };
	static const double late[] = { 20, 18, 15, 10, 10.05, 10.02 };

	CHECK(run_until_settled(steady, 3, 3, 20, 0.01) == 3, "steady trials stop at the minimum");
	CHECK(run_until_settled(steady, 3, 5, 20, 0.01) == 5, "the minimum is honoured");
	CHECK(run_until_settled(drifting, 12, 3, 12, 0.01) == 12, "never agreeing stops at the maximum");
	CHECK(run_until_settled(late, 6, 3, 20, 0.01) == 6, "stops as soon as the best three agree");
}

/* A disturbed trial is dropped, however fast it looks, until the bound;
   past it disturbed trials are kept and counted; the tally adds every
   series and resets when taken. */
static void test_discard(void)
{
	struct plat_disturbances quiet = { .nmi = 5, .smi = 2 }, nmi = quiet, smi = quiet;
	struct trials_tally tally;
	struct trials t;
	unsigned added = 0;

	nmi.nmi++;
	smi.smi++;
	trials_tally_take(&tally);
	trials_init(&t);
	CHECK(trials_add_checked(&t, 10, &quiet, &quiet) == 1, "an undisturbed trial is added");
	CHECK(trials_add_checked(&t, 1, &quiet, &nmi) == 0, "a trial an NMI hit is discarded");
	CHECK(trials_add_checked(&t, 1, &quiet, &smi) == 0, "a trial an SMI hit is discarded");
	CHECK(t.count == 1 && trials_best(&t) == 10 && t.discarded == 2,
	      "discarded trials leave no trace in the figure (count %u, best %g, discarded %u)",
	      t.count, trials_best(&t), t.discarded);
	for (unsigned i = 0; i < TRIALS_DISCARD_MAX + 3; i++)
		added += (unsigned)trials_add_checked(&t, 7, &quiet, &nmi);
	CHECK(t.discarded == TRIALS_DISCARD_MAX, "discards stop at the bound (%u)", t.discarded);
	CHECK(added == 5 && t.disturbed_kept == 5 && t.count == 6,
	      "past the bound disturbed trials are kept and counted (added %u, kept %u)", added,
	      t.disturbed_kept);
	trials_init(&t);
	CHECK(t.discarded == 0 && t.disturbed_kept == 0, "a new series starts with no discards");
	CHECK(trials_add_checked(&t, 3, &quiet, &smi) == 0, "the new series discards again");
	trials_tally_take(&tally);
	CHECK(tally.discarded == TRIALS_DISCARD_MAX + 1 && tally.disturbed_kept == 5,
	      "the tally adds both series (%llu discarded, %llu kept)",
	      (unsigned long long)tally.discarded, (unsigned long long)tally.disturbed_kept);
	trials_tally_take(&tally);
	CHECK(tally.discarded == 0 && tally.disturbed_kept == 0, "taking the tally resets it");
}

/* The rule trials_stop applies, as a probe's loop runs it: a trial at a
   time until it names a limit; the count it stopped at and the limit. */
static unsigned run_stop_rule(const double *v, unsigned n, const struct config *c,
			      const char **why)
{
	struct trials t;
	unsigned i = 0;

	trials_init(&t);
	do
		trials_add(&t, v[i++ % n]);
	while (!(*why = trials_stop(&t, c, 0, UINT64_MAX)));
	return t.count;
}

/* The loop with a time budget, each trial 10 ticks: steady also waits
   until half the budget is spent. */
static unsigned run_stop_timed(const double *v, unsigned n, const struct config *c,
			       uint64_t budget, const char **why)
{
	struct trials t;
	unsigned i = 0;

	trials_init(&t);
	do
		trials_add(&t, v[i++ % n]);
	while (!(*why = trials_stop(&t, c, 10u * t.count, budget)));
	return t.count;
}

/* "steady": the trials disagree, but the last span of them did not move
   the best by more than the precision; a best that keeps improving is not
   steady; a fixed count (trials = max_trials) is never cut short by it. */
static void test_steady(void)
{
	/* The best three never agree within 1 %, and nothing beats 100. */
	static const double held[] = { 100, 110, 120, 115, 118, 125, 130, 112 };
	/* Each trial 2 % below the last: the best moves every time. */
	static const double falling[] = { 100, 98, 96.04, 94.12, 92.24, 90.39, 88.58, 86.81,
					  85.08, 83.37, 81.71, 80.07 };
	/* The best jumps late: the span restarts from the jump. */
	static const double jump[] = { 100, 120, 130, 125, 90, 128, 121, 119, 127 };
	struct config c = { 0 };
	struct trials t;
	const char *why;
	unsigned count;

	c.trials = 3;
	c.max_trials = 12;
	c.precision = 0.01;
	CHECK(trials_steady_span(3) == 3 && trials_steady_span(0) == 1 &&
	      trials_steady_span(1000) == TRIALS_HISTORY - 1,
	      "the span is the minimum count, within 1 .. TRIALS_HISTORY - 1");
	count = run_stop_rule(held, 8, &c, &why);
	CHECK(count == 6 && !strcmp(why, "steady"),
	      "trials that disagree but whose best held over 3 more stop steady at 6 (%u, %s)",
	      count, why);
	trials_init(&t);
	for (unsigned i = 0; i < 5; i++)
		trials_add(&t, held[i]);
	CHECK(!trials_settled(&t, 3, 0.01) && !trials_steady(&t, 3, 0.01),
	      "five of them: neither settled nor steady yet");
	count = run_stop_rule(falling, 12, &c, &why);
	CHECK(count == 12 && !strcmp(why, "max_trials"),
	      "a best that keeps moving by more than the precision runs to max_trials (%u, %s)",
	      count, why);
	count = run_stop_rule(jump, 9, &c, &why);
	CHECK(count == 8 && !strcmp(why, "steady"),
	      "a new best at trial 5 restarts the span: steady at 8 (%u, %s)", count, why);
	count = run_stop_timed(held, 8, &c, 100, &why);
	CHECK(count == 6 && !strcmp(why, "steady"),
	      "with a budget of 100 ticks, steady at 6 trials of 10 (%u, %s)", count, why);
	count = run_stop_timed(held, 8, &c, 200, &why);
	CHECK(count == 10 && !strcmp(why, "steady"),
	      "with 200, the held trials must span half of it: steady at 10 (%u, %s)", count, why);
	c.trials = c.max_trials = 5;
	count = run_stop_rule(held, 8, &c, &why);
	CHECK(count == 5, "trials = max_trials is a fixed count: 5 (%u, %s)", count, why);
	c.trials = 3;
	c.max_trials = 12;
	{
		static const double agree[] = { 100, 100.4, 100.8 };

		count = run_stop_rule(agree, 3, &c, &why);
		CHECK(count == 3 && !strcmp(why, "settled"),
		      "trials that agree stop settled at the minimum (%u, %s)", count, why);
	}
}

int main(void)
{
	test_best_three();
	test_settled();
	test_spread();
	test_stop_rule_loop();
	test_discard();
	test_steady();
	return check_summary();
}
