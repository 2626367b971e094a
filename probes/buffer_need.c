/* The largest buffer a run asks for (see buffer_need.h). Each line mirrors
 * the probe's own request: latency's top working set (sweep.c), tlb's sweep top
 * capped by tlb.max_buffer, locality's matrix, later's two tables.
 */

#include "probes/buffer_need.h"
#include "probes/sweep.h"

static uint64_t larger(uint64_t a, uint64_t b) { return a > b ? a : b; }

uint64_t run_buffer_bytes(const struct config *c, unsigned page_shift)
{
	uint64_t page = 1ull << page_shift, bytes = 0;
	unsigned claimed;

	if (c->probes & PROBE_LATENCY) {
		uint64_t largest, top = latency_sweep_top(c, &largest);

		bytes = larger(bytes, top < c->latency_max_buffer ? top : c->latency_max_buffer);
	}
	if (c->probes & PROBE_TLB) {
		uint64_t top = tlb_sweep_top(c, page_shift, &claimed);
		uint64_t tlb = top > c->tlb_max_buffer / page ? c->tlb_max_buffer : top * page;
		bytes = larger(bytes, tlb);
	}
	if (c->probes & PROBE_LOCALITY)
		bytes = larger(bytes, (uint64_t)c->locality_rows * c->locality_cols * sizeof(uint32_t));
	if (c->probes & PROBE_LATER)
		bytes = larger(bytes, 2 * c->later_table);
	return (bytes + page - 1) / page * page;
}
