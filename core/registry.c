/* The probe registry (see probe.h): every probe's row, in run order, and
 * what walks them. */

#include <stdarg.h>

#include "core/probe.h"
#include "lib/fmt.h"

/* Why each probe that failed did, for the card; running: the probe being
   run, -1 between probes. Static: the EFI app has no heap to spare. */
static char failed_why[PROBE_COUNT][PROBE_FAILURE_BYTES];
static int running = -1;

#define PROBE_ROW_(id, name, order) [PROBE_ID_##id] = &probe_def_##name,
const struct probe_def *const probe_registry[PROBE_COUNT] = { PROBE_REGISTRY(PROBE_ROW_) };
#undef PROBE_ROW_
#define PROBE_CONFIG_(id, name, order) [PROBE_ID_##id] = &probe_def_##name.config,
const struct probe_config *const probe_configs[PROBE_COUNT] = { PROBE_REGISTRY(PROBE_CONFIG_) };
#undef PROBE_CONFIG_

const struct probe_def *probe_by_name(const char *name)
{
	for (unsigned i = 0; i < PROBE_COUNT; i++)
		if (name && !mp_strcmp(probe_registry[i]->config.name, name))
			return probe_registry[i];
	return 0;
}

enum probe_rows_read probe_rows_read(const char *name)
{
	const struct probe_def *p = probe_by_name(name);

	return p ? p->rows_read : ROWS_UNREAD;
}

unsigned probe_holds_of(const struct probe_def *p, const struct config *c,
			unsigned page_shift, struct probe_hold out[PROBE_HOLDS_MAX])
{
	return p->holds ? p->holds(c, page_shift, out) : 0;
}

void probe_failed_because(const char *fmt, ...)
{
	va_list ap;

	if (running < 0 || failed_why[running][0])
		return;
	va_start(ap, fmt);
	mp_vsnprintf(failed_why[running], sizeof failed_why[running], fmt, ap);
	va_end(ap);
}

void probe_run_begin(unsigned id)
{
	running = (int)id;
	failed_why[id][0] = 0;
}

void probe_run_end(unsigned id, int rc)
{
	running = -1;
	if (rc == 0)
		failed_why[id][0] = 0;
	else if (!failed_why[id][0])
		mp_snprintf(failed_why[id], sizeof failed_why[id], "report.txt says why");
}

const char *probe_failure(unsigned id)
{
	return id < PROBE_COUNT ? failed_why[id] : "";
}
