/* The page sizes a configuration asks for, and getting a probe buffer of one.
 *
 * Every probe that owns a buffer runs once per asked page size, smallest
 * first, and treats a size the machine cannot give (no 1 GiB pages) the same
 * way: said plainly in the report and skipped, never replaced by another size.
 */
#ifndef MEMPROBE_PAGE_SIZES_H
#define MEMPROBE_PAGE_SIZES_H

#include <stddef.h>
#include <stdint.h>
#include "core/config.h"
#include "core/platform.h"

/* The length of config.h's PAGE_SIZE_LIST. */
#define PAGE_SIZES_MAX 7

/* The shifts of the PAGES_* bits in `pages`, ascending; returns how many. */
unsigned page_shifts_asked(unsigned pages, unsigned shifts[PAGE_SIZES_MAX]);
/* Those of them the platform can give a buffer of now (plat_buffer_max
   above 0), ascending, without a word in the report: the page sizes a
   probe's cost counts (core/probe.h). */
unsigned page_shifts_granted(unsigned pages, unsigned shifts[PAGE_SIZES_MAX]);

/* "4 KiB pages" and the like, for report lines. */
void page_size_name(char *buf, size_t size, unsigned page_shift);

/* The largest probe buffer this page size can give now, rounded down to
   whole pages; 0 when the page size is unavailable, which is then reported
   for `probe` as a skip, with the platform's reason (asked for by trying to
   get a single page). */
uint64_t page_buffer_max(const char *probe, unsigned page_shift);

/* A buffer of at least `bytes`, rounded up to whole pages. 0 on success;
   -1 with the platform's reason reported for `probe`. */
int page_buffer_get(const char *probe, struct plat_buffer *b, uint64_t bytes,
		    unsigned page_shift);

/* The report's line on how b's pages were verified ("PROBE, PAGE_NAME:
   ..."), and a warning when not every page has the asked size. */
void page_buffer_report(const char *probe, const char *page_name, const struct plat_buffer *b);

/* Runs measure(c, shift) once per asked page size, smallest first. measure
   returns 1 when it skipped the size (unavailable), 0 when it measured, -1
   when it failed (reported). The result is 0 when none failed and at least
   one was measured, else -1: a run with nothing measured is reported. */
int page_sizes_each(const char *probe, const struct config *c,
		    int (*measure)(const struct config *c, unsigned page_shift));

#endif
