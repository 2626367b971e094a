/* The probe registry (see probe.h): every probe's row, in run order, and
 * what walks them. */

#include "core/probe.h"
#include "lib/fmt.h"

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
