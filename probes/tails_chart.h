/* tails.svg: the tails probe's histograms, one curve per level and page
 * size: how many batches fell at each per-load latency, as a multiple of
 * the level's p50 (so every level shares the axis), on a log scale of
 * counts (so a tail of a few batches in ten thousand shows).
 */
#ifndef MEMPROBE_TAILS_CHART_H
#define MEMPROBE_TAILS_CHART_H

#include <stdint.h>

/* Forgets earlier curves. */
void tails_chart_begin(void);
/* One level's distribution: sorted[0..n) batch ticks, the counter's cost
   counter_ticks in each, p50_ticks the median batch (counter included;
   both read between the counter's steps, so fractions of a tick), named
   `name` ("L2, 4 KiB pages") in the legend. */
void tails_chart_add(const char *name, const uint32_t *sorted, uint64_t n,
		     double counter_ticks, double p50_ticks);
/* Writes tails.svg (or says why there is none). */
void tails_chart_finish(void);

/* The histogram's bins: bin i holds ratios [i, i + 1) / TAILS_BINS_PER_P50
   of p50; the last bin holds everything from there up. Pure. */
#define TAILS_BINS 64u
#define TAILS_BINS_PER_P50 8u
void tails_histogram(const uint32_t *sorted, uint64_t n, double counter_ticks,
		     double p50_ticks, uint64_t bins[TAILS_BINS]);

#endif
