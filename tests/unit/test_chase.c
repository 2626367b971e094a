/* The cycle builder: one cycle, every slot once, distinct lines, for many
 * sizes; and the checker catches each way a cycle can be broken. */

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "probes/chase.h"
#include "probes/chase_run.h"
#include "core/config.h"

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

/* The sequential scan: a built cycle passes; each kind of broken link
   fails with its reason; a swap that splits the cycle but keeps a
   permutation passes (the scan's stated limit: chase_check sees it). */
static void test_scan_links(void)
{
	size_t n = 4096;
	void *buf = aligned_alloc(CHASE_SLOT, n * CHASE_SLOT);
	char why[160] = "";
	void *saved;

	chase_build(buf, n, CHASE_SLOT, 3);
	CHECK(chase_scan_links(buf, n, why, sizeof why) == 0, "a built cycle scans clean (%s)", why);
	saved = *(void **)slot(buf, 7);
	*(void **)slot(buf, 7) = *(void **)slot(buf, 8);
	CHECK(chase_scan_links(buf, n, why, sizeof why) != 0 && strstr(why, "not a permutation"),
	      "a repeated target is found: %s", why);
	*(void **)slot(buf, 7) = slot(buf, 7);
	CHECK(chase_scan_links(buf, n, why, sizeof why) != 0 && strstr(why, "itself"),
	      "a link to itself is found: %s", why);
	*(void **)slot(buf, 7) = slot(buf, n);
	CHECK(chase_scan_links(buf, n, why, sizeof why) != 0 && strstr(why, "outside"),
	      "a link past the end is found: %s", why);
	*(void **)slot(buf, 7) = (char *)slot(buf, 9) + 8;
	CHECK(chase_scan_links(buf, n, why, sizeof why) != 0 && strstr(why, "outside"),
	      "a link into the middle of a line is found: %s", why);
	*(void **)slot(buf, 7) = saved;
	/* Half the buffer a copy of the other half, as two pages on one frame
	   would leave it. */
	memcpy(slot(buf, n / 2), slot(buf, 0), n / 2 * CHASE_SLOT);
	CHECK(chase_scan_links(buf, n, why, sizeof why) != 0, "an aliased half is found: %s", why);
	chase_build(buf, n, CHASE_SLOT, 3);
	{
		/* a -> b ... c -> d becomes a -> d, c -> b: two cycles, no
		   slot pointing at itself. */
		void **a = slot(buf, 0), **c = *a, *t;

		c = *(void **)*c;         /* two links on from a */
		t = *a;
		*a = *c;
		*c = t;
	}
	CHECK(chase_scan_links(buf, n, why, sizeof why) == 0 &&
	      chase_check(buf, n, CHASE_SLOT, why, sizeof why) != 0,
	      "a swap that splits the cycle keeps a permutation: the scan passes it, the walk "
	      "does not (%s)", why);
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

/* A timed chase over a fresh cycle of `slots` packed slots (seed) in a
   buffer it allocates and returns, with a stop rule that ends after few
   trials and trials whose length the loads' floor decides (step_ms a
   microsecond). */
static void *quick_run(struct config *c, struct chase_run *run, size_t slots, uint64_t seed)
{
	void *buf = aligned_alloc(4096, slots * CHASE_SLOT);

	*c = (struct config){ 0 };
	*run = (struct chase_run){ 0 };
	c->trials = 3;
	c->max_trials = 4;
	c->precision = 0.5;
	c->step_ms = 0.001;
	chase_build(buf, slots, CHASE_SLOT, seed);
	run->start = buf;
	run->slots = slots;
	run->c = c;
	return buf;
}

/* stretch_long_laps: a lap holding CHASE_LONG_LAP_TRIALS stretches or more
   is timed in stretches after its warm-up lap, a shorter one in whole
   laps; the tlb and geometry probes (the flag off) keep whole laps. */
static void test_long_laps(void)
{
	const size_t slots = (size_t)CHASE_PARTIAL_LOADS_MIN * CHASE_LONG_LAP_TRIALS * 2;
	struct config c;
	struct chase_run run;
	void *buf = quick_run(&c, &run, slots, 11);
	run.stretch_long_laps = 1;
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, long lap") == 0 &&
	      !strcmp(run.form, CHASE_FORM_PARTIAL) && run.laps_per_trial == 0 &&
	      run.loads_per_trial < slots && trials_best(&run.trials) > 0,
	      "a lap of %zu loads, no threshold: stretches after the warm-up lap (%s, %llu "
	      "loads)", slots, run.form, (unsigned long long)run.loads_per_trial);
	CHECK(chase_check(buf, slots, CHASE_SLOT, NULL, 0) == 0, "  the cycle is untouched");

	run.stretch_long_laps = 0;
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, flag off") == 0 &&
	      !strcmp(run.form, CHASE_FORM_LAPS) && run.loads_per_trial % slots == 0,
	      "the flag off: whole laps (%s)", run.form);

	run.stretch_long_laps = 1;
	run.slots = slots / 4;        /* 2 stretches a lap: too few */
	chase_build(buf, run.slots, CHASE_SLOT, 11);
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, short lap") == 0 &&
	      !strcmp(run.form, CHASE_FORM_LAPS) && run.laps_per_trial >= 1,
	      "a lap of %zu loads: whole laps (%s)", run.slots, run.form);

	CHECK(chase_long_lap(1 << 20, 15, 2) == 0 && chase_long_lap(2 << 20, 15, 2) == 1,
	      "at 15 ns and 2 ms a stretch is 133333 loads: a lap of 1 Mi is short, 2 Mi long");
	CHECK(chase_long_lap(131072, 0, 2) == 1 && chase_long_lap(131071, 0, 2) == 0,
	      "the latency unknown: the floor's %u loads x %u decide", CHASE_PARTIAL_LOADS_MIN,
	      CHASE_LONG_LAP_TRIALS);
	free(buf);
}

/* The swaps done in place, each draw made as it is used: what
   chase_shuffle's draws ahead must reproduce. */
static void shuffle_in_place(void *base, size_t slots, size_t page_bytes, unsigned word,
			     int single_cycle, uint64_t seed)
{
	struct chase_rng rng;

	chase_rng_seed(&rng, seed);
	for (size_t i = slots; i-- > 1;) {
		void **a = (void **)chase_slot(base, i, page_bytes) + word;
		size_t j = (size_t)chase_rng_below(&rng, i + (single_cycle ? 0 : 1));
		void **b = (void **)chase_slot(base, j, page_bytes) + word, *t = *a;

		*a = *b;
		*b = t;
	}
}

/* Drawing ahead changes nothing drawn: either algorithm, either word,
   packed slots or one per page, below, at and past the lookahead. */
static void test_shuffle_ahead(void)
{
	static const size_t counts[] = { 1, 2, 31, 32, 33, 1000 };
	int same = 1;

	for (unsigned form = 0; form < 8; form++) {
		size_t page_bytes = form & 1 ? 4096 : CHASE_SLOT;
		unsigned word = form >> 1 & 1;
		int single = (int)(form >> 2);

		for (size_t n = 0; n < sizeof counts / sizeof *counts; n++) {
			size_t slots = counts[n], bytes = slots * page_bytes;
			void **mine = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
			void **want = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);

			for (size_t w = 0; w < bytes / sizeof *mine; w++)
				mine[w] = want[w] = (void *)(uintptr_t)(w + 1);
			chase_shuffle(mine, slots, page_bytes, word, single, 99);
			shuffle_in_place(want, slots, page_bytes, word, single, 99);
			if (memcmp(mine, want, bytes)) {
				same = 0;
				printf("# differs: %zu slots, %zu-byte pages, word %u, %s\n", slots,
				       page_bytes, word, single ? "Sattolo" : "Fisher-Yates");
			}
			free(mine);
			free(want);
		}
	}
	CHECK(same, "the shuffle drawn ahead is the shuffle drawn in place, for every form "
	      "and slot count around the lookahead");
}

/* The region warm-up's two passes: the marking walk sets exactly the bits
   of the slots it loads, in cycle order; the scrambled pass loads every
   other slot once and no marked one, whatever the slot count. */
static void test_region_passes(void)
{
	static const size_t counts[] = { 1, 2, 1000, 4096, 5003 };

	for (size_t n = 0; n < sizeof counts / sizeof *counts; n++) {
		size_t slots = counts[n], walked = slots / 3, set = 0;
		void *buf = aligned_alloc(4096, (slots * CHASE_SLOT + 4095) / 4096 * 4096);
		uint64_t *marks = calloc((slots + 63) / 64, sizeof *marks);
		uint64_t want_sum = 0, sum, touched;
		void *p = buf, *end;
		int in_order = 1;

		chase_build(buf, slots, CHASE_SLOT, 5);
		end = chase_follow_marking(buf, buf, walked, marks);
		for (size_t i = 0; i < walked; i++) {
			size_t k = (size_t)((char *)p - (char *)buf) / CHASE_SLOT;

			in_order &= (int)((marks[k / 64] >> (k % 64)) & 1);
			p = *(void **)p;
		}
		for (size_t k = 0; k < slots; k++) {
			int marked = (int)((marks[k / 64] >> (k % 64)) & 1);

			set += (size_t)marked;
			if (!marked)
				want_sum += (uint64_t)(uintptr_t) * (void **)slot(buf, k);
		}
		CHECK(in_order && set == walked && end == p,
		      "%zu slots: the walk of %zu marks those it loads, no other, and ends where "
		      "the cycle does (%zu marked)", slots, walked, set);
		sum = chase_touch_unmarked(buf, slots, marks, &touched);
		CHECK(touched == slots - walked && sum == want_sum,
		      "  the scrambled pass loads the %zu others once each (%llu loads, sum %s)",
		      slots - walked, (unsigned long long)touched, sum == want_sum ? "equal" : "differs");
		free(marks);
		free(buf);
	}
}

/* With stretches asked below the flushed sizes, a cycle holding
   CHASE_REGION_LAPS regions (thrice max_trials stretches) takes the region
   warm-up, then stretches; one slot shorter a lap; tlb's flag off, laps. */
static void test_region_warm_up(void)
{
	struct config c;
	struct chase_run run;
	size_t region = 3u * 4u * CHASE_PARTIAL_LOADS_MIN, slots = region * CHASE_REGION_LAPS;
	void *buf = quick_run(&c, &run, slots, 13);

	CHECK(chase_region_lap((double)slots, 0, &c) && !chase_region_lap((double)slots - 1, 0, &c),
	      "max_trials 4 and the floor's stretches: a region of %zu loads, %zu slots apply",
	      region, slots);
	run.stretch_long_laps = 1;
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, region") == 0 && run.region_warm_up &&
	      !strcmp(run.form, CHASE_FORM_PARTIAL) && run.trials.count >= 3 &&
	      trials_best(&run.trials) > 0 && run.region_marks == NULL,
	      "%zu slots: the region warm-up, then %u stretches (best %.3f ns); the scratch "
	      "handed back", slots, run.trials.count, trials_best(&run.trials));
	CHECK(chase_check(buf, slots, CHASE_SLOT, NULL, 0) == 0, "  the cycle is untouched");

	run.slots = slots - CHASE_UNROLL;
	chase_build(buf, run.slots, CHASE_SLOT, 13);
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, just short") == 0 &&
	      !run.region_warm_up && !strcmp(run.form, CHASE_FORM_PARTIAL),
	      "%zu slots: a warm-up lap, then stretches", run.slots);

	run.slots = slots;
	chase_build(buf, slots, CHASE_SLOT, 13);
	run.stretch_long_laps = 0;
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, flag off") == 0 && !run.region_warm_up &&
	      !strcmp(run.form, CHASE_FORM_LAPS), "the flag off: whole laps (%s)", run.form);
	free(buf);
}

/* The timed chase's trial forms: whole laps below the threshold, partial
   laps (one warm-up lap, then stretches of loads that need not close a
   lap) from it up; the threshold from the claim, else the last edge. */
static void test_partial_laps(void)
{
	const size_t slots = 65536;   /* 4 MiB of slots */
	struct config c;
	struct chase_run run;
	void *buf = quick_run(&c, &run, slots, 7);

	run.partial_from_slots = 0;
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, laps") == 0 &&
	      !strcmp(run.form, CHASE_FORM_LAPS) && run.laps_per_trial >= 1 &&
	      run.loads_per_trial == run.laps_per_trial * slots,
	      "no threshold: whole laps (%s, %llu laps, %llu loads)", run.form,
	      (unsigned long long)run.laps_per_trial, (unsigned long long)run.loads_per_trial);
	CHECK(run.trials.count >= 3 && run.stopped_by && strcmp(run.stopped_by, "-"),
	      "  and the stop rule ended them (%u trials, %s)", run.trials.count, run.stopped_by);

	run.partial_from_slots = slots + 1;
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, below") == 0 &&
	      !strcmp(run.form, CHASE_FORM_LAPS) && run.laps_per_trial >= 1,
	      "a working set below the threshold: whole laps (%s)", run.form);

	run.partial_from_slots = slots;
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, partial") == 0 &&
	      !strcmp(run.form, CHASE_FORM_PARTIAL) && run.laps_per_trial == 0,
	      "at the threshold: partial laps (%s, %llu laps)", run.form,
	      (unsigned long long)run.laps_per_trial);
	CHECK(run.loads_per_trial >= CHASE_PARTIAL_LOADS_MIN &&
	      run.loads_per_trial % CHASE_UNROLL == 0 && run.loads_per_trial < slots,
	      "  each trial a stretch of whole blocks, at least %u loads and short of a lap "
	      "(%llu of %zu)", CHASE_PARTIAL_LOADS_MIN,
	      (unsigned long long)run.loads_per_trial, slots);
	CHECK(run.trials.count >= 3 && trials_best(&run.trials) > 0,
	      "  measured: %u trials, best %.3f ns", run.trials.count, trials_best(&run.trials));
	CHECK(chase_check(buf, slots, CHASE_SLOT, NULL, 0) == 0,
	      "  the cycle is untouched by stretches that end mid-lap");

	/* Past the threshold: a stretch of warm-up after a scan of the links;
	   a broken link is found by the scan and named. */
	run.partial_from_slots = slots / 4;
	CHECK(chase_run_measure(&run, CHASE_SLOT, "test, past") == 0 &&
	      !strcmp(run.form, CHASE_FORM_PARTIAL) && !run.cycle_broken && !run.broken_why[0],
	      "past the threshold: partial laps after a scanned, stretch-long warm-up (%s)",
	      run.form);
	{
		void *saved = *(void **)slot(buf, 5);

		*(void **)slot(buf, 5) = *(void **)slot(buf, 6);
		CHECK(chase_run_measure(&run, CHASE_SLOT, "test, broken") == -1 && run.cycle_broken &&
		      strstr(run.broken_why, "not a permutation"),
		      "  two slots pointing at one: the scan refuses it, nothing measured (%s)",
		      run.broken_why);
		*(void **)slot(buf, 5) = saved;
	}

	CHECK(chase_partial_from(32u << 20, 48u << 20, CHASE_SLOT) == (128u << 20) / CHASE_SLOT,
	      "threshold: four times the claimed cache, whatever edge was found");
	CHECK(chase_partial_from(0, 48u << 20, CHASE_SLOT) == (192u << 20) / CHASE_SLOT,
	      "no claim: four times the last edge found");
	CHECK(chase_partial_from(0, 0, CHASE_SLOT) == 0,
	      "neither: never partial (whole laps everywhere)");
	free(buf);
}

int main(void)
{
	test_sizes();
	test_pages();
	test_reproducible_and_seeded();
	test_checker_rejects();
	test_scan_links();
	test_follow();
	test_rng();
	test_partial_laps();
	test_long_laps();
	test_shuffle_ahead();
	test_region_passes();
	test_region_warm_up();
	return check_summary();
}
