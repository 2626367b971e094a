/* The ifetch probe's curves read: the L1i's capacity and miss cost, each
 * instruction TLB's entries, reach and miss cost per page size, and fetch
 * bandwidth from the L1i and the L2, each held against the CPU's claim.
 *
 * Pure: rows in (results/columns.h), findings out. The edges are
 * analysis/edges.h's plateaus, read from each chain's curve with its
 * control's rise taken out, so a step the control shares (the L1i filling
 * under a page chain, the branch predictor's capacity) is not read as the
 * test's. docs/METHOD.md, "ifetch", says what the controls cannot see.
 */
#ifndef MEMPROBE_ANALYSIS_IFETCH_LEVELS_H
#define MEMPROBE_ANALYSIS_IFETCH_LEVELS_H

#include <stddef.h>
#include <stdint.h>
#include "analysis/analysis.h"
#include "lib/machine.h"
#include "results/columns.h"

/* The rows' variants (docs/OUTPUT.md). */
#define IFETCH_VARIANT_FETCH "fetch"
#define IFETCH_VARIANT_LINE "line"
#define IFETCH_VARIANT_LINE_CONTROL "line_control"
#define IFETCH_VARIANT_PAGE "page"
#define IFETCH_VARIANT_PAGE_CONTROL "page_control"

/* A line chain's slot per jump, and its control's: four jumps to a line,
   a quarter of the footprint for the same jumps. */
#define IFETCH_LINE_SLOT 64u
#define IFETCH_LINE_CONTROL_SLOT 16u

/* A step of a chain over its control lower than this, in cycles a jump,
   is not read as a level: on a loaded VM the adjusted curves wander by a
   few tenths of a cycle. */
#define IFETCH_STEP_MIN_CYCLES 0.5

#define IFETCH_MAX_POINTS 64
/* Five variants at three page sizes, and the page chains run again on
   other CPUs (IFETCH_RERUNS at each page size, test and control). */
#define IFETCH_RERUNS 4
#define IFETCH_MAX_SERIES (15 + 3 * 2 * IFETCH_RERUNS)
#define IFETCH_MAX_TLBS 8
#define IFETCH_MAX_LINE_STEPS 4

/* One variant's points at one page size, ascending by x. */
struct ifetch_series {
	const char *variant;      /* one of IFETCH_VARIANT_* (static text) */
	unsigned page_shift;
	int cpu;                  /* the logical CPU its rows name (a chain run
				     again there; each run again a series of its
				     own), or -1: the run's own, unnamed */
	size_t n;
	uint64_t x[IFETCH_MAX_POINTS];     /* fetch: footprint bytes; chains: jumps */
	double cycles[IFETCH_MAX_POINTS];  /* per line (fetch) or per jump */
	double bytes_per_cycle[IFETCH_MAX_POINTS];   /* fetch only */
	double insns_per_cycle[IFETCH_MAX_POINTS];   /* fetch only */
};

struct ifetch_rows {
	struct ifetch_series s[IFETCH_MAX_SERIES];
	size_t nseries;
};

/* One step read from a chain against its control. */
struct ifetch_level {
	unsigned page_shift;
	unsigned number;          /* 1 for the first step of its curve, ...; a TLB
				     step is held against the claimed TLB whose
				     entries lie in its bracket, else that of
				     this level */
	uint64_t count;           /* L1i: bytes; TLB: entries (the last point
				     below, or the claim where named_by_claim) */
	uint64_t next_count;      /* the first point over half the step */
	double miss_cycles;       /* the step's height over its control's, cycles */
	uint64_t claim;           /* what the CPU claims (bytes or entries); 0: none */
	const char *claim_source; /* where the claim came from, or "" */
	enum verdict verdict;     /* agrees when the claim lies between the last
				     point below the step and next_count */
	int named_by_claim;       /* count is the claim, which the readings allow */
	int climbing;             /* a page chain's last step, into a climb that had
				     not levelled off at the chain's end:
				     miss_cycles is its height there */
	int past_last_tlb;        /* walks only: past the last claimed TLB, which a
				     step matched (else a climb no claim brackets) */
	int half_claim;           /* TLB: differs, and half the claim lies in the
				     bracket: one thread's share where SMT splits
				     the ITLB and the core's other thread is busy
				     (IFETCH_HALF_WORDS) */
	int read_again;           /* TLB: from a page chain run again on logical
				     CPU cpu, because the run's own read half the
				     claim; 0: from the run's own chain */
	unsigned cpu;
	uint64_t own_count;       /* TLB, read_again: the entries the run's own
				     chain read for this step (half the claim) */
	unsigned reruns_half;     /* TLB, not read_again: how many chains run
				     again on other CPUs read half the claim too */
};

/* What a TLB step's half_claim means, in the report's words. */
#define IFETCH_HALF_WORDS                                                                  \
	"half the claim lies between the points around the step: the share of one "        \
	"thread where SMT splits the ITLB between a core's two threads and the other is "  \
	"busy (a guest cannot see its host's sibling thread)"

/* A claimed instruction (or unified) TLB of a page size the page chain ran
   with that no step was held against. */
struct ifetch_unseen {
	unsigned page_shift, level, entries;
	const char *source;
	uint64_t chain_top;       /* the page chain's last page count: at or under
				     the entries, no step of theirs could show */
	int emulated;             /* claims_emulated: the timings are an emulator's */
};

struct ifetch_findings {
	int have_l1i;
	struct ifetch_level l1i;  /* line_steps[l1i_step], held against the claim */
	/* Every step the line chain shows over its control (bytes), in
	   order; the L1i is the one whose bracket holds the claimed L1i,
	   else the first (an op cache or a predictor level can step first). */
	struct ifetch_level line_steps[IFETCH_MAX_LINE_STEPS];
	size_t nline_steps, l1i_step;
	/* Where every step of the line chain lies past the claimed L1i (the
	   chain still as fast at footprints over the claim): the first step's
	   last fast footprint, bytes, and have_l1i 0. Something ahead of the
	   L1i held the chain past it, an op cache holding each line's one
	   jump (Zen 5 VM: steps at 48-64 KiB against a 32 KiB L1i), so the
	   L1i's own step cannot be seen; 0 otherwise. */
	uint64_t l1i_hidden_to;
	uint64_t l1i_claim;
	const char *l1i_claim_source;
	struct ifetch_level tlb[IFETCH_MAX_TLBS];
	size_t ntlbs;
	/* Steps past the last claimed ITLB once a step agreed with it: the
	   page walks', not a TLB; reported, never on the card. */
	struct ifetch_level walks[IFETCH_MAX_TLBS];
	size_t nwalks;
	/* Claims no step was held against, so that a count the readings do
	   not give is said, with why (issue: "the same counts or a plain
	   statement of why they cannot be seen"). */
	struct ifetch_unseen unseen[IFETCH_MAX_TLBS];
	size_t nunseen;
	/* Fetch bandwidth by footprint, the median over footprints up to the
	   claimed L1i (op cache or L1i) and between twice the L1i and half
	   the claimed L2; 0 where no point lies there. */
	double fetch_l1i_bytes_per_cycle, fetch_l1i_insns_per_cycle;
	double fetch_l2_bytes_per_cycle;
	unsigned fetch_page_shift;
};

void ifetch_rows_init(struct ifetch_rows *r);
/* Keeps an ifetch row's point (other probes' rows are ignored); a point
   past the tables' room is dropped. */
void ifetch_rows_add(struct ifetch_rows *r, const struct result_row *row);

/* The instruction (or unified) TLB claimed for pages of 1 << page_shift
   with the most entries (its source says where the claim comes from);
   NULL when none is claimed. */
const struct tlb_desc *ifetch_claimed_tlb_largest(const struct cache_claims *c,
						  unsigned page_shift);

/* Reads the rows against the claims (claims_emulated: every verdict is
   VERDICT_EMULATED where there is a claim). */
void ifetch_find(const struct ifetch_rows *r, const struct cache_claims *claims,
		 struct ifetch_findings *f);

/* Why the claim u names shows no step, in words: the page chain stopped
   short of its entries, the CPU is emulated, or the chain ran past them
   and stepped elsewhere. */
const char *ifetch_unseen_why(const struct ifetch_unseen *u);

/* system.json's "ifetch" object: the L1i, the TLBs and fetch bandwidth,
   each with its claim and verdict. Nothing when no ifetch row was read. */
void ifetch_json(struct json *j, const struct ifetch_findings *f);

/* How many of f's TLB steps read half their claim (half_claim). */
size_t ifetch_half_claims(const struct ifetch_findings *f);

/* How many of f's TLB steps come from a chain run again on another CPU
   (read_again), the run's own having read half the claim. */
size_t ifetch_read_elsewhere(const struct ifetch_findings *f);

/* Whether the first instruction TLB step of these pages, as f holds it,
   reads half its claim (half_claim): the probe then runs the page chain
   again on another CPU. */
int ifetch_first_half(const struct ifetch_findings *f, unsigned page_shift);

/* The findings in the report's words, a line at a time to print(ctx,
   line): the L1i (or why it was not seen) and the line chain's other
   steps, each ITLB step with its claim, the walks, the claims no step was
   held against, and the fetch rates. The probe's report and analyze say
   the same. */
void ifetch_print(const struct ifetch_findings *f, analysis_print_fn print, void *ctx);

#endif
