/* Reading the latency curves: from results rows to the memory hierarchy they
 * show (edges.h), held up against what CPUID claims (lib/machine.h, read
 * through the platform), as a
 * table for report.txt, a "hierarchy" member of system.json, and latency.svg.
 *
 * Two users: a run, which hands every row over as it is written and calls
 * analysis_run() after the probes; and `memprobe analyze results.csv` on
 * Linux, which reads the rows back from a file of any run.
 */
#ifndef MEMPROBE_ANALYSIS_H
#define MEMPROBE_ANALYSIS_H

#include <stddef.h>
#include "lib/machine.h"
#include "analysis/bandwidth_levels.h"
#include "results/chart_file.h"
#include "analysis/edges.h"
#include "analysis/pagewalk.h"
#include "core/probe.h"
#include "results/results.h"
#include "lib/svg.h"
#include "analysis/tlb_levels.h"

struct json;

/* A level against its claim. VERDICT_EMULATED is shown in place of agrees
   or differs where the CPU is emulated (claims_emulated): the emulator's
   timings neither confirm nor refute a claim. */
enum verdict { VERDICT_NO_CLAIM, VERDICT_AGREES, VERDICT_DIFFERS, VERDICT_EMULATED };

/* "agrees", "differs", "emulated", "-" (no claim). */
const char *verdict_name(enum verdict v);

/* system.json's word for a level's kind: "cache", "tlb", "edge", "top". */
const char *level_kind_name(enum level_kind k);

/* The CPUID structure a measured level is held against. */
struct level_check {
	enum verdict verdict;
	const struct cache_desc *cache;   /* one of these two, or neither */
	const struct tlb_desc *tlb;
};

struct analysis {
	struct curve curve[EDGES_MAX_CURVES];     /* ascending page size */
	char verified[EDGES_MAX_CURVES][128];     /* the first row's pages_verified */
	size_t ncurves;
	unsigned rows, ignored_rows;              /* latency rows taken / left out */
	struct tlb_curves tlb;                    /* the tlb probe's rows */
	struct bandwidth_curves bw;               /* the bandwidth probe's rows */
	struct hierarchy h;                       /* TLB levels: the tlb probe's where it ran */
	struct pagewalk pw;                       /* page-walk cost from latency pairs */
	char host_pages[512];                     /* tlb_host_page_signs' lines */
	unsigned host_page_signs;
	struct level_check check[EDGES_MAX_LEVELS];
	struct cache_claims claims;
	int have_claims;
	const char *claims_source;                /* "this CPU's registers", "the registers
						     recorded in system.json beside the CSV" */
	/* Claimed cache levels (bit n: Ln) that one curve's first edges
	   stepped over: the edge read holds a higher level's claim and none
	   showed this one's (check_edge). */
	unsigned skipped_claims;
	int computed;
};

void analysis_init(struct analysis *a);
/* Takes a latency chase row, a tlb row or a bandwidth row (others are
   ignored, returning -1). */
int analysis_add_row(struct analysis *a, const struct result_row *row);
void analysis_set_claims(struct analysis *a, const struct cache_claims *claims,
			 const char *source);
/* Finds the levels, names them and checks them against the claims. */
void analysis_compute(struct analysis *a);
/* Whether a's claims are an emulated CPU's (claims_emulated). */
int analysis_emulated(const struct analysis *a);
/* The size memory's figures must start at, bytes: four times the larger of
   the largest data or unified cache a claims and the largest cache level
   it found (without claims, any edge level: nothing tells a cache's edge
   from a TLB's there), as a latency tool reads memory well past the last
   level (analysis_floor_of). 0 when there is neither. Pure. */
uint64_t analysis_memory_floor(const struct analysis *a);
/* The floor for a largest cache of `largest` bytes (0: none known, 0). */
uint64_t analysis_floor_of(uint64_t largest);
/* The verdict shown for level i (the report, system.json, the card):
   a->check[i]'s, or VERDICT_EMULATED for a level held against a claim
   when analysis_emulated. a->check keeps what the readings said. */
enum verdict analysis_verdict(const struct analysis *a, size_t i);
/* Whether TLB level i's miss costs a walk: over 3x the least miss cost of
   any page size's first TLB level (where a second TLB holds those pages,
   an L1 DTLB miss that hits it), and 20 cycles or more, so no larger TLB
   holds its pages. 0 for any other level, or where no TLB level has a
   positive miss cost. */
int analysis_miss_walks(const struct analysis *a, size_t i);

/* The data or unified cache CPUID claims at this level (numbered from 1)
   when a read fewer cache levels than that: a claimed level no step of
   the curves was read as, which the top ("beyond Ln") holds in with
   everything past the last level read. NULL where a has no claims, the
   claims are an emulator's, no such cache is claimed, or a read that
   many levels. */
const struct cache_desc *analysis_unread_claim(const struct analysis *a, unsigned level);

/* The report's section title: "memory hierarchy, read from ...". */
extern const char analysis_heading[];

/* The report: text in pieces, each ending in a newline. */
typedef void (*analysis_print_fn)(void *ctx, const char *text);
void analysis_print(const struct analysis *a, analysis_print_fn print, void *ctx);
/* latency.svg; -1 when there was nothing to draw (the file says so). */
int analysis_write_svg(const struct analysis *a, svg_write_fn write, void *ctx);
/* bandwidth.svg: the bandwidth probe's curves with their edges; -1 when none. */
int analysis_write_bandwidth_svg(const struct analysis *a, svg_write_fn write, void *ctx);
/* tlb.svg: the tlb probe's curves with their levels; -1 when none. */
int analysis_write_tlb_svg(const struct analysis *a, svg_write_fn write, void *ctx);
/* 1 when a holds rows of that reader's kind (probe.h's probe_rows_read);
   analysis_empty: of none the analysis reads. */
int analysis_has(const struct analysis *a, enum probe_rows_read from);
int analysis_empty(const struct analysis *a);

/* The analysis's charts, the one list a run (analysis_run) and memprobe
   analyze draw from: for each chart a has rows for, in order, fn(ctx, its
   file name, its producer, a). Stops at and returns fn's first non-zero. */
typedef int (*analysis_chart_fn)(void *ctx, const char *file, chart_produce_fn produce,
				 const struct analysis *a);
int analysis_charts(const struct analysis *a, analysis_chart_fn fn, void *ctx);

/* The "hierarchy" object's members. */
void analysis_json(struct json *j, const struct analysis *a);

/* ---- Inside a run ----------------------------------------------------- */

/* Every results row, as it is written (the first row after an analysis_run
   starts a fresh set, so one process may run several times). */
void analysis_take_row(const struct result_row *row);
/* After the probes: the tables into the report, latency.svg, tlb.svg,
   pagewalk.svg and bandwidth.svg into the run folder, claims from this
   CPU. Does nothing without latency, tlb or bandwidth rows. */
void analysis_run(void);
/* The run's analysis once analysis_run computed it; NULL when the run had
   no latency, tlb or bandwidth rows. */
const struct analysis *analysis_current(void);
/* Before analysis_run, for a probe that reads the probes before it: the
   rows taken so far, analysed with this CPU's claims (a copy: the run's
   own analysis is left to analysis_run); NULL when none of them is a
   latency, tlb or bandwidth row. Each call computes afresh. */
const struct analysis *analysis_so_far(void);
/* The "hierarchy" member of system.json, when analysis_run found curves. */
void analysis_describe(struct json *j);

#endif
