/* The app's own page tables: built once from the memory map at start-up,
 * then each probe buffer remapped with exactly the page size it asked for
 * and verified by walking the tables. docs/PAGING.md explains the design.
 */
#ifndef MEMPROBE_PAGING_H
#define MEMPROBE_PAGING_H

#include <stddef.h>
#include <stdint.h>
#include "arch/paging.h"
#include "lib/efimap.h"
#include "core/config.h"

/* Builds the general map and sets aside a table pool sized by what the run
   c describes will map. 0, or -1 with the reason printed: then no probe may
   run. */
int paging_init(const struct config *c);
/* The app's tables as pt_root gives them; 0 before paging_init
   succeeded. */
uint64_t paging_root(void);
const struct pt_config *paging_config(void);

/* Maps [base, base+bytes) with exactly 1 << page_shift pages, walks every
   page, and writes the outcome into verified: "pages verified: 256 x 2 MiB"
   and the memory types as arch/memtype.h names them. Returns 1 when every
   page is as asked, 0 when mapped but not every page verified, -1 when the
   range could not be mapped (verified says why; the general map must then
   be put back, paging_unmap_buffer, before the memory is freed). */
int paging_map_buffer(uint64_t base, uint64_t bytes, unsigned page_shift,
		      char *verified, size_t size);

/* Puts the general map back over every buffer mapped, returning their
   tables to the pool; a failure is printed. A buffer's memory may be given
   back before or after: the range is identity-mapped write-back either
   way, only its page size differs. Buffers still held must be mapped again
   (efi/buffers.c does). */
void paging_unmap_buffer(void);

/* What the general map left out as beyond the identity map's reach. */
const struct efimap_skipped *paging_skipped(void);

/* One line for the report: "4-level, 40-bit physical, 1 GiB pages: yes,
   37 tables". */
void paging_summary(char *buf, size_t size);

#endif
