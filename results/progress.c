/* Rate-limited progress lines. */

#include "results/progress.h"
#include "core/platform.h"
#include "results/results.h"

void progress_start(struct progress *p)
{
	p->started_ms = p->last_ms = plat_elapsed_ms();
}

void progress_tick(struct progress *p, const char *what, unsigned done, unsigned total)
{
	uint64_t now = plat_elapsed_ms();

	if (now - p->last_ms < PROGRESS_EVERY_MS)
		return;
	p->last_ms = now;
	report_printf("      ... %s: %u of %u done, %.1f s so far\n", what, done, total,
		      (double)(now - p->started_ms) / 1000.0);
}
