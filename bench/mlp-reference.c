/* The mlp probe's reference: the plain C loop of k interleaved chases the
 * issue's figures came from. Each chase is its own random cycle over its
 * own lines of one buffer (the buffer's lines shuffled once, then cut into
 * k cycles), and one loop steps every chase once per pass, the pointers in
 * an array the compiler keeps in memory (k is not known at compile time).
 * Prints, per k, ns per load over every chase and loads in flight (ns at
 * k = 1 over ns at k).
 *
 *   mlp-reference BYTES HUGE [K_MAX]    HUGE: 1 asks for 2 MiB pages (THP)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* The k cycles: lines shuffled, cut into k runs, each run linked round. */
static void build(char *buf, size_t lines, unsigned k, size_t *order, void **start)
{
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = next() % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (unsigned c = 0; c < k; c++) {
		size_t lo = lines * c / k, hi = lines * (c + 1) / k;

		for (size_t i = lo; i < hi; i++)
			*(void **)(buf + order[i] * LINE) = buf + order[i + 1 < hi ? i + 1 : lo] * LINE;
		start[c] = buf + order[lo] * LINE;
	}
}

/* Best of 5 timed passes of `steps` steps of every chase. */
static double measure(void **p, unsigned k, size_t steps)
{
	double best = 1e30;

	for (int t = 0; t < 6; t++) {
		double t0 = now_ns();

		for (size_t s = 0; s < steps; s++)
			for (unsigned c = 0; c < k; c++)
				p[c] = *(void **)p[c];
		double ns = (now_ns() - t0) / ((double)steps * k);
		if (t && ns < best)   /* the first pass warms */
			best = ns;
	}
	return best;
}

int main(int argc, char **argv)
{
	size_t bytes = argc > 1 ? strtoull(argv[1], 0, 0) : 1ull << 29;
	int huge = argc > 2 && atoi(argv[2]);
	unsigned kmax = argc > 3 ? (unsigned)atoi(argv[3]) : 32;
	size_t lines = bytes / LINE;
	char *buf = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t *order = malloc(lines * sizeof *order);
	void *p[64];
	double one = 0;

	if (buf == MAP_FAILED || !order || kmax > 64)
		return 1;
	madvise(buf, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	printf("# %zu bytes, %s pages; k ns/load in_flight\n", bytes, huge ? "2 MiB (THP)" : "4 KiB");
	for (unsigned k = 1; k <= kmax; k = k < 16 ? k + 1 : k + 4) {
		/* Enough steps for ~20 ms at 100 ns a load, whatever k. */
		size_t steps = 200000 / k;

		build(buf, lines, k, order, p);
		double ns = measure(p, k, steps);
		if (k == 1)
			one = ns;
		printf("%u %.3f %.2f\n", k, ns, one / ns);
		fflush(stdout);
	}
	return 0;
}
