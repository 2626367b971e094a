/* The streaming kernels on bare metal (platform.h). The firmware may leave
 * the wide vector state off (OVMF: CR4.OSXSAVE clear, XCR0 = x87|SSE), so
 * AVX would fault. Whether it can be turned on is tried once, under the
 * fault guard, before any timed section relies on it: a CPU or hypervisor
 * that refuses (#GP from XSETBV, say) is then reported and the narrower
 * sets still run, instead of the first wide timed section faulting.
 */

#include "efi/guarded.h"
#include "efi/stream.h"
#include "arch/stream.h"
#include "lib/fmt.h"
#include "core/platform.h"

/* ---- Private Data ----------------------------------------------------- */

static int tried;             /* the trial below has run */
static int enable_works;      /* ... and enabling did not fault */
static unsigned enabled_sets; /* what stream_sets_enabled said while it was on */
static char refusal[160];     /* why not, when it faulted */

/* ---- Private Functions ------------------------------------------------ */

/* Runs under guard_call: enables, looks, restores. A fault part way leaves
   `saved` filled (stream_state_enable fills it first), so the caller puts
   back whatever did change. */
static void try_enable(void *arg)
{
	struct stream_state_saved *saved = arg;

	stream_state_enable(saved);
	enabled_sets = stream_sets_enabled();
	stream_state_restore(saved);
}

/* Runs under guard_call: gives back what a faulted try_enable changed. */
static void restore_after_fault(void *arg)
{
	stream_state_restore(arg);
}

/* The trial, once per run: sets enable_works, enabled_sets or refusal. */
static void try_once(void)
{
	struct stream_state_saved saved = { { 0, 0 } };
	struct arch_fault f;

	if (tried)
		return;
	tried = 1;
	if (guarded_run(try_enable, &saved) == 0) {
		enable_works = 1;
		return;
	}
	guard_last(&f);
	mp_snprintf(refusal, sizeof refusal,
		    "enabling their register state (%s) raised %s (vector %u)",
		    stream_state_name, exception_name(f.vector), f.vector);
	guarded_run(restore_after_fault, &saved);
}

/* ---- Public Functions ------------------------------------------------- */

int stream_state_works(void)
{
	try_once();
	return enable_works;
}

void plat_stream_sets(struct plat_stream_sets *out)
{
	unsigned before = stream_sets_enabled();

	out->sets = stream_sets;
	out->count = stream_set_count;
	out->offered = stream_sets_offered();
	out->why_not[0] = '\0';
	if (!(out->offered & ~before)) {
		out->usable = before;
		return;
	}
	if (!stream_state_works()) {
		out->usable = before;
		mp_strlcpy(out->why_not, refusal, sizeof out->why_not);
		return;
	}
	out->usable = before | enabled_sets;
	if (out->offered & ~out->usable)
		mp_snprintf(out->why_not, sizeof out->why_not,
			    "their register state did not turn on: %s did not keep the "
			    "bits written", stream_state_name);
}

/* CPUID and XGETBV, readable in any state on any CPU. */
unsigned plat_stream_sets_here(void)
{
	return stream_sets_enabled();
}
