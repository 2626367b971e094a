/* probes/level_pick.c on synthetic runs: the working sets per level come
 * from the latency probe's levels when it ran (a VM's 508 MiB "L3" claim
 * left aside), from the claims otherwise, memory last and the largest,
 * and the latency probe's reading at a level's exact working set.
 */

#include <string.h>

#include "check.h"
#include "analysis/analysis.h"
#include "lib/machine.h"
#include "probes/level_pick.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)

static struct analysis run;
static struct cache_claims claims;
static struct level_picks p;

/* This project's Zen 5 VM: L1d 48 KiB, L1i 32 KiB, L2 1 MiB, L3 "508 MiB". */
static void claim_zen5_vm(void)
{
	memset(&claims, 0, sizeof claims);
	claims.cache[0] = (struct cache_desc){ .level = 1, .kind = CACHE_DATA, .size_bytes = 48 * KIB };
	claims.cache[1] = (struct cache_desc){ .level = 1, .kind = CACHE_INSTRUCTION,
					       .size_bytes = 32 * KIB };
	claims.cache[2] = (struct cache_desc){ .level = 2, .kind = CACHE_UNIFIED, .size_bytes = MIB };
	claims.cache[3] = (struct cache_desc){ .level = 3, .kind = CACHE_UNIFIED,
					       .size_bytes = 508 * MIB };
	claims.ncaches = 4;
}

/* A latency run that found L1 48 KiB, L2 1 MiB, L3 12 MiB and memory. */
static void latency_found(void)
{
	static const struct { const char *name; enum level_kind kind; uint64_t bytes; double ns; }
	found[] = {
		{ "L1", LEVEL_CACHE, 48 * KIB, 1.12 }, { "TLB", LEVEL_TLB, 8 * MIB, 3.9 },
		{ "L2", LEVEL_CACHE, MIB, 3.95 }, { "L3", LEVEL_CACHE, 12 * MIB, 16.8 },
		{ "memory", LEVEL_TOP, 16 * MIB, 138.5 },
	};

	memset(&run, 0, sizeof run);
	run.ncurves = 1;
	run.curve[0].page_shift = 12;
	run.curve[0].n = 2;
	run.curve[0].pt[0] = (struct curve_point){ 24 * KIB, 1.123, 4.0 };
	run.curve[0].pt[1] = (struct curve_point){ 512 * KIB, 4.52, 16.0 };
	for (unsigned i = 0; i < sizeof found / sizeof found[0]; i++) {
		struct level *l = &run.h.level[run.h.nlevels++];

		strcpy(l->name, found[i].name);
		l->kind = found[i].kind;
		l->size_bytes = found[i].bytes;
		l->ns = found[i].ns;
	}
}

static void test_from_latency(void)
{
	claim_zen5_vm();
	latency_found();
	level_picks_caches(&p, &run, &claims);
	CHECK(p.count == 3 && !strcmp(p.level[0].name, "L1") && p.level[0].bytes == 24 * KIB &&
	      p.level[1].bytes == 512 * KIB && !strcmp(p.level[2].name, "L3") &&
	      p.level[2].bytes == 6 * MIB, "half of each level the latency probe found, the TLB "
	      "edge left out: 24 KiB, 512 KiB, 6 MiB (%u levels, the last %llu)", p.count,
	      (unsigned long long)p.level[p.count - 1].bytes);
	CHECK(p.level[1].latency_ns == 3.95 && p.top_ns == 138.5 && p.largest_found == 12 * MIB &&
	      p.largest_claimed == 508 * MIB && strstr(p.from, "latency probe"),
	      "each level's latency, memory's, the largest found and claimed, and where from");
	CHECK(level_picks_add_memory(&p, 64 * MIB) == 0 && p.count == 4 &&
	      !strcmp(p.level[3].name, "memory") && p.level[3].bytes == 64 * MIB &&
	      p.level[3].latency_ns == 138.5, "memory last, with the latency probe's top figure");
	CHECK(level_pick_latency_at(&run, 12, 512 * KIB) == 4.52 &&
	      level_pick_latency_at(&run, 12, 256 * KIB) == 0 &&
	      level_pick_latency_at(&run, 21, 512 * KIB) == 0 &&
	      level_pick_latency_at(NULL, 12, 512 * KIB) == 0,
	      "the latency probe's reading at exactly that size and page size, else 0");
}

/* mlp's memory at 2032 MiB is held against the sweep's 2 GiB point, never
   against memory's plateau median (138.5 ns here), which a VM's memory
   moving with the working set put 50% off. */
static void test_latency_near(void)
{
	uint64_t at;

	latency_found();
	run.curve[0].n = 4;
	run.curve[0].pt[2] = (struct curve_point){ 1024 * MIB, 355.0, 1250 };
	run.curve[0].pt[3] = (struct curve_point){ 2048 * MIB, 413.5, 1450 };
	CHECK(level_pick_latency_near(&run, 12, 2032 * MIB, &at) == 413.5 && at == 2048 * MIB,
	      "2032 MiB: the 2 GiB point (%llu)", (unsigned long long)at);
	CHECK(level_pick_latency_near(&run, 12, 512 * KIB, &at) == 4.52 && at == 512 * KIB,
	      "an exact size: its own point");
	{
		uint64_t lo, hi;
		double cycles, ns = level_pick_latency_between(&run, 12, 1448 * MIB, &lo, &hi,
								&cycles);

		/* 1448 MiB lies half way up the octave on a log scale. */
		CHECK(lo == 1024 * MIB && hi == 2048 * MIB && ns > 384.0 && ns < 384.5 &&
		      cycles > 1349 && cycles < 1351, "1448 MiB: half way between 1 GiB's "
		      "355.0 ns and 2 GiB's 413.5 (%.2f ns, %.1f cycles)", ns, cycles);
		CHECK(level_pick_latency_between(&run, 12, 1536 * KIB, &lo, &hi, &cycles) == 0 &&
		      lo == 0 && hi == 0 &&
		      level_pick_latency_between(&run, 21, 1448 * MIB, &lo, &hi, &cycles) == 0 &&
		      level_pick_latency_between(NULL, 12, 1448 * MIB, &lo, &hi, &cycles) == 0,
		      "points over an octave apart, another page size, no run: 0");
	}
	CHECK(level_pick_latency_near(&run, 12, 1536 * MIB, &at) == 0 && at == 0 &&
	      level_pick_latency_near(&run, 21, 2048 * MIB, &at) == 0 &&
	      level_pick_latency_near(NULL, 12, 2048 * MIB, &at) == 0,
	      "no point within an eighth of an octave, another page size, no run: 0");
}

/* Levels whose plateaus the curve drew: a smeared L2 whose step starts at
   384 KiB and an L3 whose starts at 8 MiB get the middles of their
   plateaus on a log scale (52 .. 384 KiB: 141 KiB; 1.5 .. 8 MiB: 3.46
   MiB), below their halves; the L1 (4 .. 44 KiB: 13.3 KiB) too; each down
   to the sweep's eighths of an octave (13 KiB, 128 KiB, 3.25 MiB). A sharp
   L2 (a plateau to 1 MiB from 52 KiB: 231 KiB, so 224 KiB) gets that, and
   a level whose plateau's middle lies past its half keeps its half. */
static void test_plateau_middle(void)
{
	static const uint64_t below[] = { 44 * KIB, 0, 384 * KIB, 8 * MIB },
			      next[] = { 52 * KIB, 0, 1536 * KIB, 12 * MIB };

	claim_zen5_vm();
	latency_found();
	run.curve[0].pt[0].bytes = 4 * KIB;
	for (unsigned i = 0; i < 4; i++) {
		run.h.level[i].page_shift = 12;
		run.h.level[i].below_bytes = below[i];
		run.h.level[i].next_bytes = next[i];
	}
	level_picks_caches(&p, &run, &claims);
	CHECK(p.count == 3 && p.level[0].bytes == 13 * KIB && p.level[1].bytes == 128 * KIB &&
	      p.level[2].bytes == 3328 * KIB,
	      "each level at its plateau's middle: %llu, %llu, %llu bytes",
	      (unsigned long long)p.level[0].bytes, (unsigned long long)p.level[1].bytes,
	      (unsigned long long)p.level[2].bytes);
	run.h.level[2].below_bytes = MIB;
	run.h.level[3].below_bytes = 64 * MIB;
	run.h.level[3].size_bytes = 16 * MIB;
	level_picks_caches(&p, &run, &claims);
	CHECK(p.level[1].bytes == 224 * KIB &&
	      p.level[2].bytes == 8 * MIB,
	      "a sharp L2: 224 KiB; a plateau whose middle lies past half the level: the half "
	      "(%llu, %llu)", (unsigned long long)p.level[1].bytes,
	      (unsigned long long)p.level[2].bytes);
}

static void test_from_claims(void)
{
	claim_zen5_vm();
	level_picks_caches(&p, NULL, &claims);
	CHECK(p.count == 3 && p.level[0].bytes == 24 * KIB && p.level[1].bytes == 512 * KIB &&
	      p.level[2].bytes == 254 * MIB && p.level[0].latency_ns == 0 &&
	      strstr(p.from, "claims") && strstr(p.from, "did not run"),
	      "no latency run: half of each data or unified level claimed (%u, the last %llu)",
	      p.count, (unsigned long long)p.level[p.count - 1].bytes);
	CHECK(level_picks_add_memory(&p, 64 * MIB + 10) == 1 && p.count == 3 &&
	      p.level[2].bytes == 64 * MIB && p.level[1].bytes == 512 * KIB,
	      "memory of 64 MiB drops the claimed L3's 254 MiB half, whole lines kept");
	latency_found();
	run.h.nlevels = 0;
	level_picks_caches(&p, &run, &claims);
	CHECK(p.count == 3 && p.largest_found == 0 && strstr(p.from, "named no cache level"),
	      "a latency run that named no cache: the claims, and the report says why");
	memset(&claims, 0, sizeof claims);
	level_picks_caches(&p, NULL, &claims);
	CHECK(p.count == 0 && strstr(p.from, "no cache known"), "nothing known: no cache level");
}

int main(void)
{
	test_from_latency();
	test_latency_near();
	test_plateau_middle();
	test_from_claims();
	return check_summary();
}
