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

		chase_build(buf, n, CHASE_SLOT, 12345);
		for (i = 0; i < n; i++)
			self_links += *(void **)slot(buf, i) == slot(buf, i);
		CHECK(chase_check(buf, n, CHASE_SLOT, why, sizeof why) == 0, "%zu slots: checker accepts (%s)", n, why);
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

	chase_build(a, n, CHASE_SLOT, 7);
	chase_build(b, n, CHASE_SLOT, 7);
	for (i = 0; i < n; i++)
		same += (char *)*(void **)slot(a, i) - (char *)a ==
			(char *)*(void **)slot(b, i) - (char *)b;
	CHECK(same == n, "same seed gives the same cycle (%zu of %zu links equal)", same, n);

	chase_build(b, n, CHASE_SLOT, 8);
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
	chase_build(buf, n, CHASE_SLOT, 1);
	{
		void **s0 = slot(buf, 0);
		void **s1 = *s0;          /* 0 -> s1 -> ... */
		void *t = *s0;
		*s0 = *s1;
		*s1 = t;                  /* now s1 -> s1: a self-loop, 0 skips it */
	}
	CHECK(chase_check(buf, n, CHASE_SLOT, why, sizeof why) != 0, "split cycle rejected: %s", why);

	chase_build(buf, n, CHASE_SLOT, 1);
	saved = *(void **)slot(buf, 5);
	*(void **)slot(buf, 5) = (char *)slot(buf, 9) + 8;
	CHECK(chase_check(buf, n, CHASE_SLOT, why, sizeof why) != 0, "link into the middle of a line rejected: %s", why);
	*(void **)slot(buf, 5) = saved;

	*(void **)slot(buf, 5) = slot(buf, n);
	CHECK(chase_check(buf, n, CHASE_SLOT, why, sizeof why) != 0, "link past the end rejected: %s", why);
	*(void **)slot(buf, 5) = saved;

	/* Two slots pointing at one: not a permutation. */
	*(void **)slot(buf, 5) = *(void **)slot(buf, 6);
	CHECK(chase_check(buf, n, CHASE_SLOT, why, sizeof why) != 0, "shared successor rejected: %s", why);
	*(void **)slot(buf, 5) = saved;

	CHECK(chase_check(buf, n, CHASE_SLOT, why, sizeof why) == 0, "restored cycle accepted again");
	CHECK(chase_check((char *)buf + 8, n - 1, CHASE_SLOT, why, sizeof why) != 0, "unaligned base rejected: %s", why);
	free(buf);
}

static void test_follow(void)
{
	size_t n = 256;
	void *buf = aligned_alloc(CHASE_SLOT, n * CHASE_SLOT);
	void *p = buf, *q;
	size_t i;

	chase_build(buf, n, CHASE_SLOT, 99);
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

/* The tlb probe's cycle: one slot per page, each at its rotated line, one
   cycle through every page; the lines fill a cache indexed within the page
   (64 sets of 64-byte lines) evenly, and on contiguous 4 KiB pages also the
   1024 sets of a 64 KiB way (a 512 KiB 8-way L2). */
static void test_pages(void)
{
	static const size_t counts[] = { 1, 2, 3, 8, 12, 64, 96, 1000, 2048, 4096 };
	static const size_t page_sizes[] = { 4096, 65536 };

	for (size_t s = 0; s < 2; s++)
		for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
			size_t n = counts[k], page = page_sizes[s], lines = page / CHASE_SLOT;
			char *buf = aligned_alloc(page, n * page);
			size_t in_place = 0, pages_hit = 0;
			unsigned char *hit = calloc(n, 1);
			char why[160] = "";
			char *p = buf;

			memset(buf, 0, n * page);
			chase_build(buf, n, page, 777);
			CHECK(chase_check(buf, n, page, why, sizeof why) == 0,
			      "%zu pages of %zu B: checker accepts (%s)", n, page, why);
			/* Walk the cycle independently: every link lands on the
			   rotated line of a page not visited yet. */
			for (size_t step = 0; step < n; step++) {
				size_t pg = (size_t)(p - buf) / page, line = (size_t)(p - buf) % page / CHASE_SLOT;
				if (pg < n && !hit[pg] && (size_t)(p - buf) % CHASE_SLOT == 0) {
					hit[pg] = 1;
					pages_hit++;
				}
				in_place += line == (pg + pg / lines) % lines;
				p = *(char **)p;
			}
			CHECK(p == buf && pages_hit == n && in_place == n,
			      "%zu pages of %zu B: one cycle visits each page once, at its rotated line "
			      "(%zu pages, %zu at their line)", n, page, pages_hit, in_place);
			free(hit);
			free(buf);
		}

	/* Set spread: over the first n pages of 4 KiB, each of the 64 line
	   offsets holds n/64 slots, give or take one. */
	for (size_t n = 8; n <= 16384; n *= 2) {
		unsigned per_set[64] = { 0 }, lo = ~0u, hi = 0;
		for (size_t i = 0; i < n; i++)
			per_set[chase_page_line(i, 4096)]++;
		for (size_t i = 0; i < 64; i++) {
			lo = per_set[i] < lo ? per_set[i] : lo;
			hi = per_set[i] > hi ? per_set[i] : hi;
		}
		CHECK(hi - (n < 64 ? 0 : lo) <= 1, "%zu pages of 4 KiB: slots per L1 set %u..%u", n,
		      n < 64 ? 0 : lo, hi);
	}
	/* On contiguous 4 KiB pages, 1024 consecutive pages land on 1024
	   distinct sets of a 64 KiB way: (page mod 16, line) covers them all. */
	{
		unsigned char used[1024] = { 0 };
		size_t distinct = 0;
		for (size_t i = 0; i < 1024; i++) {
			size_t set = ((i * 4096 + chase_page_line(i, 4096) * CHASE_SLOT) / CHASE_SLOT) % 1024;
			distinct += !used[set];
			used[set] = 1;
		}
		CHECK(distinct == 1024, "1024 contiguous 4 KiB pages fill all 1024 sets of a 64 KiB "
		      "way once each (%zu distinct)", distinct);
	}
	/* Pages larger than the lines swept: slot i at line i, like packed lines. */
	CHECK(chase_page_line(5000, 2u << 20) == 5000 && chase_page_line(0, 4096) == 0 &&
	      chase_page_line(64, 4096) == 1 && chase_page_line(7, CHASE_SLOT) == 0,
	      "rotated line: i under 2 MiB pages, (i + i/64) mod 64 under 4 KiB, 0 when packed");
}

int main(void)
{
	test_sizes();
	test_pages();
	test_reproducible_and_seeded();
	test_checker_rejects();
	test_follow();
	test_rng();
	return check_summary();
}
