/* Page-walk cost: the extra time per load of smaller pages over larger ones,
 * read from the paired latency sweeps.
 *
 * Two dependent-load chases that differ only in the page size of their
 * buffer take the same cache misses; what the smaller pages add is TLB
 * misses and page walks (and whatever else differs with the pages: see
 * docs/METHOD.md, "Page-walk cost"). For every working set measured with
 * both sizes of a pair (4 KiB against 2 MiB, 2 MiB against 1 GiB; 4 KiB
 * against 1 GiB only when 2 MiB was not measured) this takes the difference,
 * says where it first exceeds 10 % of the larger pages' figure, and how large
 * it is at the largest size both measured.
 *
 * Pure and freestanding (the EFI app runs it too): curves in, figures out;
 * text through the caller's print function, pagewalk.svg through svg.h.
 */
#ifndef MEMPROBE_PAGEWALK_H
#define MEMPROBE_PAGEWALK_H

#include <stddef.h>
#include <stdint.h>
#include "analysis/edges.h"
#include "lib/svg.h"

struct json;

/* The extra counts once it exceeds this fraction of the larger pages' ns. */
#define PAGEWALK_THRESHOLD 0.10
/* 4 KiB/2 MiB and 2 MiB/1 GiB. */
#define PAGEWALK_MAX_PAIRS 2

struct pagewalk_point {
	uint64_t bytes;           /* the working set, measured with both sizes */
	double small_ns, large_ns;
	double small_cycles, large_cycles;  /* 0 when unknown */
	double extra_ns;          /* small_ns - large_ns; negative (noise) kept as is */
	double extra_cycles;      /* the same in cycles; valid only with have_cycles */
	int have_cycles;          /* both cycle figures known */
	double fraction;          /* extra_ns / large_ns */
	int eligible;             /* more than EDGES_MIN_TLB_ENTRIES small pages: a
				     TLB could miss here, so it may decide the crossing */
	int over;                 /* fraction > PAGEWALK_THRESHOLD */
};

struct pagewalk_pair {
	unsigned small_shift, large_shift;
	uint64_t small_end, large_end;      /* each curve's largest size */
	size_t n;                 /* working sets both curves measured; 0: none */
	struct pagewalk_point pt[EDGES_MAX_POINTS];
	int crossed;              /* a crossing was found ... */
	size_t first_over;        /* ... at this index into pt */
	unsigned lone_over;       /* eligible sizes over the threshold before the
				     crossing, or anywhere without one: each a single
				     point whose next size fell back, taken as noise */
	unsigned negative;        /* sizes that read faster with the smaller pages */
};

struct pagewalk {
	struct pagewalk_pair pair[PAGEWALK_MAX_PAIRS];
	size_t npairs;
	/* The page sizes measured (of 4 KiB, 2 MiB, 1 GiB, with at least one
	   point), ascending; with fewer than two there is nothing to pair. */
	unsigned shift[3];
	size_t nshifts;
};

/* Pairs the curves (any order; curves of other page sizes and empty ones
   are not taken) and computes every pair's extra. A pair's crossing is the
   first size with more than EDGES_MIN_TLB_ENTRIES small pages whose extra
   exceeds PAGEWALK_THRESHOLD at it and at the next size both measured, or
   at it alone when it is that last size: one noisy point never decides. */
void pagewalk_compute(const struct curve *curves, size_t ncurves, struct pagewalk *out);

/* The report: a table of every pair's points, then one line per pair
   ("4 KiB over 2 MiB pages: extra first exceeds 10% at ..."), or why there
   is nothing to pair. Text in pieces, each ending in a newline. */
typedef void (*pagewalk_print_fn)(void *ctx, const char *text);
void pagewalk_print(const struct pagewalk *pw, pagewalk_print_fn print, void *ctx);

/* The member "page_walk" (an array, one object per pair) of the enclosing
   object: system.json's "hierarchy". */
void pagewalk_json(struct json *j, const struct pagewalk *pw);

/* pagewalk.svg: ns with the smaller pages over ns with the larger, on a log
   axis, against the working set, one curve per pair, the crossings marked.
   0, or -1 when there is nothing to draw (the document then says so). */
int pagewalk_write_svg(const struct pagewalk *pw, svg_write_fn write, void *ctx);

#endif
