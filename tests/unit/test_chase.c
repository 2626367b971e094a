/* The cycle builder: one cycle, every slot once, distinct lines, for many
 * sizes; and the checker catches each way a cycle can be broken. */

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "probes/chase.h"

static void *slot(void *base, size_t i)
{
	return (char *)base + i * CHASE_SLOT;
}

/* Independent of chase_check: marks every slot reached from slot 0 and
   counts the steps until the walk is back. */
static int walk_visits_all_once(void *base, size_t slots)
{
	unsigned char *seen = calloc(slots, 1);
	void *p = base;
	size_t steps = 0;
	int ok = 1;

	do {
		size_t i = (size_t)((char *)p - (char *)base) / CHASE_SLOT;
		if ((char *)p < (char *)base || i >= slots || seen[i]) {
			ok = 0;
			break;
		}
		seen[i] = 1;
		p = *(void **)p;
		steps++;
	} while (p != base);
	free(seen);
	return ok && steps == slots;
}

static void test_sizes(void)
{
	static const size_t sizes[] = { 1, 2, 3, 7, 16, 64, 96, 1000, 4096, 65536, 262144 };
	size_t k;

	for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k];
		void *buf = aligned_alloc(CHASE_SLOT, n * CHASE_SLOT);
		char why[160] = "";
		size_t self_links = 0, i;

		chase_build(buf, n, 12345);
		for (i = 0; i < n; i++)
			self_links += *(void **)slot(buf, i) == slot(buf, i);
		CHECK(chase_check(buf, n, why, sizeof why) == 0, "%zu slots: checker accepts (%s)", n, why);
		CHECK(walk_visits_all_once(buf, n), "%zu slots: one walk visits every slot exactly once", n);
		CHECK(n == 1 || self_links == 0, "%zu slots: no slot links to itself", n);
		free(buf);
	}
}

static void test_reproducible_and_seeded(void)
{
	size_t n = 4096, same = 0, i;
	void *a = aligned_alloc(CHASE_SLOT, n * CHASE_SLOT);
	void *b = aligned_alloc(CHASE_SLOT, n * CHASE_SLOT);

	chase_build(a, n, 7);
	chase_build(b, n, 7);
	for (i = 0; i < n; i++)
		same += (char *)*(void **)slot(a, i) - (char *)a ==
			(char *)*(void **)slot(b, i) - (char *)b;
	CHECK(same == n, "same seed gives the same cycle (%zu of %zu links equal)", same, n);

	chase_build(b, n, 8);
	same = 0;
	for (i = 0; i < n; i++)
		same += (char *)*(void **)slot(a, i) - (char *)a ==
			(char *)*(void **)slot(b, i) - (char *)b;
	CHECK(same < n / 16, "another seed gives another cycle (%zu of %zu links equal)", same, n);

	/* A random cycle, not a sequential one: successive slots in the walk
	   should rarely be neighbours in memory, or the prefetcher could follow. */
	{
		void *p = a;
		size_t adjacent = 0;
		for (i = 0; i < n; i++) {
			void *q = *(void **)p;
			adjacent += (char *)q - (char *)p == (long)CHASE_SLOT;
			p = q;
		}
		CHECK(adjacent < 16, "links rarely go to the next line (%zu of %zu)", adjacent, n);
	}
	free(a);
	free(b);
}

static void test_checker_rejects(void)
{
	size_t n = 64;
	void *buf = aligned_alloc(CHASE_SLOT, n * CHASE_SLOT);
	char why[160];
	void *saved;

	/* Two cycles: swapping the links of two slots on one cycle splits it. */
	chase_build(buf, n, 1);
	{
		void **s0 = slot(buf, 0);
		void **s1 = *s0;          /* 0 -> s1 -> ... */
		void *t = *s0;
		*s0 = *s1;
		*s1 = t;                  /* now s1 -> s1: a self-loop, 0 skips it */
	}
	CHECK(chase_check(buf, n, why, sizeof why) != 0, "split cycle rejected: %s", why);

	chase_build(buf, n, 1);
	saved = *(void **)slot(buf, 5);
	*(void **)slot(buf, 5) = (char *)slot(buf, 9) + 8;
	CHECK(chase_check(buf, n, why, sizeof why) != 0, "link into the middle of a line rejected: %s", why);
	*(void **)slot(buf, 5) = saved;

	*(void **)slot(buf, 5) = slot(buf, n);
	CHECK(chase_check(buf, n, why, sizeof why) != 0, "link past the end rejected: %s", why);
	*(void **)slot(buf, 5) = saved;

	/* Two slots pointing at one: not a permutation. */
	*(void **)slot(buf, 5) = *(void **)slot(buf, 6);
	CHECK(chase_check(buf, n, why, sizeof why) != 0, "shared successor rejected: %s", why);
	*(void **)slot(buf, 5) = saved;

	CHECK(chase_check(buf, n, why, sizeof why) == 0, "restored cycle accepted again");
	CHECK(chase_check((char *)buf + 8, n - 1, why, sizeof why) != 0, "unaligned base rejected: %s", why);
	free(buf);
}

static void test_follow(void)
{
	size_t n = 256;
	void *buf = aligned_alloc(CHASE_SLOT, n * CHASE_SLOT);
	void *p = buf, *q;
	size_t i;

	chase_build(buf, n, 99);
	for (i = 0; i < 3 * CHASE_UNROLL; i++)
		p = *(void **)p;
	q = chase_follow(buf, 3);
	CHECK(q == p, "chase_follow(3 blocks) ends where %u single hops end", 3 * CHASE_UNROLL);
	CHECK(chase_follow(buf, n / CHASE_UNROLL) == buf, "one full lap returns to the start");
	CHECK(chase_follow(buf, 0) == buf, "zero blocks go nowhere");
	free(buf);
}

static void test_rng(void)
{
	struct chase_rng r;
	unsigned hist[10] = { 0 }, i, lo = ~0u, hi = 0;

	chase_rng_seed(&r, 0);
	CHECK(chase_rng_next(&r) != 0, "seed 0 does not lock the generator at zero");
	chase_rng_seed(&r, 42);
	for (i = 0; i < 100000; i++)
		hist[chase_rng_below(&r, 10)]++;
	for (i = 0; i < 10; i++) {
		lo = hist[i] < lo ? hist[i] : lo;
		hi = hist[i] > hi ? hist[i] : hi;
	}
	CHECK(lo > 9500 && hi < 10500, "below(10) is close to uniform (%u..%u per bucket of 100000)", lo, hi);
}

int main(void)
{
	test_sizes();
	test_reproducible_and_seeded();
	test_checker_rejects();
	test_follow();
	test_rng();
	return check_summary();
}
