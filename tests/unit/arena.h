/* Page-table pages for the builder tests: an arena mapped below 2 GiB, so a
 * table's host address fits any MAXPHYADDR the tests configure.
 */
#ifndef MEMPROBE_TEST_ARENA_H
#define MEMPROBE_TEST_ARENA_H

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include "check.h"

/* pages * 4 KiB below 2 GiB, or NULL after a failed CHECK. */
static inline uint8_t *arena_below_2g(size_t pages)
{
	void *p = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT | MAP_NORESERVE, -1, 0);

	CHECK(p != MAP_FAILED, "page pool mapped below 2 GiB");
	return p == MAP_FAILED ? NULL : p;
}

/* Consecutive pages out of an arena, as efi/paging.c's pool gives them
   (arch/paging.h's allocator contract). */
struct table_pool {
	uint8_t *base;
	size_t used, limit;
	int dirty;      /* hand out garbage-filled pages */
	int misalign;   /* hand out pages 8 bytes off */
	int gap;        /* skip a page after each: out of order, against the contract */
};

static inline void *table_pool_page(void *ctx)
{
	struct table_pool *p = ctx;
	uint8_t *page;

	if (p->used >= p->limit)
		return NULL;
	page = p->base + p->used * 4096;
	p->used += p->gap ? 2 : 1;
	memset(page, p->dirty ? 0xa5 : 0, 4096);
	return page + (p->misalign ? 8 : 0);
}

#endif
