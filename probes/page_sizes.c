/* Page sizes asked for, and probe buffers of them (see page_sizes.h). */

#include "probes/page_sizes.h"
#include "lib/fmt.h"
#include "core/probe.h"
#include "results/results.h"

/* ---- Public Functions ------------------------------------------------- */

#define PAGE_SIZE_ROW_(word, bit, shift) { bit, shift },
static const struct { unsigned bit, shift; } page_size_rows[] = { PAGE_SIZE_LIST(PAGE_SIZE_ROW_) };
_Static_assert(sizeof page_size_rows / sizeof page_size_rows[0] == PAGE_SIZES_MAX,
	       "PAGE_SIZES_MAX is the length of PAGE_SIZE_LIST");

unsigned page_shifts_asked(unsigned pages, unsigned shifts[PAGE_SIZES_MAX])
{
	unsigned n = 0;

	for (unsigned i = 0; i < PAGE_SIZES_MAX; i++)
		if (pages & page_size_rows[i].bit)
			shifts[n++] = page_size_rows[i].shift;
	return n;
}

unsigned page_shifts_granted(unsigned pages, unsigned shifts[PAGE_SIZES_MAX])
{
	unsigned asked[PAGE_SIZES_MAX], n = 0;

	for (unsigned i = 0, count = page_shifts_asked(pages, asked); i < count; i++)
		if (plat_buffer_max(asked[i]) > 0)
			shifts[n++] = asked[i];
	return n;
}

void page_size_name(char *buf, size_t size, unsigned page_shift)
{
	char bytes[32];

	mp_format_bytes(bytes, sizeof bytes, (uint64_t)1 << page_shift);
	mp_snprintf(buf, size, "%s pages", bytes);
}

uint64_t page_buffer_max(const char *probe, unsigned page_shift)
{
	uint64_t page = (uint64_t)1 << page_shift;
	uint64_t max = plat_buffer_max(page_shift) / page * page;
	char name[48];

	if (max == 0) {
		struct plat_buffer one;
		char why[160] = "the platform gives none";

		/* The platform says why only when asked for a buffer: ask for
		   a single page, which cannot succeed when none fits, to get its
		   reason into the report. */
		plat_buffer_get(&one, (size_t)page, page_shift, why, sizeof why);
		page_size_name(name, sizeof name, page_shift);
		report_printf("%s: %s are not available here (%s): skipped\n", probe, name, why);
	}
	return max;
}

int page_buffer_get(const char *probe, struct plat_buffer *b, uint64_t bytes,
		    unsigned page_shift)
{
	uint64_t page = (uint64_t)1 << page_shift;
	uint64_t rounded = (bytes + page - 1) / page * page;
	char why[160], name[48], size[32];

	if (plat_buffer_get(b, (size_t)rounded, page_shift, why, sizeof why) == 0)
		return 0;
	page_size_name(name, sizeof name, page_shift);
	mp_format_bytes(size, sizeof size, rounded);
	report_printf("%s: no %s buffer with %s: %s\n", probe, size, name, why);
	probe_failed_because("no %s buffer with %s: %s", size, name, why);
	return -1;
}

void page_buffer_report(const char *probe, const char *page_name, const struct plat_buffer *b)
{
	report_printf("%s, %s: %s\n", probe, page_name, b->verified);
	if (!b->verified_ok)
		report_printf("%s, %s: WARNING: not every page has the asked size; every row "
			      "says so in pages_verified\n", probe, page_name);
}

int page_sizes_each(const char *probe, const struct config *c,
		    int (*measure)(const struct config *c, unsigned page_shift))
{
	unsigned shifts[PAGE_SIZES_MAX];
	unsigned n = page_shifts_asked(c->pages, shifts), measured = 0;
	int status = 0;

	for (unsigned i = 0; i < n; i++) {
		int rc = measure(c, shifts[i]);
		if (rc < 0)
			status = -1;
		if (rc == 0)
			measured++;
	}
	if (measured == 0 && status == 0) {
		report_printf("%s: none of the asked page sizes is available: nothing "
			      "measured\n", probe);
		probe_failed_because("none of the asked page sizes is available");
		status = -1;
	}
	return status;
}
