/* TLB levels read from the tlb probe's curves: per page size, each TLB's
 * entries (the edge, in pages), its reach, the latency within it and the
 * miss cost its edge adds, with the caches' share taken out through the
 * control curve. docs/METHOD.md explains the method.
 *
 * Pure apart from tlb_claimed_entries_max: arrays in, levels out.
 */
#ifndef MEMPROBE_TLB_LEVELS_H
#define MEMPROBE_TLB_LEVELS_H

#include <stddef.h>
#include "lib/machine.h"
#include "analysis/edges.h"
#include "results/results.h"
#include "lib/svg.h"

/* An edge whose control-corrected rise is under this share of the chase's
   own rise is the caches' (the control, with the same lines packed, rose as
   much), not a TLB's. */
#define TLB_MIN_SHARE 0.5
/* A step whose rise the control matches by more than this share is
   placed on the chase less the control (the caches' step taken out). */
#define TLB_CONTROL_PLACES 0.2

/* The tlb probe's rows as curves, one chase and one control per page size,
   ascending. The x of a point (struct curve_point.bytes) is a COUNT: pages
   for the chase, lines for the control, N either way. */
struct tlb_curves {
	struct curve chase[EDGES_MAX_CURVES];
	struct curve control[EDGES_MAX_CURVES];
	char verified[EDGES_MAX_CURVES][128];     /* the first row's pages_verified */
	size_t n;
	unsigned rows, ignored_rows;
};

/* An all-zero struct tlb_curves is empty (struct analysis is zeroed whole).
   Takes a tlb row (chase or control); -1 for any other row, or one that does
   not fit (counted in ignored_rows). */
int tlb_curves_add_row(struct tlb_curves *t, const struct result_row *row);

/* Each page size's TLB levels, as levels of kind LEVEL_TLB: entries (the
   snapped half-height crossing of a step, in pages), size_bytes its reach,
   below_bytes / next_bytes the reaches of the sweep points around the
   crossing, ns / cycles the plateau below the step (loads that hit this
   TLB), increase_* the step's rise less the control's over the same page
   counts (the miss cost this TLB's edge adds). Appended to out[], at most
   max; returns how many. */
size_t tlb_levels_find(const struct tlb_curves *t, struct level *out, size_t max);

/* Whether page size i's chase climbs past its last plateau at its end with
   no plateau after, and the control does not climb with it: a TLB level
   whose edge the sweep reached but did not pass. *at_least is then the last
   page count still on that plateau, which its entries are at least. */
int tlb_open_end(const struct tlb_curves *t, size_t i, uint64_t *at_least);

/* A TLB level's miss costs a walk, not a second TLB's hit, when it costs
   over TLB_WALK_MISS_FACTOR times a first-level miss that a second TLB
   catches, and at least TLB_WALK_MIN_CYCLES: an L2 TLB hit costs 7 cycles
   or so, a walk loads a page-table entry after the walker's own lookups.
   The Zen 5 VM's 2 MiB L1 DTLB misses cost 59-81 cycles against 4 KiB
   pages' 7 (the host backs the guest with small pages); on bare metal the
   two cost about the same (Emerald Rapids: 2.57 and 2.52 ns). The floor
   keeps a first level read short (part way up a smeared step) from making
   a second TLB's hit look like a walk. analysis_miss_walks and
   tlb_host_page_signs read these. */
#define TLB_WALK_MISS_FACTOR 3.0
#define TLB_WALK_MIN_CYCLES 20.0

/* The TLB level (kind LEVEL_TLB) of these pages with the fewest entries
   among levels[0..n); NULL when none. */
const struct level *tlb_first_level(const struct level *levels, size_t n, unsigned shift);

/* Observations that large guest pages did not enlarge the TLB's reach, the
   sign that a hypervisor backs them with smaller host pages. Each is made
   only from the data: levels of the same entries where CPUID claims a
   different TLB for the larger pages; a first plateau above the 4 KiB one
   (the fewest large pages already miss a TLB that 4 KiB pages hit); a
   first-level miss of the larger pages that costs a walk (over 3x the
   4 KiB pages' first miss) where CPUID claims a second TLB for them; a
   walk past the last edge dearer than with 4 KiB pages, unless the larger
   pages' first level has entries of its own and a miss an L2 TLB catches
   (then the TLB holds large-page entries). Writes one line per
   observation into text (each ending in a newline); returns their count. */
unsigned tlb_host_page_signs(const struct tlb_curves *t, const struct level *levels,
			     size_t nlevels, const struct cache_claims *claims,
			     char *text, size_t size);

/* tlb.svg: cycles per load against pages touched (log2 x), one curve per
   page size, each TLB level's edge marked and labelled. -1 when there was
   nothing to draw. */
int tlb_write_svg(const struct tlb_curves *t, const struct level *levels, size_t nlevels,
		  svg_write_fn write, void *ctx);

/* Whether loads go through this TLB for pages of this size (a data, load
   or unified TLB holding them; not an instruction or store-only one). */
int tlb_loads_use(const struct tlb_desc *t, unsigned page_shift);

/* The TLB that loads use for pages of this size with the most entries, as
   the claims state it (its source says where from); NULL when none is
   claimed. */
const struct tlb_desc *tlb_claimed_largest(const struct cache_claims *c, unsigned page_shift);
/* Its entries; 0 when none is claimed. */
unsigned tlb_claimed_entries(const struct cache_claims *c, unsigned page_shift);
/* tlb_claimed_entries over this CPU's claims; *source, where asked,
   becomes the claim's source (static). */
unsigned tlb_claimed_entries_max(unsigned page_shift, const char **source);

#endif
