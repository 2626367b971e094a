/* Repeated trials of one measurement, and the stop rule shared by every
 * probe: at least a minimum number of trials, then stop as soon as the best
 * three agree within a precision (the Aces Hardware latency meter's rule), or
 * at a maximum. The best trial is the figure: noise on a machine only ever
 * adds time, so the minimum is the least contaminated estimate.
 */
#ifndef MEMPROBE_TRIALS_H
#define MEMPROBE_TRIALS_H

struct trials {
	double best3[3];          /* the three smallest so far, ascending */
	double worst;
	unsigned count;
};

void trials_init(struct trials *t);
void trials_add(struct trials *t, double value);
/* 1 when count >= min_trials and best3[2] <= best3[0] * (1 + precision). */
int trials_settled(const struct trials *t, unsigned min_trials, double precision);
double trials_best(const struct trials *t);
/* (worst - best) / best: how far apart the trials were, as a fraction. */
double trials_spread(const struct trials *t);

#endif
