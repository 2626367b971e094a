/* Tick conversions against the platform's calibrated clock. */

#include "core/timebase.h"
#include "core/platform.h"

double ticks_to_ns(uint64_t ticks)
{
	return (double)ticks * 1e9 / (double)plat_clock()->ticks_per_s;
}

double ns_to_cycles(double ns)
{
	return ns * (double)plat_core_hz() / 1e9;
}

/* Halving c below 2^30 keeps (a % c) * b under 2^64 for b < 2^34. */
uint64_t mul_div_u64(uint64_t a, uint64_t b, uint64_t c)
{
	while (c >= (1ull << 30)) {
		a >>= 1;
		c >>= 1;
	}
	return a / c * b + (a % c) * b / c;
}

uint64_t ms_to_ticks(double ms)
{
	return (uint64_t)(ms * 1e-3 * (double)plat_clock()->ticks_per_s);
}

uint64_t reps_for_ticks(uint64_t target, uint64_t ticks, uint64_t done)
{
	uint64_t each = done ? ticks / done : ticks, reps;

	if (!each)
		each = 1;
	reps = (target + each - 1) / each;
	return reps ? reps : 1;
}
