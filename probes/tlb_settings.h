/* The settings of the tlb probe (tlb.c): its keys' values, in its block of
 * struct config (core/config.h), read through TLB_SETTINGS(c). Its keys,
 * their ranges and defaults are its registry row's.
 */
#ifndef MEMPROBE_TLB_SETTINGS_H
#define MEMPROBE_TLB_SETTINGS_H

#include <stdint.h>
#include "core/config.h"

/* tlb.max_pages = 0: the sweep's top is the larger of this and four times
   the largest TLB the CPU claims for the page size, capped by memory. */
#define TLB_AUTO_PAGES 16384u
/* Highest tlb.min_pages / tlb.max_pages: 2^24 pages (64 GiB of 4 KiB pages,
   far past any TLB's reach). */
#define TLB_PAGES_MAX (1u << 24)

struct tlb_settings {
	unsigned min_pages;       /* fewest pages of the sweep */
	unsigned max_pages;       /* most pages; 0: the larger of TLB_AUTO_PAGES and
				     4x the largest TLB the CPU claims */
	uint64_t max_buffer;      /* the largest buffer of any page size, bytes */
};
#define TLB_SETTINGS(c) PROBE_SETTINGS(struct tlb_settings, c, PROBE_ID_TLB)

#endif
