/* Tick conversions against the platform's calibrated clock. */

#include "probes/timebase.h"
#include "probes/platform.h"

double ticks_to_ns(uint64_t ticks)
{
	return (double)ticks * 1e9 / (double)plat_clock()->ticks_per_s;
}

double ns_to_cycles(double ns)
{
	return ns * (double)plat_core_hz() / 1e9;
}

uint64_t ms_to_ticks(double ms)
{
	return (uint64_t)(ms * 1e-3 * (double)plat_clock()->ticks_per_s);
}
