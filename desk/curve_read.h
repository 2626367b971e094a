/* A latency curve that another program printed, read as the latency
 * probe's rows: two columns, a working set's size and the time of one load
 * in ns, so `memprobe analyze` reads lmbench's lat_mem_rd, multichase or
 * Chips and Cheese's MemoryLatency as it reads a results.csv.
 *
 * The size's unit is never guessed: a header line names it (size_bytes,
 * size_kib, size_mib; "kb" and "mb" count 1024s), or each size carries a
 * suffix (4096B, 4K, 48KiB, 1.5M, 2G). A file whose sizes are 2, 4, 8 could
 * be KiB or MiB, and a wrong guess moves every level by 1024x while every
 * step stays in place: the silent failure this refuses. Nothing in the file
 * is trusted: bounded lengths, strict numbers, the first bad line stops the
 * read with its number. Freestanding (lib/ only), as results.csv's reader.
 */
#ifndef MEMPROBE_DESK_CURVE_READ_H
#define MEMPROBE_DESK_CURVE_READ_H

#include <stddef.h>
#include "results/columns.h"

/* The page size a two-column curve is taken to have: it records none.
   4 KiB, what Linux gives a program that asks for no huge pages; the
   analysis reads the curve alone, so no edge is attributed by it. */
#define CURVE_READ_PAGE_SHIFT 12
/* No load takes less: an L1 hit costs 3 cycles or more, 0.5 ns at 6 GHz.
   A file whose least reading lies under it holds times over a level. */
#define CURVE_READ_LOAD_MIN_NS 0.5
/* What such a file's readings are read over: an L1 hit on current cores
   (4 to 5 cycles at 4 to 5 GHz). A guess, stated by the caller; the steps'
   places do not hang on it, the levels' ns are the file's plus it. */
#define CURVE_READ_FASTEST_NS 1.0

struct curve_read_summary {
	unsigned rows;            /* handed to the callback */
	unsigned zero_rows;       /* of them, readings of 0 ns */
	double least_ns;          /* the least reading */
	double added_ns;          /* added to every reading: CURVE_READ_FASTEST_NS
				     when the least is under CURVE_READ_LOAD_MIN_NS
				     (the time over the fastest level's), else 0 */
	char error[160];          /* why the file was refused, or "" */
};

/* Reads text as a two-column curve. Lines: blank, or a comment from '#',
   or, before the first row, one header line of two words (the size's
   unit, then "ns" or a word ending in _ns); then rows of two fields, size
   and ns, split by a comma, a semicolon or blanks. Each row goes to fn as
   a latency "chase" row of CURVE_READ_PAGE_SHIFT pages, sweep point
   "grid"; sizes need not be sorted. A size stands for every byte count
   its printed digits allow, and is read as the one of them with the most
   trailing zero bits (lmbench's 0.04688 MiB is 49152 bytes, not the
   nearest, 49157: a size a few bytes past a capacity reads as past it). Where the least reading is under CURVE_READ_LOAD_MIN_NS
   (tinymembench prints the time over an L1 hit, so its L1 reads 0.0),
   the file holds the time over its fastest level's, and every reading is
   handed over with CURVE_READ_FASTEST_NS added (sum->added_ns): the
   analysis reads steps as ratios, and over a baseline of 0 the ratio of
   0.2 to 0.1 ns is a doubling that no cache made. The caller says so. Returns 0, or -1 with sum->error
   naming the line and what is wrong with it (the whole file is refused:
   rows already handed over stand, so a caller keeps nothing of a refused
   file) when a row is malformed, a size has no unit, a size is not a
   whole number of bytes of at least one, a reading is negative or not a
   number, or there is no row. */
int curve_read(const char *text, size_t len,
	       void (*fn)(const struct result_row *row, void *ctx), void *ctx,
	       struct curve_read_summary *sum);

#endif
