/* The sweep grid and its buffer (see sweep.h). */

#include "probes/sweep.h"
#include "probes/page_sizes.h"
#include "probes/results.h"
#include "lib/fmt.h"

// ---- Constants --------------------------------------------------------------

/* The latency seed's sweep, in KiB: powers of two with a midpoint between
   each pair, so a plateau edge between 2^k and 2^(k+1) shows its shape
   rather than a single step. */
static const uint32_t sweep_kib[] = {
	4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
	1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768,
	49152, 65536, 98304, 131072, 262144, 524288,
};
#define SWEEP_COUNT (sizeof sweep_kib / sizeof *sweep_kib)

// ---- Public Functions -------------------------------------------------------

uint64_t sweep_bytes(unsigned k)
{
	return (uint64_t)sweep_kib[k] * 1024u;
}

int sweep_range(uint64_t min_bytes, uint64_t max_bytes, unsigned *first, unsigned *last)
{
	unsigned k;
	int any = 0;

	for (k = 0; k < SWEEP_COUNT; k++) {
		if (sweep_bytes(k) < min_bytes || sweep_bytes(k) > max_bytes)
			continue;
		if (!any)
			*first = k;
		*last = k;
		any = 1;
	}
	return any;
}

int sweep_buffer_get(const char *probe, struct plat_buffer *buf, unsigned shift,
		     const char *page_name, unsigned first, unsigned *last)
{
	char fits[24], capped[24];
	uint64_t max;
	unsigned k;

	max = page_buffer_max(probe, shift);
	if (max == 0)
		return 1;
	if (max >= sweep_bytes(*last))
		return page_buffer_get(probe, buf, sweep_bytes(*last), shift) == 0 ? 0 : -1;
	mp_format_bytes(fits, sizeof fits, max);
	for (k = *last; k > first && sweep_bytes(k) > max; k--)
		;
	if (sweep_bytes(k) > max) {
		report_printf("%s, %s: the largest buffer that fits now, %s, is below the "
			      "smallest size of the sweep: not measured\n", probe, page_name, fits);
		return -1;
	}
	mp_format_bytes(capped, sizeof capped, sweep_bytes(k));
	report_printf("%s, %s: the largest buffer that fits now is %s: the sweep is "
		      "capped at %s\n", probe, page_name, fits, capped);
	if (page_buffer_get(probe, buf, sweep_bytes(k), shift) != 0)
		return -1;
	*last = k;
	return 0;
}
