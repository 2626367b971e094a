/* The streaming kernels on Linux (platform.h): the kernel has already
 * enabled every register state it supports, and a user program cannot
 * change that, so what may run is what XCR0 says now.
 */

#include "arch/stream.h"
#include "lib/fmt.h"
#include "core/platform.h"

void plat_stream_sets(struct plat_stream_sets *out)
{
	out->sets = stream_sets;
	out->count = stream_set_count;
	out->offered = stream_sets_offered();
	out->usable = stream_sets_enabled();
	out->why_not[0] = '\0';
	if (out->offered & ~out->usable)
		mp_snprintf(out->why_not, sizeof out->why_not,
			    "the Linux kernel has not enabled their register state (%s), "
			    "and a program cannot", stream_state_name);
}

/* Linux saves and restores every enabled state on its own interrupts and
   context switches: nothing to turn on. */
int plat_timed_wide(void (*fn)(void *arg), void *arg, struct plat_fault *fault)
{
	return plat_timed(fn, arg, fault);
}

unsigned plat_stream_sets_here(void)
{
	return stream_sets_enabled();
}

/* As plat_timed_wide: the kernel keeps the state on for every thread. */
int plat_cpus_run_wide(struct plat_role *roles, unsigned n, uint64_t deadline_ms,
		       char *why, size_t why_len)
{
	return plat_cpus_run(roles, n, deadline_ms, why, why_len);
}
