/* A probe's length from its counted work (see estimate.h). The pace is a
 * fixed reference, not this machine's: the estimate is a starting point
 * that the progress lines correct with the probes done, so a machine
 * slower or busier than the reference is seen within the first probe
 * rather than hidden behind a tuned constant.
 */

#include "run/estimate.h"
#include "core/probe.h"
#include "lib/fmt.h"

/* ---- Public Functions ------------------------------------------------- */

void estimate_how(char *buf, size_t size)
{
	mp_snprintf(buf, size, "the configuration's work at %.0f ns a load from memory and "
		    "%.0f GB/s to fill buffers; refined as the probes finish", ESTIMATE_LOAD_NS,
		    1.0 / ESTIMATE_BYTE_NS);
}

double estimate_probe_ms(const struct config *c, unsigned id)
{
	struct probe_cost cost = { 0, 0, 0 };

	if (id >= PROBE_COUNT || !probe_registry[id]->cost)
		return 0;
	probe_registry[id]->cost(c, &cost);
	return ESTIMATE_PROBE_MS + cost.ms + (cost.loads * ESTIMATE_LOAD_NS +
					      cost.bytes * ESTIMATE_BYTE_NS) / 1e6;
}
