/* How large a buffer a run will ask for, per page size, before any probe
 * runs: the platform sizes its page-table pool from it (efi/paging.c), so
 * the pool is what the run maps rather than all RAM at 4 KiB.
 */
#ifndef MEMPROBE_BUFFER_NEED_H
#define MEMPROBE_BUFFER_NEED_H

#include <stdint.h>
#include "probes/config.h"

/* The largest buffer, in bytes rounded up to whole pages of 1 << page_shift,
   that any probe the configuration selects asks for with that page size; 0
   when none of them takes a buffer. Each probe asks for at most this (less
   when memory is short), so a pool sized from it never runs out. */
uint64_t run_buffer_bytes(const struct config *c, unsigned page_shift);

/* The tlb probe's sweep top in pages before memory caps it (tlb.c):
   tlb.max_pages, or the larger of TLB_AUTO_PAGES and four times the largest
   TLB CPUID claims for these pages (that claim in *claimed). */
uint64_t tlb_sweep_top(const struct config *c, unsigned page_shift, unsigned *claimed);

#endif
