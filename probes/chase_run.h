/* Timing one built cycle: the warm-up and the trials of a dependent-load
 * chase, run as a timed section. The latency and tlb probes share it, so a
 * figure of either comes from the same loop, the same trial sizing and the
 * same stop rule.
 */
#ifndef MEMPROBE_CHASE_RUN_H
#define MEMPROBE_CHASE_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "core/config.h"
#include "core/probe.h"
#include "core/platform.h"
#include "core/trials.h"

/* Each trial is a whole number of laps, at least this many: with whole laps
   every slot is visited equally often, so no part of the cycle is over- or
   under-weighted in a trial. */
#define CHASE_TRIAL_LAPS_MIN 1u

/* A partial trial (below) runs at least this many loads, whatever step_ms
   says: the seed's reason for its fixed step count, enough loads that the
   timer's resolution and the sample of lines are both irrelevant. */
#define CHASE_PARTIAL_LOADS_MIN 16384u

/* With stretch_long_laps (below), trials are stretches once a lap holds at
   least this many of the trials a stretch would make: three one-lap trials
   then cost three laps where stretches cost a few eighths of one. */
#define CHASE_LONG_LAP_TRIALS 8u

/* Past every cache, after its buffer is flushed (plat_data_flush), a
   chase's warm-up loads once per this many bytes of it on average: every
   4 KiB page's entry is loaded, so the TLBs and the page walks' caches
   hold what they hold in the trials. The latency probe's, mlp's, tails'
   and loaded's. */
#define CHASE_WARM_PAGE_BYTES 4096u

/* The region warm-up (chase_run.region_marks) applies where a lap holds
   at least this many times the region: a quarter of a lap's dependent
   loads, and the rest loaded many at a time. */
#define CHASE_REGION_LAPS 4u

/* How a point's trials were formed (the row's trial_form column). */
#define CHASE_FORM_LAPS "laps"
#define CHASE_FORM_PARTIAL "partial"

struct chase_run {
	/* In: a cycle through `slots` slots that starts and ends at start. */
	void *start;
	size_t slots;
	const struct config *c;   /* trials, max_trials, precision, step_ms */
	/* From this many slots up (0: never), trials are partial laps: a
	   warm-up, then timed stretches of loads sized to step_ms that go on
	   round the cycle from where the last one stopped. Set it past 4x the
	   largest cache (chase_partial_from), where every load misses in any
	   order, so a stretch measures what a lap does. The warm-up is one
	   whole lap at partial_from_slots itself; past it the links are
	   checked by chase_scan_links instead of by a lap coming home, the
	   buffer is flushed from every cache (plat_data_flush: no line the
	   build or the scan left can hit) and a stretch of one load per 4 KiB
	   of it settles the TLBs and page walks. Only for packed slots
	   (chase_build with page_bytes = CHASE_SLOT). */
	uint64_t partial_from_slots;
	/* Nonzero: below partial_from_slots too, once the whole-lap warm-up
	   shows a lap holding CHASE_LONG_LAP_TRIALS trials' loads or more,
	   the trials are stretches (CHASE_FORM_PARTIAL) going on from where
	   that lap came home. After one whole lap every line's last load was
	   one lap before, as in a lap-long trial, so each line hits or misses
	   in a stretch as in a lap; and the cycle being a random order of the
	   lines, a stretch is a random sample of them, whose mean stands
	   within a few tenths of a percent of the lap's at
	   CHASE_PARTIAL_LOADS_MIN loads. Only for packed slots, as above. */
	int stretch_long_laps;
	/* Set by chase_run_measure: scratch of chase_region_marks_bytes(slots)
	   bytes where stretch_long_laps asks for stretches below
	   partial_from_slots and a lap is long enough, else NULL (a caller of
	   chase_run_trials sets it NULL or stretch_long_laps 0). With it,
	   where a lap holds at least CHASE_REGION_LAPS regions of thrice
	   max_trials stretches, the warm-up is the region's instead of a
	   whole lap: the scan of the links; the region followed from start,
	   each line it loads marked; every other line loaded once,
	   independently, in a scrambled order (chase_touch_unmarked); the
	   region's first third followed again (a settling stretch). The
	   trials are stretches through the other two thirds (twice max_trials
	   stretches): each line they load was last loaded one lap of loads
	   before, with every other line loaded once in between, as after a
	   whole lap. NULL: whole laps. */
	uint64_t *region_marks;
	/* Out. */
	struct trials trials;     /* ns per load */
	uint64_t laps_per_trial;  /* whole laps per trial; 0 for partial trials */
	uint64_t loads_per_trial;
	const char *form;         /* CHASE_FORM_LAPS or CHASE_FORM_PARTIAL */
	const char *stopped_by;   /* which limit ended the trials */
	int region_warm_up;       /* the warm-up was the region's (region_marks) */
	int cycle_broken;         /* the warm-up did not come home, or the scan failed */
	char broken_why[160];     /* the scan's reason; empty: ask chase_check */
};

/* Warms up (untimed: whole laps, at least 65536 loads; or past
   partial_from_slots the scan, flush and stretch described there; or the
   region warm-up where region_marks says), times a lap, then runs trials
   of whole laps sized to c->step_ms (or, from partial_from_slots up, where
   a lap is long, or after the region warm-up, stretches of at least
   CHASE_PARTIAL_LOADS_MIN loads sized to it) until the stop rule ends
   them, all inside plat_timed. A lap of any slot count is followed in
   blocks of CHASE_UNROLL loads by making each trial a multiple of the laps
   that fill whole blocks. The cycle was built by chase_build with
   page_bytes. 0 when measured; -1 when it faulted or the cycle was broken,
   reported as "<what>: FAULT: ..." or "<what>: the chase did not return
   ...", `what` naming the probe, page size and size. */
int chase_run_measure(struct chase_run *run, size_t page_bytes, const char *what);

/* chase_run_measure's timed body (arg: struct chase_run *), for a caller
   that runs it in a timed state of its own, such as a role on a CPU
   (plat_cpus_run): it fills run's Out fields; chase_run_verdict then says
   whether they hold a measurement. */
void chase_run_trials(void *arg);
/* 0 when run's trials measured; -1 when the cycle was broken, reported as
   chase_run_measure does. */
int chase_run_verdict(const struct chase_run *run, size_t page_bytes, const char *what);

/* The slot count from which a chase's trials may be partial laps: four
   times the largest cache the CPU claims (largest_claim, bytes), or where
   nothing is claimed four times the last edge found so far (last_edge,
   bytes; 0: none found), over slot_bytes; 0 (never) when neither is
   known. */
uint64_t chase_partial_from(uint64_t largest_claim, uint64_t last_edge, uint64_t slot_bytes);

/* Whether a lap of `slots` loads at ns each (0: unknown, counted as the
   shortest stretch only) holds CHASE_LONG_LAP_TRIALS stretches of step_ms
   worth of loads, at least CHASE_PARTIAL_LOADS_MIN: where
   stretch_long_laps makes trials stretches. */
int chase_long_lap(double slots, double ns, double step_ms);

/* Whether a cycle of `slots` slots at ns a load (0: unknown, counted as
   the shortest stretch) is long enough for the region warm-up under c
   (with its scratch given): the latency probe's estimate of a size. */
int chase_region_lap(double slots, double ns, const struct config *c);

/* The bytes of chase_run.region_marks for a cycle of `slots` slots. */
size_t chase_region_marks_bytes(size_t slots);

/* A built cycle of packed slots over `bytes` from base, past every cache:
   flushed from them (plat_data_flush: no line the build wrote can hit),
   then followed from base for a load per CHASE_WARM_PAGE_BYTES, untimed,
   to settle the TLBs and page walks. Returns where the chain stands: a
   chase going on from there meets no line the settling loads left for
   the rest of the lap. tails' and loaded's memory chases. */
void *chase_settle_past_caches(void *base, uint64_t bytes);

/* How a point's trials run, for its cost (chase_run_cost). */
enum chase_cost_form {
	CHASE_COST_LAPS,          /* a warm-up lap, then a lap or more a trial */
	CHASE_COST_STRETCHES,     /* a long lap (chase_long_lap): the region's
				     warm-up, then stretches */
	CHASE_COST_PARTIAL,       /* past the caches (partial_from_slots): the
				     links scanned and a load per 4 KiB, then
				     stretches */
};

/* The time a point's trials take by their budget alone: midway between
   c->trials and c->max_trials trials of c->step_ms (what chase_run_cost
   counts as ms). */
double chase_point_ms(const struct config *c);

/* What building a cycle of `slots` packed slots takes (chase_build),
   added to *cost (core/probe.h): a pass streamed, and its shuffle as a
   quarter of a lap's loads. */
void chase_build_cost(uint64_t slots, struct probe_cost *cost);

/* What one point of a chase over `slots` slots takes, added to *cost:
   the build (chase_build_cost); the warm-up (a lap's
   loads; the region's, a lap in CHASE_REGION_LAPS as loads and the rest
   streamed; or the scan streamed and a load per 4 KiB); trials midway
   between c->trials and c->max_trials of c->step_ms each, of a lap's
   loads each (CHASE_COST_LAPS) or of CHASE_PARTIAL_LOADS_MIN at least. */
void chase_run_cost(const struct config *c, uint64_t slots, enum chase_cost_form form,
		    struct probe_cost *cost);

#endif
