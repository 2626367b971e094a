/* The geometry probe: a cache's line size, ways and sets, and a TLB's ways,
 * measured by dependent-load chases whose slots are laid out to share a
 * line, a set or a TLB set on purpose (docs/METHOD.md, section 12).
 *
 * This header has three parts: the slot layouts (pure address arithmetic,
 * tested on the host), the readings of a measured curve (pure functions of
 * numbers, tested on synthetic curves), and the run's results, which other
 * parts of the report (the card) read through geometry_results().
 */
#ifndef MEMPROBE_GEOMETRY_H
#define MEMPROBE_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>
#include "core/config.h"

/* The settings of the geometry probe: its keys' values, in its block of
   struct config, read through GEOMETRY_SETTINGS(c); its keys, ranges and
   defaults are its registry row's (geometry.c). */
struct geometry_settings {
	unsigned max_lines;       /* most lines per set swept; 0: 4 x the claimed
				     ways + 4 */
};
#define GEOMETRY_SETTINGS(c) PROBE_SETTINGS(struct geometry_settings, c, PROBE_ID_GEOMETRY)

/* ---- Constants -------------------------------------------------------- */

/* The line-size sweep: slot spacings 8, 16, ..., 512 bytes. */
#define GEOMETRY_LINE_POINTS 7u
#define GEOMETRY_LINE_MIN 8u
#define GEOMETRY_LINE_MAX 512u
/* The line-size chase's slots: slot i at an odd multiple of S, (2i + 1) x S,
   so all of them lie in the first 32 x 512 bytes = 16 KiB (the buffer):
   at most 32 lines, in any L1d of 4 ways or more after the first lap. */
#define GEOMETRY_LINE_SLOTS 16u
#define GEOMETRY_LINE_BUFFER (2u * GEOMETRY_LINE_SLOTS * GEOMETRY_LINE_MAX)
/* A straddling slot starts this far before its odd multiple of S: its
   8-byte pointer then holds bytes on both sides of that boundary. */
#define GEOMETRY_LINE_STRADDLE 4u

/* A step: the first point at least this much above the plateau before it
   (1.15 x: an L1 hit of 4 cycles against even a 10 % share of 14-cycle L2
   hits reads 1.25 x). */
#define GEOMETRY_STEP_MIN 1.15
/* A plateau: every point within this of its smallest (noise only adds). */
#define GEOMETRY_PLATEAU_TOL 0.10
/* The line-size curve's plateaus: each within this share of the step's
   height above its least point. */
#define GEOMETRY_LINE_BAND 0.35
/* Passes over the line-size spacings; each spacing's figure is the least. */
#define GEOMETRY_LINE_PASSES 3u
/* Passes over a ways curve's points; each point's figure the least. */
#define GEOMETRY_WAYS_PASSES 2u
/* A ways step: the level after it (the median of its first points) at
   least this far above the plateau, and plateau points above a quarter of
   the way up counted as spikes. */
#define GEOMETRY_STEP_CLEAR 1.30
#define GEOMETRY_STEP_PLATEAU_CUT 0.25
/* The point just before a step's crossing, over this share of the step
   (and 1.15 x the plateau), is the first line past the ways, part way up
   (geometry_read_step's lone point). */
#define GEOMETRY_STEP_LONE_CUT 0.10
#define GEOMETRY_STEP_HIGH_POINTS 5u

/* The most slots any layout makes (a fully associative TLB's sweep). */
#define GEOMETRY_SLOTS_MAX 4096u

/* Cache levels the probe reads ways for (L1d, L2); beyond, it says why not. */
#define GEOMETRY_LEVELS 2u
/* Spans swept per cache level: the claimed way span / 4 .. x 2. */
#define GEOMETRY_SPANS 4u
#define GEOMETRY_TLBS 8u

/* ---- Layouts ---------------------------------------------------------- */

/* The k-th line (k >= 0) of a set-conflict layout: k spans from the start,
   so on a cache indexed by the address bits below the span every line has
   the same set index: the one of offset 0. */
uint64_t geometry_set_offset(unsigned k, uint64_t span);

/* The cache set of an address offset for a cache of `sets` sets of
   `line` bytes (both powers of two), physically contiguous from offset 0. */
uint64_t geometry_set_of(uint64_t offset, unsigned line, unsigned sets);

/* The k-th page of a TLB-set layout: k strides of `stride` bytes (sets x
   page size), at line (k mod lines per page) of its page, so the lines
   spread over the caches' sets while the pages share one TLB set. */
uint64_t geometry_tlb_offset(unsigned k, uint64_t stride, uint64_t page_bytes);

/* Links the slots at base + offsets[i] into one cycle in that order: slot i
   holds the address of slot i + 1, the last that of the first. */
void geometry_link(void *base, const uint64_t *offsets, size_t n);

/* Shuffles offsets[0..n) in place with a fixed seed (a chase's order: no
   stride for a prefetcher to follow). */
void geometry_shuffle(uint64_t *offsets, size_t n, uint64_t seed);

/* The line-size chase's slot offsets for spacing S: GEOMETRY_LINE_SLOTS
   slots, slot i at (2i + 1) x S, less GEOMETRY_LINE_STRADDLE when
   `straddle` (its 8 bytes then cross that odd multiple of S, which is a
   line boundary exactly when the line is at most S), in a random order.
   No slot crosses a 4 KiB page (an odd multiple of S <= 512 never is
   one). Writes GEOMETRY_LINE_SLOTS offsets. */
size_t geometry_line_offsets(uint64_t *offsets, unsigned spacing, int straddle, uint64_t seed);

/* ---- Readings --------------------------------------------------------- */

/* The line size from per-load figures at spacings[i] (ascending powers of
   two): straddling[i] for slots that straddle an odd multiple of the
   spacing, aligned[i] for the same slots on it. A straddling load reads
   one L1d line while the boundary it crosses lies inside a line, and two
   from S = line on, so its curve has one step, at the line; the aligned
   curve, the same lines read whole, stays flat (else the step is not the
   straddle's). line_bytes is the first spacing of the straddling curve's
   high plateau, 0 when not measurable, why[] says why (the curve is given
   in the text). */
struct geometry_line_reading {
	unsigned line_bytes;      /* 0: not measurable */
	double low_ns, high_ns;   /* the two plateaus' smallest points */
	char why[192];
};
void geometry_read_line(const unsigned *spacings, const double *straddling,
			const double *aligned, unsigned n, struct geometry_line_reading *out);

/* A ways curve: ns[i] for k[i] lines in one set (k ascending by one).
   `after`: the step looked for is the first past this many lines (0 for
   L1; L1's ways for L2, whose lines are in one L1 set too). ways = the
   last k before the step, 0 when not measurable (why[] says why). */
struct geometry_step_reading {
	unsigned ways;            /* 0: not measurable */
	double low_ns, high_ns;
	int sharp;                /* the first point past the step is at least
				     half way up to the plateau after it */
	int lone;                 /* the one point part way up stands just
				     before the half-way crossing: read as the
				     first past the ways */
	int no_step;              /* not measurable because the curve stays flat */
	char why[192];
};
void geometry_read_step(const unsigned *k, const double *ns, unsigned n, unsigned after,
			struct geometry_step_reading *out);

/* Whether a curve has levelled off at its end: its last
   GEOMETRY_STEP_HIGH_POINTS points within GEOMETRY_PLATEAU_TOL of their
   median (0 with fewer points). A ways sweep past a step goes on until
   then: a step followed by a climb is read only once the climb ends. */
int geometry_levelled(const double *ns, unsigned n);

/* The sets from the ways read at each span (spans ascending by two, ways[i]
   0 where not read): the ways are the reading of the largest spans, which
   must agree; the way span is the smallest span that reads them, and the
   span below it must read about twice (lines of half the span share two
   sets). way_span 0 when not measurable. way_span may be "at most"
   spans[0] when every span reads the same (at_most set). */
struct geometry_sets_reading {
	unsigned ways;
	uint64_t way_span;        /* 0: not measurable */
	int at_most;
	char why[192];
};
void geometry_read_sets(const uint64_t *spans, const unsigned *ways, unsigned n,
			struct geometry_sets_reading *out);

/* ---- Results ---------------------------------------------------------- */

/* One figure against its claim. */
enum geometry_verdict {
	GEOMETRY_NOT_RUN = 0,     /* not asked or not reached */
	GEOMETRY_AGREES,
	GEOMETRY_DIFFERS,
	GEOMETRY_NO_CLAIM,        /* measured; nothing claims a value */
	GEOMETRY_NOT_MEASURABLE,  /* why[] says why */
};
const char *geometry_verdict_name(enum geometry_verdict v);
/* AGREES, DIFFERS or NO_CLAIM for a measured value and a claim (0: none). */
enum geometry_verdict geometry_hold(uint64_t measured, uint64_t claimed);

struct geometry_figure {
	uint64_t measured;        /* 0 when not measurable */
	uint64_t claimed;         /* 0: no claim */
	int full;                 /* a TLB read as fully associative: no step
				     before its claimed entries */
	int claimed_full;         /* the claim is a fully associative TLB */
	enum geometry_verdict verdict;
	/* "not measurable here: ..." or how it was read: a reading's why and a
	   note after it (the hypervisor's contiguity, some 80 characters) */
	char why[320];
};

struct geometry_level {
	char name[16];            /* "L1d", "L2" */
	struct geometry_figure ways, sets;
};

struct geometry_tlb {
	char name[32];            /* "L1 DTLB 4 KiB", ... */
	unsigned page_shift;
	struct geometry_figure ways;
};

/* What the last geometry run found: the card's ways column reads it. */
struct geometry_results {
	int ran;                  /* the probe ran in this run */
	struct geometry_figure line;
	struct geometry_level level[GEOMETRY_LEVELS];
	unsigned nlevels;
	struct geometry_tlb tlb[GEOMETRY_TLBS];
	unsigned ntlbs;
};
const struct geometry_results *geometry_results(void);

#endif
