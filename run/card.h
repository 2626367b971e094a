/* The card: the run's answer on one screen. Each cache level with its size,
 * latency and read bandwidth, each TLB per page size with its entries,
 * reach and miss cost, memory, core-to-core latency, each against CPUID's
 * claim, and a line on how far the figures can be trusted.
 *
 * Built as plain data (struct card) from the analysis of the curves
 * (analysis.h) and a few facts the analysis does not keep (the spread of
 * the points that decide a level, c2c's pairs, the run's disturbances), so
 * that one builder serves a run, `memprobe compare` (which rebuilds each
 * run's card from its results.csv) and the tests. Then a pure formatter to
 * at most CARD_LINES lines of at most CARD_COLUMNS characters (summary.txt,
 * the console's last block, the first section of report.txt and
 * report.html) and the `summary` member of system.json. docs/OUTPUT.md,
 * "summary.txt".
 */
#ifndef MEMPROBE_CARD_H
#define MEMPROBE_CARD_H

#include <stddef.h>
#include <stdint.h>
#include "analysis/analysis.h"
#include "analysis/ifetch_levels.h"
#include "probes/geometry.h"
#include "results/columns.h"
#include "run/card_mlp.h"

#define CARD_LINES 27
#define CARD_COLUMNS 80
/* A level is marked noisy when the run's data say another run could read
   its size or its latency otherwise by more than this fraction: its
   trials, its page sizes' placement, a guest's share of the last cache,
   memory on a climb, or a host's walks (run/card.c, level_noisy and
   add_top; docs/METHOD.md, "The card"). */
#define CARD_NOISY_MOVE 0.10
/* The core's clock is said to have moved over a run when the middle 80%
   of its chase rows' clocks (each row's cycles over its ns: the clock of
   its timed sections) spans more than this fraction, from at least
   CARD_CLOCK_MIN_ROWS rows. Half the star's 10%: on an Emerald Rapids VM
   a run whose rows spanned 3.7% read every ns 12 to 17% off the run
   before it, at the same cycles (docs/METHOD.md, "The card"). */
#define CARD_CLOCK_MOVE 0.05
#define CARD_CLOCK_MIN_ROWS 10

/* The longest machine or CPU line the card takes, wrapped onto its lines. */
#define CARD_LONG_LINE 256
#define CARD_MAX_CACHES 8
#define CARD_MAX_TLBS 12
#define CARD_MAX_POINTS 1024
#define CARD_MAX_PAIRS 4096
/* The card's first line on an emulated CPU (QEMU's TCG), CARD_COLUMNS wide
   at most. */
#define CARD_EMULATED_LINE \
	"EMULATED CPU (QEMU TCG): timings are the emulator's; `make host` gives real ones"
/* The formatted card: CARD_LINES lines of CARD_COLUMNS and a newline. */
#define CARD_TEXT_MAX (CARD_LINES * (CARD_COLUMNS + 1) + 1)

/* What the card needs of the results rows beyond the analysis: each
   latency and tlb chase point's readings and spread, and c2c's one-way
   latencies and spreads. An all-zero struct is empty. */
struct card_point {
	unsigned tlb;             /* 0: a latency chase point, 1: a tlb chase point */
	unsigned page_shift;
	uint64_t bytes;           /* the row's working_set_bytes */
	double ns;                /* the least reading of the size's rows */
	double ns_hi;             /* the greatest (a size measured again, revisited) */
	double spread;            /* the largest spread of its rows */
};

/* The hierarchy when busy: the loaded curve's idle point and each mix's
   busiest point (the most bandwidth drawn), at the first page size its
   rows came at; memory's tail from the tails probe (the largest working
   set, at the first page size). */
#define CARD_MAX_MIXES 8
struct card_busy {
	int have_loaded;
	unsigned loaded_shift;
	double idle_ns;           /* p50 with no loader; 0: no idle row */
	struct {
		char mix[16];
		double gb_per_s, ns;
	} mix[CARD_MAX_MIXES];
	size_t nmix;
	int have_tails;
	unsigned tails_shift;
	uint64_t tails_bytes;
	double p50_ns, p99_ns;
};

struct card_rows {
	struct card_busy busy;
	struct card_point pt[CARD_MAX_POINTS];
	size_t npt;
	double c2c_ns[CARD_MAX_PAIRS];  /* the first CARD_MAX_PAIRS pairs */
	double c2c_spread[CARD_MAX_PAIRS];
	size_t nc2c;
	unsigned c2c_pairs;       /* every pair measured */
	struct ifetch_rows ifetch;  /* the ifetch probe's curves */
	struct mlp_curves mlp;    /* the mlp probe's points */
	/* Each latency and tlb chase row's clock, GHz: its cycles over its
	   ns, the first CARD_MAX_POINTS rows. */
	double clock_ghz[CARD_MAX_POINTS];
	size_t nclock;
};

/* Keeps what the card needs of one results row (others are ignored); a
   chase row of a size already held joins that point. */
void card_rows_add(struct card_rows *r, const struct result_row *row);

/* The run's facts: disturbances counted over the run, and the probes that
   failed, each "NAME: why" (a line of its own, wrapped between words onto
   the card lines it takes). */
#define CARD_MAX_FAILED 4
struct card_run {
	int known;                /* 0: not a run (compare, a test): no disturbance line */
	uint64_t nmi, smi;
	int nmi_counted, smi_counted;
	uint64_t trials_discarded, disturbed_kept;
	char failed[CARD_MAX_FAILED][2 * CARD_COLUMNS - 16];
	unsigned nfailed;
	/* The geometry probe's results when it ran (its ways on the cache
	   lines), else NULL: handed in by the run, never fetched. */
	const struct geometry_results *geometry;
};

struct card_cache {
	char name[16];            /* "L1", "edge" */
	uint64_t size_bytes;
	uint64_t range_lo, range_hi;
	int smeared;
	int named_by_claim;       /* the size is CPUID's, inside the range */
	/* A guest's last cache level, differing from its claim: the size is
	   the share this run could use, which moves between runs, so the
	   range reaches up to the claim (the verdict stays the reading's). */
	int guest_share;
	uint64_t edge_hi;         /* the latency edge's own range_hi, whatever the share */
	enum level_method method;
	double ns, cycles;
	double gb_per_s, bytes_per_cycle;   /* 0: bandwidth did not run */
	uint64_t claim_bytes;     /* 0: no claim */
	enum verdict verdict;
	/* The bandwidth curves' edge the report holds this level against (0:
	   none), and whether it and the latency edge disagree by more than
	   their ranges: then the card says "uncertain" and names the latency
	   edge, the bandwidth edge and the claim. */
	uint64_t bw_edge_bytes;
	int uncertain;
	int noisy;
	unsigned ways;            /* measured by the geometry probe; 0: not measured */
};

struct card_tlb {
	char name[16];            /* "L1 DTLB", "TLB" */
	unsigned page_shift;
	uint64_t entries, reach_bytes;
	uint64_t range_lo, range_hi;  /* entries */
	int smeared;
	int named_by_claim;       /* the entries are CPUID's, inside the range */
	enum level_method method;
	double miss_ns, miss_cycles;
	unsigned claim_entries;   /* 0: no claim */
	enum verdict verdict;
	int noisy;
};

struct card {
	int have_levels;          /* latency or tlb rows were read */
	struct card_cache cache[CARD_MAX_CACHES];
	size_t ncaches;
	/* Cache levels CPUID claims past the last one read, and those one
	   curve's first edge stepped over (analysis_unread_claim): a row
	   each among the caches in level order, "not seen", with the claim,
	   where nothing would otherwise say the run read no level for them. */
	struct card_unread {
		char name[16];    /* "L3" */
		uint64_t claim_bytes;
	} unread[CARD_MAX_CACHES];
	size_t nunread;
	struct card_tlb tlb[CARD_MAX_TLBS];
	size_t ntlbs;
	/* Memory's figures come only from working sets of at least
	   memory_floor: four times the larger of the largest cache claimed
	   and the largest found (analysis_memory_floor; 0: neither, so no
	   size is known to be past every cache). */
	uint64_t memory_floor;
	/* Latency above the caches, from the analysis's top curve. Not cached:
	   "memory", the median of the points from top_from_bytes (the first at
	   or past memory_floor) to top_to_bytes. Cached (no point reached the
	   floor): the analysis's top level as it stands ("memory", "beyond
	   L2", "whole sweep"), its plateau from top_from_bytes, the sweep's
	   end top_to_bytes; never shown as memory's figure. */
	int have_top;
	int top_cached;
	char top_name[16];
	uint64_t top_from_bytes, top_to_bytes;
	unsigned top_shift;       /* the page size of the top's curve (log2) */
	int tails_cached;         /* the tails probe's largest working set lies
				     under memory_floor: no memory figure */
	double top_ns, top_cycles;
	int top_noisy;
	/* Read bandwidth of the read series the bandwidth levels come from:
	   the median over its points from read_from_bytes (the first at or
	   past memory_floor) to read_at_bytes (its largest); cached (no point
	   reached the floor): the largest point's alone, read_from_bytes the
	   same. */
	double read_gb_one;       /* one core; 0: not measured */
	double read_gb_all;       /* all cores together; 0: not measured past the floor */
	unsigned all_cores;       /* the all-core series' CPUs; 0: none ran */
	int read_cached;
	uint64_t read_from_bytes, read_at_bytes;
	char read_variant[24];
	struct card_busy busy;
	/* c2c. */
	unsigned c2c_pairs;
	double c2c_min, c2c_median, c2c_max;
	int c2c_noisy;            /* the pairs' trials could move the median by
				     more than CARD_NOISY_MOVE */
	struct card_mlp mlp;      /* loads and page walks in flight */
	/* Trust. */
	unsigned noisy, smeared;  /* levels */
	unsigned uncertain;       /* cache levels whose edges disagree */
	unsigned ranged;          /* levels shown with a range: smeared or named by CPUID */
	struct card_run run;
	int hypervisor;           /* CPUID says so */
	/* The chase rows' clocks, GHz: their tenth and ninetieth
	   percentiles (0: under CARD_CLOCK_MIN_ROWS rows), and whether they
	   span more than CARD_CLOCK_MOVE (the trust line says that ns
	   figures move with the clock and cycles do not). */
	double clock_p10_ghz, clock_p90_ghz;
	double clock_p50_ghz;     /* their median: compare's and fleet's row */
	int clock_moved;
	int emulated;             /* the hypervisor is QEMU's TCG: an emulated CPU (the
				     card's first line says so; verdicts say emulated) */
	/* The machine line (run/machine_line.h) and the CPU line ("cpu" and
	   its model), each of any length: the card wraps them between words
	   under its second column. "": none (compare, a test). */
	char machine[CARD_LONG_LINE];
	char cpu[CARD_LONG_LINE];
	/* The instruction side (the ifetch probe): its levels, each against
	   its claim; nothing read when it did not run. */
	struct ifetch_findings ifetch;
	/* What the geometry probe read (card_add_geometry): line size, ways
	   and sets, each against its claim; ran 0 when it did not run. */
	struct geometry_results geometry;
};

/* The card of an analysis (analysis_compute done; NULL: no latency, tlb
   or bandwidth rows), the rows' extra facts (NULL: none) and the run's
   (NULL: not a run). */
void card_build(struct card *c, const struct analysis *a, const struct card_rows *rows,
		const struct card_run *run);

/* The card as text into buf: at most CARD_LINES lines, each at most
   CARD_COLUMNS characters and ending in a newline, a longer one wrapped
   between words under the second column; levels that do not fit are
   counted in a line of their own; the ways column only when some level
   has ways measured. Returns the length (buf needs
   CARD_TEXT_MAX bytes). */
size_t card_format(const struct card *c, char *buf, size_t size);

/* The "summary" object's members: the lines, and each figure as data. */
struct json;
void card_json(struct json *j, const struct card *c, const char *text);

/* What the geometry probe read, kept for the card's geometry line and
   system.json's summary.geometry; and its ways into the card's cache
   levels of the same number (its "L1d" is the card's L1, "L2" L2), where
   a level it could not measure keeps 0, shown as "-". */
void card_add_geometry(struct card *c, const struct geometry_results *g);

/* One figure of the card, by a name that is the same in every run that has
   it ("L1 ns", "L1 DTLB 4 KiB entries"), for memprobe compare. */
struct card_figure {
	char name[40];
	double value;
	int starred;              /* its card line carries the star: another run
				     may read it over CARD_NOISY_MOVE otherwise */
};
#define CARD_MAX_FIGURES 96
/* The card's figures, in the card's order; returns how many. */
size_t card_figures(const struct card *c, struct card_figure *out, size_t max);

/* ---- Inside a run ----------------------------------------------------- */

/* Every results row, as it is written (card_run starts a fresh set). */
void card_take_row(const struct result_row *row);
/* After the analysis: builds the card and writes summary.txt. */
void card_run(const struct card_run *run);
/* The run card's machine and CPU lines (card_run keeps them), each whole,
   at most CARD_LONG_LINE - 1 characters: the card wraps them. */
void card_machine(const char *machine, const char *cpu);
/* The card, on the console and in report.txt (not again on the page, which
   begins with it): the run's last block before the verdict. */
void card_print(void);
/* The "summary" member of system.json, once card_run built the card. */
void card_describe(struct json *j);

#endif
