/* The experiment behind the tails probe's counter handling (docs/METHOD.md
 * section 15), on any x86-64 Linux machine: the probe's own batches
 * (probes/batches.c, linked in) of n dependent loads over one random cycle
 * at a working set, 2001 batches per n. Per n it prints the plain median
 * of the brackets' ticks, their median read between the counter's steps,
 * their mean, and the ns a load over the empty bracket by each; then the
 * bracket's cost found without an empty bracket, 2 T(n) - T(2 n), beside
 * the empty bracket's, and the counter's step. Where the step is wide (21
 * ticks on this project's Zen 5 VM) the plain medians move in whole steps
 * and the other two do not.
 *
 *   gcc -O2 -I. -o bracket-check bench/bracket-check.c probes/batches.c
 *   ./bracket-check [KIB]      KIB: the working set, default 24 (half a 48 KiB L1)
 *
 * Figures, not a test: nothing here passes or fails on a number.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "probes/batches.h"

#define LINE 64
#define BATCHES 2001u

static uint32_t t[BATCHES];
static struct batch_run run = { .ticks = t, .batches = BATCHES };

/* The counter batches.c reads: the TSC, LFENCE-ordered, as the Linux
   build's. */
uint64_t plat_ticks(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* A random cycle over the working set's lines. */
static void build(char *buf, size_t lines)
{
	size_t *order = malloc(lines * sizeof *order);

	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	srand(1);
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = (size_t)rand() % (i + 1), s = order[i];
		order[i] = order[j];
		order[j] = s;
	}
	for (size_t i = 0; i < lines; i++)
		*(void **)(buf + order[i] * LINE) = buf + order[(i + 1) % lines] * LINE;
	free(order);
}

/* ns a TSC tick, against CLOCK_MONOTONIC over 200 ms. */
static double ns_per_tick(void)
{
	struct timespec a, b, pause = { 0, 200000000 };
	uint64_t c0, c1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	c0 = plat_ticks();
	nanosleep(&pause, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	c1 = plat_ticks();
	return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / (double)(c1 - c0);
}

/* One stretch of n-load batches: the brackets' plain median, their
   median between steps and their mean, in ticks; the empty brackets'
   too (empty[3]); the step. */
static uint32_t measure(unsigned n, double tick, double out[3], double empty[3])
{
	struct batch_summary s;

	run.loads = n ? n : 1;
	batch_run_stretch(&run);
	batch_summarize(&run, tick, &s);
	out[0] = batch_quantile(t, BATCHES, 0.5);
	out[1] = s.p50_ticks;
	out[2] = s.mean_ns * run.loads / tick + s.counter_ticks;
	empty[0] = batch_quantile(run.empty, BATCH_EMPTY, 0.5);
	empty[1] = s.counter_ticks;
	empty[2] = 0;
	for (unsigned i = 0; i < BATCH_EMPTY; i++)
		empty[2] += run.empty[i] / (double)BATCH_EMPTY;
	return s.step_ticks;
}

int main(int argc, char **argv)
{
	static const unsigned n[] = { 0, 4, 8, 16, 32, 59, 64, 128, 256, 1024, 4096 };
	enum { NS = sizeof n / sizeof n[0] };
	static const char *how[3] = { "plain", "between steps", "mean" };
	size_t bytes = (argc > 1 ? (size_t)atol(argv[1]) : 24) * 1024;
	char *buf = aligned_alloc(4096, bytes);
	double tick = ns_per_tick(), v[NS][3], e[3];
	uint32_t step = 0;

	build(buf, bytes / LINE);
	run.at = buf;
	for (unsigned i = 0; i < NS; i++)      /* a first pass warms */
		measure(n[i], tick, v[i], e);
	for (unsigned i = 0; i < NS; i++) {
		step = measure(n[i], tick, v[i], e);
		/* n = 0: the empty brackets are the batches */
		if (n[i] == 0)
			for (unsigned k = 0; k < 3; k++)
				v[i][k] = e[k];
	}
	printf("# %zu KiB, TSC %.3f GHz, the counter's step %u ticks (%.2f ns) in the last "
	       "stretch\n", bytes / 1024, 1 / tick, step, step * tick);
	printf("# loads  plain median  between steps     mean   ns/load: plain  between  mean\n");
	for (unsigned i = 0; i < NS; i++) {
		printf("%7u %13.0f %14.2f %8.2f", n[i], v[i][0], v[i][1], v[i][2]);
		for (unsigned k = 0; n[i] && k < 3; k++)
			printf(" %*.3f", k ? 8 : 14, (v[i][k] - v[0][k]) * tick / n[i]);
		printf("\n");
	}
	for (unsigned k = 0; k < 3; k++) {
		printf("# %s: the empty bracket %.2f ticks; 2 T(n) - T(2n):", how[k], v[0][k]);
		for (unsigned i = 1; i + 1 < NS; i++)
			for (unsigned j = i + 1; j < NS; j++)
				if (n[j] == 2 * n[i])
					printf(" %.2f (n = %u)", 2 * v[i][k] - v[j][k], n[i]);
		printf("\n");
	}
	return 0;
}
